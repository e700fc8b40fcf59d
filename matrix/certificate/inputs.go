package certificate

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hostcmd"
	"github.com/galaxy-stack/conform/matrix"
)

// HostFiles hashes the files the host command line runs. A built-in host
// ("reference", "doubles", and their mutants and variants) is served by
// the conform executable itself (os.Executable). Any other command's first
// word is found through PATH, as the host's process is started; each
// later word that names an existing regular file, relative to the current
// directory, is hashed too. An executable that cannot be found or read is
// an error naming it.
func HostFiles(command string) ([]HostFile, error) {
	if builtin.IsBuiltin(command) {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("cannot find the conform executable that serves %q: %w", command, err)
		}
		sum, err := hostcmd.HashFile(exe)
		if err != nil {
			return nil, fmt.Errorf("cannot read the conform executable: %w", err)
		}
		return []HostFile{{Role: RoleConform, Path: exe, SHA256: sum}}, nil
	}
	words, err := builtin.Words(command)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("host command %q is empty", command)
	}
	exe, err := exec.LookPath(words[0])
	if err != nil {
		return nil, fmt.Errorf("host executable %q: %w", words[0], err)
	}
	sum, err := hostcmd.HashFile(exe)
	if err != nil {
		return nil, fmt.Errorf("host executable %q: %w", exe, err)
	}
	files := []HostFile{{Role: RoleExecutable, Path: exe, SHA256: sum}}
	for i, w := range words[1:] {
		st, err := os.Stat(w)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		sum, err := hostcmd.HashFile(w)
		if err != nil {
			return nil, fmt.Errorf("host command file %q: %w", w, err)
		}
		files = append(files, HostFile{Role: RoleArgument, Word: i + 1, Path: w, SHA256: sum})
	}
	return files, nil
}

// DigestItem returns the digest of item it's definition: SHA-256 over the
// canonical JSON of its metadata (what `conform matrix --json` lists for
// it) and of the path and SHA-256 of each of its scenario files, in
// lexical path order. The spec code of an item is part of the conform
// build, which the certificate binds by version and commit.
func DigestItem(it matrix.Item, scenarios fs.FS) (string, error) {
	type file struct {
		Path   string `json:"path"`
		SHA256 string `json:"sha256"`
	}
	files := []file{}
	dir := it.ScenarioDir()
	if _, err := fs.Stat(scenarios, dir); err == nil {
		// WalkDir visits entries in lexical order: the list is
		// deterministic.
		err := fs.WalkDir(scenarios, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(scenarios, p)
			if err != nil {
				return err
			}
			files = append(files, file{Path: p, SHA256: canon.HashBytes(b)})
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("item %s scenarios: %w", it.Ref(), err)
		}
	}
	return canon.Hash(struct {
		Item  matrix.Item `json:"item"`
		Files []file      `json:"files"`
	}{it, files})
}

// ItemDigests returns the digest of each item ids names, in the order
// given, over the scenarios embedded in this conform.
func ItemDigests(ids []int) ([]ItemDigest, error) {
	byID := map[int]matrix.Item{}
	for _, it := range matrix.Items() {
		byID[it.ID] = it
	}
	out := make([]ItemDigest, 0, len(ids))
	for _, id := range ids {
		it, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("no item %s in matrix %s", matrix.RefOf(id), matrix.Version)
		}
		sum, err := DigestItem(it, fixtures.Matrix())
		if err != nil {
			return nil, err
		}
		out = append(out, ItemDigest{Ref: it.Ref(), SHA256: sum})
	}
	return out, nil
}

// FileDigest returns the binding of the file at path.
func FileDigest(path string) (File, error) {
	sum, err := hostcmd.HashFile(path)
	if err != nil {
		return File{}, err
	}
	return File{Path: path, SHA256: sum}, nil
}
