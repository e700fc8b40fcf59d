package lab

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/fixture"
)

// fakeTools is a host's tool executor that answers every call ok and
// records what reached it.
type fakeTools struct {
	calls    []string
	restored bool
}

func (f *fakeTools) ToolSet(context.Context) (port.ToolSet, error) {
	ids := map[string]string{}
	for _, d := range catalog.Core() {
		ids[d.ModelName] = d.ID
	}
	return port.ToolSet{CanonicalToolIDs: ids}, nil
}

func (f *fakeTools) Execute(_ context.Context, call port.ToolCall, _ port.ToolContext) (port.ToolResult, error) {
	f.calls = append(f.calls, call.Name)
	d, _ := catalog.ByModelName(call.Name)
	return port.ToolResult{OK: true, CanonicalToolID: d.ID, Content: "{}"}, nil
}

func (f *fakeTools) RestoreToolSet(context.Context, []string, string) error {
	f.restored = true
	return nil
}

func reason(s string) *string { return &s }

var (
	verified   = &wire.Containment{Active: true, Verified: true, Backend: "linux_bubblewrap", State: "active", Mode: "best_effort"}
	unverified = &wire.Containment{Backend: "none", State: "unavailable", Mode: "best_effort", Reason: reason("bubblewrap is not installed.")}
)

// guardRun is a fixture run of the file "stranger.json" under trust whose
// host answered initialize with containment and doubles.
func guardRun(trust CommandTrust, distrust string, c *wire.Containment, doubles ...string) (*fixtureRun, *fakeTools, port.ToolExecutor) {
	r := &fixtureRun{fx: &fixture.Fixture{File: "stranger.json"}, opts: Options{Commands: trust, DistrustContainment: distrust}}
	inner := &fakeTools{}
	exec := r.guardCommands(inner, wire.InitializeResult{Containment: c, Doubles: doubles})
	if _, err := exec.ToolSet(context.Background()); err != nil {
		panic(err)
	}
	return r, inner, exec
}

func call(exec port.ToolExecutor, name string) port.ToolResult {
	res, err := exec.Execute(context.Background(), port.ToolCall{ToolCallID: "c-" + name, Name: name, Arguments: map[string]any{}}, port.ToolContext{})
	if err != nil {
		panic(err)
	}
	return res
}

func TestProcessSpawningToolsAreTheProcessExecuteOnes(t *testing.T) {
	var got []string
	for _, id := range catalog.IDs() {
		if spawnsProcess(id) {
			got = append(got, id)
		}
	}
	want := []string{"command.run", "command.session", "preview.manage", "project.validate"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("process-spawning tools = %v, want %v (git.exec runs git with hooks and filters off, and is not one)", got, want)
	}
}

func TestUncontainedCommandsOfAStrangersScenarioAreRefused(t *testing.T) {
	r, inner, exec := guardRun(ContainCommands, "", unverified)
	for _, name := range []string{"run_command", "validate_project", "manage_session", "manage_preview"} {
		res := call(exec, name)
		if res.OK || res.Error == nil || res.Error.Code != DenyUncontainedCommand {
			t.Fatalf("%s: result %+v, want a %s refusal", name, res, DenyUncontainedCommand)
		}
		if err := effects.CheckEnvelope(res); err != nil {
			t.Errorf("%s: the refusal is not a well-formed envelope: %v", name, err)
		}
		d, _ := catalog.ByModelName(name)
		if res.CanonicalToolID != d.ID {
			t.Errorf("%s: canonicalToolId %q, want %q", name, res.CanonicalToolID, d.ID)
		}
		for _, want := range []string{"stranger.json", AllowUncontainedFlag, "none/unavailable: bubblewrap is not installed.", "Nothing was run"} {
			if !strings.Contains(res.Error.Message, want) || !strings.Contains(res.Content, want) {
				t.Errorf("%s: the refusal does not say %q: %q", name, want, res.Error.Message)
			}
		}
	}
	for _, name := range []string{"list_files", "git_operation", "write_file"} {
		if res := call(exec, name); !res.OK {
			t.Errorf("%s was refused: %+v; only process-spawning tools are", name, res)
		}
	}
	if want := []string{"list_files", "git_operation", "write_file"}; !slices.Equal(inner.calls, want) {
		t.Errorf("the host saw %v, want %v", inner.calls, want)
	}
	rep := &Report{}
	r.reportCommands(rep)
	if len(rep.Failures) != 1 || rep.Failures[0].Assertion != UncontainedCommandAssertion ||
		!strings.Contains(rep.Failures[0].Actual, `refused manage_preview (call "c-manage_preview")`) {
		t.Errorf("failures %+v, want one %s failure naming the four calls", rep.Failures, UncontainedCommandAssertion)
	}
	if len(rep.Allowances) != 0 {
		t.Errorf("allowances %v, want none", rep.Allowances)
	}
}

