package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// Project detection limits (LAB_AND_HOSTS §19.1).
const (
	DetectMaxDepth             = 20
	DetectMaxEntries           = 20_000
	DetectMaxPages             = 25_000
	DetectPageSize             = 1000
	DetectRootManifestMaxBytes = 128_000
	DetectReportedManifests    = 64
)

var manifestNames = map[string]bool{
	"package.json": true, "Cargo.toml": true, "pyproject.toml": true, "go.mod": true,
	"pom.xml": true, "build.gradle": true, "pubspec.yaml": true,
}

// rootProbeNames are stat'ed directly under the project root, in order.
var rootProbeNames = []string{
	"package.json", "Cargo.toml", "pyproject.toml", "go.mod", "pom.xml", "build.gradle", "pubspec.yaml",
	"pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb",
}

var languageByExtension = map[string]string{
	".c": "C", ".cpp": "C++", ".cs": "C#", ".dart": "Dart", ".go": "Go", ".java": "Java",
	".js": "JavaScript", ".jsx": "JavaScript", ".kt": "Kotlin", ".php": "PHP", ".py": "Python",
	".rb": "Ruby", ".rs": "Rust", ".swift": "Swift", ".ts": "TypeScript", ".tsx": "TypeScript",
	".vue": "Vue",
}

// A Project is the result of DetectProject, in the original key order
// (LAB_AND_HOSTS §19.2 step 8; CONTRACTS §6.3 tool 10). PackageManager is
// omitted when none was detected.
type Project struct {
	ProjectRoot    string            `json:"projectRoot"`
	Languages      []string          `json:"languages"`
	Manifests      []string          `json:"manifests"`
	Commands       map[string]string `json:"commands"`
	Scan           ProjectScan       `json:"scan"`
	Warnings       []string          `json:"warnings"`
	PackageManager string            `json:"packageManager,omitempty"`
}

// ProjectScan tells whether the scan behind a Project was complete; the
// model must not read absence of evidence from an incomplete scan.
type ProjectScan struct {
	Complete       bool `json:"complete"`
	DeepestDepth   int  `json:"deepestDepth"`
	EntriesScanned int  `json:"entriesScanned"`
	MaxDepth       int  `json:"maxDepth"`
}

// DetectProject detects languages, manifests, the package manager and the
// package.json scripts of the project at rel (LAB_AND_HOSTS §19.2). It
// scans breadth-first through List pages within the detection limits; a
// limit reached makes the scan incomplete and adds a warning, as does a
// malformed root package.json. Only files count: a directory named like a
// manifest or a source file is ignored. The traversal exclusions are always
// disclosed in the warnings.
func (r *Root) DetectProject(ctx context.Context, rel string) (Project, error) {
	root := defaultPath(rel)
	entries, scan, warnings, err := r.scanProject(ctx, root)
	if err != nil {
		return Project{}, err
	}
	if r.faults.DetectFollowsSymlinks {
		entries = append(entries, r.followedLinks(entries)...)
	}
	rootFiles := map[string]bool{}
	for _, name := range rootProbeNames {
		p := projectPath(root, name)
		st, err := r.Stat(ctx, p)
		if err != nil {
			return Project{}, err
		}
		if st.Kind == KindFile || r.countsAsFile(st.Kind) {
			rootFiles[p] = true
		}
	}
	manifestSet := map[string]bool{}
	languageSet := map[string]bool{}
	for _, e := range entries {
		if e.Kind != KindFile && !r.countsAsFile(e.Kind) {
			continue
		}
		if manifestNames[e.Name] {
			manifestSet[e.Path] = true
		}
		if lang, ok := languageByExtension[extension(e.Path)]; ok {
			languageSet[lang] = true
		}
	}
	for p := range rootFiles {
		if manifestNames[path.Base(p)] {
			manifestSet[p] = true
		}
	}
	all := sortedKeys(manifestSet)
	proj := Project{
		ProjectRoot: rel,
		Languages:   sortedKeys(languageSet),
		Manifests:   all[:min(len(all), DetectReportedManifests)],
		Commands:    map[string]string{},
		Scan:        scan,
	}
	if rel == "" {
		proj.ProjectRoot = "."
	}
	if !r.faults.HideTraversalExclusions {
		warnings = append(warnings, fmt.Sprintf("Project scan completeness applies to the host-visible tree; excluded directory names: %s.", strings.Join(r.exclusions(), ", ")))
	}
	pkg := projectPath(root, "package.json")
	if rootFiles[pkg] {
		cmds, w, err := r.packageScripts(ctx, pkg)
		if err != nil {
			return Project{}, err
		}
		proj.Commands = cmds
		if !r.faults.SilentMalformedManifest {
			warnings = append(warnings, w...)
		}
	}
	if len(all) > DetectReportedManifests {
		warnings = append(warnings, fmt.Sprintf("Detected %d manifests; only the first %d were reported.", len(all), DetectReportedManifests))
	}
	switch {
	case rootFiles[projectPath(root, "pnpm-lock.yaml")]:
		proj.PackageManager = "pnpm"
	case rootFiles[projectPath(root, "yarn.lock")]:
		proj.PackageManager = "yarn"
	case rootFiles[projectPath(root, "bun.lock")] || rootFiles[projectPath(root, "bun.lockb")]:
		proj.PackageManager = "bun"
	case rootFiles[pkg]:
		proj.PackageManager = "npm"
	}
	proj.Warnings = dedupe(warnings)
	return proj, nil
}

