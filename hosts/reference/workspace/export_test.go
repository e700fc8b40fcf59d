package workspace

// SetMaxEntries lowers a Root's traversal bound so that tests can reach it
// without creating 100000 files.
func SetMaxEntries(r *Root, n int) { r.maxEntries = n }
