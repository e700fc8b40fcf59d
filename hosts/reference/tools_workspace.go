package reference

import (
	"context"
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// provenance marks model-visible workspace content as untrusted.
type provenance struct {
	Source      string `json:"source"`
	Trust       string `json:"trust"`
	ContentHash string `json:"contentHash,omitempty"`
}

func inspected(paths ...string) *port.Effects { return &port.Effects{InspectedPaths: paths} }

func listFiles(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Path   string `json:"path"`
		Depth  int    `json:"depth"`
		Limit  int    `json:"limit"`
		Cursor string `json:"cursor"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	r, err := s.root.List(ctx, workspace.ListRequest{Path: a.Path, Depth: a.Depth, Limit: a.Limit, Cursor: a.Cursor})
	if err != nil {
		return outcome{}, typed(err)
	}
	out := struct {
		Entries    []workspace.Entry `json:"entries"`
		Truncated  bool              `json:"truncated"`
		NextCursor string            `json:"nextCursor,omitempty"`
	}{nonNil(r.Entries), r.Pagination.HasMore, r.Pagination.NextCursor}
	return outcome{Output: out, Summary: fmt.Sprintf("Listed %d workspace entries.", len(out.Entries)), Trust: "workspace", Effects: inspected(a.Path)}, nil
}

func globFiles(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Pattern string `json:"pattern"`
		Path    string `json:"path"`
		Kind    string `json:"kind"`
		Limit   int    `json:"limit"`
		Cursor  string `json:"cursor"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	kind := a.Kind
	if kind == "any" {
		kind = ""
	}
	r, err := s.root.Glob(ctx, workspace.GlobRequest{Pattern: a.Pattern, Path: a.Path, Kind: kind, Limit: a.Limit, Cursor: a.Cursor})
	if err != nil {
		return outcome{}, typed(err)
	}
	out := struct {
		Matches    []string `json:"matches"`
		Truncated  bool     `json:"truncated"`
		NextCursor string   `json:"nextCursor,omitempty"`
	}{nonNil(r.Matches), r.Pagination.HasMore, r.Pagination.NextCursor}
	path := a.Path
	if path == "" {
		path = "."
	}
	return outcome{Output: out, Summary: fmt.Sprintf("Found %d matching workspace paths.", len(out.Matches)), Trust: "workspace", Effects: inspected(path)}, nil
}

type grepMatch struct {
	Path        string `json:"path"`
	Line        int    `json:"line"`
	Column      int    `json:"column,omitempty"`
	Preview     string `json:"preview"`
	ContentHash string `json:"contentHash,omitempty"`
}

func searchText(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Query         string `json:"query"`
		Regex         bool   `json:"regex"`
		CaseSensitive *bool  `json:"caseSensitive"`
		Glob          string `json:"glob"`
		Path          string `json:"path"`
		Limit         int    `json:"limit"`
		Cursor        string `json:"cursor"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	r, err := s.root.Grep(ctx, workspace.GrepRequest{Query: a.Query, Regex: a.Regex, CaseSensitive: a.CaseSensitive, Glob: a.Glob, Path: a.Path, Limit: a.Limit, Cursor: a.Cursor})
	if err != nil {
		return outcome{}, typed(err)
	}
	matches := []grepMatch{}
	var paths []string
	seen := map[string]bool{}
	for _, m := range r.Matches {
		matches = append(matches, grepMatch{Path: m.Path, Line: m.Line, Column: m.Column, Preview: m.Preview, ContentHash: m.ContentSha256})
		if !seen[m.Path] {
			seen[m.Path] = true
			paths = append(paths, m.Path)
		}
	}
	out := struct {
		Matches    []grepMatch `json:"matches"`
		Truncated  bool        `json:"truncated"`
		Provenance provenance  `json:"provenance"`
		NextCursor string      `json:"nextCursor,omitempty"`
	}{matches, r.Pagination.HasMore, provenance{Source: "workspace.searchText", Trust: "untrusted_workspace"}, r.Pagination.NextCursor}
	eff := &port.Effects{}
	if len(paths) > 0 {
		eff.InspectedPaths = paths
	}
	return outcome{Output: out, Summary: fmt.Sprintf("Found %d text matches.", len(matches)), Trust: "workspace", Effects: eff}, nil
}

func readFile(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Path      string `json:"path"`
		StartLine int    `json:"startLine"`
		EndLine   int    `json:"endLine"`
		MaxBytes  int    `json:"maxBytes"`
		Cursor    string `json:"cursor"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	r, err := s.root.ReadText(ctx, workspace.ReadRequest{Path: a.Path, StartLine: a.StartLine, EndLine: a.EndLine, MaxBytes: a.MaxBytes, Cursor: a.Cursor})
	if err != nil {
		return outcome{}, typed(err)
	}
	out := struct {
		Path        string     `json:"path"`
		Content     string     `json:"content"`
		ContentHash string     `json:"contentHash"`
		StartLine   int        `json:"startLine"`
		EndLine     int        `json:"endLine"`
		Truncated   bool       `json:"truncated"`
		Provenance  provenance `json:"provenance"`
		NextCursor  string     `json:"nextCursor,omitempty"`
	}{r.Path, r.Content, r.ContentSha256, r.StartLine, r.EndLine, r.Truncated,
		provenance{Source: "workspace.readText", Trust: "untrusted_workspace", ContentHash: r.ContentSha256}, r.Pagination.NextCursor}
	return outcome{Output: out, Summary: fmt.Sprintf("Read %s:%d-%d.", r.Path, r.StartLine, r.EndLine), Trust: "workspace", Effects: inspected(a.Path)}, nil
}

// modelPrecondition is a precondition as the model writes it: the hash may
// carry a "sha256:" prefix and any case.
type modelPrecondition struct {
	Kind          string `json:"kind"`
	ContentSha256 string `json:"contentSha256"`
}

func (m *modelPrecondition) port() *workspace.Precondition {
	if m == nil {
		return nil
	}
	return &workspace.Precondition{Kind: m.Kind, ContentSha256: strings.ToLower(strings.TrimPrefix(strings.ToLower(m.ContentSha256), "sha256:"))}
}

func writeFile(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Path         string             `json:"path"`
		Content      string             `json:"content"`
		Precondition *modelPrecondition `json:"precondition"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	pre := a.Precondition.port()
	if pre == nil {
		pre = &workspace.Precondition{}
	}
	before, err := s.baseline(ctx)
	if err != nil {
		return outcome{}, err
	}
	res, werr := s.root.WriteText(ctx, workspace.WriteRequest{Path: a.Path, Content: a.Content, Precondition: *pre})
	diff, err := s.observe(ctx, before)
	if err != nil {
		return outcome{}, err
	}
	if werr != nil {
		if len(diff.Observed) > 0 {
			return outcome{}, unknownf("the write failed (%v) but the workspace changed", werr)
		}
		return outcome{}, typedOrUnknown(werr)
	}
	if err := s.checkTargetWrite(diff, res.Path, res.BeforeContentSha256, res.AfterContentSha256, res.Writes); err != nil {
		return outcome{}, err
	}
	diff.Writes = s.root.Attested(diff.Writes)
	out := struct {
		workspace.WriteResult
		DerivedMutations *workspace.DerivedMutations `json:"derivedMutations,omitempty"`
	}{res, diff.DerivedMutations()}
	return outcome{Output: out, Summary: fmt.Sprintf("Wrote %d characters to %s.", res.Length, res.Path), Trust: "trusted",
		Effects: s.writeEffects(diff, res.Writes)}, nil
}

func editFile(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Path         string             `json:"path"`
		OldText      string             `json:"oldText"`
		NewText      string             `json:"newText"`
		ReplaceAll   bool               `json:"replaceAll"`
		Precondition *modelPrecondition `json:"precondition"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	before, err := s.baseline(ctx)
	if err != nil {
		return outcome{}, err
	}
	res, perr := s.root.ApplyPatch(ctx, workspace.PatchRequest{Path: a.Path, OldText: a.OldText, NewText: a.NewText, ReplaceAll: a.ReplaceAll, Precondition: a.Precondition.port()})
	diff, err := s.observe(ctx, before)
	if err != nil {
		return outcome{}, err
	}
	if perr != nil {
		if len(diff.Observed) > 0 {
			return outcome{}, unknownf("the edit failed (%v) but the workspace changed", perr)
		}
		return outcome{}, typedOrUnknown(perr)
	}
	if err := s.checkTargetWrite(diff, res.Path, res.BeforeContentSha256, res.AfterContentSha256, res.Writes); err != nil {
		return outcome{}, err
	}
	diff.Writes = s.root.Attested(diff.Writes)
	out := struct {
		workspace.PatchResult
		DerivedMutations *workspace.DerivedMutations `json:"derivedMutations,omitempty"`
	}{res, diff.DerivedMutations()}
	return outcome{Output: out, Summary: fmt.Sprintf("Applied %d replacement(s) to %s.", res.Replacements, res.Path), Trust: "trusted",
		Effects: s.writeEffects(diff, res.Writes)}, nil
}

// typedOrUnknown is the result of a mutation that failed without changing
// the workspace: a typed error for a known port code, else unknown.
func typedOrUnknown(err error) error {
	if t := typed(err); t != err {
		return t
	}
	return unknownf("the adapter failed: %v", err)
}

// checkTargetWrite checks the port's account of a write against the
// snapshots (LAB §20.3): the diff must hold a write of the target from
// missing or file to file with the port's hashes.
func (s *session) checkTargetWrite(diff workspace.Diff, path, beforeHex, afterHex string, _ []port.Write) error {
	if s.faults.ForgeWriteEvidence {
		return nil
	}
	for _, w := range diff.Writes {
		if w.Path != path {
			continue
		}
		okBefore := (w.BeforeKind == workspace.KindMissing && beforeHex == "" && w.BeforeHash == nil) ||
			(w.BeforeKind == workspace.KindFile && w.BeforeHash != nil && *w.BeforeHash == workspace.HashPrefix+beforeHex)
		okAfter := w.AfterKind == workspace.KindFile && w.AfterHash != nil && *w.AfterHash == workspace.HashPrefix+afterHex
		if okBefore && okAfter {
			return nil
		}
		return unknownf("the workspace snapshots do not confirm the write of %q", path)
	}
	return unknownf("the workspace snapshots show no write of %q", path)
}

// writeEffects are the effects of a mutation: the snapshots' typed writes
// and the after state's version.
func (s *session) writeEffects(diff workspace.Diff, portWrites []port.Write) *port.Effects {
	writes := diff.Writes
	if s.faults.ForgeWriteEvidence {
		writes = portWrites
	}
	writes = s.writeFaults(writes)
	eff := &port.Effects{StateVersion: diff.StateVersion}
	if len(writes) > 0 {
		eff.Writes = writes
	}
	return eff
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
