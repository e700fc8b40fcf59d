package kit

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix/fixture"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// promptConfigurationFields are the members of a structured prompt
// configuration (CONTRACTS §9.1, AiCoderPromptConfiguration).
func promptConfigurationFields() []string {
	return []string{"agentProfile", "approvalProfile", "complexity", "dirtyStateSummary",
		"hostEnvironment", "networkAccess", "trustedWorkspaceInstructions", "writeAccess"}
}

// coreOwnedPromptFields are what the core alone assembles (S000 "Prompt
// input": a host never passes them).
func coreOwnedPromptFields() []string { return []string{"systemPrompt", "promptHash", "promptVersion"} }

// minRepositoryLine is the shortest line of a workspace file that
// TrustedInstructionsKeepProvenance looks for in a trusted instruction:
// shorter lines ("# demo") are too common to say where a text came from.
const minRepositoryLine = 16

// HostPromptInput returns the promptInput of the host's initialize answer
// in the scenario's session, decoded. A host that supplies none makes the
// spec not applicable: conform used its defaults, and there is no host
// prompt input to check.
func (o *Outcome) HostPromptInput() map[string]any {
	GinkgoHelper()
	if len(o.Report.HostPromptInput) == 0 {
		NotApplicable("the host's initialize answer carries no promptInput: conform used its own prompt configuration defaults, so there is no host prompt input to check")
	}
	var in map[string]any
	Expect(json.Unmarshal(o.Report.HostPromptInput, &in)).To(Succeed(), "%s: the host's promptInput is not a JSON object", o.File)
	return in
}

// PromptFieldsOnly asserts the host's prompt input holds only members of
// the structured prompt configuration (P1).
func (o *Outcome) PromptFieldsOnly() {
	GinkgoHelper()
	fields := promptConfigurationFields()
	for _, key := range slices.Sorted(maps.Keys(o.HostPromptInput())) {
		Expect(fields).To(ContainElement(key),
			"%s: the host's promptInput has the member %q, which is not a field of the structured prompt configuration (%s)", o.File, key, strings.Join(fields, ", "))
	}
}

// NoCoreOwnedPromptFields asserts the host's prompt input passes none of
// the prompt text, hash or version the core assembles itself (P2).
func (o *Outcome) NoCoreOwnedPromptFields() {
	GinkgoHelper()
	in := o.HostPromptInput()
	for _, key := range coreOwnedPromptFields() {
		Expect(in).NotTo(HaveKey(key), "%s: the host's promptInput passes %s, which the core alone assembles", o.File, key)
	}
}

// TrustedInstructionsKeepProvenance asserts every trusted workspace
// instruction of the host's prompt input names where it came from (a
// non-blank source) and holds no line of the scenario's repository files:
// the harness promoted none of them, so repository text must stay
// untrusted (P3).
func (o *Outcome) TrustedInstructionsKeepProvenance() {
	GinkgoHelper()
	in := o.HostPromptInput()
	raw, ok := in["trustedWorkspaceInstructions"]
	if !ok {
		return
	}
	list, isList := raw.([]any)
	Expect(isList).To(BeTrue(), "%s: the host's trustedWorkspaceInstructions is not a list", o.File)
	lines := o.repositoryLines()
	for i, item := range list {
		ins, isObject := item.(map[string]any)
		Expect(isObject).To(BeTrue(), "%s: trusted instruction %d of the host is not an object", o.File, i)
		source, _ := ins["source"].(string)
		Expect(strings.TrimSpace(source)).NotTo(BeEmpty(), "%s: trusted instruction %d of the host has no provenance (source %q)", o.File, i, source)
		content, _ := ins["content"].(string)
		for _, l := range lines {
			Expect(content).NotTo(ContainSubstring(l.text),
				"%s: trusted instruction %d of the host (source %q) holds repository text from %s (%q); repository text stays untrusted unless explicitly promoted, and nothing promoted it", o.File, i, source, l.path, l.text)
		}
	}
}

// repositoryLine is one line of a scenario's workspace file.
type repositoryLine struct{ path, text string }

// repositoryLines returns the lines of the scenario's initial files that
// are long enough to say where a text came from.
func (o *Outcome) repositoryLines() []repositoryLine {
	GinkgoHelper()
	fx := o.fixture()
	var out []repositoryLine
	for _, f := range fx.InitialFiles {
		for _, l := range strings.Split(f.Content, "\n") {
			if l = strings.TrimSpace(l); len(l) >= minRepositoryLine {
				out = append(out, repositoryLine{f.Path, l})
			}
		}
	}
	return out
}

