// Package gitsafe runs git on a directory that strangers prepared without
// letting its configuration run anything: the harness's Git baseline and
// the reference host's git.exec both start every command with Args and
// Env. A workspace whose .git/config (or .gitattributes) names a program
// cannot make a status, diff, log, add or commit run it. Checked against
// git 2.39:
//
//   - core.fsmonitor=false: status, diff and add otherwise run the hook
//     named there (or start the fsmonitor daemon for "true");
//   - core.hooksPath=os.DevNull: no hook can be found, in .git/hooks or
//     anywhere else (commit runs with --no-verify too);
//   - --no-pager and core.pager=cat: git pages only on a terminal, which
//     git.exec never has;
//   - --no-ext-diff and --no-textconv on every diff: diff.external and
//     diff.<driver>.command / .textconv named by .gitattributes do not run
//     (an empty diff.external= is not used: git then tries to run "");
//   - filter.<driver>.clean/smudge/process emptied, and .required=false,
//     for every driver the configuration defines (read first with git
//     config, which runs nothing): status runs a clean filter on a file
//     whose stat data changed, diff on every compared working-tree file.
//     The -c keys cannot be wildcarded, hence the listing; a driver
//     defined between the listing and the command (a race with another
//     writer of .git/config) or in a submodule's configuration is not
//     covered;
//   - log.showSignature=false and gpg.program: log does not verify
//     signatures with a program the repository names;
//   - credential.helper, core.askPass, protocol.allow=never: neither
//     caller talks to a remote; a command that tried could neither prompt
//     nor run a helper.
//
// The environment has no HOME-derived or system configuration
// (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=os.DevNull, HOME=os.DevNull,
// XDG_CONFIG_HOME unset), GIT_TERMINAL_PROMPT=0, GIT_OPTIONAL_LOCKS=0,
// GIT_CEILING_DIRECTORIES set to the parent of the root (a workspace
// without its own repository does not find an enclosing one) and, for the
// reference host, GIT_WORK_TREE set to the root (a core.worktree in
// .git/config cannot point git elsewhere). core.sshCommand and
// core.gitProxy are not applicable: nothing here uses the network.
package gitsafe

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// config are the -c settings every command starts with.
var config = []string{
	"core.fsmonitor=false",
	"core.hooksPath=" + os.DevNull,
	"core.pager=cat",
	"core.askPass=",
	"credential.helper=",
	"protocol.allow=never",
	"log.showSignature=false",
	"gpg.program=" + os.DevNull,
	"commit.gpgSign=false",
}

// Args returns the global options that neutralise the configuration,
// including the filter drivers named in drivers (see FilterDrivers); the
// git subcommand and its arguments follow them.
func Args(drivers []string) []string {
	args := []string{"--no-pager"}
	for _, kv := range config {
		args = append(args, "-c", kv)
	}
	for _, d := range drivers {
		for _, k := range []string{"clean=", "smudge=", "process=", "required=false"} {
			args = append(args, "-c", "filter."+d+"."+k)
		}
	}
	return args
}

// FilterDrivers returns the names of the filter drivers whose clean,
// smudge or process command the configuration seen from root defines.
// git config only reads; any failure (no repository) means no drivers.
func FilterDrivers(ctx context.Context, git, root string, env []string) []string {
	cmd := exec.CommandContext(ctx, git, "config", "-z", "--name-only", "--get-regexp", `^filter\..*\.(clean|smudge|process)$`)
	cmd.Dir = root
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var drivers []string
	for _, key := range strings.Split(string(out), "\x00") {
		key = strings.TrimSuffix(key, "\n")
		i, j := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
		if i >= 0 && j > i && !slices.Contains(drivers, key[i+1:j]) {
			drivers = append(drivers, key[i+1:j])
		}
	}
	return drivers
}

// Env is the environment git runs with in root: the variables named in
// keep that are set (PATH, the temporary directories…), no HOME, system or
// global configuration, no prompts, no optional locks, and no repository
// found above root. extra entries ("K=V") are appended.
func Env(root string, keep []string, extra ...string) []string {
	var env []string
	for _, k := range keep {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	env = append(env,
		"HOME="+os.DevNull,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(root),
	)
	return append(env, extra...)
}
