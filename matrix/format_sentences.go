package matrix

// formatSection is the Section of the project-format sentences.
const formatSection = "Project format"

// formatSentences are the acceptance rows PF01–PF16 of the project
// formatting lifecycle seed ("Regression boundary"), in the seed's order
// and wording. They are sentences a check may name, as the host guarantees
// are, but they are not part of "Required host guarantees" ([Guarantees]).
var formatSentences = []Guarantee{
	{Key: "PF01", Section: formatSection, Text: "ToolSpec/ToolCall/input-output schema has one closed project_format and Mutate + ProjectWrite + JobRun authority, non-idempotent."},
	{Key: "PF02", Section: formatSection, Text: "Missing capability, old Runner, wrong auth, changed Runner identity and unauthorized project reject without dispatch."},
	{Key: "PF03", Section: formatSection, Text: "Recipe/cwd auto vs explicit, ambiguous root, cross-root path, traversal, Windows separators, control/NUL and extension mismatch fail closed."},
	{Key: "PF04", Section: formatSection, Text: "Too many, duplicate, oversized, unreadable, symlink or nonregular file targets reject without writing."},
	{Key: "PF05", Section: formatSection, Text: "Valid Rust edition selection and fixed stdin/stdout rustfmt behavior; external/config-extended/custom rustfmt topology unavailable."},
	{Key: "PF06", Section: formatSection, Text: "Ruff missing/unsupported interpreter/module, pyproject missing target, invalid/extend config, injected output/cache env fail closed."},
	{Key: "PF07", Section: formatSection, Text: "Output identical to input proves no-op without write, not a guessed zero."},
	{Key: "PF08", Section: formatSection, Text: "Formatter candidate differs and guarded write commits only selected files, proving positive change."},
	{Key: "PF09", Section: formatSection, Text: "Manifest/file/source change between plan and enqueue/worker rejects; between candidate and guarded write detects conflict."},
	{Key: "PF10", Section: formatSection, Text: "Formatter failure/truncation, unexpected stdout, concurrent modification, postwrite observation failure and multi-file partial failure never claim known full completion."},
	{Key: "PF11", Section: formatSection, Text: "Cancellation, timeout, dropped Server response, reconnection and replacement use original Job; unknown cannot authorize replay."},
	{Key: "PF12", Section: formatSection, Text: "Durable terminal report and synchronous result retain the same mutation truth; missing old receipt defaults unknown."},
	{Key: "PF13", Section: formatSection, Text: "Kernel pre-projection canonical truth, model sparse result, Code Mode receipt and source invalidation preserve authority boundaries."},
	{Key: "PF14", Section: formatSection, Text: "Exact failure kind, no test counts or validation-summary reuse; process logs and model output bounded."},
	{Key: "PF15", Section: formatSection, Text: "Existing project_validate, project_build, cargo_fmt, editors and unrelated languages stay unchanged."},
	{Key: "PF16", Section: formatSection, Text: "Focused regression, native formatter fixtures, Windows/Linux/macOS CI, independent reviews and fork full CI before upstream PR."},
}
