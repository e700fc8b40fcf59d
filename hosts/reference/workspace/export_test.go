package workspace

// SetMaxEntries lowers a Root's traversal bound so that tests can reach it
// without creating 100000 files.
func SetMaxEntries(r *Root, n int) { r.maxEntries = n }

// UseFastStat turns the single-call stat of symlink-free paths on or off
// and reports how many paths it answered; restore undoes the change.
func UseFastStat(on bool) (answered func() int, restore func()) {
	n := 0
	statFast = func(abs string) (fileStat, bool) {
		if !on {
			return fileStat{}, false
		}
		st, ok := statWithoutLinks(abs)
		if ok {
			n++
		}
		return st, ok
	}
	return func() int { return n }, func() { statFast = statWithoutLinks }
}

// ReadSized is readSized.
var ReadSized = readSized
