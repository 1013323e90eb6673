#!/usr/bin/env bash
# MPI ranks on several hosts, checked by hand: HOSTS emulated hosts (network namespaces with their own
# addresses on a bridge; needs root and `ip netns`), a `dist daemon` on each but the first, and
# `dist mpirun --hosts` of all of them from the first, REPEATS times; each run's output must equal the
# same job's on one host. With --hog, two busy processes per core run throughout (a loaded machine
# must not fail a job). Prints a line per run; exits non-zero at the first failure.
# Usage: samples/check-mpi-hosts.sh [--repeats N] [--hosts N] [--hog] [Main [args]]   (default samples.mpi.Jacobi)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPEATS=10
HOSTS=4
HOG=0
while [ $# -gt 0 ]; do
  case "$1" in
    --repeats|--hosts)
      [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "check-mpi-hosts: $1 needs a positive whole number" >&2; exit 2; }
      if [ "$1" = --repeats ]; then REPEATS="$2"; else HOSTS="$2"; fi; shift 2 ;;
    --hog) HOG=1; shift ;;
    -h|--help) sed -n 2,7p "$0"; exit 0 ;;
    -*) echo "check-mpi-hosts: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- samples.mpi.Jacobi
[ "$(id -u)" = 0 ] || { echo "check-mpi-hosts: needs root to create network namespaces" >&2; exit 2; }
"$ROOT/dist" build >/dev/null
JAR="$ROOT/build/samples.jar"
export DIST_NO_BUILD=1 DIST_SECRET="check-$$-$RANDOM$RANDOM"
NS="dmh$$"
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  exec 2>/dev/null # not the shell's word on each process it reaps
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  for i in $(seq 0 $((HOSTS - 1))); do
    for pid in $(ip netns pids "$NS-h$i" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$NS-h$i" 2>/dev/null || true
  done
  ip netns del "$NS-br" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
ip netns add "$NS-br"
ip -n "$NS-br" link add br0 type bridge
ip -n "$NS-br" link set br0 up
ADDRESSES=()
for i in $(seq 0 $((HOSTS - 1))); do
  ip netns add "$NS-h$i"
  ip link add "v$$h$i" netns "$NS-br" type veth peer name eth0 netns "$NS-h$i"
  ip -n "$NS-br" link set "v$$h$i" master br0
  ip -n "$NS-br" link set "v$$h$i" up
  ip -n "$NS-h$i" addr add "10.203.0.$((i + 1))/24" dev eth0
  ip -n "$NS-h$i" link set eth0 up
  ip -n "$NS-h$i" link set lo up
  ADDRESSES+=("10.203.0.$((i + 1))")
  if [ "$i" -gt 0 ]; then
    ip netns exec "$NS-h$i" "$ROOT/dist" daemon --bind "tcp://10.203.0.$((i + 1))" > "$WORK/daemon$i" 2>&1 &
    PIDS+=($!)
  fi
done
for i in $(seq 1 $((HOSTS - 1))); do
  for _ in $(seq 600); do grep -q "daemon listening" "$WORK/daemon$i" && break; sleep 0.1; done
  grep -q "daemon listening" "$WORK/daemon$i" || { echo "check-mpi-hosts: daemon $i did not start"; cat "$WORK/daemon$i"; exit 1; }
done
LIST=$(IFS=,; echo "${ADDRESSES[*]}")
ip netns exec "$NS-h0" "$ROOT/dist" mpirun -np "$HOSTS" -- -cp "$JAR" "$@" > "$WORK/expected" || {
  echo "check-mpi-hosts: $* does not run on one host" >&2; exit 2; }
if [ "$HOG" = 1 ]; then
  for _ in $(seq $((2 * $(nproc)))); do yes > /dev/null & PIDS+=($!); done
fi
for run in $(seq "$REPEATS"); do
  start=$(date +%s%N)
  ip netns exec "$NS-h0" "$ROOT/dist" mpirun -np "$HOSTS" --hosts "$LIST" -- -cp "$JAR" "$@" \
    > "$WORK/actual" 2> "$WORK/err" || { echo "run $run: exit $?"; cat "$WORK/err"; exit 1; }
  millis=$(( ($(date +%s%N) - start) / 1000000 ))
  if ! cmp -s "$WORK/expected" "$WORK/actual"; then
    echo "run $run: DIFFERENT output"; diff "$WORK/expected" "$WORK/actual" | head; exit 1
  fi
  echo "$* on $HOSTS hosts, run $run: identical ($millis ms)"
done