// scanProject lists the project breadth-first, one List page at a time.
func (r *Root) scanProject(ctx context.Context, root string) ([]Entry, ProjectScan, []string, error) {
	type dir struct {
		path  string
		depth int
	}
	seen := map[string]bool{}
	var entries []Entry
	queue := []dir{{root, 0}}
	queued := map[string]bool{root: true}
	deepest, pages := 0, 0
	var adapterLimit, depthLimit, entryLimit, pageLimit bool
scan:
	for qi := 0; qi < len(queue); qi++ {
		d := queue[qi]
		cursor := ""
		cursors := map[string]bool{}
		for {
			if pages >= DetectMaxPages {
				pageLimit = true
				break scan
			}
			pages++
			res, err := r.List(ctx, ListRequest{Path: d.path, Depth: 1, Limit: DetectPageSize, Cursor: cursor})
			if CodeOf(err) == hosterr.LimitExceeded {
				adapterLimit = true
				break
			}
			if err != nil {
				return nil, ProjectScan{}, nil, err
			}
			for _, e := range res.Entries {
				if seen[e.Path] {
					continue
				}
				if len(entries) >= DetectMaxEntries {
					entryLimit = true
					break scan
				}
				seen[e.Path] = true
				entries = append(entries, e)
				depth := d.depth + 1
				deepest = max(deepest, depth)
				if e.Kind != KindDirectory {
					continue
				}
				if depth >= r.detectMaxDepth() {
					depthLimit = true
					continue
				}
				if !queued[e.Path] {
					queued[e.Path] = true
					queue = append(queue, dir{e.Path, depth})
				}
			}
			if !res.Pagination.HasMore {
				break
			}
			next := res.Pagination.NextCursor
			if next == "" || next == cursor || cursors[next] {
				return nil, ProjectScan{}, nil, fail(hosterr.Conflict, "Workspace pagination did not make forward progress.")
			}
			cursors[next] = true
			cursor = next
		}
	}
	var warnings []string
	if adapterLimit {
		warnings = append(warnings, "The workspace adapter limit prevented a complete project scan.")
	}
	if depthLimit {
		warnings = append(warnings, fmt.Sprintf("The project scan reached its maximum depth of %d; deeper entries were not inspected.", r.detectMaxDepth()))
	}
	if entryLimit {
		warnings = append(warnings, fmt.Sprintf("The project scan reached its limit of %d entries; remaining entries were not inspected.", DetectMaxEntries))
	}
	if pageLimit {
		warnings = append(warnings, fmt.Sprintf("The project scan reached its limit of %d pages; remaining entries were not inspected.", DetectMaxPages))
	}
	if r.faults.IncompleteScanAsComplete {
		warnings = nil
	}
	slices.SortFunc(entries, func(a, b Entry) int { return compareUTF16(a.Path, b.Path) })
	return entries, ProjectScan{
		Complete:       len(warnings) == 0,
		DeepestDepth:   deepest,
		EntriesScanned: len(entries),
		MaxDepth:       r.detectMaxDepth(),
	}, warnings, nil
}

// packageScripts reads the string-valued scripts of a root package.json.
// A manifest that is too large, not UTF-8, not JSON, not an object or has
// non-object scripts gives a warning and no commands.
func (r *Root) packageScripts(ctx context.Context, p string) (map[string]string, []string, error) {
	none := map[string]string{}
	res, err := r.ReadText(ctx, ReadRequest{Path: p, MaxBytes: DetectRootManifestMaxBytes})
	switch {
	case CodeOf(err) == hosterr.InvalidInput:
		// Not in the original, which fails detection here: an undecodable
		// manifest is malformed evidence, not a reason to report nothing.
		return none, []string{fmt.Sprintf("Root manifest '%s' is not valid UTF-8 text; scripts were not parsed.", p)}, nil
	case CodeOf(err) == hosterr.LimitExceeded:
		return none, []string{fmt.Sprintf("Root manifest '%s' exceeds %d readable bytes; scripts were not parsed.", p, DetectRootManifestMaxBytes)}, nil
	case err != nil:
		return nil, nil, err
	case res.Truncated:
		return none, []string{fmt.Sprintf("Root manifest '%s' exceeds %d readable bytes; scripts were not parsed.", p, DetectRootManifestMaxBytes)}, nil
	}
	var doc any
	if err := json.Unmarshal([]byte(res.Content), &doc); err != nil {
		return none, []string{fmt.Sprintf("Root manifest '%s' is not valid JSON; scripts were not parsed.", p)}, nil
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return none, []string{fmt.Sprintf("Root manifest '%s' must contain a JSON object; scripts were not parsed.", p)}, nil
	}
	raw, present := obj["scripts"]
	if !present {
		return none, nil, nil
	}
	scripts, ok := raw.(map[string]any)
	if !ok {
		return none, []string{fmt.Sprintf("Root manifest '%s' has a non-object 'scripts' field; scripts were not parsed.", p)}, nil
	}
	var warnings []string
	cmds := map[string]string{}
	for name, v := range scripts {
		if s, ok := v.(string); ok {
			cmds[name] = s
		} else if warnings == nil {
			warnings = []string{fmt.Sprintf("Root manifest '%s' contains non-string scripts; those entries were ignored.", p)}
		}
	}
	return cmds, warnings, nil
}

// projectPath joins a project root and a name root-relatively.
func projectPath(root, name string) string {
	clean := path.Clean(root)
	if clean == "." {
		return name
	}
	return strings.TrimSuffix(strings.TrimPrefix(clean, "./"), "/") + "/" + name
}

// extension is the lower-cased text from the last "." after the last "/".
func extension(p string) string {
	slash, dot := strings.LastIndex(p, "/"), strings.LastIndex(p, ".")
	if dot > slash {
		return strings.ToLower(p[dot:])
	}
	return ""
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, compareUTF16)
	return out
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
