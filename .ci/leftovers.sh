#!/usr/bin/env bash
# leftovers.sh COMMAND [ARGS...]
#
# Runs COMMAND (normally `go test ./...`) with a private, empty TMPDIR and
# fails, listing them, when it leaves anything behind: a file or directory
# in that TMPDIR, or a live process whose environment mentions it (every
# process the tests start inherits TMPDIR, and conform gives each host a
# TMPDIR inside it, next to CONFORM_HOST_TOKEN), or — where setsid(1) is
# installed — a live process of the session COMMAND runs in, which finds
# the processes started with a cleared environment or another TMPDIR (a
# contained command's is /tmp) that the environment misses; only a process
# that starts a session of its own escapes both. Other users' processes and
# files do not count. The private TMPDIR is removed afterwards, and the
# processes left are killed, by PID. The reference host's probe cache, which
# test binaries otherwise keep in TMPDIR on purpose, gets a directory of its
# own for the run (CONFORM_CACHE_DIR, unless it is set), removed afterwards.
set -uo pipefail
if [ $# -eq 0 ]; then
  echo "usage: .ci/leftovers.sh COMMAND [ARGS...]" >&2
  exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/conform-leftovers-XXXXXX") || exit 2
tmp=$(cd "$tmp" && pwd -P)

# procs prints the PIDs, other than this script's, of the processes whose
# environment holds a value naming $tmp, or whose session is $sid.
procs() {
  local f pid stat rest
  for f in /proc/[0-9]*/environ; do
    pid=${f#/proc/}
    pid=${pid%/environ}
    [ "$pid" = $$ ] && continue
    if { tr '\0' '\n' <"$f"; } 2>/dev/null | grep -q -F "$tmp"; then
      echo "$pid"
      continue
    fi
    if [ -n "$sid" ] && stat=$(cat /proc/"$pid"/stat 2>/dev/null); then
      # Fields after the command name (which may hold spaces): state,
      # ppid, pgrp, session.
      rest=${stat##*) }
      set -- $rest
      # A zombie has ended; its parent reaps it.
      [ "${4:-}" = "$sid" ] && [ "${1:-}" != Z ] && echo "$pid"
    fi
  done
}

cache=""
if [ -z "${CONFORM_CACHE_DIR+set}" ]; then
  cache=$(mktemp -d "${TMPDIR:-/tmp}/conform-cache-XXXXXX") || exit 2
  export CONFORM_CACHE_DIR=$cache
fi

sid=""
if [ -d /proc/self ] && command -v setsid >/dev/null 2>&1; then
  # COMMAND leads a session of its own, whose ID is its PID.
  TMPDIR=$tmp setsid --wait sh -c 'echo $$ >"$0/.session"; exec "$@"' "$tmp" "$@"
  rc=$?
  sid=$(cat "$tmp/.session" 2>/dev/null)
  rm -f "$tmp/.session"
else
  TMPDIR=$tmp "$@"
  rc=$?
fi
[ -n "$cache" ] && rm -rf "$cache"

left=""
if [ -d /proc/self ]; then
  # A killed process takes a moment to go; give the tree two seconds.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    left=$(procs)
    [ -z "$left" ] && break
    sleep 0.2
  done
fi
files=$(ls -A "$tmp")

status=$rc
if [ -n "$left" ]; then
  echo "leftovers: $* left these processes running:" >&2
  for pid in $left; do
    echo "  $pid $({ tr '\0' ' ' </proc/"$pid"/cmdline; } 2>/dev/null)" >&2
  done
  for pid in $left; do kill -KILL "$pid" 2>/dev/null; done
  [ "$status" = 0 ] && status=1
fi
if [ -n "$files" ]; then
  echo "leftovers: $* left these in its temporary directory $tmp:" >&2
  (cd "$tmp" && ls -A | sed 's/^/  /') >&2
  [ "$status" = 0 ] && status=1
fi
rm -rf "$tmp"
exit "$status"
