#!/usr/bin/env bash
# Configures and builds the standalone module. Usage: tools/build.sh release|test
#   release: build/       Release, module logging/asserts compiled out (fast runs), examples only
#   test:    build-test/  Release ns-3, but the module's own NS_LOG and NS_ASSERT enabled
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-release}
case "$mode" in
release) dir=build checks=OFF extra="-DWAN_TRAINING_TESTS=OFF -DWAN_TRAINING_BENCH=OFF" ;;
test) dir=build-test checks=ON extra="" ;;
*) echo "usage: tools/build.sh release|test" >&2; exit 2 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DWAN_TRAINING_CHECKS=$checks $extra >"$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log" >&2; exit 1; }
cmake --build "$dir" -j "$jobs"
