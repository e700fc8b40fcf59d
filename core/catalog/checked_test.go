package catalog_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/catalog"
)

// TestCheckedCatalogSnapshotIsTheSame checks the path on which a host
// validates the registry document once: CheckCatalog answers as
// CheckDocument does, and a snapshot built from its result equals the
// snapshot built from the descriptors themselves, or fails alike, for
// any order and subset of the catalogs, some descriptors broken, and a
// random mode, availability and grant.
func TestCheckedCatalogSnapshotIsTheSame(t *testing.T) {
	all := append(catalog.Core(), catalog.ForHost().Tools...)
	rapid.Check(t, func(t *rapid.T) {
		var ds []catalog.Descriptor
		if !rapid.Bool().Draw(t, "nil") {
			ds = rapid.SliceOfN(rapid.SampledFrom(all), 0, 8).Draw(t, "descriptors")
			for i := range ds {
				ds[i] = ds[i].Clone()
				switch rapid.IntRange(0, 9).Draw(t, "broken") {
				case 0:
					ds[i].TimeoutMs = 99
				case 1:
					ds[i].Title = ""
				case 2:
					ds[i].InputSchema = map[string]any{"type": "object", "pattern": "["}
				}
			}
		}
		opts := catalog.Options{
			Descriptors:        ds,
			Mode:               rapid.SampledFrom(append(modes, "")).Draw(t, "mode"),
			AvailableToolIDs:   rapid.SliceOf(rapid.SampledFrom(catalog.IDs())).Draw(t, "available"),
			GrantedPermissions: rapid.SliceOf(rapid.SampledFrom(allPermissions)).Draw(t, "granted"),
		}
		checked, err := catalog.CheckCatalog(ds)
		if got, want := errText(err), errText(catalog.CheckDocument(ds)); got != want {
			t.Fatalf("CheckCatalog: %q, CheckDocument: %q", got, want)
		}
		want, wantErr := catalog.NewSnapshot(opts)
		if err != nil {
			if wantErr == nil {
				t.Fatalf("CheckCatalog refused a catalog NewSnapshot takes: %v", err)
			}
			return
		}
		viaChecked := opts
		viaChecked.Descriptors, viaChecked.Checked = nil, checked
		got, gotErr := catalog.NewSnapshot(viaChecked)
		if errText(gotErr) != errText(wantErr) {
			t.Fatalf("NewSnapshot from the checked catalog: %v, from the descriptors: %v", gotErr, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("snapshots differ (-descriptors +checked):\n%s", diff)
		}
	})
}

// TestCheckedCatalogIsACopy checks that changing the descriptors after
// CheckCatalog changes nothing a snapshot built from its result holds.
func TestCheckedCatalogIsACopy(t *testing.T) {
	ds := catalog.Core()
	checked, err := catalog.CheckCatalog(ds)
	if err != nil {
		t.Fatal(err)
	}
	want, err := catalog.NewSnapshot(catalog.Options{Checked: checked, AvailableToolIDs: catalog.IDs()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range ds {
		ds[i].TimeoutMs = 1
		ds[i].InputSchema["type"] = "string"
	}
	got, err := catalog.NewSnapshot(catalog.Options{Checked: checked, AvailableToolIDs: catalog.IDs()})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("a change to the checked descriptors reached the snapshot:\n%s", diff)
	}
}
