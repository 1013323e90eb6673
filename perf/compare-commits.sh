#!/usr/bin/env bash
# The transport, object-space and MPI ping-pong benchmarks of two commits, side by side in one run,
# so that a change is judged against its predecessor on the same machine in the same state.
# Each commit is built in a worktree of its own; then each benchmark runs for BASE, then for HEAD.
# Usage: perf/compare-commits.sh BASE [HEAD] [--repeats N]   (HEAD defaults to the checkout's HEAD)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPEATS=5
COMMITS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --repeats)
      [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "compare-commits: --repeats needs a positive whole number" >&2; exit 2; }
      REPEATS="$2"; shift 2 ;;
    -h|--help) sed -n 2,5p "$0"; exit 0 ;;
    -*) echo "compare-commits: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) COMMITS+=("$1"); shift ;;
  esac
done
[ ${#COMMITS[@]} -ge 1 ] && [ ${#COMMITS[@]} -le 2 ] || { echo "compare-commits: name BASE and optionally HEAD (try --help)" >&2; exit 2; }
[ ${#COMMITS[@]} -eq 2 ] || COMMITS+=(HEAD)

WORK="$(mktemp -d)"
cleanup() {
  for tree in "$WORK"/*/; do git -C "$ROOT" worktree remove --force "$tree" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

TREES=()
for commit in "${COMMITS[@]}"; do
  sha="$(git -C "$ROOT" rev-parse --short "$commit")"
  tree="$WORK/$sha"
  git -C "$ROOT" worktree add --detach -q "$tree" "$sha"
  echo "compare-commits: building $commit ($sha)..." >&2
  "$tree/dist" build >/dev/null 2>&1 || { echo "compare-commits: $commit does not build" >&2; exit 1; }
  TREES+=("$tree")
done

run() {
  local title="$1"; shift
  for tree in "${TREES[@]}"; do
    echo "=== $title, $(basename "$tree")"
    (cd "$tree" && "$@") 2>&1 | grep -v '^dist: ' || { echo "compare-commits: $title failed at $(basename "$tree")" >&2; exit 1; }
  done
}
run "transport round trip" ./dist perf transport --rounds "$REPEATS"
run "object-space costs" ./dist perf objects --repeats "$REPEATS"
run "MPI ping-pong" perf/mpi-pingpong.sh --repeats "$REPEATS"
