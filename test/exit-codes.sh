#!/bin/sh
# nine-city-training's exit codes and its guards, on the real binary:
#   0  a small lossless run: every round complete (summary.json, rounds.csv's complete column);
#   3  a 1 bit/s access link with a 200 kB model (1.6 million seconds per update) and
#      --maxSimTime=30s: the run stops within seconds of wall time, writes its results, and
#      every round is unfinished; the same with --jobs=2 over all six capability sets (the
#      parent combines its children's codes); a 2 GB model with --maxWallTime=2s;
#   0  cross traffic that outlasts the rounds, cut at --maxSimTime after them (a limit that
#      cuts nothing, nothing said); links.csv's
#      utilisation over the whole run (a half-rate flow reads 0.5);
#   1  wan-fabric (beside the binary) on a topology whose file chooses 3-packet queues: frames
#      drop and receivers miss bytes (the file's queues were once replaced by burst-sized ones,
#      exit 0); the same file without its queue key: exit 0;
#   1  fpga-aggregation with a 1-packet queue: chunks incomplete, no relief claimed;
#   the default results folder: results/nine-city-training/<UTC stamp>/ and results/latest a
#      link to it; the same under the root the environment variable RESULTS names.
# Expected values follow from the arguments (rounds x islands rows; nothing can finish in 30 s
# at 1 bit/s), not from earlier output.
# Usage: test/exit-codes.sh <nine-city-training binary> <scratch folder>
set -u
example=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") || exit 1
here=$(cd "$(dirname "$0")" && pwd) || exit 1
mkdir -p "$2" && scratch=$(cd "$2" && pwd) || exit 1
status=0
# Islands of the default topology (data/topologies/doublezero-9.json).
islands=9
# Most wall seconds a guarded run may take, setup included.
guard=60

rm -rf "$scratch"
mkdir -p "$scratch/cwd"
cd "$scratch/cwd" || exit 1

fail() {
    echo "FAIL: $*" >&2
    status=1
}

# run LABEL EXPECTED-CODE FLAG...: one run into $scratch/LABEL; checks its exit code
run() {
    label=$1
    expected=$2
    shift 2
    start=$(date +%s)
    timeout $((guard * 2)) "$example" "$@" --output="$scratch/$label" \
        >"$scratch/$label.txt" 2>"$scratch/$label.err"
    code=$?
    seconds=$(($(date +%s) - start))
    if [ "$code" -ne "$expected" ]; then
        fail "$label: exit code $code, expected $expected ($*)"
        tail -5 "$scratch/$label.err" >&2
    else
        echo "ok: $label: exit code $code after $seconds s"
    fi
}

# has LABEL TEXT COUNT: summary.json of LABEL holds TEXT on exactly COUNT lines
has() {
    found=$(grep -cF -- "$2" "$scratch/$1/summary.json")
    [ "$found" -eq "$3" ] || fail "$1: summary.json has '$2' on $found lines, expected $3"
}

# complete LABEL VALUE ROWS: rounds.csv of LABEL has ROWS rows, each with complete=VALUE
complete() {
    rows=$(tail -n +2 "$scratch/$1/rounds.csv" | awk -F, -v v="$2" '$NF == v' | wc -l)
    all=$(tail -n +2 "$scratch/$1/rounds.csv" | wc -l)
    [ "$rows" -eq "$3" ] && [ "$all" -eq "$3" ] ||
        fail "$1: rounds.csv has $rows of $all rows with complete=$2, expected $3 of $3"
}

small="--modelBytes=200000 --schedule=global --colocated=false"

# shellcheck disable=SC2086
run complete 0 $small --rounds=2
has complete '"complete": true' 1
has complete '"unfinished_rounds": 0' 1
has complete '"stopped_by": null' 1
has complete '"exit_code": 0' 1
complete complete 1 $((2 * islands))

# shellcheck disable=SC2086
run slow-link 3 $small --rounds=2 --accessBandwidth=1bps --maxSimTime=30s
[ "$seconds" -le "$guard" ] || fail "slow-link: took $seconds s, more than $guard"
has slow-link '"complete": false' 1
has slow-link '"unfinished_rounds": 2' 1
has slow-link '"stopped_by": "maxSimTime"' 1
has slow-link '"exit_code": 3' 1
# No round finished: nothing to time or compare (0 and -1 before).
has slow-link '"time_to_epsilon_s": null' 1
has slow-link '"sim_vs_estimate": null' 1
complete slow-link 0 $((2 * islands))
grep -qF "stopped by --maxSimTime" "$scratch/slow-link.err" ||
    fail "slow-link: no warning on stderr"

