package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// A WriteRequest creates or replaces one UTF-8 file. The precondition is
// required: MustNotExist to create (missing parent directories are
// created), MatchesSHA256 to replace (no directory is ever created for a
// hash-bound write).
type WriteRequest struct {
	Path         string
	Content      string
	Precondition Precondition
}

// A WriteResult reports a committed write in the original port's key order
// (LAB_AND_HOSTS §10.6 step 8). Hashes are bare hex; BeforeContentSha256 is
// empty when the target did not exist; Length counts UTF-16 units. Writes
// is the typed evidence of the change — the target and any directory
// created for it, with "sha256:" hashes — and is not part of the JSON.
type WriteResult struct {
	Path                string       `json:"path"`
	ResolvedPath        string       `json:"resolvedPath"`
	BeforeContentSha256 string       `json:"beforeContentSha256,omitempty"`
	AfterContentSha256  string       `json:"afterContentSha256"`
	Length              int          `json:"length"`
	Writes              []port.Write `json:"-"`
}

// WriteText atomically creates or replaces a text file (LAB_AND_HOSTS
// §10.6). The precondition is enforced inside the same serialized commit.
// A rejected write (precondition failure, a no-op write, which is CONFLICT,
// invalid UTF-8 in the current file, a symlink anywhere in the path) leaves
// the target's bytes and inode untouched.
func (r *Root) WriteText(ctx context.Context, req WriteRequest) (WriteResult, error) {
	if err := req.Precondition.validate(); err != nil {
		return WriteResult{}, err
	}
	c, err := r.commitText(ctx, req.Path, req.Precondition.Kind == MustNotExist, func(cur targetState) ([]byte, error) {
		if err := req.Precondition.check(cur); err != nil && !r.preconditionPasses(req.Precondition, cur) {
			return nil, err
		}
		return []byte(req.Content), nil
	})
	if err != nil {
		return WriteResult{}, err
	}
	res := WriteResult{
		Path:               req.Path,
		ResolvedPath:       c.abs,
		AfterContentSha256: SHA256Hex(c.after),
		Length:             canon.UTF16Len(req.Content),
		Writes:             c.writes(),
	}
	if c.before.exists {
		res.BeforeContentSha256 = SHA256Hex(c.before.data)
	}
	return res, nil
}

// A PatchRequest replaces an exact fragment of one UTF-8 file. OldText must
// occur exactly once unless ReplaceAll. Precondition is optional; without
// it the edit is bound to the content read inside the same commit.
type PatchRequest struct {
	Path         string
	OldText      string
	NewText      string
	ReplaceAll   bool
	Precondition *Precondition
}

// A PatchResult reports a committed patch (LAB_AND_HOSTS §10.7 step 6).
// Replacements is the number of occurrences replaced. Writes is the typed
// evidence of the change and is not part of the JSON.
type PatchResult struct {
	Path                string       `json:"path"`
	ResolvedPath        string       `json:"resolvedPath"`
	BeforeContentSha256 string       `json:"beforeContentSha256"`
	AfterContentSha256  string       `json:"afterContentSha256"`
	Replacements        int          `json:"replacements"`
	Writes              []port.Write `json:"-"`
}

