package reference

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/projectformat"
)

// Bounds of a project.format plan.
const (
	formatMaxFileBytes     = 256 << 10 // one selected file
	formatMaxTotalBytes    = 1 << 20   // every selected file together
	formatMaxManifestBytes = 64 << 10  // the recipe manifest
	formatMaxPathBytes     = 512       // one selected path
)

// recipeMarkers are the manifests that make a directory a recipe root, by
// adapter.
var recipeMarkers = map[string]string{
	catalog.AdapterRust:   "Cargo.toml",
	catalog.AdapterPython: "pyproject.toml",
	catalog.AdapterGo:     "go.mod",
}

// formatArgs are project.format's arguments.
type formatArgs struct {
	Cwd     string   `json:"cwd"`
	Adapter string   `json:"adapter"`
	Files   []string `json:"files"`
}

// formatPlan is the closed plan of one call: the adapter, the recipe root,
// the manifest witness, the fixed command and each selected file with its
// original bytes.
type formatPlan struct {
	adapter  string
	root     string // workspace-relative recipe root, "." for the workspace
	manifest []byte // the recipe manifest's bytes (the provenance witness)
	edition  string // Rust only
	files    []plannedFile
}

type plannedFile struct {
	rel      string // workspace-relative
	original []byte
}

// planError is a refusal of the planner, before anything runs: its code is
// the result's error code.
type planError struct{ code, msg string }

func (e *planError) Error() string { return e.msg }

func refuse(code, format string, args ...any) error {
	return &planError{code: code, msg: fmt.Sprintf(format, args...)}
}