# shellcheck disable=SC2086
run slow-link-jobs 3 $small --rounds=1 --accessBandwidth=1bps --maxSimTime=30s \
    --capabilities=all --jobs=2
has slow-link-jobs '"stopped_by": "maxSimTime"' 6
has slow-link-jobs '"exit_code": 3' 1
complete slow-link-jobs 0 $((6 * islands))

run wall 3 --modelBytes=2000000000 --schedule=global --colocated=false --rounds=1 \
    --maxWallTime=2s
[ "$seconds" -le "$guard" ] || fail "wall: took $seconds s, more than $guard"
has wall '"stopped_by": "maxWallTime"' 1
has wall '"exit_code": 3' 1
complete wall 0 "$islands"

# --maxWallTime passed while the optimiser searched: the baselines are scored, the search stops
# in its first stage (exhaustive, for 9 islands) with the best so far, the run is cut at once.
run wall-optimiser 3 --modelBytes=200000 --schedule=optimal --baselines= --colocated=false --rounds=1 \
    --maxWallTime=1ms
has wall-optimiser '"stopped_by": "maxWallTime"' 1
complete wall-optimiser 0 "$islands"
grep -qF "capabilities=both: --maxWallTime passed in the optimiser's exhaustive stage" \
    "$scratch/wall-optimiser.err" || fail "wall-optimiser: no warning on stderr"

# Cross traffic that outlasts the training (a flow until 9.2e9 s): --maxSimTime still ends the
# run (it once ran on, bounded only by --maxWallTime), and since every round was done the
# results are whole: exit code 0, a note rather than the warning.
echo '{"flows": [{"from": "NYC", "to": "LON", "protocol": "udp", "rate": "1Gbps", "start": "0s", "stop": "9.2e9s"}]}' \
    >"$scratch/outlast.json"
# shellcheck disable=SC2086
run outlast 0 $small --rounds=1 --crossTraffic="$scratch/outlast.json" --maxSimTime=10s
[ "$seconds" -le "$guard" ] || fail "outlast: took $seconds s, more than $guard"
has outlast '"complete": true' 1
has outlast '"stopped_by": null' 1
complete outlast 1 "$islands"

# A limit that cuts nothing says nothing: a 1 ns flow at 0.1 s ends long before a limit of
# 9e9 s, to which the simulator then only jumps (it once printed "--maxSimTime stopped the
# traffic after them at 9e+09 s").
echo '{"flows": [{"from": "NYC", "to": "LON", "protocol": "udp", "rate": "1Gbps", "start": "0.1s", "stop": "0.100000001s"}]}' \
    >"$scratch/short.json"
# shellcheck disable=SC2086
run idle 0 $small --rounds=1 --crossTraffic="$scratch/short.json" --maxSimTime=9000000000s
has idle '"stopped_by": null' 1
! grep -q "maxSimTime" "$scratch/idle.err" || fail "idle: a limit that cut nothing is reported"
# Its clock jumped to the limit's event; the last progress line shows when the work ended (the
# round, about 0.26 s), not 9e9 s.
tail -n 1 "$scratch/idle.err" | grep -qE "^progress: .* sim=0\.[0-9]+s wall=" ||
    fail "idle: the last progress line is not the run's end: $(tail -n 1 "$scratch/idle.err")"

# links.csv's utilisation is over the time its bytes were counted: a 50 Gbit/s flow on the 100
# Gbit/s NYC-LON link for the whole 1 s run sends 9002-byte frames for 8972-byte writes, so
# NYC>LON is 0.5 x 9002 / 8972 = 0.5017 (the training's 200 kB add 1e-4). It was once divided
# by the end of the last round (0.26 s here): 1.93, a link busier than its rate.
# A second flow starts after the run's end: it never ran, and the table says so (it once said
# "goodput 0.000 Gbps", as if starved).
echo '{"flows": [{"from": "NYC", "to": "LON", "protocol": "udp", "rate": "50Gbps", "start": "0s", "stop": "9.2e9s"},' \
    '{"from": "LON", "to": "NYC", "protocol": "udp", "rate": "1Gbps", "start": "300s", "stop": "301s"}]}' \
    >"$scratch/half.json"
# shellcheck disable=SC2086
run utilisation 0 $small --rounds=1 --crossTraffic="$scratch/half.json" --maxSimTime=1s
awk -F, 'NR > 1 && ($7 < 0 || $7 > 1) { bad = 1; print "over 1: " $0 }
         NR > 1 && $4 == "NYC" && $5 == "LON" { found = 1; if ($7 < 0.495 || $7 > 0.505) {
             bad = 1; print "NYC>LON: " $7 ", expected 0.5017" } }
         END { exit bad || !found }' "$scratch/utilisation/links.csv" >&2 ||
    fail "utilisation: links.csv beyond its links' rates (above)"
