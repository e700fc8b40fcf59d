package catalog_test

import (
	"testing"

	"github.com/galaxy-stack/conform/core/catalog"
)

// BenchmarkCheckDocument checks the registry document of the catalog the
// harness sends a host, as a host does for the catalog of initialize.
func BenchmarkCheckDocument(b *testing.B) {
	tools := catalog.ForHost().Tools
	for b.Loop() {
		if err := catalog.CheckDocument(tools); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewSnapshot builds the registry snapshot of that catalog, as a
// host does at initialize.
func BenchmarkNewSnapshot(b *testing.B) {
	tools := catalog.ForHost().Tools
	opts := catalog.Options{Descriptors: tools, AvailableToolIDs: catalog.IDs(), GrantedPermissions: []string{
		catalog.PermCoreStorage, catalog.PermFSWorkspace, catalog.PermProcessExecute}}
	for b.Loop() {
		if _, err := catalog.NewSnapshot(opts); err != nil {
			b.Fatal(err)
		}
	}
}
