// Package items is the host-conformance matrix itself: one file per area
// (workspace.go, commands.go, tools.go, checkpoint.go, runtime.go,
// research.go, model.go, prompt.go, project-format.go), each item's metadata
// beside its body.
//
// An item is registered at package level, as Kubernetes keeps Testname
// and Description beside ConformanceIt:
//
//	var _ = matrix.DescribeItem(matrix.Item{ID: 13, Name: "symlink-traversal", …},
//		func(c *kit.TestContext) { c.Scenarios(checks) })
//
// and an item whose specs are not written yet with [matrix.PlanItem].
// Importing this package registers the items: cmd/conform and
// matrix/selftest import it for that alone. The assertions the bodies
// make are package kit's.
package items
