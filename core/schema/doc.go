// Package schema implements the JSON-schema subset that tool descriptors use
// (CONTRACTS §5): definition checks and value validation.
//
// # Definitions
//
// [CheckDefinition] reports every way a schema leaves the subset: an unknown
// keyword, a bad "type", a "$ref" that is not local or does not resolve, an
// "enum" that is empty or repeats a value, "required" names that are not
// declared, a minimum above its maximum, a "pattern" that does not compile,
// and so on (CONTRACTS §5.2). It returns one message per problem, each
// prefixed with the location of the offending schema node as a URI fragment
// ("#" for the root, "#/properties/path" for a property).
//
// # Values
//
// [Validate] checks a value against a schema. It first checks the definition
// and then validates with github.com/santhosh-tekuri/jsonschema/v6, after a
// translation that gives the library the subset's meaning (CONTRACTS §5.3):
//
//   - schemas are compiled as draft-07, where siblings of "$ref" are ignored;
//   - "minLength" and "maxLength" count UTF-16 code units, as JavaScript does,
//     through a keyword of this package instead of the library's rune count;
//   - "pattern" is an unanchored search compiled with Go's RE2, except the
//     workspace-path pattern [WorkspacePathPattern] of CONTRACTS §6.1, whose
//     lookaheads RE2 lacks: it is recognised by its text and evaluated by
//     [WorkspacePath];
//   - "const" and "enum" never match an object or an array (JavaScript
//     Object.is semantics);
//   - "$id" and "$schema" are annotations only.
//
// A failed validation returns a [*ValueError] listing every [Violation] with
// the JSON pointer (RFC 6901) of the offending value. A [Validator] caches
// compiled schemas by the canonical text of the schema; the package-level
// [Validate] uses a shared one.
//
// Not ported: the original rejects a "$ref" that recurses into itself while
// validating; the library follows such a reference instead. No catalog
// schema recurses.
package schema
