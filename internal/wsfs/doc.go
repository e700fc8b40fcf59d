// Package wsfs is the one place where conform changes or reads a workspace
// on behalf of a scenario: the initial files it arranges, the entries it
// makes, the resume mutations, the expected files the oracle reads, the
// fixtures `conform import -o` writes and the golden files `conform golden
// update` writes.
//
// A scenario path is relative to a [Root], in slash form, and names an entry
// inside it:
//
//   - it is refused when it is absolute, empty, holds "..", a NUL byte or a
//     backslash, or names .git (in any letter case) as one of its segments;
//   - no parent component is followed when it is a symbolic link: the
//     operation is refused, naming the link (checked with Lstat of each
//     component through an [os.Root], which in turn keeps a component
//     swapped for a link between the check and the operation inside the
//     root);
//   - the final component is never followed either: a write or a removal
//     replaces the link itself, never its target, and a read reports the
//     link (its target string), never the content behind it.
//
// Reads are bounded: [Root.ReadFile] refuses a file over its cap before
// reading a byte of it.
package wsfs
