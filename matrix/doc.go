// Package matrix is the host-conformance matrix's registry and runner:
// the numbered items of HOST_CONFORMANCE.md as Ginkgo specs, and the
// runner that executes them against one host — under `go test` or inside
// the conform binary.
//
// Every item is registered through [DescribeItem] (or [PlanItem] while
// its specs are not written), which labels it `item:N` and
// `area:<area>` and records its metadata and where it is registered, so
// `conform matrix` lists exactly what `conform certify` runs. The items
// themselves live in package matrix/items, which a program imports to
// register them; their vocabulary is package matrix/kit.
package matrix
