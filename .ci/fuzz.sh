#!/usr/bin/env bash
# fuzz.sh [FUZZTIME]
#
# Runs every fuzz target of the module (each `func FuzzX` in a _test.go
# file) for FUZZTIME (default 5s), one `go test -fuzz` per target, and fails
# at the first target that finds a crash; go test then writes the failing
# input under the package's testdata/fuzz/ and prints the command that
# reproduces it.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-5s}
grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . | sort | while IFS=: read -r file _ decl; do
  name=${decl#func }
  name=${name%%(*}
  pkg=./$(dirname "${file#./}")
  echo "fuzz: $name in $pkg for $fuzztime"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg"
done
