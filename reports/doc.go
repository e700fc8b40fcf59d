// Package reports holds conform's result document — the JSON source of
// truth of a certification run — and writes it. Other formats (JUnit,
// Markdown, HTML, certificates) are rendered from it.
package reports
