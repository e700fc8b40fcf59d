package items

import (
	"encoding/json"
	"slices"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// derivedNeverWritten declares item 3's check of S000 T9 "Never pass a
// metadata-only fingerprint for generated dependency state … as a file
// contentHash" and T10 "Report such observations as bounded derived
// mutations and advance state_version; reserve write for durable paths":
// a command that rewrites one durable file and changes generated state of
// every shape (a root and a nested dependency tree, a log, a build-info
// file) is attested with exactly the durable write, its byte hash, the
// derived mutations and a new state version: neither a derived file nor
// the directory of a generated tree is a write.
func derivedNeverWritten(c *kit.TestContext) {
	c.It("a command's derived changes, nested or named by their leaf, are derived mutations, never writes", "T9 T10 L3", func() {
		kit.FailRepro(c)
		posixCommands(c)
		d := kit.StartDirect(c, map[string]string{"a.txt": "before\n", "app/package.json": "{\"private\":true}\n"}, nil)
		call := d.Exec("run_command", map[string]any{"command": "mkdir -p node_modules/x app/node_modules/pkg && " +
			"printf 'x\\n' > node_modules/x/i.js && printf 'pkg\\n' > app/node_modules/pkg/index.js && " +
			"printf 'log\\n' > build.log && printf '{}\\n' > app/tsconfig.tsbuildinfo && printf 'after\\n' > a.txt"}, "")
		Expect(call.Err).NotTo(HaveOccurred(), "run_command was answered with an error")
		r := call.Result
		Expect(r.OK).To(BeTrue(), "run_command failed: %.300q", r.Content)
		Expect(r.Effects).NotTo(BeNil(), "a command that changed the workspace attests no effects")
		var paths []string
		for _, w := range r.Effects.Writes {
			paths = append(paths, w.Path)
			Expect(derived(w.Path)).To(BeFalse(), "the command attests generated state %s as a write (%sKind %q, afterHash %q); changes under dependency trees, logs and build-info files are derived mutations, never writes",
				w.Path, "after", w.AfterKind, deref(w.AfterHash))
		}
		Expect(paths).To(Equal([]string{"a.txt"}), "the command rewrote one durable file, a.txt; it attests writes of %v", paths)
		Expect(deref(r.Effects.Writes[0].AfterHash)).To(Equal(kit.HashOf("after\n")), "the write of a.txt must carry the hash of its bytes")
		Expect(r.Effects.StateVersion).NotTo(BeEmpty(), "a command that changed the workspace must advance stateVersion")
		var out struct {
			DerivedMutations *struct {
				Count int `json:"count"`
			} `json:"derivedMutations"`
		}
		Expect(json.Unmarshal([]byte(r.Content), &out)).To(Succeed(), "the content of run_command's result is not its JSON output: %.300q", r.Content)
		Expect(out.DerivedMutations).NotTo(BeNil(), "the command changed dependency trees, a log and a build-info file; its output must report them as derivedMutations")
		Expect(out.DerivedMutations.Count).To(BeNumerically(">=", 4), "the command changed at least four generated files; derivedMutations counts %d", out.DerivedMutations.Count)
	})
}

// metadataFromActive declares item 9's check of S000 T3 "Build core
// canonical IDs and effect capabilities with
// createAiCoderCoreToolEffectMetadata(activeDescriptors); do not copy the
// profile into the host": tools/list maps exactly the active tools' model
// names, each to its catalog ID, and declares the whole core profile (the
// function's answer whatever is active), each core entry exactly.
func metadataFromActive(c *kit.TestContext) {
	c.It("tools/list maps exactly the active tools and declares the core profile the metadata function builds", "T3 L9", func() {
		kit.FailRepro(c)
		d := kit.StartDirect(c, map[string]string{"notes.md": "keep\n"}, nil)
		var ts port.ToolSet
		Expect(d.Call(wire.MethodToolsList, struct{}{}, &ts)).To(Succeed(), "the host does not answer tools/list")
		var defined []string
		for _, def := range ts.Definitions {
			defined = append(defined, def.Function.Name)
		}
		mapped := make([]string, 0, len(ts.CanonicalToolIDs))
		for name := range ts.CanonicalToolIDs {
			mapped = append(mapped, name)
		}
		slices.Sort(defined)
		slices.Sort(mapped)
		Expect(mapped).To(Equal(defined), "canonicalToolIds maps %v but the active definitions are %v: the mapping must be built from the active descriptors, not copied from the catalog", mapped, defined)
		for id, want := range effects.CoreProfile() {
			got, ok := ts.EffectCapabilities[id]
			Expect(ok).To(BeTrue(), "effectCapabilities has no entry for the core tool %s: the metadata function declares the whole core profile, whatever is active, so the policy does not change when a tool is activated", id)
			got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
			Expect(got).To(Equal(want), "effectCapabilities declares %v for %s; the core profile is %v", got, id, want)
		}
	})
}

// validateAsksEachTime declares item 7's check of S000 T11 "Treat
// repository-declared validation scripts as executable code: require
// explicit approval or a verified containment backend before dispatch":
// with containment forbidden, every project.validate call asks before it
// runs scripts: the second as the first, and a sub-package's as the
// root's.
func validateAsksEachTime(c *kit.TestContext) {
	c.It("every validation of declared scripts without verified containment asks for approval, the root's and then a sub-package's", "T11 L7", func() {
		kit.FailRepro(c)
		kit.NeedTool(c, "project.validate")
		pkg := `{"private":true,"scripts":{"test":"exit 0"}}` + "\n"
		d := kit.StartDirect(c, map[string]string{"package.json": pkg, "app/package.json": pkg}, nil)
		// The second call catches both a grant remembered from the first
		// and a guard that covers the root package only.
		for i, path := range []string{".", "app"} {
			call := d.Exec("validate_project", map[string]any{"checks": []string{"test"}, "path": path}, "")
			Expect(call.Err).NotTo(HaveOccurred(), "validate_project on %s was answered with an error", path)
			asked := 0
			for _, a := range d.H.Approvals() {
				if a.CanonicalToolID == "project.validate" {
					asked++
				}
			}
			Expect(asked).To(Equal(i+1), "validation %d (path %s) of repository scripts, with no verified containment backend, ran after %d approval requests for %d validations: each dispatch needs its own approval",
				i+1, path, asked, i+1)
		}
	})
}

// commandOutputNoValidation declares item 3's check of S000 T5 "Never
// derive trusted effects by parsing model-visible output text" for
// command.run: a command whose output says its tests passed attests no
// validation (command.run's profile has no validate capability; only
// project.validate's declared checks are validation evidence).
func commandOutputNoValidation(c *kit.TestContext) {
	c.It("a command whose output says its tests passed attests no validation", "T5 L3", func() {
		kit.FailRepro(c)
		posixCommands(c)
		d := kit.StartDirect(c, nil, nil)
		call := d.Exec("run_command", map[string]any{"command": "echo 'Tests: 3 passed, 3 total'"}, "")
		Expect(call.Err).NotTo(HaveOccurred(), "run_command was answered with an error")
		r := call.Result
		Expect(r.OK).To(BeTrue(), "run_command failed: %.300q", r.Content)
		if r.Effects != nil {
			Expect(r.Effects.Validations).To(BeEmpty(), "run_command attests validations %+v for a command whose output says its tests passed: command output is never validation evidence", r.Effects.Validations)
		}
	})
}
