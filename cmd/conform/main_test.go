package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	if name := filepath.Base(os.Args[0]); name == "testhost" || name == "conform" {
		shareTesthostProbeCache()
	}
	builtin.MaybeServeTest()
	testscript.Main(m, map[string]func(){
		"conform":  func() { setup(); os.Exit(main1(os.Args[1:], os.Stdout, os.Stderr)) },
		"testhost": testHost,
	})
}

// shareTesthostProbeCache gives the hosts the scripts start that are not
// built in (testhost, or conform host serve behind a script of the
// script's) one containment probe cache, unless the environment names one
// (the scripts name theirs for conform itself): conform passes its cache
// only to built-in hosts, so each such host process would otherwise probe
// afresh (about a second each, most of the time of the scripts that use
// them). The cache is beside testscript's bin directory, which holds this
// program as testhost and conform and goes when the run ends; it is not
// the scripts' cache, so a script can still tell whether conform passed
// that.
func shareTesthostProbeCache() {
	if _, set := os.LookupEnv(hostproc.CacheEnv); set {
		return
	}
	exe, err := os.Executable()
	if err != nil || filepath.Base(filepath.Dir(exe)) != "bin" {
		return
	}
	os.Setenv(hostproc.CacheEnv, filepath.Join(filepath.Dir(filepath.Dir(exe)), "testhost-probe-cache"))
}

// TestScripts runs the command-line scripts in testdata/script.
func TestScripts(t *testing.T) {
	// One cache directory for every script, as conform's own would be, so
	// that the reference host's containment probe runs once, not per session.
	// The probe cache is used only when nobody else can enter its directory
	// (hosts/reference/command), and t.TempDir makes it 0755.
	cache := t.TempDir()
	if err := os.Chmod(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	// The scripts' work directories live in a directory the test owns:
	// testscript removes a root of its own only once every script has run,
	// so a run of some (-run TestScripts/NAME) would leave it in TMPDIR.
	// Each script's directory goes when the script ends (testscript keeps
	// them under a WorkdirRoot), unless -testwork asks to keep it.
	root, keep := scriptWorkRoot(t)
	testscript.Run(t, testscript.Params{
		Dir:         "testdata/script",
		WorkdirRoot: root,
		Setup: func(env *testscript.Env) error {
			env.Setenv(hostproc.CacheEnv, cache)
			if !keep {
				env.Defer(func() { removeTree(env.T(), env.WorkDir) })
			}
			return nil
		},
		Condition: scriptCondition,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"sigexec":      cmdSigexec,
			"nolive":       cmdNolive,
			"exits":        cmdExits,
			"bigfixture":   cmdBigfixture,
			"validreport":  cmdValidreport,
			"validmerge":   cmdValidmerge,
			"samereport":   cmdSamereport,
			"junit":        cmdJunit,
			"browsercheck": cmdBrowsercheck,
		},
	})
}

// scriptWorkRoot returns the WorkdirRoot for the scripts: a directory of
// t's, emptied of whatever a script left read-only before t removes it, or
// "" (testscript's own, kept) when -testwork asks to keep the work
// directories; keep reports the latter.
func scriptWorkRoot(t *testing.T) (root string, keep bool) {
	if f := flag.Lookup("testwork"); f != nil && f.Value.String() == "true" {
		return "", true
	}
	root = t.TempDir()
	// Cleanups run last-registered first: this one before t.TempDir's.
	t.Cleanup(func() { removeTree(t, root) })
	return root, false
}

// removeTree removes dir and everything in it, first making every
// directory in it writable (a script may leave one read-only, which would
// stop the removal); a failure fails the test.
func removeTree(t interface{ Fatal(...any) }, dir string) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal("removing the script's work directory: ", err)
	}
}

