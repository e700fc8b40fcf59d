#!/usr/bin/env bash
# fuzz.sh [FUZZTIME]
#
# Runs every fuzz target of the module (each `func FuzzX` in a _test.go
# file) for FUZZTIME (default 5s), one `go test -fuzz` per target, and fails
# at the first target that finds a crash; go test then writes the failing
# input under the package's testdata/fuzz/ and prints the command that
# reproduces it.
#
# Go 1.26's fuzzing coordinator can fail a target with a bare "context
# deadline exceeded" when -fuzztime runs out while a worker is mid-call
# (go.dev/issue/75804, fixed in Go 1.27): no input is written, and the
# target found nothing. Such a run is repeated, at most twice; any other
# failure, or a run that wrote a failing input, fails at once.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-5s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . | sort | while IFS=: read -r file _ decl; do
  name=${decl#func }
  name=${name%%(*}
  pkg=./$(dirname "${file#./}")
  corpus=$pkg/testdata/fuzz/$name
  for attempt in 1 2 3; do
    echo "fuzz: $name in $pkg for $fuzztime"
    before=$(ls "$corpus" 2>/dev/null || true)
    if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg" >"$log" 2>&1; then
      cat "$log"
      continue 2
    fi
    cat "$log"
    after=$(ls "$corpus" 2>/dev/null || true)
    if [ "$before" != "$after" ] || ! grep -qx '    context deadline exceeded' "$log"; then
      exit 1
    fi
    echo "fuzz: $name: the fuzzing coordinator's deadline race (go.dev/issue/75804), no input written; running it again"
  done
  echo "fuzz: $name failed three times with the coordinator's deadline race"
  exit 1
done
