#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ with clang++ into build-fuzz/ and runs each for a
# fixed time or number of inputs, starting from its committed seeds (fuzz/corpus/<name>/).
# Usage: tools/run-fuzzers.sh [--seconds N | --runs N] [--no-install] [NAME ...]
#   NAME        topology, schedule, gradient-header, router, fpga, chakra (default: all six)
#   --seconds N run each harness N seconds (default 12: 72 s for the six)
#   --runs N    run each harness for N inputs instead (0: only the seeds and saved corpus)
#   --no-install  do not call tools/install-deps.sh --fuzz (clang, libFuzzer runtime)
# The corpus each harness grows is kept in build-fuzz/corpus/<name>/ (reused by the next run);
# crashing inputs go to build-fuzz/artifacts/<name>/. One summary line per harness: inputs run,
# executions per second, corpus size, crashes. Exit code 1 if any harness found a crash.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    echo "usage: tools/run-fuzzers.sh [--seconds N | --runs N] [--no-install] [NAME ...]" >&2
    exit 2
}
all=(topology schedule gradient-header router fpga chakra)
seconds=12
runs=""
install=1
names=()
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) [ $# -ge 2 ] || usage; seconds=$2; runs=""; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    --no-install) install=0; shift ;;
    -h | --help) usage ;;
    -*) usage ;;
    *)
        [[ " ${all[*]} " == *" $1 "* ]] || { echo "run-fuzzers: no harness '$1' (${all[*]})" >&2; exit 2; }
        names+=("$1")
        shift
        ;;
    esac
done
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")

[ "$install" -eq 0 ] || tools/install-deps.sh --fuzz

# Build: the module with coverage, ASan and UBSan (fuzz/CMakeLists.txt), only what is needed.
jobs=$(nproc 2>/dev/null || echo 2)
targets=()
for name in "${names[@]}"; do
    targets+=("$name-fuzzer")
done
build_started=$SECONDS
# Through ccache when installed (tools/ccache-launcher.sh: objects shared across clones).
launcher=$(tools/ccache-launcher.sh fuzz)
cmake -S fuzz -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ "-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher" \
    >build-fuzz.configure.log 2>&1 \
    || { cat build-fuzz.configure.log >&2; exit 1; }
cmake --build build-fuzz -j "$jobs" --target "${targets[@]}"
echo "run-fuzzers: built in $((SECONDS - build_started)) s" >&2

# Any UBSan report is fatal (-fno-sanitize-recover). A small quarantine and shorter allocation
# stacks double the packet harnesses' speed (each input builds and frees a simulation): measured
# 95 -> 200 inputs/s for the router harness; use-after-free is still caught within 16 MB of frees.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=16:malloc_context_size=8}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

summary=()
crashed=0
for name in "${names[@]}"; do
    corpus=build-fuzz/corpus/$name
    artifacts=build-fuzz/artifacts/$name
    log=build-fuzz/logs/$name.log
    mkdir -p "$corpus" "$artifacts" build-fuzz/logs
    limit=(-max_total_time="$seconds")
    [ -z "$runs" ] || limit=(-runs="$runs")
    before=$(find "$artifacts" -type f | wc -l)
    rc=0
    # The working corpus first (libFuzzer adds new inputs there), the committed seeds second.
    "build-fuzz/$name-fuzzer" "$corpus" "fuzz/corpus/$name" "${limit[@]}" -timeout=25 \
        -rss_limit_mb=2048 -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1 || rc=$?
    final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
    execs=$(final_stat number_of_executed_units)
    rate=$(final_stat average_exec_per_sec)
    crashes=$(($(find "$artifacts" -type f | wc -l) - before))
    size=$(find "$corpus" -type f | wc -l)
    status=ok
    if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
        status="CRASH (exit $rc; see $log; reproduce: build-fuzz/$name-fuzzer $artifacts/<file>)"
        crashed=1
        grep -E 'ERROR|runtime error|SUMMARY|fuzzer:|Test unit written' "$log" | head -n 20 >&2 || true
    fi
    summary+=("$(printf '%-16s %9s inputs, %6s exec/s, corpus %5s files, %s new crash(es): %s' \
        "$name:" "${execs:-?}" "${rate:-?}" "$size" "$crashes" "$status")")
done
echo
limit_text="$seconds s"
[ -z "$runs" ] || limit_text="$runs inputs"
echo "=== run-fuzzers ($limit_text each)"
printf '%s\n' "${summary[@]}"
exit "$crashed"