// checkFormatPath applies the path rules the input schema cannot state
// everywhere: bounded length, no backslash, control character or NUL, no
// absolute path, empty, "." or ".." segment.
func checkFormatPath(p string) error {
	switch {
	case len(p) == 0 || len(p) > formatMaxPathBytes:
		return refuse("INVALID_INPUT", "%q must be 1 to %d bytes", p, formatMaxPathBytes)
	case strings.ContainsRune(p, '\\'):
		return refuse("INVALID_INPUT", "%q uses a Windows separator; write workspace paths with '/'", p)
	case strings.IndexFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return refuse("INVALID_INPUT", "%q holds a control character or NUL", p)
	case !utf8.ValidString(p):
		return refuse("INVALID_INPUT", "%q is not UTF-8", p)
	case strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return refuse("INVALID_INPUT", "%q is absolute; name a workspace-relative path", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == ".." || (seg == "." && p != ".") {
			return refuse("INVALID_INPUT", "%q has an empty, '.' or '..' segment", p)
		}
	}
	return nil
}

// plan builds the closed plan of a call against the workspace as it is
// now. It reads nothing outside the workspace and writes nothing.
func (s *session) planFormat(ws *os.Root, a formatArgs) (*formatPlan, error) {
	if len(a.Files) == 0 || len(a.Files) > catalog.ProjectFormatMaxFiles {
		return nil, refuse("INVALID_INPUT", "name 1 to %d files, not %d", catalog.ProjectFormatMaxFiles, len(a.Files))
	}
	seen := map[string]bool{}
	for _, f := range a.Files {
		if err := checkFormatPath(f); err != nil {
			return nil, err
		}
		if seen[f] {
			return nil, refuse("INVALID_INPUT", "%s is named twice", f)
		}
		seen[f] = true
	}
	if a.Cwd != "" {
		if err := checkFormatPath(a.Cwd); err != nil {
			return nil, err
		}
	}
	adapter, err := projectformat.Resolve(a.Adapter, a.Files)
	if err != nil {
		return nil, refuse("INVALID_INPUT", "%v", err)
	}
	flags := s.extensions
	if s.faults.Format.IgnoreGoFlag {
		flags = append(slices.Clone(flags), catalog.FlagProjectFormatGo)
	}
	if err := projectformat.Admit(flags, adapter); err != nil {
		return nil, refuse("UNAVAILABLE", "%v", err)
	}
	start := a.Cwd
	if start == "" {
		start = path.Dir(a.Files[0])
	}
	root, err := recipeRoot(ws, start, adapter)
	if err != nil {
		return nil, err
	}
	p := &formatPlan{adapter: adapter, root: root}
	for _, f := range a.Files {
		own, err := recipeRoot(ws, path.Dir(f), adapter)
		if err != nil {
			return nil, err
		}
		if own != root && !s.faults.Format.AcceptCrossRoot {
			return nil, refuse("INVALID_INPUT", "%s belongs to the recipe root %s, not %s; format each root in its own call", f, own, root)
		}
	}
	if p.manifest, err = readBounded(ws, path.Join(root, recipeMarkers[adapter]), formatMaxManifestBytes); err != nil {
		return nil, err
	}
	if !utf8.Valid(p.manifest) {
		return nil, refuse("UNAVAILABLE", "%s is not UTF-8", path.Join(root, recipeMarkers[adapter]))
	}
	if err := p.checkProfile(ws); err != nil {
		return nil, err
	}
	if s.faults.Format.FixedRustEdition && p.adapter == catalog.AdapterRust {
		p.edition = "2021"
	}
	total := 0
	for _, f := range a.Files {
		data, err := s.readSelected(ws, f)
		if err != nil {
			return nil, err
		}
		total += len(data)
		if total > formatMaxTotalBytes {
			return nil, refuse("LIMIT_EXCEEDED", "the selected files exceed %d bytes together", formatMaxTotalBytes)
		}
		p.files = append(p.files, plannedFile{rel: f, original: data})
	}
	return p, nil
}

// recipeRoot is the nearest directory at or above dir, within the
// workspace, that holds the adapter's manifest. A directory that also
// holds another adapter's manifest is ambiguous and refused.
func recipeRoot(ws *os.Root, dir, adapter string) (string, error) {
	for d := path.Clean(dir); ; d = path.Dir(d) {
		fi, err := ws.Lstat(path.Join(d, recipeMarkers[adapter]))
		if err == nil {
			if !fi.Mode().IsRegular() {
				return "", refuse("INVALID_INPUT", "%s is not a regular file", path.Join(d, recipeMarkers[adapter]))
			}
			for other, m := range recipeMarkers {
				if other == adapter {
					continue
				}
				if _, err := ws.Lstat(path.Join(d, m)); err == nil {
					return "", refuse("INVALID_INPUT", "the recipe root %s is ambiguous: it holds %s and %s", d, recipeMarkers[adapter], m)
				}
			}
			return d, nil
		}
		if d == "." {
			return "", refuse("INVALID_INPUT", "no %s at or above %s in the workspace", recipeMarkers[adapter], dir)
		}
	}
}

// readSelected reads one selected file: a regular file, not a symbolic
// link, no symbolic link on the way, within the per-file bound.
func (s *session) readSelected(ws *os.Root, rel string) ([]byte, error) {
	fi, err := ws.Lstat(rel)
	if err != nil {
		return nil, refuse("NOT_FOUND", "%s cannot be read: %v", rel, unwrapPath(err))
	}
	if fi.Mode()&fs.ModeSymlink != 0 && !s.faults.Format.AcceptSymlinkTarget {
		return nil, refuse("INVALID_INPUT", "%s is a symbolic link; name the file itself", rel)
	}
	if fi.Mode()&fs.ModeSymlink == 0 && !fi.Mode().IsRegular() {
		return nil, refuse("INVALID_INPUT", "%s is not a regular file", rel)
	}
	if dir := path.Dir(rel); dir != "." && !s.faults.Format.AcceptSymlinkTarget {
		real, err := filepath.EvalSymlinks(filepath.Join(s.root.Dir(), filepath.FromSlash(dir)))
		if err != nil || real != filepath.Join(s.root.Dir(), filepath.FromSlash(dir)) {
			return nil, refuse("INVALID_INPUT", "%s lies below a symbolic link", rel)
		}
	}
	return readBounded(ws, rel, formatMaxFileBytes)
}

// readBounded reads rel through ws (which refuses escapes), refusing more
// than limit bytes.
func readBounded(ws *os.Root, rel string, limit int) ([]byte, error) {
	f, err := ws.Open(rel)
	if err != nil {
		return nil, refuse("NOT_FOUND", "%s cannot be read: %v", rel, unwrapPath(err))
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, int64(limit)+1)); err != nil {
		return nil, refuse("IO_ERROR", "%s cannot be read: %v", rel, err)
	}
	if buf.Len() > limit {
		return nil, refuse("LIMIT_EXCEEDED", "%s is larger than %d bytes", rel, limit)
	}
	return buf.Bytes(), nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkProfile applies the adapter's closed configuration profile to the
// manifest: the Rust edition (no custom rustfmt configuration), or the
// Ruff rules (a local [tool.ruff] with target-version and no extend).
func (p *formatPlan) checkProfile(ws *os.Root) error {
	switch p.adapter {
	case catalog.AdapterRust:
		for _, cfg := range []string{"rustfmt.toml", ".rustfmt.toml"} {
			if _, err := ws.Lstat(path.Join(p.root, cfg)); err == nil {
				return refuse("UNAVAILABLE", "%s has a custom %s; custom rustfmt configurations are not supported", p.root, cfg)
			}
		}
		var m struct {
			Package struct {
				Edition string `toml:"edition"`
			} `toml:"package"`
			Workspace map[string]any `toml:"workspace"`
		}
		if _, err := toml.Decode(string(p.manifest), &m); err != nil {
			return refuse("UNAVAILABLE", "Cargo.toml does not parse: %v", err)
		}
		p.edition = m.Package.Edition
		if p.edition == "" {
			p.edition = "2015" // Cargo's default edition
		}
		if !slices.Contains([]string{"2015", "2018", "2021", "2024"}, p.edition) {
			return refuse("UNAVAILABLE", "Cargo.toml edition %q is not 2015, 2018, 2021 or 2024", p.edition)
		}
	case catalog.AdapterPython:
		var m struct {
			Tool struct {
				Ruff map[string]any `toml:"ruff"`
			} `toml:"tool"`
		}
		if _, err := toml.Decode(string(p.manifest), &m); err != nil {
			return refuse("UNAVAILABLE", "pyproject.toml does not parse: %v", err)
		}
		if m.Tool.Ruff == nil {
			return refuse("UNAVAILABLE", "pyproject.toml has no [tool.ruff]; Python formatting needs a local Ruff configuration")
		}
		if _, ok := m.Tool.Ruff["target-version"].(string); !ok {
			return refuse("UNAVAILABLE", "[tool.ruff] names no target-version")
		}
		if _, ok := m.Tool.Ruff["extend"]; ok {
			return refuse("UNAVAILABLE", "[tool.ruff] uses extend, which is not supported")
		}
	}
	return nil
}

// witness is the provenance of the plan, compared before execution and
// before each write: the recipe root and its manifest bytes.
func (p *formatPlan) witness() [32]byte {
	return sha256.Sum256(append([]byte(p.adapter+"\x00"+p.root+"\x00"), p.manifest...))
}