// ApplyPatch replaces OldText by NewText literally (no "$" patterns,
// DECISIONS 48) and commits the result like WriteText. A missing target is
// NOT_FOUND; an absent or ambiguous OldText is CONFLICT; an empty OldText or
// NewText equal to OldText is INVALID_INPUT.
func (r *Root) ApplyPatch(ctx context.Context, req PatchRequest) (PatchResult, error) {
	if err := checkContext(ctx); err != nil {
		return PatchResult{}, err
	}
	if req.OldText == "" {
		return PatchResult{}, fail(hosterr.InvalidInput, "Patch oldText must not be empty.")
	}
	if req.OldText == req.NewText {
		return PatchResult{}, fail(hosterr.InvalidInput, "Patch newText must differ from oldText.")
	}
	if req.Precondition != nil {
		if err := req.Precondition.validate(); err != nil {
			return PatchResult{}, err
		}
	}
	count := 0
	c, err := r.commitText(ctx, req.Path, false, func(cur targetState) ([]byte, error) {
		if !cur.exists {
			return nil, fail(hosterr.NotFound, "Workspace path does not exist: '%s'.", req.Path)
		}
		if !cur.regular {
			return nil, notRegular(req.Path)
		}
		if req.Precondition != nil {
			if err := req.Precondition.check(cur); err != nil && !r.preconditionPasses(*req.Precondition, cur) {
				return nil, err
			}
		}
		text := string(cur.data)
		count = strings.Count(text, req.OldText)
		switch {
		case count == 0:
			return nil, fail(hosterr.Conflict, "Patch target was not found. Re-read the exact region and copy its bytes verbatim; common causes are CRLF line endings, invisible characters, Unicode normalization differences, or edited content.")
		case count > 1 && !req.ReplaceAll && !r.faults.EditFirstOfAmbiguous:
			return nil, fail(hosterr.Conflict, "Patch target is ambiguous. Extend oldText with more surrounding lines so it matches exactly one location.")
		case req.ReplaceAll:
			return []byte(strings.ReplaceAll(text, req.OldText, req.NewText)), nil
		}
		return []byte(strings.Replace(text, req.OldText, req.NewText, 1)), nil
	})
	if err != nil {
		return PatchResult{}, err
	}
	replacements := 1
	if req.ReplaceAll {
		replacements = count
	}
	return PatchResult{
		Path:                req.Path,
		ResolvedPath:        c.abs,
		BeforeContentSha256: SHA256Hex(c.before.data),
		AfterContentSha256:  SHA256Hex(c.after),
		Replacements:        replacements,
		Writes:              c.writes(),
	}, nil
}

// A MkdirResult reports whether Mkdir created anything. Writes is the
// typed evidence (one missing→directory write per created directory) and
// is not part of the JSON.
type MkdirResult struct {
	Created bool         `json:"created"`
	Path    string       `json:"path"`
	Writes  []port.Write `json:"-"`
}

// Mkdir creates the directory rel (LAB_AND_HOSTS §10.8). With recursive,
// missing parents are created too; without it a missing parent is
// NOT_FOUND. An existing real directory is not an error (Created false);
// an existing non-directory is ALREADY_EXISTS.
func (r *Root) Mkdir(ctx context.Context, rel string, recursive bool) (MkdirResult, error) {
	if err := checkContext(ctx); err != nil {
		return MkdirResult{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	abs, clean, err := r.resolveForWrite(rel, false)
	if err != nil {
		return MkdirResult{}, err
	}
	var created []string
	if recursive {
		if created, err = r.makeDirs(rel, clean); err != nil {
			return MkdirResult{}, err
		}
	} else {
		err := os.Mkdir(abs, 0o777)
		switch {
		case err == nil:
			created = []string{clean}
		case errors.Is(err, fs.ErrExist):
			fi, lerr := os.Lstat(abs)
			if lerr != nil || !fi.IsDir() {
				return MkdirResult{}, &hosterr.Error{Library: library, Code: hosterr.AlreadyExists, Message: "Workspace path exists and is not a directory: '" + rel + "'.", Err: err}
			}
		case errors.Is(err, fs.ErrNotExist):
			return MkdirResult{}, &hosterr.Error{Library: library, Code: hosterr.NotFound, Message: "Workspace parent directory does not exist: '" + path.Dir(clean) + "'.", Err: err}
		default:
			return MkdirResult{}, ioError(rel, err)
		}
	}
	if _, _, err := r.resolveForWrite(rel, false); err != nil {
		return MkdirResult{}, err
	}
	res := MkdirResult{Created: len(created) > 0, Path: rel}
	for _, d := range created {
		res.Writes = append(res.Writes, port.Write{Path: d, BeforeKind: KindMissing, AfterKind: KindDirectory})
	}
	return res, nil
}