// fixture parses the scenario the outcome ran.
func (o *Outcome) fixture() *fixture.Fixture {
	GinkgoHelper()
	rel := strings.TrimPrefix(o.File, fixtures.MatrixDir+"/")
	fx, _, err := loadScenario(rel)
	Expect(err).NotTo(HaveOccurred(), "%s: reloading the scenario", o.File)
	return fx
}

// PromptSnapshot is the part of a prompt_snapshot trace event the prompt
// checks read.
type PromptSnapshot struct {
	PromptHash           string `json:"promptHash"`
	RegistrySnapshotHash string `json:"registrySnapshotHash"`
	SystemPromptHash     string `json:"systemPromptHash"`
}

// PromptSnapshots decodes the run's prompt_snapshot trace events, in
// order; a run without one fails the spec.
func (o *Outcome) PromptSnapshots() []PromptSnapshot {
	GinkgoHelper()
	out := make([]PromptSnapshot, 0, len(o.Report.PromptSnapshots))
	for i, raw := range o.Report.PromptSnapshots {
		var s PromptSnapshot
		Expect(json.Unmarshal(raw, &s)).To(Succeed(), "%s: prompt_snapshot %d does not decode", o.File, i)
		out = append(out, s)
	}
	Expect(out).NotTo(BeEmpty(), "%s: the run traced no prompt_snapshot", o.File)
	return out
}

// PromptHashMovedWithRegistry asserts the run re-assembled its prompt when
// the registry snapshot changed: a later prompt_snapshot names another
// registry snapshot and another prompt hash than the first.
func (o *Outcome) PromptHashMovedWithRegistry() {
	GinkgoHelper()
	snaps := o.PromptSnapshots()
	first := snaps[0]
	i := slices.IndexFunc(snaps, func(s PromptSnapshot) bool { return s.RegistrySnapshotHash != first.RegistrySnapshotHash })
	Expect(i).To(BeNumerically(">", 0), "%s: no prompt_snapshot after the first names another registry snapshot (%d traced): the lazy activation did not reach the prompt", o.File, len(snaps))
	Expect(snaps[i].PromptHash).NotTo(Equal(first.PromptHash), "%s: the registry snapshot changed (%s to %s) but the prompt hash stayed %s", o.File, first.RegistrySnapshotHash, snaps[i].RegistrySnapshotHash, first.PromptHash)
}

// DeclarationsEnforced asserts the host's approval, network and write
// declarations match the policy it was given and enforces (P4): the
// approval profile is the one initialize sent; network access is declared
// denied only when its command containment denies the network; and a host
// that declares writes denied wrote nothing, its write call refused.
func (o *Outcome) DeclarationsEnforced(writeCallID, writePath string) {
	GinkgoHelper()
	in := o.HostPromptInput()
	set := o.fixture().Settings()
	if v, ok := in["approvalProfile"]; ok {
		Expect(v).To(Equal(set.ApprovalProfile), "%s: the host declares approvalProfile %v, but initialize set %s, which it enforces", o.File, v, set.ApprovalProfile)
	}
	if in["networkAccess"] == "denied" {
		if c := o.Report.CommandContainment; c != nil {
			Expect(c.Network).To(Equal("denied"), "%s: the host declares networkAccess denied, but its command containment reports network %q (%s)", o.File, c.Network, DescribeContainment(c))
		}
	}
	if in["writeAccess"] == "denied" {
		_, err := os.Lstat(filepath.Join(o.Workspace, filepath.FromSlash(writePath)))
		Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue(), "%s: the host declares writeAccess denied, yet %s was written (%v)", o.File, writePath, err)
		for _, c := range o.Executes() {
			if c.CallID == writeCallID && c.Result != nil {
				Expect(c.Result.OK).To(BeFalse(), "%s: the host declares writeAccess denied, yet answered the write %s ok", o.File, writeCallID)
			}
		}
	}
}

// IncompatibleNaming asserts the run failed a resume as incompatible for
// field: the core's message lists its mismatches after the colon.
func (o *Outcome) IncompatibleNaming(field string) {
	GinkgoHelper()
	_, list, ok := strings.Cut(o.Report.ErrorMessage, ": ")
	Expect(ok).To(BeTrue(), "%s: the error message %q lists no mismatch", o.File, o.Report.ErrorMessage)
	names := strings.Split(strings.TrimSuffix(list, "."), ", ")
	Expect(names).To(ContainElement(field), "%s: the resume failed for %v, not for %s", o.File, names, field)
}