// testHost is a deliberately broken host used by the scripts: the reference
// host with its initialize answer altered as os.Args[1] names, or, for
// "hang MARKER", with tool/execute never answering (cancelled or not) until
// shutdown or the end of its input, except for calls whose ID starts with
// "ok-"; it creates the file MARKER when the first such call arrives. "hang-hard MARKER" does not answer shutdown either,
// and ends only with its input. "zoo MODE DIR [once]" is one of the hostile
// hosts of zooModes.
func testHost() {
	if (len(os.Args) == 4 || len(os.Args) == 5 && os.Args[4] == "once") && os.Args[1] == "zoo" {
		zooHost(os.Args[2], os.Args[3], len(os.Args) == 5)
	}
	if len(os.Args) == 3 && (os.Args[1] == "hang" || os.Args[1] == "hang-hard") {
		hosttest.ServeHanging(hosttest.Hanging{Marker: os.Args[2], Hard: os.Args[1] == "hang-hard"})
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: testhost missing-name|unknown-field|store-off|storeless|hang MARKER|hang-hard MARKER")
		os.Exit(2)
	}
	alter := map[string]func(map[string]any){
		"missing-name":  func(r map[string]any) { delete(r["host"].(map[string]any), "name") },
		"unknown-field": func(r map[string]any) { r["surprise"] = true },
		// store-off is the reference host declaring no store
		// (capabilities.store false): conform's memory store stands in.
		"store-off": func(r map[string]any) { r["capabilities"].(map[string]any)["store"] = false },
		"storeless": hosttest.Storeless,
	}[os.Args[1]]
	if alter == nil {
		fmt.Fprintln(os.Stderr, "testhost: unknown variant", os.Args[1])
		os.Exit(2)
	}
	hosttest.ServeAlteredInitialize(alter)
}

// cmdSigexec is the script command
//
//	sigexec [-twice] INT|TERM MARKER PROGRAM [ARGS...]
//
// It starts PROGRAM, waits for the file MARKER to appear, sends PROGRAM
// the signal (with -twice, a second one once PROGRAM says on standard
// error that it is stopping), waits for it to exit, and leaves its output
// as the command's output followed by a line "exit=N".
func cmdSigexec(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! sigexec")
	}
	twice := len(args) > 0 && args[0] == "-twice"
	if twice {
		args = args[1:]
	}
	if len(args) < 3 {
		ts.Fatalf("usage: sigexec [-twice] INT|TERM MARKER PROGRAM [ARGS...]")
	}
	sig := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM}[args[0]]
	if sig == 0 {
		ts.Fatalf("sigexec: unknown signal %q", args[0])
	}
	marker := ts.MkAbs(args[1])
	prog, err := lookPath(ts, args[2])
	ts.Check(err)
	cmd := exec.Command(prog, args[3:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	var stdout strings.Builder
	cmd.Stdout = &stdout
	errR, errW := io.Pipe()
	cmd.Stderr = errW
	var stderr strings.Builder
	stopping := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(errR)
		once := sync.Once{}
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "signal again to exit at once") {
				once.Do(func() { close(stopping) })
			}
		}
	}()
	ts.Check(cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); errW.Close() }()
	deadline := time.After(15 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		select {
		case err := <-exited:
			<-copied
			ts.Fatalf("sigexec: %s exited before %s appeared: %v\nstdout:\n%s\nstderr:\n%s", args[2], args[1], err, stdout.String(), stderr.String())
		case <-deadline:
			cmd.Process.Kill()
			<-exited
			<-copied
			ts.Fatalf("sigexec: %s did not appear within 60s\nstdout:\n%s\nstderr:\n%s", args[1], stdout.String(), stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	sent := time.Now()
	ts.Check(cmd.Process.Signal(sig))
	if twice {
		select {
		case <-stopping:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			ts.Fatalf("sigexec: %s did not say it was stopping", args[2])
		}
		ts.Check(cmd.Process.Signal(sig))
	}
	var werr error
	select {
	case werr = <-exited:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-exited
		ts.Fatalf("sigexec: %s did not exit within 60s of the signal", args[2])
	}
	<-copied
	ts.Logf("sigexec: %s exited %s after the signal", args[2], time.Since(sent).Round(100*time.Millisecond))
	code := exitCode(ts, "sigexec", werr)
	fmt.Fprint(ts.Stdout(), stdout.String())
	fmt.Fprintf(ts.Stdout(), "exit=%d\n", code)
	fmt.Fprint(ts.Stderr(), stderr.String())
}

// exitCode is the exit status of a process that ended with werr, the
// error of its Wait; any other error ends the script, named by cmd.
func exitCode(ts *testscript.TestScript, cmd string, werr error) int {
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		return ee.ExitCode()
	}
	if werr != nil {
		ts.Fatalf("%s: %v", cmd, werr)
	}
	return 0
}

// lookPath finds name on the script's PATH.
func lookPath(ts *testscript.TestScript, name string) (string, error) {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("sigexec: %s not found on the script's PATH", name)
}

// scriptEnv is this process's environment with the script's own variables
// on top.
func scriptEnv(ts *testscript.TestScript) []string {
	env := os.Environ()
	for _, k := range []string{"PATH", "WORK", "HOME", "TMPDIR", "TMP", "TEMP", "USERPROFILE", "NO_COLOR", hostproc.CacheEnv} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}
