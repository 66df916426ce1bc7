#!/bin/sh
# Build the standalone module in Release with the module's checks off, then run benchmarks.
#
#   bench/run.sh                  build and run every benchmark below
#   bench/run.sh fabric-bench     build and run only the named ones
#   bench/run.sh fabric-bench -- --packets=2000   pass flags to every program run
#
# Environment: BUILD_DIR (default <repo>/build-bench), JOBS (default 2).
# To add a benchmark: add its name to bench/CMakeLists.txt and one line to BENCHES below.
set -eu

BENCHES="
fabric-bench
fpga-bench
training-bench
optimiser-bench
loss-bench
"

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build-bench}
JOBS=${JOBS:-2}

selected=""
while [ $# -gt 0 ]; do
    case "$1" in
    --) shift; break ;;
    -*) echo "error: unknown option '$1' (flags for the programs go after --)" >&2; exit 1 ;;
    *)
        case " $(echo $BENCHES) " in
        *" $1 "*) selected="$selected $1" ;;
        *) echo "error: unknown benchmark '$1'; known:" $BENCHES >&2; exit 1 ;;
        esac
        shift ;;
    esac
done
[ -n "$selected" ] || selected=$BENCHES

cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DWAN_TRAINING_CHECKS=OFF \
    -DWAN_TRAINING_TESTS=OFF -DWAN_TRAINING_BENCH=ON >/dev/null
for bench in $selected; do
    cmake --build "$BUILD_DIR" -j"$JOBS" --target "$bench"
done

# Benchmarks run from the repository root, like the tests and examples.
cd "$ROOT"
status=0
for bench in $selected; do
    echo "== $bench"
    "$BUILD_DIR/bench/$bench" "$@" || { echo "error: $bench failed" >&2; status=1; }
done
exit $status
