package workspace

import "strings"

// The generated-state policy shared by the runtime and the evidence
// verifier (LAB_AND_HOSTS §14.4, DECISIONS 44).
var (
	generatedDirNames = map[string]bool{
		".galaxy": true, ".bun-cache": true, ".cache": true, ".gradle": true, ".mypy_cache": true,
		".next": true, ".parcel-cache": true, ".pytest_cache": true, ".turbo": true, ".vite": true,
		"__pycache__": true, "build": true, "coverage": true, "dist": true, "node_modules": true,
		"out": true, "target": true,
	}
	generatedFileNames    = map[string]bool{".DS_Store": true, ".eslintcache": true}
	generatedFileSuffixes = []string{".log", ".tsbuildinfo"}
)

// churningSuffix marks files whose content churns (logs); the verifier
// records such active files by path only.
const churningSuffix = ".log"

// isGeneratedFileName reports whether a leaf name is a generated file.
func isGeneratedFileName(name string) bool {
	if generatedFileNames[name] {
		return true
	}
	for _, s := range generatedFileSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// IsGeneratedPath reports whether a root-relative path is generated state:
// some segment is a generated directory name (.galaxy, node_modules, dist,
// build, target, …) or the leaf is a generated file (*.log, *.tsbuildinfo,
// .DS_Store, .eslintcache). The runtime keeps such paths out of authored
// evidence.
func IsGeneratedPath(p string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs {
		if generatedDirNames[s] {
			return true
		}
	}
	return isGeneratedFileName(segs[len(segs)-1])
}
