// Package layers holds the test that keeps the module's folders layered:
// each top-level folder imports only the folders below it (README.md,
// "Layout"), so that no import runs back up.
package layers
