#!/usr/bin/env bash
# The README's main command: installs what is missing, builds, and runs the nine-city
# experiment over all four capability sets (none, multicast, fpga, both): for each, the
# optimiser's schedule and the global-clique and ring baselines, plus the colocated reference.
#   1. virtual payloads with a large model (round times, link use):  results/main/<stamp>/virtual
#   2. real payloads with a small model (consensus and loss curves):  results/main/<stamp>/real
# then draws the figures (PNG) beside each and prints the tables. <stamp> is the UTC start time
# (%Y%m%dT%H%M%SZ); results/latest links to main/<stamp> from the start (the results folder
# rule, tools/results_dir.py: a results/latest that is a real folder stops the run).
# Environment: MODEL_BYTES (default 1000000000), ROUNDS (2), BASELINE_ROUNDS (1), MTU (9000,
# jumbo frames) and TCP_BASELINE_MTU (64000: the TCP baselines' links, see below) for the
# virtual run; REAL_MODEL_BYTES (1000000), REAL_ROUNDS (8), REAL_ACCESS_BANDWIDTH (100Mbps)
# and REAL_WAN_BANDWIDTH (1Gbps) for the real run; COMPUTE_TIME (100ms), JOBS (the number of
# cores), BASELINE_TRANSPORTS (tcp), RESULTS (the results root, default results). Extra
# arguments go to both runs.
# Exit status: 0, or the first failing run's (3: results written but partial; 1: bad input).
# The TCP baselines run on links of TCP_BASELINE_MTU bytes (--tcpBaselineMtu; the table says
# so): ns-3's TCP walks every segment in flight for each segment it sends, so a 1 GB ring over
# TCP at 9000 bytes would take from 7 to 40 minutes per set-up, against 2 or 3 at 64000. The
# frame size moves the TCP rounds by a few percent (at 100 MB the best set-up is 4.5% faster at
# 9000); TCP_BASELINE_MTU=9000 runs them at the same MTU as the rest (see doc/training.rst,
# "The passive baseline at its best"). One experiment split over
# several processes or machines runs under mpirun with an MPI build ("Parallel runs" in
# doc/training.rst).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh release

export RESULTS=${RESULTS:-results}
out=$(python3 tools/results_dir.py new main)
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Each capability set also runs ring all-reduce over ns-3 TCP (the tcp-ring rows): what
# today's software gets on the same WAN, the baseline of the gain (BASELINE_TRANSPORTS="" drops it).
common=(--capabilities=all --schedule=optimal --computeTime="${COMPUTE_TIME:-100ms}" --jobs="$jobs")
baseline_transports=${BASELINE_TRANSPORTS-tcp}
if [ -n "$baseline_transports" ]; then
    common+=(--baselineTransports="$baseline_transports")
fi
virtual_flags=()
case ",$baseline_transports," in
*,tcp,*) virtual_flags+=(--tcpBaselineMtu="${TCP_BASELINE_MTU:-64000}") ;;
esac

# Both runs always end; the first non-zero status (3 = partial results) is the script's.
status=0
keep_status() {
    local code=$?
    if [ "$status" -eq 0 ]; then status=$code; fi
    echo "run-main: $1 exited $code" >&2
}

model=${MODEL_BYTES:-1000000000}
echo "== virtual payloads, $model-byte model, MTU ${MTU:-9000} -> $out/virtual" >&2
# The baselines and the colocated reference have period 1: one round shows their round time.
build/examples/nine-city-training "${common[@]}" "${virtual_flags[@]}" --payload=virtual \
    --mtu="${MTU:-9000}" --baselineRounds="${BASELINE_ROUNDS:-1}" --modelBytes="$model" --rounds="${ROUNDS:-2}" \
    --output="$out/virtual" "$@" || keep_status "the virtual run"
# A 1 MB model on links 100 times slower than the file's (10 Gbps access, 100 Gbps WAN) is
# as bandwidth-bound as a 100 MB model on the real links: the optimiser then rotates cliques,
# and the consensus curves show it against the global-clique and ring baselines.
real=${REAL_MODEL_BYTES:-1000000}
echo "== real payloads, $real-byte model, access ${REAL_ACCESS_BANDWIDTH:-100Mbps}," \
    "WAN ${REAL_WAN_BANDWIDTH:-1Gbps} -> $out/real" >&2
build/examples/nine-city-training "${common[@]}" --payload=real --modelBytes="$real" \
    --accessBandwidth="${REAL_ACCESS_BANDWIDTH:-100Mbps}" --wanBandwidth="${REAL_WAN_BANDWIDTH:-1Gbps}" \
    --rounds="${REAL_ROUNDS:-8}" --output="$out/real" "$@" || keep_status "the real run"

for run in virtual real; do
    if [ -f "$out/$run/summary.json" ]; then
        python3 tools/plot.py experiment "$out/$run"
    fi
done
echo "results: $out (figures: $out/virtual/*.png, $out/real/*.png)" >&2
exit "$status"
