package main

import (
	"sync"

	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/command"
)

// prober is the containment prober every example host shares. The examples
// forbid containment backends, so it never decides what they show.
var prober = sync.OnceValue(func() *command.Prober {
	return command.NewProber(command.ProberConfig{HelperArgs: reference.ProbeHelperArgs})
})

// project is a small workspace the examples share: a Node package with
// declared scripts.
func project() map[string]string {
	return map[string]string{
		"package.json": `{"name":"demo","version":"1.0.0","scripts":{"test":"node test.js","lint":"node lint.js"}}` + "\n",
		"src/a.ts":     "export const a = 1;\n",
		"test.js":      "console.log('ok');\n",
		"lint.js":      "console.log('clean');\n",
	}
}

// withFiles returns files with more added.
func withFiles(files, more map[string]string) map[string]string {
	for k, v := range more {
		files[k] = v
	}
	return files
}

// search activates lazy tools on the doubles host before an example.
func search(query string) toolCall {
	return toolCall{Name: "search_tools", Args: map[string]any{"query": query}}
}

// scenarios are the worked examples, one per canonical tool.
var scenarios = map[string]scenario{
	"catalog.search": {Doubles: true, Call: toolCall{"search_tools", map[string]any{"query": "artifact", "limit": 3}}},
	"task.checkpoint": {Before: []toolCall{{"update_checkpoint", map[string]any{"action": "update", "goal": "Add a greeting", "progress": "Read src/a.ts", "decisions": []any{"keep ESM"}, "nextStep": "Write src/b.ts"}}},
		Call: toolCall{"update_checkpoint", map[string]any{"action": "update", "progress": "Wrote src/b.ts", "nextStep": "Validate"}}},
	"workspace.list":  {Files: project(), Call: toolCall{"list_files", map[string]any{"path": ".", "depth": 2}}},
	"workspace.glob":  {Files: project(), Call: toolCall{"glob_files", map[string]any{"pattern": "**/*.ts"}}},
	"workspace.grep":  {Files: project(), Call: toolCall{"search_text", map[string]any{"query": "export const", "path": "src"}}},
	"workspace.read":  {Files: project(), Call: toolCall{"read_file", map[string]any{"path": "src/a.ts"}}},
	"workspace.edit":  {Files: project(), Call: toolCall{"edit_file", map[string]any{"path": "src/a.ts", "oldText": "= 1", "newText": "= 2"}}},
	"workspace.write": {Files: project(), Call: toolCall{"write_file", map[string]any{"path": "src/b.ts", "content": "export const b = 2;\n", "precondition": map[string]any{"kind": "must_not_exist"}}}},
	"command.run":     {Files: project(), Call: toolCall{"run_command", map[string]any{"command": "echo hello; echo oops >&2; exit 3", "description": "Print to both streams"}}},
	"project.detect":  {Files: project(), Call: toolCall{"detect_project", map[string]any{"path": "."}}},
	"project.validate": {Files: map[string]string{
		"package.json": `{"name":"demo","version":"1.0.0","scripts":{"test":"true"}}` + "\n",
	}, Call: toolCall{"validate_project", map[string]any{"checks": []any{"test", "lint"}}}},
	"git.exec": {Files: withFiles(project(), map[string]string{".gitignore": "node_modules/\n"}), Git: true,
		Edit: map[string]string{"src/a.ts": "export const a = 2;\n", "src/new.ts": "export const n = 0;\n", "debug.log": "noise\n", "node_modules/x/index.js": "module.exports = 1;\n"},
		Call: toolCall{"git_operation", map[string]any{"action": "diff"}}},
	"research.fetch":  {Doubles: true, Call: toolCall{"fetch_url", map[string]any{"url": "https://example.com/guide", "maxBytes": 1024}}},
	"research.search": {Doubles: true, Before: []toolCall{search("search web")}, Call: toolCall{"search_web", map[string]any{"query": "json schema draft 2020-12", "maxResults": 2}}},
	"command.session": {Doubles: true, Before: []toolCall{search("session")}, Call: toolCall{"manage_session", map[string]any{"action": "start", "command": "npm run dev"}}},
	"preview.manage":  {Doubles: true, Before: []toolCall{search("preview")}, Call: toolCall{"manage_preview", map[string]any{"action": "open", "command": "npm run dev", "expectPort": 5173}}},
	"perception.analyze": {Doubles: true, Before: []toolCall{search("artifact analyze"),
		{"create_artifact", map[string]any{"name": "screen.txt", "content": "Login form", "mimeType": "text/plain"}}},
		Call: toolCall{"analyze_artifact", map[string]any{"artifactId": "artifact-0001", "mode": "ocr"}}},
	"artifact.create": {Doubles: true, Before: []toolCall{search("artifact")}, Call: toolCall{"create_artifact", map[string]any{"name": "notes.md", "content": "# Notes\n", "mimeType": "text/markdown"}}},
	"artifact.list": {Doubles: true, Before: []toolCall{search("artifact"),
		{"create_artifact", map[string]any{"name": "notes.md", "content": "# Notes\n", "mimeType": "text/markdown"}}},
		Call: toolCall{"list_artifacts", map[string]any{}}},
	"artifact.read": {Doubles: true, Before: []toolCall{search("artifact"),
		{"create_artifact", map[string]any{"name": "notes.md", "content": "# Notes\n", "mimeType": "text/markdown"}}},
		Call: toolCall{"read_artifact", map[string]any{"id": "artifact-0001"}}},
	"user.ask": {Doubles: true, Before: []toolCall{search("ask user")}, Call: toolCall{"ask_user", map[string]any{"questions": []any{map[string]any{"id": "q1", "question": "Which port should the server use?"}}}}},
}

// protocolScenarios are the envelopes PROTOCOL.md shows, each after a
// `<!-- recorded: NAME -->` marker: the result member of the scenario's
// last answer.
var protocolScenarios = map[string]scenario{
	"workspace.write": scenarios["workspace.write"],
	"workspace.edit-conflict": {Files: project(),
		Call: toolCall{"edit_file", map[string]any{"path": "src/a.ts", "oldText": "= 9", "newText": "= 2"}}},
}
