package kit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/core/port"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Answer returns the envelope the host answered the call callID with,
// failing the spec when the harness never sent that call or the host
// answered it with an error.
func (o *Outcome) Answer(callID string) *port.ToolResult {
	GinkgoHelper()
	for _, c := range o.Executes() {
		if c.CallID != callID {
			continue
		}
		Expect(c.Error).To(BeNil(), "%s: the host answered %s with an error instead of a result envelope", o.File, callID)
		Expect(c.Result).NotTo(BeNil(), "%s: the host never answered %s", o.File, callID)
		return c.Result
	}
	Fail(o.File + ": the harness sent no tool/execute with callId " + callID)
	return nil
}

// ContentOf decodes a result's content as the JSON object the tool's
// output schema describes.
func (o *Outcome) ContentOf(callID string) map[string]any {
	GinkgoHelper()
	r := o.Answer(callID)
	tool := r.CanonicalToolID
	for _, c := range o.Executes() {
		if c.CallID == callID {
			tool = c.ModelName
		}
	}
	var m map[string]any
	Expect(json.Unmarshal([]byte(r.Content), &m)).To(Succeed(), "%s: the host's result for call %s (tool %s) has content that is not a JSON object: %.200q", o.File, callID, tool, r.Content)
	return m
}

// writesOf returns the host-attested writes of the call callID by path.
func (o *Outcome) writesOf(callID string) map[string]port.Write {
	GinkgoHelper()
	r := o.Answer(callID)
	Expect(r.Effects).NotTo(BeNil(), "%s: %s attests no effects", o.File, callID)
	out := map[string]port.Write{}
	for _, w := range r.Effects.Writes {
		out[w.Path] = w
	}
	return out
}

// TypedWrite asserts that call callID attests a write of path from
// beforeKind to afterKind. A hash given as "" must be null, "*" must be
// present, anything else must be equal.
func (o *Outcome) TypedWrite(callID, path, beforeKind, beforeHash, afterKind, afterHash string) port.Write {
	GinkgoHelper()
	w, ok := o.writesOf(callID)[path]
	Expect(ok).To(BeTrue(), "%s: %s attests no write of %s", o.File, callID, path)
	Expect(w.BeforeKind).To(Equal(beforeKind), "%s: %s attests %s as %s before the call; it was %s", o.File, callID, path, w.BeforeKind, beforeKind)
	Expect(w.AfterKind).To(Equal(afterKind), "%s: %s attests %s as %s after the call; it is %s", o.File, callID, path, w.AfterKind, afterKind)
	hash := func(side string, got *string, want string) {
		GinkgoHelper()
		switch want {
		case "":
			Expect(got).To(BeNil(), "%s: %s attests a %s hash for %s, which has no content on that side", o.File, callID, side, path)
		case "*":
			Expect(got).NotTo(BeNil(), "%s: %s attests no %s hash for %s", o.File, callID, side, path)
		default:
			Expect(got).NotTo(BeNil(), "%s: %s attests no %s hash for %s", o.File, callID, side, path)
			Expect(*got).To(Equal(want), "%s: %s attests the wrong %s hash for %s", o.File, callID, side, path)
		}
	}
	hash("before", w.BeforeHash, beforeHash)
	hash("after", w.AfterHash, afterHash)
	return w
}

// HashOf is the content hash of a file holding s.
func HashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// FileHash is the content hash of the workspace file rel as it is now.
func (o *Outcome) FileHash(rel string) string {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join(o.Workspace, filepath.FromSlash(rel)))
	Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot read %s", o.File, rel)
	return HashOf(string(b))
}
