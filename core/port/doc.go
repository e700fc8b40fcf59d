// Package port holds the types that cross the core runtime's boundary: the
// coding model protocol, the tool executor and its result envelope, and the
// clock and ID sources. The core performs no I/O of its own; everything it
// needs from the outside world comes through the interfaces declared here.
//
// The shapes follow the original runtime's contracts (CONTRACTS §2, §7.5,
// §13): JSON field names are exact, so a value can be sent over the host
// protocol or compared with the original fixtures without translation.
package port
