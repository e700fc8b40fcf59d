package schema

// CacheSize reports how many compiled schemas v holds.
func CacheSize(v *Validator) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.compiled)
}
