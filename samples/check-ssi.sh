#!/usr/bin/env bash
# The SSI samples' acceptance: for each sample (default arguments), `./dist run --nodes N` for N = 1, 2
# and 4, each REPEATS times, must print byte for byte what `java -cp samples.jar Main` prints.
# Prints one line per run with its wall time; exits non-zero at the first difference.
# Usage: samples/check-ssi.sh [--repeats N] [Main ...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPEATS=5
MAINS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --repeats)
      [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "check-ssi: --repeats needs a positive whole number" >&2; exit 2; }
      REPEATS="$2"; shift 2 ;;
    -h|--help) sed -n 2,5p "$0"; exit 0 ;;
    -*) echo "check-ssi: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) MAINS+=("$1"); shift ;;
  esac
done
[ ${#MAINS[@]} -gt 0 ] || mapfile -t MAINS < <(grep -v '^#' "$ROOT/samples/mains.txt")
"$ROOT/dist" build >/dev/null
JAR="$ROOT/build/samples.jar"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
for main in "${MAINS[@]}"; do
  java -cp "$JAR" "$main" > "$WORK/expected" || { echo "check-ssi: $main does not run on a plain JVM" >&2; exit 2; }
  for nodes in 1 2 4; do
    for run in $(seq "$REPEATS"); do
      start=$(date +%s%N)
      "$ROOT/dist" run --nodes "$nodes" -- -cp "$JAR" "$main" > "$WORK/actual" 2> "$WORK/err" || {
        echo "$main --nodes $nodes run $run: exit $?"; cat "$WORK/err"; exit 1; }
      millis=$(( ($(date +%s%N) - start) / 1000000 ))
      if ! cmp -s "$WORK/expected" "$WORK/actual"; then
        echo "$main --nodes $nodes run $run: DIFFERENT output"; diff "$WORK/expected" "$WORK/actual" | head; exit 1
      fi
      echo "$main --nodes $nodes run $run: identical ($millis ms)"
    done
  done
done
