package catalog

import "slices"

// Extension capability flags a host advertises in initialize. The
// project-format tool is offered only to a host that advertises
// [FlagProjectFormat]; its Go adapter (explicit or inferred from .go files)
// also needs the additive [FlagProjectFormatGo]. A host that advertises
// neither keeps exactly the 21 core tools.
const (
	FlagProjectFormat   = "project_format_v1"
	FlagProjectFormatGo = "project_format_go_v1"
)

// The project-format extension tool.
const (
	ProjectFormatID        = "project.format"
	ProjectFormatModelName = "format_project"
	ProjectFormatExtension = "project-format"
	// ProjectFormatMaxFiles bounds the explicit file list of one call.
	ProjectFormatMaxFiles = 8
)

// Formatting adapters of project.format.
const (
	AdapterAuto   = "auto"
	AdapterRust   = "rust"
	AdapterPython = "python"
	AdapterGo     = "go"
)

// ExtensionFlags returns the extension capability flags conform knows, in
// canonical order.
func ExtensionFlags() []string { return []string{FlagProjectFormat, FlagProjectFormatGo} }

// Extensions returns the extension descriptors offered to a host that
// advertises flags, with the catalog defaults applied: project.format when
// flags holds [FlagProjectFormat], nothing otherwise. The core catalog is
// never part of the result.
func Extensions(flags []string) []Descriptor {
	if !slices.Contains(flags, FlagProjectFormat) {
		return []Descriptor{}
	}
	return []Descriptor{ProjectFormat()}
}

// IsExtensionTool reports whether id is an extension tool conform knows.
func IsExtensionTool(id string) bool { return id == ProjectFormatID }

// ProjectFormat returns the descriptor of project.format: an intentional,
// non-idempotent source mutation of 1..8 explicit files under one recipe
// root, run by the host's installed formatter on stdin with the candidate
// on stdout. Its input schema is closed; its output is the three-state
// mutation report of the call's job.
func ProjectFormat() Descriptor {
	fileReport := object(map[string]any{
		"path":         path(),
		"outcome":      enum("unchanged", "written", "failed", "not_attempted", "unknown"),
		"stateChanged": stateChanged(),
	}, "path", "outcome", "stateChanged")
	return WithDefaults(Descriptor{
		ID: ProjectFormatID, ModelName: ProjectFormatModelName, Title: "Format project files",
		Description: "Format 1 to 8 explicitly named source files of one project with the project's installed formatter (rustfmt, ruff or gofmt) and write back only the files whose formatted text differs. Name every file; nothing else is formatted and no formatter is installed. The call runs once and is never retried: when it reports stateChanged 'unknown', read the files before calling again. Returns the job ID, the recipe root and one three-state report per file.",
		Category:    CategoryProject, Transport: TransportNative, Risk: RiskMedium, Mutability: MutabilityWrite,
		Idempotency: IdempotencyUnsafe,
		InputSchema: object(map[string]any{
			"cwd":     described(workspacePath(), "Optional project directory the recipe root is searched from; defaults to the directory of the first file."),
			"adapter": described(enum(AdapterAuto, AdapterRust, AdapterPython, AdapterGo), "Formatter family; 'auto' infers it from the file extensions. Default 'auto'."),
			"files":   described(uniqueArray(workspacePath(), ProjectFormatMaxFiles, 1), "The workspace-relative files to format, in order, all under one recipe root."),
		}, "files"),
		OutputSchema: object(map[string]any{
			"jobId":        nonEmpty(),
			"adapter":      enum(AdapterRust, AdapterPython, AdapterGo),
			"recipeRoot":   path(),
			"stateChanged": stateChanged(),
			"files":        array(fileReport, ProjectFormatMaxFiles, 1),
		}, "jobId", "adapter", "recipeRoot", "stateChanged", "files"),
		Permissions: []string{PermFSWorkspace, PermProcessExecute}, TimeoutMs: 60000, MaxOutputTokens: 2000,
		SupportsCancellation: true,
		Source:               Source{Owner: OwnerExtension, ExtensionID: ProjectFormatExtension},
	})
}

// stateChanged is the three-state mutation truth: true, false or "unknown".
func stateChanged() map[string]any {
	return map[string]any{"enum": []any{true, false, "unknown"}}
}

func uniqueArray(items map[string]any, maxItems, minItems int) map[string]any {
	a := array(items, maxItems, minItems)
	a["uniqueItems"] = true
	return a
}
