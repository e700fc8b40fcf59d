// Package reports holds conform's result document — the JSON source of
// truth of a certification run, of a `conform run` over fixtures and of a
// self-test ([Document], kinds [KindCertify], [KindRun], [KindSelfTest]) —
// and everything done with it:
//
//   - its JSON Schema, schema/result.schema.json ([Schema], [Validate],
//     [Decode], which refuses a document that does not match), and reading
//     it from a file up to a size bound ([ReadFile],
//     [DefaultMaxDocumentSize]);
//   - writing it atomically ([WriteFile], through internal/atomicfile),
//     after [CheckWritable] has refused an unusable path (a missing
//     directory, a FIFO, a device node) before anything runs;
//   - merging several documents ([Merge], [WriteMerged], [DecodeAny]):
//     the shards of one certification become one result document, equal
//     to a serial run's in every comparable field; documents of other
//     hosts or systems stay side by side in a cross document
//     ([MergeKind], schema/merge.schema.json, [ValidateMerge]);
//   - rendering one or more documents ([Renderer], [WriteRendered]) as
//     JUnit XML ([RenderJUnit]), Markdown for $GITHUB_STEP_SUMMARY
//     ([RenderMarkdown]) and one self-contained HTML page ([RenderHTML]),
//     with a host × item (or OS × item) table for several documents. A
//     document is data: the renderers count its items rather than trust
//     its summary, and escape every string in it for their format and
//     for a terminal (internal/termsafe).
//
// conform's --json-report, --junit-report, --md-report and --html-report
// flags and `conform report render|merge` are the commands over it.
package reports
