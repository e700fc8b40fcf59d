package main

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// TestToolsSchemasIsTheInitializeCatalog checks that `conform tools
// --schemas` prints the catalog member of initialize byte for byte, and
// that hosts/wire/catalog.json is the same value.
func TestToolsSchemasIsTheInitializeCatalog(t *testing.T) {
	var out bytes.Buffer
	if code := main1([]string{"tools", "--schemas"}, &out, &bytes.Buffer{}); code != 0 {
		t.Fatalf("conform tools --schemas exited %d", code)
	}
	msg, err := json.Marshal(wire.InitializeParams{Catalog: catalog.ForHost()})
	if err != nil {
		t.Fatal(err)
	}
	var params map[string]json.RawMessage
	if err := json.Unmarshal(msg, &params); err != nil {
		t.Fatal(err)
	}
	want := append([]byte(params["catalog"]), '\n')
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("conform tools --schemas differs from the catalog initialize sends:\n got %.200s\nwant %.200s", out.Bytes(), want)
	}
	shipped, err := os.ReadFile("../../hosts/wire/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, shipped); err != nil {
		t.Fatalf("hosts/wire/catalog.json: %v", err)
	}
	if !bytes.Equal(append(compact.Bytes(), '\n'), want) {
		t.Errorf("hosts/wire/catalog.json is not the catalog initialize sends: run `go run ./hosts/wire/internal/gendoc`")
	}
}
