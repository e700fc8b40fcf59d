package run

import "strings"

// Generated workspace paths (RUNTIME §30): build output, caches and logs that
// never count as authored writes.
var (
	generatedDirectories = []string{".galaxy", ".bun-cache", ".cache", ".gradle", ".mypy_cache", ".next",
		".parcel-cache", ".pytest_cache", ".turbo", ".vite", "__pycache__", "build", "coverage", "dist",
		"node_modules", "out", "target"}
	generatedFileSuffixes = []string{".log", ".tsbuildinfo"}
	churningFileSuffixes  = []string{".log"}
	generatedFileNames    = []string{".DS_Store", ".eslintcache"}
)

// IsGeneratedDirectoryName reports whether name is a generated directory name.
func IsGeneratedDirectoryName(name string) bool {
	for _, d := range generatedDirectories {
		if d == name {
			return true
		}
	}
	return false
}

// IsGeneratedFileName reports whether name is a generated file name, by exact
// name or suffix.
func IsGeneratedFileName(name string) bool {
	for _, n := range generatedFileNames {
		if n == name {
			return true
		}
	}
	for _, s := range generatedFileSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// IsChurningFileName reports whether name is a churning file (a log).
func IsChurningFileName(name string) bool {
	for _, s := range churningFileSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// IsChurningPath reports whether the leaf of segments is churning.
func IsChurningPath(segments []string) bool {
	return len(segments) > 0 && IsChurningFileName(segments[len(segments)-1])
}

// IsGeneratedPath reports whether any segment is a generated directory or
// the leaf is a generated file name.
func IsGeneratedPath(segments []string) bool {
	for _, s := range segments {
		if IsGeneratedDirectoryName(s) {
			return true
		}
	}
	return len(segments) > 0 && IsGeneratedFileName(segments[len(segments)-1])
}

// isGeneratedWritePath splits a workspace path on "/" as the runtime does.
func isGeneratedWritePath(path string) bool { return IsGeneratedPath(strings.Split(path, "/")) }
