package oracle

import "strings"

// derivedDirs are the directory names whose trees CONTRACTS.md (`writes`)
// calls derived: dependency trees, build outputs and caches. Their changes
// are derivedMutations and move stateVersion, and are never writes (S000
// TOOL_EFFECT_PROFILE: "A metadata fingerprint for generated or dependency
// state is not a file content hash and must never be emitted as `write`
// evidence ... only byte-verifiable durable paths belong in `write`").
var derivedDirs = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "coverage": true,
	// ".cache and other caches"
	".cache": true, ".bun-cache": true, ".gradle": true, ".mypy_cache": true, ".next": true,
	".parcel-cache": true, ".pytest_cache": true, ".turbo": true, ".vite": true, "__pycache__": true,
	"target": true,
}

// derivedFiles and derivedSuffixes are the file names CONTRACTS.md calls
// derived wherever they lie.
var (
	derivedFiles    = map[string]bool{".DS_Store": true, ".eslintcache": true}
	derivedSuffixes = []string{".log", ".tsbuildinfo"}
)

// IsDerivedPath reports whether the slash path p, relative to the
// workspace root, is derived state: some segment names a derived tree, or
// its last segment a derived file. A completed run may change it without
// write evidence.
func IsDerivedPath(p string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs {
		if derivedDirs[s] {
			return true
		}
	}
	leaf := segs[len(segs)-1]
	if derivedFiles[leaf] {
		return true
	}
	for _, s := range derivedSuffixes {
		if strings.HasSuffix(leaf, s) {
			return true
		}
	}
	return false
}
