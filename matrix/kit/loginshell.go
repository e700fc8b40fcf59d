package kit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// otherShells are the interpreters the login-shell check may name in
// SHELL: the first present one that is not the published executable.
func otherShells() []string {
	return []string{"/bin/bash", "/usr/bin/bash", "/bin/zsh", "/usr/bin/zsh", "/bin/dash", "/usr/bin/dash"}
}

// LoginShellIgnored starts a fresh host whose environment names another
// interpreter of the machine as the user's login shell (SHELL), and runs
// the interpreter probe of call callID again there: it must still run in
// the published interpreter, spawned as published (S000 C3: a host
// neither runs nor describes the user's login shell; C4: selection and
// published metadata are one value). Catches spawn-login-shell, a host
// that spawns $SHELL and publishes /bin/sh. Where the machine has no other
// shell, nothing is left to tell apart and the check passes on the run's
// own probe.
//
// The same host then runs the probe with SHELL naming that shell in the
// call's own env as well: a host may refuse the variable, but a command it
// runs runs in the published interpreter (C4: the value that spawns is the
// value published at initialize, never one re-read from the environment
// a command gets; catches interpreter-from-call-env).
func (o *Outcome) LoginShellIgnored(callID string, env prompt.HostEnvironment) {
	GinkgoHelper()
	alt := ""
	for _, s := range otherShells() {
		if _, err := os.Stat(s); err == nil && realExecutable(s) != realExecutable(env.Command.Executable) {
			alt = s
			break
		}
	}
	if alt == "" {
		return
	}
	sent := o.commandSent(callID)
	Expect(sent).NotTo(BeEmpty(), "%s: the run made no call %s to probe again", o.File, callID)
	home, err := os.MkdirTemp("", "conform-login-shell-")
	Expect(err).NotTo(HaveOccurred(), "the harness cannot create a home directory for the host")
	DeferCleanup(os.RemoveAll, home)
	Expect(os.Mkdir(filepath.Join(home, "tmp"), 0o700)).To(Succeed(), "the harness cannot create the host's temporary directory")
	t := o.TestContext.Host()
	vars := []string{"HOME=" + home, "TMPDIR=" + filepath.Join(home, "tmp"), "SHELL=" + alt}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "HOME" && name != "TMPDIR" && name != "SHELL" && passed(name, append(hostproc.DefaultEnv(), t.Env...)) {
			vars = append(vars, kv)
		}
	}
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, session.HostConfig{Argv: t.Argv, Workspace: o.Workspace, StoreDir: o.Store, Env: vars,
		Approvals: map[string]string{"command.run": "allow"}, ForbidContainment: true})
	Expect(err).NotTo(HaveOccurred(), "%s: a fresh host process with SHELL=%s does not start", o.File, alt)
	DeferCleanup(func() { _ = h.Close() })
	r, _, _, err := o.executeTimed(h, "run_command", "login-shell-probe", map[string]any{"command": sent, "timeoutMs": 5000}, 20000, "")
	Expect(err).NotTo(HaveOccurred(), "%s: the interpreter probe on a host with SHELL=%s failed on the wire", o.File, alt)
	Expect(r.OK).To(BeTrue(), "%s: the interpreter probe on a host with SHELL=%s failed: %.200s", o.File, alt, r.Content)
	var c map[string]any
	Expect(json.Unmarshal([]byte(r.Content), &c)).To(Succeed(), "%s: the probe's content is not a JSON object: %.200q", o.File, r.Content)
	stdout, _ := c["stdout"].(string)
	o.spawnedAs(stdout, sent, env, "with SHELL="+alt+" in the host's environment, ")

	r, _, _, err = o.executeTimed(h, "run_command", "call-env-probe", map[string]any{"command": sent, "timeoutMs": 5000, "env": map[string]string{"SHELL": alt}}, 20000, "")
	Expect(err).NotTo(HaveOccurred(), "%s: the interpreter probe with SHELL=%s in the call's env failed on the wire", o.File, alt)
	if !r.OK {
		// A host may refuse to let a call set SHELL; then nothing ran in
		// another interpreter.
		return
	}
	c = nil
	Expect(json.Unmarshal([]byte(r.Content), &c)).To(Succeed(), "%s: the probe's content is not a JSON object: %.200q", o.File, r.Content)
	stdout, _ = c["stdout"].(string)
	o.spawnedAs(stdout, sent, env, "with SHELL="+alt+" in the call's env, ")
}

// passed reports whether the harness passes variable name to a host under
// the patterns (a name, or a prefix ending in *).
func passed(name string, patterns []string) bool {
	for _, p := range patterns {
		if pre, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(name, pre) || name == p {
			return true
		}
	}
	return false
}
