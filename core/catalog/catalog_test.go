package catalog_test

import (
	"encoding/json"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/schema"
)

var bootstrap = []string{
	"catalog.search", "command.run", "git.exec", "project.detect", "project.validate", "research.fetch",
	"task.checkpoint", "workspace.edit", "workspace.glob", "workspace.grep", "workspace.list", "workspace.read", "workspace.write",
}

var lazy = []string{
	"artifact.create", "artifact.list", "artifact.read", "command.session", "perception.analyze",
	"preview.manage", "research.search", "user.ask",
}

var _ = Describe("the core catalog", func() {
	// The catalog-wide invariants of CONTRACTS §6.3 (original test "catalog
	// is compact, canonical, deeply immutable, and has concrete schemas").
	Describe("invariants", func() {
		all := catalog.Core()

		It("has 21 tools sorted by canonical ID with 21 distinct model names", func() {
			Expect(all).To(HaveLen(21))
			Expect(slices.IsSortedFunc(ids(all), canon.CompareText)).To(BeTrue())
			names := map[string]bool{}
			for _, d := range all {
				names[d.ModelName] = true
			}
			Expect(names).To(HaveLen(21))
		})

		It("has the 13 bootstrap tools and the 8 lazy tools of CONTRACTS §6.2", func() {
			var boot, rest []string
			for _, d := range all {
				if d.EnabledByDefault {
					boot = append(boot, d.ID)
				} else {
					rest = append(rest, d.ID)
				}
			}
			Expect(boot).To(Equal(bootstrap))
			Expect(rest).To(Equal(lazy))
		})

		It("has only schemas in the subset, and output schemas with properties", func() {
			for _, d := range all {
				Expect(schema.CheckDefinition(d.InputSchema)).To(BeEmpty(), d.ID+" input")
				Expect(schema.CheckDefinition(d.OutputSchema)).To(BeEmpty(), d.ID+" output")
				Expect(d.OutputSchema["properties"]).NotTo(BeEmpty(), d.ID)
			}
		})

		It("never asks the model for an idempotency key", func() {
			for _, d := range all {
				text, err := json.Marshal(d.InputSchema)
				Expect(err).NotTo(HaveOccurred())
				Expect(string(text)).NotTo(ContainSubstring("idempotencyKey"), d.ID)
			}
		})

		It("makes project.validate high risk and unsafe", func() {
			d := tool("project.validate")
			Expect(d.Risk).To(Equal(catalog.RiskHigh))
			Expect(d.Idempotency).To(Equal(catalog.IdempotencyUnsafe))
		})

		It("uses only the seven catalog permissions, and none for catalog.search", func() {
			used := map[string]bool{}
			for _, d := range all {
				for _, p := range d.Permissions {
					used[p] = true
				}
			}
			Expect(used).To(HaveLen(7))
			for _, p := range allPermissions {
				Expect(used).To(HaveKey(p))
			}
			Expect(tool("catalog.search").Permissions).To(BeEmpty())
			Expect(tool("catalog.search").Permissions).NotTo(BeNil())
		})

		It("keeps every description within the registry's 600 UTF-16 units", func() {
			for _, d := range all {
				Expect(canon.UTF16Len(d.Description)).To(BeNumerically("<=", 600), d.ID)
			}
		})

		It("is deeply immutable: changing a returned descriptor changes nothing else", func() {
			first := catalog.Core()
			first[0].Permissions[0] = "changed"
			first[0].InputSchema["properties"].(map[string]any)["name"].(map[string]any)["minLength"] = 99
			first[0].Modalities.Accepts[0] = "video"
			d, _ := catalog.ByID("workspace.read")
			d.OutputSchema["required"] = []any{}
			second := catalog.Core()
			Expect(second[0].Permissions[0]).To(Equal(catalog.PermCoreArtifacts))
			Expect(second[0].InputSchema["properties"].(map[string]any)["name"].(map[string]any)["minLength"]).To(Equal(1))
			Expect(second[0].Modalities.Accepts[0]).To(Equal(catalog.ModalityText))
			Expect(tool("workspace.read").OutputSchema["required"]).NotTo(BeEmpty())
		})
	})

	Describe("lookups", func() {
		It("finds tools by canonical ID and by model name", func() {
			d, ok := catalog.ByModelName("git_operation")
			Expect(ok).To(BeTrue())
			Expect(d.ID).To(Equal("git.exec"))
			_, ok = catalog.ByModelName("git.exec")
			Expect(ok).To(BeFalse())
			_, ok = catalog.ByID("git_operation")
			Expect(ok).To(BeFalse())
			Expect(catalog.IDs()).To(Equal(ids(catalog.Core())))
		})
	})

	Describe("per-tool details of CONTRACTS §6.3", func() {
		It("gives the non-default limits and flags", func() {
			type limits struct {
				idem                  string
				timeout, tokens       int
				pagination, cancelled bool
			}
			want := map[string]limits{
				"artifact.create":    {"with_key", 30000, 1000, false, false},
				"artifact.list":      {"safe", 30000, 4000, true, false},
				"artifact.read":      {"safe", 30000, 10000, true, false},
				"catalog.search":     {"safe", 30000, 2000, true, false},
				"command.run":        {"unsafe", 180000, 6000, false, true},
				"command.session":    {"unsafe", 180000, 12000, false, true},
				"git.exec":           {"safe", 30000, 16000, false, false},
				"perception.analyze": {"safe", 30000, 8000, false, true},
				"preview.manage":     {"unsafe", 180000, 8000, false, true},
				"project.detect":     {"safe", 30000, 4000, false, false},
				"project.validate":   {"unsafe", 600000, 12000, false, true},
				"research.fetch":     {"unsafe", 30000, 6000, false, true},
				"research.search":    {"unsafe", 30000, 4000, false, true},
				"task.checkpoint":    {"with_key", 30000, 4000, false, false},
				"user.ask":           {"safe", 600000, 8000, false, true},
				"workspace.edit":     {"with_key", 30000, 2000, false, false},
				"workspace.glob":     {"safe", 30000, 6000, true, false},
				"workspace.grep":     {"safe", 30000, 6000, true, false},
				"workspace.list":     {"safe", 30000, 8000, true, false},
				"workspace.read":     {"safe", 30000, 8000, true, false},
				"workspace.write":    {"with_key", 30000, 2000, false, false},
			}
			for _, d := range catalog.Core() {
				Expect(limits{d.Idempotency, d.TimeoutMs, d.MaxOutputTokens, d.SupportsPagination, d.SupportsCancellation}).
					To(Equal(want[d.ID]), d.ID)
				Expect(d.MaxOutputBytes).To(Equal(32000), d.ID)
				Expect(d.Version).To(Equal("2.0.0"), d.ID)
				Expect(d.Source).To(Equal(catalog.Source{Owner: "core"}), d.ID)
			}
		})

		It("gives the modalities", func() {
			text := catalog.Modalities{Accepts: []string{"text"}, Produces: []string{"structured_data", "text"}}
			structured := catalog.Modalities{Accepts: []string{}, Produces: []string{"structured_data", "text"}}
			want := map[string]catalog.Modalities{
				"artifact.create":    {Accepts: []string{"text", "structured_data"}, Produces: []string{"artifact", "structured_data"}},
				"artifact.list":      structured,
				"artifact.read":      {Accepts: []string{"artifact"}, Produces: []string{"text", "structured_data"}},
				"catalog.search":     structured,
				"perception.analyze": {Accepts: []string{"artifact", "image"}, Produces: []string{"structured_data", "text"}},
				"research.fetch":     structured,
				"research.search":    structured,
				"user.ask":           structured,
			}
			for _, d := range catalog.Core() {
				m, ok := want[d.ID]
				if !ok {
					m = text
				}
				Expect(d.Modalities).To(Equal(m), d.ID)
			}
		})

		It("gives the permissions", func() {
			Expect(tool("preview.manage").Permissions).To(Equal([]string{"preview.local", "process.execute"}))
			Expect(tool("project.validate").Permissions).To(Equal([]string{"fs.workspace", "process.execute"}))
			Expect(tool("task.checkpoint").Permissions).To(Equal([]string{"core.storage"}))
			Expect(tool("user.ask").Permissions).To(Equal([]string{"user.interaction"}))
			Expect(tool("research.search").Permissions).To(Equal([]string{"network.outbound"}))
		})
	})

	Describe("descriptions", func() {
		It("gives task.checkpoint the read example and tells the model not to omit action", func() {
			d := tool("task.checkpoint")
			Expect(d.Description).To(ContainSubstring(`{"action":"read"}`))
			Expect(strings.ToLower(d.Description)).To(ContainSubstring("do not omit action"))
			Expect(d.Description).To(ContainSubstring(`"goal"`))
			Expect(d.Description).To(ContainSubstring(`"progress"`))
			Expect(d.Description).To(ContainSubstring(`"decisions"`))
			Expect(d.Description).To(ContainSubstring(`"nextStep"`))
			for _, p := range []string{"action", "goal", "progress", "decisions", "nextStep"} {
				Expect(d.InputSchema["properties"].(map[string]any)[p]).To(HaveKey("description"), p)
			}
		})
		It("tells the model that two empty searches are final and activation takes effect next turn", func() {
			d := tool("catalog.search").Description
			Expect(d).To(ContainSubstring("if two searches both come back empty, that is the final answer"))
			Expect(d).To(ContainSubstring("callable on the next turn, not later in the same batch"))
		})
		It("tells the model how run_command runs and what it is not for", func() {
			d := tool("command.run").Description
			Expect(d).To(ContainSubstring("hostEnvironment.command"))
			Expect(d).To(ContainSubstring("stdin is closed and there is no TTY"))
			Expect(d).To(ContainSubstring("Do not use it for Git status, diff or log"))
			Expect(tool("command.run").InputSchema["properties"].(map[string]any)["timeoutMs"]).To(HaveKeyWithValue("description", ContainSubstring("Default 120000")))
		})
		It("tells the model that only git_operation diff is trusted review evidence", func() {
			d := tool("git.exec").Description
			Expect(d).To(ContainSubstring("action 'diff'"))
			Expect(d).To(ContainSubstring("diff_review"))
			Expect(d).To(ContainSubstring("Never rewrite history, stage, commit or push"))
		})
		It("describes both write preconditions", func() {
			Expect(tool("workspace.write").Description).To(ContainSubstring(`{"kind":"must_not_exist"}`))
			Expect(tool("workspace.write").Description).To(ContainSubstring(`{"kind":"matches_sha256","contentSha256":`))
		})
	})

	// The original schema tests of test/registry-prompt-approval.test.ts,
	// run through the real validator.
	Describe("schemas through the validator", func() {
		It("rejects absolute, traversal and host-native paths in project.detect", func() {
			in := tool("project.detect").InputSchema
			for _, p := range []string{".", "./src", "nested/.", "src", "src/index.ts", ".github/workflows/test.yml"} {
				Expect(schema.Validate(in, map[string]any{"path": p})).To(Succeed(), p)
			}
			for _, p := range []string{"/tmp/project", "C:/project", `C:\project`, "../project", "src/../secret", `src\index.ts`, "src//index.ts", "src/"} {
				Expect(schema.Validate(in, map[string]any{"path": p})).To(MatchError(ContainSubstring("/path: ")), p)
			}
		})

		It("applies the path rule to every workspace path input, including git.exec paths", func() {
			Expect(schema.Validate(tool("git.exec").InputSchema, map[string]any{"action": "diff", "paths": []any{"src", "../x"}})).
				To(MatchError(ContainSubstring(`/paths/1: "../x" is not a workspace-relative path`)))
			Expect(schema.Validate(tool("command.run").InputSchema, map[string]any{"command": "ls", "cwd": "/etc"})).
				To(MatchError(ContainSubstring(`/cwd: "/etc" is not a workspace-relative path`)))
			// Output paths are plain PATH: hosts may report what they resolved.
			Expect(schema.Validate(tool("workspace.glob").OutputSchema, map[string]any{"matches": []any{"/abs/x"}, "truncated": false})).To(Succeed())
		})

		It("distinguishes atomic create from compare-and-swap in write preconditions", func() {
			in := tool("workspace.write").InputSchema
			Expect(schema.Validate(in, map[string]any{"content": "new file", "path": "src/new.ts", "precondition": map[string]any{"kind": "must_not_exist"}})).To(Succeed())
			Expect(schema.Validate(in, map[string]any{"content": "replacement", "path": "src/current.ts", "precondition": map[string]any{"contentSha256": strings.Repeat("a", 64), "kind": "matches_sha256"}})).To(Succeed())
			Expect(schema.Validate(in, map[string]any{"content": "unsafe overwrite", "path": "src/current.ts", "precondition": map[string]any{"kind": "matches_sha256"}})).
				To(MatchError(ContainSubstring(`/precondition: matches none of the "oneOf" schemas`)))
			Expect(schema.Validate(in, map[string]any{"content": "x", "path": "a"})).To(MatchError(ContainSubstring("/precondition: is required")))
		})

		It("keeps the edit precondition optional and strict", func() {
			in := tool("workspace.edit").InputSchema
			Expect(schema.Validate(in, map[string]any{"path": "a", "oldText": "x", "newText": "y"})).To(Succeed())
			Expect(schema.Validate(in, map[string]any{"path": "a", "oldText": "x", "newText": "y", "precondition": map[string]any{"kind": "must_not_exist"}})).NotTo(Succeed())
		})

		It("requires an explicit supported checkpoint action", func() {
			in := tool("task.checkpoint").InputSchema
			Expect(schema.Validate(in, map[string]any{"action": "read"})).To(Succeed())
			Expect(schema.Validate(in, map[string]any{"action": "update", "decisions": []any{}, "goal": "Complete the task", "nextStep": "Run validation", "progress": "Files inspected"})).To(Succeed())
			Expect(schema.Validate(in, map[string]any{})).To(MatchError(ContainSubstring("/action: is required")))
			Expect(schema.Validate(in, map[string]any{"action": "save"})).To(MatchError(ContainSubstring(`/action: must be one of ["read","update"]`)))
		})

		It("exposes a resumable read cursor on both sides of workspace.read", func() {
			d := tool("workspace.read")
			Expect(schema.Validate(d.InputSchema, map[string]any{"cursor": "text:" + strings.Repeat("a", 64) + ":1:20:256", "maxBytes": 256, "path": "src/large.ts"})).To(Succeed())
			Expect(schema.Validate(d.OutputSchema, map[string]any{
				"content": "partial", "contentHash": strings.Repeat("b", 64), "endLine": 20,
				"nextCursor": "text:" + strings.Repeat("b", 64) + ":1:20:256", "path": "src/large.ts",
				"provenance": map[string]any{"contentHash": strings.Repeat("b", 64), "retrievedAt": "1970-01-01T00:00:00.000Z", "source": "workspace.readText", "trust": "untrusted_workspace"},
				"startLine":  1, "truncated": true,
			})).To(Succeed())
		})

		It("lets command and validation outputs report bounded derived mutations", func() {
			derived := map[string]any{"count": 2, "paths": []any{"node_modules/.package-lock.json", "node_modules/example/index.js"}, "truncated": false}
			Expect(schema.Validate(tool("command.run").OutputSchema, map[string]any{
				"command": "npm test", "cwd": ".", "exitCode": 0, "stdout": "", "stderr": "", "timedOut": false, "cancelled": false, "truncated": false, "derivedMutations": derived,
			})).To(Succeed())
			Expect(schema.Validate(tool("project.validate").OutputSchema, map[string]any{
				"cancelled": false, "passed": true, "results": []any{map[string]any{"check": "test", "status": "passed", "summary": "ok"}}, "derivedMutations": derived,
			})).To(Succeed())
			Expect(schema.Validate(tool("command.run").OutputSchema, map[string]any{
				"command": "npm test", "exitCode": 0, "stdout": "", "stderr": "", "timedOut": false, "cancelled": false, "truncated": false,
				"derivedMutations": map[string]any{"count": 0, "paths": []any{}, "truncated": false},
			})).To(MatchError(ContainSubstring("/derivedMutations/count: 0 is less than the minimum 1")))
		})

		It("puts no maximum on command and validation timeouts", func() {
			Expect(schema.Validate(tool("command.run").InputSchema, map[string]any{"command": "make", "timeoutMs": 3_600_000})).To(Succeed())
			Expect(schema.Validate(tool("project.validate").InputSchema, map[string]any{"checks": []any{"test"}, "timeoutMs": 3_600_000})).To(Succeed())
			Expect(schema.Validate(tool("command.run").InputSchema, map[string]any{"command": "make", "timeoutMs": 99})).NotTo(Succeed())
		})

		It("accepts only http(s) URLs for fetch_url", func() {
			in := tool("research.fetch").InputSchema
			Expect(schema.Validate(in, map[string]any{"url": "https://example.com"})).To(Succeed())
			Expect(schema.Validate(in, map[string]any{"url": "file:///etc/passwd"})).NotTo(Succeed())
		})

		It("accepts a catalog.search result as its output", func() {
			r := fullRegistry()
			res := r.Search(catalog.SearchRequest{Query: "git", Category: "git"})
			Expect(schema.Validate(tool("catalog.search").OutputSchema, res)).To(Succeed())
			Expect(schema.Validate(tool("catalog.search").InputSchema, catalog.SearchRequest{Query: "git", Limit: 5})).To(Succeed())
		})
	})

	It("sends hosts the whole catalog with its schemas", func() {
		h := catalog.ForHost()
		Expect(h.SchemaVersion).To(Equal("2.0.0"))
		Expect(h.DefinitionBudget).To(Equal(10000))
		Expect(h.Tools).To(Equal(catalog.Core()))
		text, err := json.Marshal(h)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(text)).To(ContainSubstring(`"inputSchema":{`))
		Expect(catalog.CheckDocument(h.Tools)).To(Succeed())
	})

	It("computes the dispatch guard of CONTRACTS §6.5", func() {
		Expect(catalog.DispatchGuardMs(0)).To(Equal(180000))
		Expect(catalog.DispatchGuardMs(-5)).To(Equal(180000))
		Expect(catalog.DispatchGuardMs(1000)).To(Equal(61000))
		Expect(catalog.DispatchGuardMs(600000)).To(Equal(660000))
	})
})
