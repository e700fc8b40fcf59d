package wsfs

// openFlags add nothing on Windows: the Lstat and SameFile checks of
// ReadFile hold there too.
const openFlags = 0
