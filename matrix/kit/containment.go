package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Containment returns the containment the host reported in its first
// initialize answer of the run.
func (o *Outcome) Containment() wire.Containment {
	GinkgoHelper()
	answers := o.Answers(wire.MethodInitialize)
	Expect(answers).NotTo(BeEmpty(), "%s: the host answered no initialize", o.File)
	var r wire.InitializeResult
	Expect(json.Unmarshal(answers[0], &r)).To(Succeed(), "%s: initialize answer: %s", o.File, answers[0])
	Expect(r.Containment).NotTo(BeNil(), "%s: initialize reports no containment status; a host that runs commands must report it apart from cwd validation", o.File)
	return *r.Containment
}

// Unverified asserts a containment status of a session whose backends
// the harness forbade: nothing active or verified, writes and network
// uncontained.
func Unverified(o *Outcome, c wire.Containment) {
	GinkgoHelper()
	Expect(c.Active || c.Verified).To(BeFalse(), "%s: initialize reports %s although the harness forbade every backend; best-effort execution must not be labelled sandboxed", o.File, DescribeContainment(&c))
	Expect(c.FilesystemWrites).To(Equal("uncontained"), "%s: with no backend, filesystem writes are uncontained, not %q", o.File, c.FilesystemWrites)
	Expect(c.Network).To(Equal("uncontained"), "%s: with no backend, the network is uncontained, not %q", o.File, c.Network)
}

// DescribeContainment renders a containment status for a message.
func DescribeContainment(c *wire.Containment) string {
	if c == nil {
		return "no containment status"
	}
	return fmt.Sprintf("backend %s, state %s, active %t, verified %t, writes %s, network %s", c.Backend, c.State, c.Active, c.Verified, c.FilesystemWrites, c.Network)
}

// ValidationGated gives a fresh host, under required containment with
// every backend forbidden, a package.json whose declared test script
// writes validated.txt, and calls validate_project for it with the call
// approved: the gate that refuses run_command must refuse the declared
// script too, before it runs (S000 C12, T11: repository scripts are
// executable code and need a verified backend when containment is
// required). Whether the refusal is a failed call or a check reported not
// passed is the host's choice; the script must not run, and the check must
// not be reported passed (catches validate-skips-containment-gate, a gate
// applied to run_command alone).
func (o *Outcome) ValidationGated() {
	GinkgoHelper()
	const marker = "validated.txt"
	pkg := "{\n  \"private\": true,\n  \"scripts\": { \"test\": \"printf ran > " + marker + "\" }\n}\n"
	Expect(os.WriteFile(filepath.Join(o.Workspace, "package.json"), []byte(pkg), 0o644)).To(Succeed(), "the harness cannot write package.json")
	t := o.TestContext.Host()
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, session.HostConfig{Argv: t.Argv, Workspace: o.Workspace, StoreDir: o.Store, PassEnv: t.Env,
		Containment: wire.ContainmentRequired, ForbidContainment: true, Approvals: map[string]string{"project.validate": "allow"}})
	Expect(err).NotTo(HaveOccurred(), "%s: a fresh host process under required containment does not start", o.File)
	DeferCleanup(func() { _ = h.Close() })
	if !slices.Contains(h.Init.Tools, "project.validate") {
		return // no declared scripts to gate
	}
	r, _, _, err := o.executeTimed(h, "validate_project", "validate-gated", map[string]any{"checks": []string{"test"}, "timeoutMs": 30000}, 60000, "")
	Expect(err).NotTo(HaveOccurred(), "%s: validate_project under required containment failed on the wire instead of answering", o.File)
	_, statErr := os.Lstat(filepath.Join(o.Workspace, marker))
	Expect(os.IsNotExist(statErr)).To(BeTrue(), "%s: validate_project ran the declared test script (it wrote %s) while containment was required and no backend was verified; the containment gate must refuse repository scripts before spawn, as it refuses run_command", o.File, marker)
	if !r.OK {
		Expect(r.Error).NotTo(BeNil(), "%s: the failed validate_project result carries no error", o.File)
		Expect(r.Error.Code).NotTo(BeElementOf("INVALID_TOOL_ARGUMENTS", "UNKNOWN_TOOL"), "%s: the host refused the harness's validate_project call itself (%s), so the gate could not be observed: %s", o.File, r.Error.Code, r.Error.Message)
		return
	}
	{
		var c struct {
			Results []struct {
				Check  string `json:"check"`
				Status string `json:"status"`
			} `json:"results"`
		}
		Expect(json.Unmarshal([]byte(r.Content), &c)).To(Succeed(), "%s: the validate_project result content is not a JSON object: %.200q", o.File, r.Content)
		for _, res := range c.Results {
			Expect(res.Check == "test" && res.Status == "passed").To(BeFalse(), "%s: validate_project reports the test check passed although required containment was unavailable", o.File)
		}
	}
}
