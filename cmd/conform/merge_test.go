package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"

	"github.com/galaxy-stack/conform/reports"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdValidmerge is the script command
//
//	validmerge FILE
//
// It fails unless FILE is a cross document valid against its JSON Schema
// (reports/schema/merge.schema.json).
func cmdValidmerge(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: validmerge FILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	err = reports.ValidateMerge(b)
	switch {
	case neg && err == nil:
		ts.Fatalf("%s is a valid cross document", args[0])
	case !neg && err != nil:
		ts.Fatalf("%s: %v", args[0], err)
	}
}

// cmdSamereport is the script command
//
//	samereport A B
//
// It fails unless the result documents A and B are equal in every
// comparable field (all but startedAt and the items' durationMs), naming
// each field that differs.
func cmdSamereport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: samereport A B")
	}
	var trees [2]any
	for i, name := range args {
		b, err := os.ReadFile(ts.MkAbs(name))
		ts.Check(err)
		d, err := reports.Decode(b)
		if err != nil {
			ts.Fatalf("%s: %v", name, err)
		}
		c, err := json.Marshal(reports.Comparable(d))
		ts.Check(err)
		ts.Check(json.Unmarshal(c, &trees[i]))
	}
	var diffs []string
	diffJSON("", trees[0], trees[1], &diffs)
	if len(diffs) > 0 {
		for _, d := range diffs {
			ts.Logf("%s", d)
		}
		ts.Fatalf("%s and %s differ in %d comparable fields", args[0], args[1], len(diffs))
	}
}

// diffJSON appends to diffs the JSON path of every value that differs
// between the decoded JSON values a and b.
func diffJSON(path string, a, b any, diffs *[]string) {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			break
		}
		var keys []string
		for k := range av {
			keys = append(keys, k)
		}
		for k := range bv {
			if _, ok := av[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			diffJSON(path+"/"+k, av[k], bv[k], diffs)
		}
		return
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			break
		}
		for i := range av {
			diffJSON(fmt.Sprintf("%s/%d", path, i), av[i], bv[i], diffs)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*diffs = append(*diffs, fmt.Sprintf("%s: %v != %v", path, a, b))
	}
}
