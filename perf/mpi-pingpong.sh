#!/usr/bin/env bash
# MPI ping-pong: dist MPI vs a raw NIO socket vs Open MPI (C, TCP loopback), in one run.
# Installs Open MPI from Debian's packages when it is missing (as root), compiles the C side,
# then runs dev.distvm.perf.MpiPingPong. Usage: perf/mpi-pingpong.sh [--repeats N]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! command -v mpicc >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Open MPI (openmpi-bin, libopenmpi-dev) from Debian's packages..." >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openmpi-bin libopenmpi-dev >/dev/null
  else
    echo "Open MPI is missing: apt-get install openmpi-bin libopenmpi-dev" >&2
    exit 2
  fi
fi
"$ROOT/dist" build >/dev/null
mkdir -p "$ROOT/build"
mpicc -O2 -o "$ROOT/build/openmpi-pingpong" "$ROOT/perf/src/main/c/pingpong.c"
exec java -cp "$ROOT/build/perf.jar" dev.distvm.perf.MpiPingPong --openmpi "$ROOT/build/openmpi-pingpong" "$@"
