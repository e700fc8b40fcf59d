#!/usr/bin/env bash
# Mutation testing (make mutation): runs gremlins over each package given
# (default: the packages of MUTATION.md), one package at a time with at most
# two workers, keeps gremlins' JSON and the wall time per package in
# .bin/mutation/, then writes MUTATION.md from them. Not part of make test:
# it takes tens of minutes.
#
#   .ci/mutation.sh                       every package, then MUTATION.md
#   .ci/mutation.sh core/run              one package, then MUTATION.md
#   .ci/mutation.sh all                   every package of core/, hosts/reference/
#                                         and matrix/oracle (hours)
#   ONLY=gate.go .ci/mutation.sh core/run only the files matching ONLY
#   .ci/mutation.sh -report               MUTATION.md from the kept JSON
set -euo pipefail
cd "$(dirname "$0")/.."
GREMLINS=${GREMLINS:-.bin/gremlins}
WORKERS=${WORKERS:-2}
OUT=.bin/mutation
mkdir -p "$OUT"
# Coverage is gathered once, uncached, and each mutant's test run may take
# up to 10 times as long before it counts as timed out.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-count=1"

pkgs=("$@")
if [ "${1:-}" != "-report" ]; then
	if [ ${#pkgs[@]} -eq 0 ]; then
		pkgs=(core/run core/guard core/checkpoint hosts/reference/workspace matrix/oracle)
	elif [ "$1" = all ]; then
		mapfile -t pkgs < <(go list -f '{{if .GoFiles}}{{.Dir}}{{end}}' ./core/... ./hosts/reference/... ./matrix/oracle | sed "s|^$PWD/||")
	fi
	for p in "${pkgs[@]}"; do
		name=${p//\//_}
		excl=()
		if [ -n "${ONLY:-}" ]; then
			for f in "$p"/*.go; do
				case $f in *_test.go) continue ;; esac
				[[ $(basename "$f") =~ ${ONLY} ]] || excl+=(-E "$(basename "$f")\$")
			done
		fi
		start=$(date +%s)
		"$GREMLINS" unleash --workers "$WORKERS" --timeout-coefficient 10 \
			"${excl[@]}" -o "$OUT/$name.json" "./$p" >"$OUT/$name.log" 2>&1
		echo "$(($(date +%s) - start))" >"$OUT/$name.seconds"
		echo "${ONLY:-}" >"$OUT/$name.only"
		tail -5 "$OUT/$name.log"
	done
fi
before=(); [ -d .bin/mutation-before ] && before=(-before .bin/mutation-before)
go run ./internal/mutationreport -dir "$OUT" -explain .ci/mutation-equivalent.txt "${before[@]}" -notes .ci/mutation-notes.md >MUTATION.md
echo "wrote MUTATION.md"