func TestCommandsRunUnderVerifiedContainmentOrAsDoubles(t *testing.T) {
	r, inner, exec := guardRun(ContainCommands, "", verified)
	call(exec, "run_command")
	call(exec, "validate_project")
	_, dinner, dexec := guardRun(ContainCommands, "", unverified, "command.session", "preview.manage")
	call(dexec, "manage_session")
	call(dexec, "manage_preview")
	if !slices.Equal(inner.calls, []string{"run_command", "validate_project"}) || !slices.Equal(dinner.calls, []string{"manage_session", "manage_preview"}) {
		t.Errorf("the hosts saw %v and %v, want every call", inner.calls, dinner.calls)
	}
	rep := &Report{}
	r.reportCommands(rep)
	if len(rep.Failures)+len(rep.Allowances) != 0 {
		t.Errorf("report %+v %v, want no failure or allowance", rep.Failures, rep.Allowances)
	}
}

func TestAMutantsPromisesAreNoEvidence(t *testing.T) {
	_, inner, exec := guardRun(ContainCommands, "--mutant m: it lies", verified)
	// A mutant may label commands contained and run them bare
	// (bypass-active-containment), or run git through sh with the paths
	// unquoted (git-through-shell).
	for _, name := range []string{"run_command", "git_operation"} {
		if res := call(exec, name); res.OK || !strings.Contains(res.Error.Message, "not taken on trust (--mutant m: it lies)") {
			t.Errorf("%s: result %+v, want a refusal naming the mutant", name, res)
		}
	}
	call(exec, "list_files")
	if !slices.Equal(inner.calls, []string{"list_files"}) {
		t.Errorf("the host saw %v, want list_files only", inner.calls)
	}
}

func TestAllowedUncontainedCommandsAreRecorded(t *testing.T) {
	r, inner, exec := guardRun(AllowUncontainedCommands, "", unverified)
	call(exec, "run_command")
	call(exec, "list_files")
	if !slices.Equal(inner.calls, []string{"run_command", "list_files"}) {
		t.Errorf("the host saw %v", inner.calls)
	}
	rep := &Report{}
	r.reportCommands(rep)
	want := []string{`run_command (call "c-run_command") went to the host without verified command containment (` + AllowUncontainedFlag +
		`): the host reports no verified command containment (none/unavailable: bubblewrap is not installed.)`}
	if !slices.Equal(rep.Allowances, want) || len(rep.Failures) != 0 {
		t.Errorf("allowances %q, failures %+v; want %q and none", rep.Allowances, rep.Failures, want)
	}
	// Under verified containment nothing needed allowing.
	r, _, exec = guardRun(AllowUncontainedCommands, "", verified)
	call(exec, "run_command")
	rep = &Report{}
	r.reportCommands(rep)
	if len(rep.Allowances) != 0 {
		t.Errorf("allowances %q under verified containment, want none", rep.Allowances)
	}
}

func TestTrustedCommandsUseTheHostsExecutor(t *testing.T) {
	inner := &fakeTools{}
	r := &fixtureRun{fx: &fixture.Fixture{File: "own.json"}}
	if exec := r.guardCommands(inner, wire.InitializeResult{Containment: unverified}); exec != port.ToolExecutor(inner) {
		t.Errorf("the zero Options wrap the host's executor (%T); conform's own scenarios run as they are", exec)
	}
}

func TestTheGuardRestoresToolSetsThroughTheHost(t *testing.T) {
	_, inner, exec := guardRun(ContainCommands, "", unverified)
	r, ok := exec.(run.ToolSetRestorer)
	if !ok {
		t.Fatalf("the guard is no run.ToolSetRestorer: a resume could not restore its tool set")
	}
	if err := r.RestoreToolSet(context.Background(), nil, "h"); err != nil || !inner.restored {
		t.Errorf("RestoreToolSet = %v, restored %v", err, inner.restored)
	}
}
