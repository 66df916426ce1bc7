#!/usr/bin/env bash
# Configures and builds the standalone module. Usage: tools/build.sh release|test|asan
#   release: build/       Release, module logging/asserts compiled out (fast runs), examples only
#   test:    build-test/  Release ns-3, but the module's own NS_LOG and NS_ASSERT enabled
#   asan:    build-asan/  as test, with AddressSanitizer and UndefinedBehaviorSanitizer (-O1,
#                         frame pointers, any UBSan report aborts); no benchmarks, no tcmalloc
#                         (ASan brings its own allocator). Debian's ns-3 itself is not
#                         instrumented. Run the tests with tools/build.sh's ASAN_OPTIONS and
#                         UBSAN_OPTIONS (see .ci/run and doc/building.rst).
# Compiles through ccache when it is installed (tools/install-deps.sh installs it), its cache in
# ~/.cache/wan-training/ccache (WAN_CCACHE_DIR for another; WAN_CCACHE=0: no ccache). asan
# objects are shared across clones in different folders (CCACHE_BASEDIR = the clone's root,
# the working directory not hashed: their debug info may name the first clone's build folder),
# except those of sources naming __FILE__, which must stay absolute (WanCommandLine::
# ResolveDataPath finds the module's data files from it; see tools/ccache-compile.sh); test and
# release objects are reused only by a build in the same folder (tools/ccache-launcher.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-release}
flags=()
case "$mode" in
release)
    dir=build
    flags=(-DCMAKE_BUILD_TYPE=Release -DWAN_TRAINING_CHECKS=OFF -DWAN_TRAINING_TESTS=OFF
        -DWAN_TRAINING_BENCH=OFF)
    ;;
test)
    dir=build-test
    flags=(-DCMAKE_BUILD_TYPE=Release -DWAN_TRAINING_CHECKS=ON)
    ;;
asan)
    dir=build-asan
    sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAN_TRAINING_CHECKS=ON -DWAN_TRAINING_BENCH=OFF
        -DWAN_TRAINING_TCMALLOC=OFF
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -fno-omit-frame-pointer $sanitize"
        "-DCMAKE_EXE_LINKER_FLAGS=$sanitize" "-DCMAKE_SHARED_LINKER_FLAGS=$sanitize")
    ;;
*)
    echo "usage: tools/build.sh release|test|asan" >&2
    exit 2
    ;;
esac
launcher=$(tools/ccache-launcher.sh "$mode")
flags+=("-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher")
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$dir" "${flags[@]}" >"$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log" >&2; exit 1; }
cmake --build "$dir" -j "$jobs"
