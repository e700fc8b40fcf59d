package port

// Clock is the core's only source of time. Now returns Unix milliseconds.
type Clock interface {
	Now() int64
}

// IDSource returns fresh identifiers for runs, executions and trace events.
// The prefix names the kind of ID ("run", "execution").
type IDSource interface {
	NewID(prefix string) string
}
