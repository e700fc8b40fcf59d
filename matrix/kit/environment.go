package kit

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/prompt"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// PublishedEnvironment returns the command environment the host announced
// in initialize, failing the spec when a host that backs command.run
// announces none.
func PublishedEnvironment(c *TestContext, file string) prompt.HostEnvironment {
	GinkgoHelper()
	init := c.Host().Initialized()
	Expect(init.CommandEnvironment).NotTo(BeNil(), "%s: the host backs command.run but its initialize answer publishes no commandEnvironment; the model cannot know which interpreter runs its commands", file)
	return *init.CommandEnvironment
}

// probeLines parses a probe's stdout of key=value lines.
func probeLines(stdout string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(stdout, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return out
}

// realExecutable resolves an executable name as the machine would run it:
// a bare name through PATH, then every symbolic link.
func realExecutable(name string) string {
	if !filepath.IsAbs(name) {
		if p, err := exec.LookPath(name); err == nil {
			name = p
		}
	}
	if p, err := filepath.EvalSymlinks(name); err == nil {
		return p
	}
	return name
}

// SpawnedAsPublished asserts that the interpreter probe of call callID ran
// in the published interpreter: $0 is the published executable, and where
// /proc shows the process, its executable is the published one and its
// argv is the executable, the published prefix and the command string,
// nothing else (catches other-interpreter, implicit-shell,
// publish-other-environment).
func (o *Outcome) SpawnedAsPublished(callID string, env prompt.HostEnvironment) {
	GinkgoHelper()
	sent := o.commandSent(callID)
	c := o.ContentOf(callID)
	stdout, _ := c["stdout"].(string)
	o.spawnedAs(stdout, sent, env, "")
}

// spawnedAs asserts that a probe's stdout shows the published interpreter
// running command sent; context says under what conditions it ran, for
// the messages ("" for the run itself).
func (o *Outcome) spawnedAs(stdout, sent string, env prompt.HostEnvironment, context string) {
	GinkgoHelper()
	p := probeLines(stdout)
	pub := env.Command
	Expect(p["zero"]).To(Equal(pub.Executable), "%s: %sthe command's $0 is %q, but the host published executable %q: the host spawns another interpreter than the one the model was told about", o.File, context, p["zero"], pub.Executable)
	if exe, ok := p["exe"]; ok {
		Expect(realExecutable(exe)).To(Equal(realExecutable(pub.Executable)), "%s: %s/proc shows the command's interpreter is %s, but the host published %s", o.File, context, exe, pub.Executable)
	}
	if enc, ok := p["argv"]; ok {
		raw, err := base64.StdEncoding.DecodeString(enc)
		Expect(err).NotTo(HaveOccurred(), "%s: the probe's argv line is not base64: %q", o.File, enc)
		got := strings.Split(strings.TrimSuffix(string(raw), "\x00"), "\x00")
		want := slices.Concat([]string{pub.Executable}, pub.ArgumentsPrefix, []string{sent})
		Expect(got).To(Equal(want), "%s: %s/proc shows the interpreter was spawned with argv %q; a host must spawn exactly the published executable, then the published argumentsPrefix %q, then the command string as one argument", o.File, context, got, pub.ArgumentsPrefix)
	}
}

// DialectAsPublished asserts that the published shell dialect is the one
// the interpreter probe of call callID ran in. The probe is POSIX sh and
// prints $BASH_VERSION and $ZSH_VERSION: a host that publishes bash or zsh
// must run that shell (the model writes that dialect's extensions), and
// one that publishes fish, cmd, powershell or unknown cannot have run the
// probe at all. Publishing sh is right for any POSIX shell, bash and zsh
// included (catches publish-login-shell: the user's login shell named
// while /bin/sh runs the commands).
func (o *Outcome) DialectAsPublished(callID string, env prompt.HostEnvironment) {
	GinkgoHelper()
	c := o.ContentOf(callID)
	stdout, _ := c["stdout"].(string)
	p := probeLines(stdout)
	shell := env.Command.Shell
	ran := "a POSIX sh"
	if p["bash"] != "" {
		ran = "bash " + p["bash"]
	} else if p["zsh"] != "" {
		ran = "zsh " + p["zsh"]
	}
	switch shell {
	case prompt.ShellSh:
	case prompt.ShellBash:
		Expect(p["bash"]).NotTo(BeEmpty(), "%s: the host publishes shell %q with executable %s, but the command ran in %s ($BASH_VERSION is empty): the published dialect must be that of the interpreter that runs commands", o.File, shell, env.Command.Executable, ran)
	case prompt.ShellZsh:
		Expect(p["zsh"]).NotTo(BeEmpty(), "%s: the host publishes shell %q with executable %s, but the command ran in %s ($ZSH_VERSION is empty): the published dialect must be that of the interpreter that runs commands, never a login shell's name", o.File, shell, env.Command.Executable, ran)
	default:
		Fail(fmt.Sprintf("%s: the host publishes shell %q with executable %s, but a POSIX sh probe ran in it (in %s): the published dialect must be that of the interpreter that runs commands", o.File, shell, env.Command.Executable, ran))
	}
}

// commandSent is the command string of the harness's call callID, "" when
// the run made no such call.
func (o *Outcome) commandSent(callID string) string {
	GinkgoHelper()
	var sent string
	for _, c := range o.Executes() {
		if c.CallID == callID {
			var a struct {
				Command string `json:"command"`
			}
			Expect(json.Unmarshal(c.Arguments, &a)).To(Succeed(), "%s: the harness's own %s arguments do not decode", o.File, callID)
			sent = a.Command
		}
	}
	return sent
}
