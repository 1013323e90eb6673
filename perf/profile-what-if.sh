#!/usr/bin/env bash
# The profiler's what-if for every sample: each run at its default size on one node with
# ./dist run --profile, then one line per sample: samples taken, the share that would be remote with
# a node per thread and with dist's placement on 2, 4 and 8 nodes, and the top remote site.
# Usage: perf/profile-what-if.sh [--rate N] [MAIN ...]   (default: every sample, 1000 bursts a second)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RATE=1000
if [ "${1:-}" = --rate ]; then RATE="$2"; shift 2; fi
MAINS=("$@")
[ ${#MAINS[@]} -gt 0 ] || mapfile -t MAINS < <(grep -v '^#' "$ROOT/samples/mains.txt")
"$ROOT/dist" build >/dev/null
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
printf "%-28s %9s %8s %8s %8s %8s  %s\n" sample samples own 2nodes 4nodes 8nodes "top remote site"
for main in "${MAINS[@]}"; do
  echo "profiling $main..." >&2
  DIST_NO_BUILD=1 "$ROOT/dist" run --profile "$OUT/profile.json" --profile-rate "$RATE" -- \
    -cp "$ROOT/build/samples.jar" "$main" >/dev/null 2>"$OUT/stderr" || { cat "$OUT/stderr" >&2; exit 1; }
  python3 - "$main" "$OUT/profile.json" <<'PY'
import json, sys
main, path = sys.argv[1], sys.argv[2]
profile = json.load(open(path))
samples = profile["samples"] or 1
share = lambda count: "%.1f%%" % (100.0 * count / samples)
top = next((site for site in profile["sites"] if site["remoteSamples"] > 0), None)
where = "-" if top is None else "%s %s %s:%s" % (top["kind"], top["target"], top["source"], top["line"])
print("%-28s %9d %8s %8s %8s %8s  %s" % (main.replace("samples.", ""), profile["samples"], share(profile["remoteSamples"]),
      share(profile["remoteSamplesAt"]["2"]), share(profile["remoteSamplesAt"]["4"]), share(profile["remoteSamplesAt"]["8"]), where))
PY
done
