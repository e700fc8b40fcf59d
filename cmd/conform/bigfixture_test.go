package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptUsage fails a script command that takes no negation when it is
// negated (unsupported: ! NAME) or its arguments are not argsOK (usage:
// USAGE, whose first word is the command's name).
func scriptUsage(ts *testscript.TestScript, neg, argsOK bool, usage string) {
	if neg {
		ts.Fatalf("unsupported: ! %s", strings.Fields(usage)[0])
	}
	if !argsOK {
		ts.Fatalf("usage: %s", usage)
	}
}

// cmdBigfixture is the script command
//
//	bigfixture FILE SIZE
//
// It writes a fixture of about SIZE bytes to FILE: a small valid fixture
// with an unknown member "padding" holding the rest.
func cmdBigfixture(ts *testscript.TestScript, neg bool, args []string) {
	scriptUsage(ts, neg, len(args) == 2, "bigfixture FILE SIZE")
	size, err := strconv.Atoi(args[1])
	if err != nil || size < 0 {
		ts.Fatalf("bigfixture: size %q is not a number of bytes", args[1])
	}
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	w := bufio.NewWriter(f)
	w.WriteString(`{"schemaVersion": 2, "name": "big", "task": "t", "rounds": [{"content": "done", "finishReason": "stop"}], "padding": "`)
	chunk := strings.Repeat("x", 64<<10)
	for n := 0; n < size; n += len(chunk) {
		w.WriteString(chunk)
	}
	w.WriteString("\"}\n")
	ts.Check(w.Flush())
	ts.Check(f.Close())
}
