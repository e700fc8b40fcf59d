// Package catalog holds the 21 canonical tools of the runtime and the
// turn-scoped tool registry built from them (CONTRACTS §3.1, §4, §6, §8).
//
// # Catalog
//
// [Core] returns the catalog sorted by canonical ID: model names,
// categories, risks, permissions, limits and the input and output JSON
// Schemas of CONTRACTS §6.3, built from the shared fragments of §6.1 with
// the defaults of §4.2 ([WithDefaults]). Descriptions are conform's own
// words to the original's structure (DECISIONS 30). Every accessor returns
// deep copies, so the catalog cannot be changed from outside. [Table]
// summarises it row by row, and [ForHost] is the form sent to hosts.
//
// # Registry
//
// A run filters the catalog into a [Snapshot] ([NewSnapshot]: mode,
// permissions, adapter availability, model capabilities, with one
// [Diagnostic] per tool) and wraps it in a [Registry]. The registry starts
// with the bootstrap tools active, activates lazy tools through
// [Registry.Search] (catalog.search) or [Registry.Activate], routes
// model-facing names to canonical IDs ([Registry.ResolveModelName]) and
// keeps the active definitions within [DefinitionBudget]. Both hashes are
// SHA-256 over canonical JSON: CatalogHash over the filtered catalog,
// [Registry.ActiveHash] over the active definitions; neither depends on the
// order of inputs or of activations.
//
// Descriptor checks follow CONTRACTS §4.3 ([CheckDescriptor],
// [CheckDescriptors]) and the registry document schema
// ([RegistrySchema], [CheckDocument]).
package catalog
