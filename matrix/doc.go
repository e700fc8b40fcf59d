// Package matrix is the host-conformance matrix: the numbered items of
// HOST_CONFORMANCE.md as Ginkgo specs, their registry, and the runner that
// executes them against one host — under `go test` or inside the conform
// binary.
//
// Every item is registered through [describeItem], which labels it
// `item:N` and `area:<area>` and records its metadata, so `conform matrix`
// lists exactly what `conform certify` runs.
package matrix
