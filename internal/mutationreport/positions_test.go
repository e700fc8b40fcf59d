package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// operators are the texts each mutator of the explanations file changes:
// an explanation's file:line:col must stand on one of them, or it no
// longer names the mutant it explains (code moved since it was written).
var operators = map[string][]string{
	"CONDITIONALS_BOUNDARY": {"<=", ">=", "<", ">"},
	"CONDITIONALS_NEGATION": {"==", "!=", "<=", ">=", "<", ">"},
	"ARITHMETIC_BASE":       {"+", "-", "*", "/", "%"},
	"INVERT_NEGATIVES":      {"-"},
	"INCREMENT_DECREMENT":   {"++", "--"},
	"INVERT_LOGICAL":        {"&&", "||"},
	"INVERT_LOOPCTRL":       {"break", "continue"},
}

// TestExplanationsNameTheirCode keeps .ci/mutation-equivalent.txt (and so
// MUTATION.md's surviving mutants) pointing at the operators they
// explain: a change that moves the explained code must move the entry.
func TestExplanationsNameTheirCode(t *testing.T) {
	root := filepath.Join("..", "..")
	reasons, err := readExplanations(filepath.Join(root, ".ci", "mutation-equivalent.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(reasons) == 0 {
		t.Fatal("no explanations read")
	}
	for key := range reasons {
		pos, mutator, _ := strings.Cut(key, " ")
		ops, ok := operators[mutator]
		if !ok {
			t.Errorf("%s: mutator %s has no operator list here; add it to operators", pos, mutator)
			continue
		}
		file, line, col := splitKey(pos)
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			t.Errorf("%s: %v", pos, err)
			continue
		}
		lines := strings.Split(string(b), "\n")
		if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1]) {
			t.Errorf("%s %s: no such position in %s", pos, mutator, file)
			continue
		}
		at := lines[line-1][col-1:]
		found := false
		for _, op := range ops {
			found = found || strings.HasPrefix(at, op)
		}
		if !found {
			t.Errorf("%s %s stands on %q, not on an operator the mutator changes: the explained code moved; point the entry (and MUTATION.md's row) at it again", pos, mutator, strings.TrimSpace(lines[line-1]))
		}
	}
}
