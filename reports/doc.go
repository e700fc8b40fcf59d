// Package reports holds conform's result document — the JSON source of
// truth of a certification run, of a `conform run` over fixtures and of a
// self-test ([Document], kinds [KindCertify], [KindRun], [KindSelfTest]) —
// and everything done with it:
//
//   - its JSON Schema, schema/result.schema.json ([Schema], [Validate],
//     [Decode], which refuses a document that does not match);
//   - writing it atomically ([WriteFile]), after [CheckWritable] has
//     refused an unusable path before anything runs;
//   - merging several documents ([Merge], [DecodeAny]): the shards of one
//     certification become one document, documents of other hosts or
//     systems stay side by side in a merge document ([MergeKind]);
//   - rendering one or more documents ([Renderer], [WriteRendered]) as
//     JUnit XML ([RenderJUnit]), Markdown for $GITHUB_STEP_SUMMARY
//     ([RenderMarkdown]) and one self-contained HTML page ([RenderHTML]),
//     with a host × item (or OS × item) table for several documents.
//
// conform's --json-report, --junit-report, --md-report and --html-report
// flags and `conform report render|merge` are the commands over it.
package reports
