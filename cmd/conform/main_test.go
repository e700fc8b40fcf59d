package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	builtin.MaybeServe()
	testscript.Main(m, map[string]func(){
		"conform":  func() { os.Exit(main1(os.Args[1:], os.Stdout, os.Stderr)) },
		"testhost": testHost,
	})
}

// TestScripts runs the command-line scripts in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}

// testHost is a deliberately broken host used by the scripts: the reference
// host with its initialize answer altered as os.Args[1] names.
func testHost() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: testhost missing-name|unknown-field")
		os.Exit(2)
	}
	alter := map[string]func(map[string]any){
		"missing-name":  func(r map[string]any) { delete(r["host"].(map[string]any), "name") },
		"unknown-field": func(r map[string]any) { r["surprise"] = true },
	}[os.Args[1]]
	if alter == nil {
		fmt.Fprintln(os.Stderr, "testhost: unknown variant", os.Args[1])
		os.Exit(2)
	}
	ref := reference.New()
	h := wire.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		res, err := ref.Handle(ctx, method, params)
		if method != wire.MethodInitialize || err != nil {
			return res, err
		}
		b, _ := json.Marshal(res)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		alter(m)
		return m, nil
	})
	if err := wire.Serve(context.Background(), os.Stdin, os.Stdout, h); err != nil {
		fmt.Fprintln(os.Stderr, "testhost:", err)
		os.Exit(1)
	}
}
