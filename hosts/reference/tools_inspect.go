package reference

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
)

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// resolve maps a workspace-relative path to an absolute one beneath the
// root, rejecting lexical and symlink escapes.
func (h *Host) resolve(rel string) (string, error) {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") || strings.ContainsRune(rel, 0) ||
		(len(rel) > 1 && rel[1] == ':') {
		return "", errors.New("path must be workspace-relative POSIX")
	}
	clean := path.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", errors.New("path escapes the workspace")
	}
	abs := filepath.Join(h.root, filepath.FromSlash(clean))
	root, err := filepath.EvalSymlinks(h.root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return abs, err
		}
		return "", err
	}
	if real != root && !strings.HasPrefix(real, root+string(filepath.Separator)) {
		return "", errors.New("path escapes the workspace through a symlink")
	}
	return abs, nil
}

func pathArg(args map[string]any, def string) string {
	if p, ok := args["path"].(string); ok {
		return p
	}
	return def
}

func success(content any, summary, trust string, inspected ...string) (port.ToolResult, error) {
	b, err := json.Marshal(content)
	if err != nil {
		return port.ToolResult{}, err
	}
	return port.ToolResult{
		OK: true, Content: string(b), Summary: summary, Trust: trust,
		EffectsAuthority: "host",
		Effects:          &port.Effects{Approval: "not_required", InspectedPaths: inspected},
	}, nil
}

func ioFailure(err error) port.ToolResult {
	code := "IO_ERROR"
	switch {
	case errors.Is(err, fs.ErrNotExist):
		code = "NOT_FOUND"
	case strings.Contains(err.Error(), "escapes"), strings.Contains(err.Error(), "workspace-relative"):
		code = "PERMISSION_DENIED"
	}
	return failure("", code, err.Error())
}

type fileEntry struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

func entryKind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}

func listFiles(ctx context.Context, h *Host, args map[string]any) (port.ToolResult, error) {
	rel := pathArg(args, ".")
	abs, err := h.resolve(rel)
	if err != nil {
		return ioFailure(err), nil
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return ioFailure(err), nil
	}
	out := []fileEntry{}
	for _, e := range ents {
		p := path.Join(rel, e.Name())
		out = append(out, fileEntry{Path: p, Name: e.Name(), Kind: entryKind(e.Type())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return success(map[string]any{"entries": out, "truncated": false}, "listed "+rel, "workspace", path.Clean(rel))
}

func readFile(ctx context.Context, h *Host, args map[string]any) (port.ToolResult, error) {
	rel := pathArg(args, "")
	abs, err := h.resolve(rel)
	if err != nil {
		return ioFailure(err), nil
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return ioFailure(err), nil
	}
	lines := strings.Count(string(b), "\n")
	return success(map[string]any{
		"path": rel, "content": string(b), "contentHash": hashBytes(b),
		"startLine": 1, "endLine": lines, "truncated": false,
		"provenance": map[string]any{"source": "workspace:" + rel, "trust": "untrusted_workspace", "contentHash": hashBytes(b)},
	}, "read "+rel, "workspace", path.Clean(rel))
}

func detectProject(ctx context.Context, h *Host, args map[string]any) (port.ToolResult, error) {
	rel := pathArg(args, ".")
	abs, err := h.resolve(rel)
	if err != nil {
		return ioFailure(err), nil
	}
	langs := map[string]bool{}
	manifests := []string{}
	commands := map[string]string{}
	warnings := []string{}
	pm := ""
	entries, deepest := 0, 0
	const maxDepth = 4
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		r, _ := filepath.Rel(abs, p)
		r = filepath.ToSlash(r)
		depth := 0
		if r != "." {
			depth = strings.Count(r, "/") + 1
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == ".git" || depth > maxDepth {
				return filepath.SkipDir
			}
			return nil
		}
		entries++
		if depth > deepest {
			deepest = depth
		}
		switch {
		case d.Name() == "package.json" && d.Type().IsRegular():
			manifests = append(manifests, r)
			langs["JavaScript"] = true
			pm = "npm"
			b, _ := os.ReadFile(p)
			var pkg struct {
				Scripts map[string]string `json:"scripts"`
			}
			if json.Unmarshal(b, &pkg) != nil {
				warnings = append(warnings, "malformed manifest: "+r)
			}
			for k, v := range pkg.Scripts {
				commands[k] = v
			}
		case d.Name() == "go.mod":
			manifests = append(manifests, r)
			langs["Go"] = true
		case d.Name() == "Cargo.toml":
			manifests = append(manifests, r)
			langs["Rust"] = true
		case d.Name() == "pyproject.toml":
			manifests = append(manifests, r)
			langs["Python"] = true
		case strings.HasSuffix(d.Name(), ".ts") || d.Name() == "tsconfig.json":
			langs["TypeScript"] = true
		}
		return nil
	})
	if err != nil {
		return ioFailure(err), nil
	}
	var ls []string
	for l := range langs {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	sort.Strings(manifests)
	out := map[string]any{
		"projectRoot": rel, "languages": ls, "manifests": manifests, "commands": commands,
		"scan":     map[string]any{"complete": true, "entriesScanned": entries, "deepestDepth": deepest, "maxDepth": maxDepth},
		"warnings": warnings,
	}
	if pm != "" {
		out["packageManager"] = pm
	}
	return success(out, "detected project at "+rel, "workspace", path.Clean(rel))
}
