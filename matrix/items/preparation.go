package items

import (
	"maps"
	"slices"

	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// concreteEnvironment declares item 52's check of S000 C5 "If
// `command.run` is active and that value is absent or `unknown`, core
// preparation must fail before the first model request": the value is the
// command environment the host publishes in initialize, which the harness
// passes to the core unchanged. A host backing command.run must publish
// one the core's preparation accepts (RUNTIME §10.3 step 7: operating
// system, executable, path style and shell not unknown, a non-empty
// argument prefix); otherwise every run that offers run_command fails
// CAPABILITY_MISMATCH before its first model request.
//
// "Active" is what the host's tool set says, not only initialize's list:
// a host whose initialize leaves command.run out is asked for its active
// tools too, and one that activates run_command there must publish a
// concrete environment all the same (catches unlisted-command-run, a list
// of backed tools kept apart from the registry that builds the tool set).
func concreteEnvironment(c *kit.TestContext) {
	c.It("a host backing command.run publishes a command environment core preparation accepts", "C5 L52", func() {
		kit.FailRepro(c)
		init := c.Host().Initialized()
		how := "backs command.run but"
		if !slices.Contains(init.Tools, prompt.CommandRunID) {
			d := kit.StartDirect(c, nil, nil)
			ts, err := d.H.Executor().ToolSet(c.Ctx())
			Expect(err).NotTo(HaveOccurred(), "the host's tools/list failed")
			if !slices.Contains(slices.Collect(maps.Values(ts.CanonicalToolIDs)), prompt.CommandRunID) {
				kit.NotApplicable("the host does not back command.run (initialize did not list it, and tools/list does not activate it)")
			}
			init = d.H.Init
			how = "activates run_command (command.run) in tools/list, although initialize does not list it, but"
		}
		env := init.CommandEnvironment
		Expect(env).NotTo(BeNil(), "the host %s publishes no commandEnvironment; core preparation fails before the first model request", how)
		cmd := env.Command
		for field, v := range map[string]string{"operatingSystem": env.OperatingSystem, "command.executable": cmd.Executable,
			"command.pathStyle": cmd.PathStyle, "command.shell": cmd.Shell} {
			Expect(v).NotTo(BeElementOf("", "unknown"), "the host %s publishes %s %q; core preparation fails before the first model request", how, field, v)
		}
		Expect(cmd.ArgumentsPrefix).NotTo(BeEmpty(), "the host %s publishes an empty command.argumentsPrefix; core preparation fails before the first model request", how)
		err := prompt.CheckCommandEnvironment(prompt.Configuration{HostEnvironment: env}, map[string]string{"run_command": prompt.CommandRunID})
		Expect(err).NotTo(HaveOccurred(), "the core's preparation refuses the published command environment %+v", *env)
	})
}
