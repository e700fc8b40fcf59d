package kit

// processesUnder returns no table: Windows has no /proc to read working
// directories from.
func processesUnder(dir string) (pids []int, table bool) { return nil, false }
