package command_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/command"
)

var _ = Describe("Environment", func() {
	DescribeTable("maps each platform to its one interpreter (LAB §12)",
		func(goos, goarch, want string) {
			env, err := command.EnvironmentFor(goos, goarch)
			Expect(err).NotTo(HaveOccurred())
			got, err := json.Marshal(env)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(want))
		},
		Entry("macOS", "darwin", "arm64",
			`{"architecture":"arm64","command":{"argumentsPrefix":["-c"],"commandMode":"shell_string","executable":"/bin/sh","interactive":false,"pathStyle":"posix","shell":"sh","stdin":"closed","tty":false},"operatingSystem":"darwin"}`),
		Entry("Linux", "linux", "amd64",
			`{"architecture":"x64","command":{"argumentsPrefix":["-c"],"commandMode":"shell_string","executable":"/bin/sh","interactive":false,"pathStyle":"posix","shell":"sh","stdin":"closed","tty":false},"operatingSystem":"linux"}`),
		Entry("Windows", "windows", "386",
			`{"architecture":"ia32","command":{"argumentsPrefix":["/d","/s","/v:off","/c"],"commandMode":"shell_string","executable":"cmd.exe","interactive":false,"pathStyle":"windows","shell":"cmd","stdin":"closed","tty":false},"operatingSystem":"win32"}`),
	)

	It("refuses other platforms with UNAVAILABLE naming the Node platform", func() {
		_, err := command.EnvironmentFor("solaris", "amd64")
		Expect(err).To(MatchError(command.ErrUnavailable))
		Expect(message(err)).To(Equal("run_command is not supported on platform 'sunos'."))
	})

	It("names unknown architectures as they are, and an empty one unknown", func() {
		Expect(command.NodeArchitecture("riscv64")).To(Equal("riscv64"))
		Expect(command.NodeArchitecture(" ")).To(Equal("unknown"))
	})

	It("cannot be changed through the value a Runner returns", func() {
		root, _ := workspace()
		r := newRunner(root)
		env := r.Environment()
		env.Command.ArgumentsPrefix[0] = "-x"
		Expect(r.Environment().Command.ArgumentsPrefix[0]).NotTo(Equal("-x"))
	})

	It("builds the argv from executable, prefix and command", func() {
		env, _ := command.EnvironmentFor("windows", "amd64")
		Expect(env.Command.Argv("echo a & echo b")).To(Equal([]string{"cmd.exe", "/d", "/s", "/v:off", "/c", "echo a & echo b"}))
	})
})