grep -qF "#1 LON>NYC udp offered 1.000 Gbps, never ran (starts at 300 s, after the run ended)" \
    "$scratch/utilisation.txt" || fail "utilisation: the late flow is not said to have never run"
grep -qF "every round was done; --maxSimTime stopped the traffic after them at 10 s" \
    "$scratch/outlast.err" || fail "outlast: no note on stderr"

# wan-fabric keeps the queues a topology file chooses. 1 MB is 112 datagrams, all enqueued at
# once at the sender's access link: a 3-packet queue keeps 3 (plus the one on the wire), so every
# receiver misses bytes and the run fails; without the key the queues hold the burst.
fabric=$(dirname "$example")/wan-fabric
topology=$here/../examples/topologies/slow-receiver-4.json
for queue in 3p none; do
    if [ "$queue" = none ]; then
        cp "$topology" "$scratch/fabric-$queue.json"
        expected=0
    else
        sed 's/"accessDelay": "50us"}/"accessDelay": "50us", "queue": "'$queue'"}/' "$topology" \
            >"$scratch/fabric-$queue.json"
        expected=1
    fi
    timeout "$guard" "$fabric" --topology="$scratch/fabric-$queue.json" --bytes=1000000 \
        --output="$scratch/fabric-$queue" >"$scratch/fabric-$queue.txt" 2>&1
    code=$?
    if [ "$code" -ne "$expected" ]; then
        fail "wan-fabric with queue $queue: exit code $code, expected $expected"
        tail -5 "$scratch/fabric-$queue.txt" >&2
    elif [ "$queue" != none ] && ! grep -q '"queue": "3p"' "$scratch/fabric-$queue.json"; then
        fail "wan-fabric: the test's topology lacks its queue key"
    else
        echo "ok: wan-fabric with queue $queue: exit code $code"
    fi
done

# fpga-aggregation with a 1-packet queue: chunks are lost, the run fails (exit 1), and no relief
# or last-chunk time is claimed for chunks that never came whole (it once printed "2.000x fewer
# bytes" and 0.000 ms).
timeout "$guard" "$(dirname "$example")/fpga-aggregation" --k=3 --chunks=2 --elements=1 \
    --queue=1p --output="$scratch/fpga-queue" >"$scratch/fpga-queue.txt" 2>&1
code=$?
if [ "$code" -ne 1 ]; then
    fail "fpga-aggregation --queue=1p: exit code $code, expected 1"
elif ! grep -q "^access link relief: not measured (chunks incomplete)" "$scratch/fpga-queue.txt" ||
    [ "$(grep -cE '^(no-fpga|fpga) .* -$' "$scratch/fpga-queue.txt")" -ne 2 ]; then
    fail "fpga-aggregation --queue=1p: claims a relief or a last chunk:"
    cat "$scratch/fpga-queue.txt" >&2
else
    echo "ok: fpga-aggregation --queue=1p: exit code 1, no relief claimed"
fi

# Without --output: a new stamped folder, results/latest a relative link to it.
timeout "$guard" "$example" $small --rounds=1 >"$scratch/default.txt" 2>"$scratch/default.err" ||
    fail "default folder: exit code $?"
target=$(readlink results/latest)
if ! echo "$target" | grep -qE '^nine-city-training/[0-9]{8}T[0-9]{6}Z(-[0-9]+)?$'; then
    fail "results/latest links to '$target', expected nine-city-training/<UTC stamp>"
elif [ ! -f "results/$target/summary.json" ]; then
    fail "results/latest: no summary.json in results/$target"
else
    echo "ok: default folder results/$target, linked from results/latest"
fi

# The environment variable RESULTS names another root, as for the Python tools.
runs=$(ls results/nine-city-training | wc -l)
RESULTS="$scratch/elsewhere" timeout "$guard" "$example" $small --rounds=1 \
    >"$scratch/elsewhere.txt" 2>"$scratch/elsewhere.err" || fail "RESULTS root: exit code $?"
target=$(readlink "$scratch/elsewhere/latest")
if [ ! -f "$scratch/elsewhere/$target/summary.json" ]; then
    fail "RESULTS=$scratch/elsewhere: latest links to '$target', no summary.json there"
elif [ "$(ls results/nine-city-training | wc -l)" -ne "$runs" ]; then
    fail "RESULTS=$scratch/elsewhere: a run folder was made under ./results as well"
else
    echo "ok: RESULTS root: $scratch/elsewhere/$target"
fi

exit $status
