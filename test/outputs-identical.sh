#!/bin/sh
# Checks that nine-city-training writes the same results however its work is spread over
# processes, comparing every output byte for byte (summary.json apart from its "output" line,
# which names the folder):
#   jobs: --jobs=1 against --jobs=3 on a small experiment (all capability sets, the
#         optimiser with its baselines, the colocated reference, real payloads);
#   mpi:  one process against 2 and 4 MPI ranks under ns-3's distributed simulators
#         (granted-time-window and null-message), all capability sets, direct (global
#         clique) and ring all-reduce, a run with 1% WAN loss, a reduction tree over
#         transit FPGAs with 1% WAN loss, FPGAs with loss on a generated 14-city topology,
#         loss drawn per frame on a generated 20-city backbone, and fragments hidden under
#         compute (rounds.csv's hidden_sync_s from every rank); the 4-rank runs use a
#         hostfile with 4 slots on this machine, as a cluster's would list its hosts.
# Usage:
#   test/outputs-identical.sh jobs <nine-city-training binary> <scratch folder>
#   test/outputs-identical.sh mpi  <nine-city-training binary of an MPI build> <scratch folder>
# mpi mode exits 77 (ctest: skipped) when the binary or mpirun is missing, saying why; with
# WAN_MPI_REQUIRED=1 (CI) it fails instead (exit 1).
set -eu
mode=$1
example=$2
out=$3
status=0

# run LABEL COMMAND...: one run of the example, its outputs in $out/LABEL; exit code 3
# (results written, partial: a lost peer under loss) is a result like 0, and summary.json's
# exit_code, compared below, must agree between the runs
run() {
    label=$1
    shift
    code=0
    "$@" --output="$out/$label" >"$out/$label.txt" 2>"$out/$label.err" || code=$?
    if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then
        echo "failed (exit code $code): $*" >&2
        tail -5 "$out/$label.err" >&2
        status=1
    fi
}

# same A B: every output of run A equals run B's
same() {
    for file in rounds.csv links.csv consensus.csv; do
        [ -e "$out/$1/$file" ] || [ -e "$out/$2/$file" ] || continue
        cmp "$out/$1/$file" "$out/$2/$file" || status=1
    done
    grep -v '"output"' "$out/$1/summary.json" >"$out/$1.json" || status=1
    grep -v '"output"' "$out/$2/summary.json" >"$out/$2.json" || status=1
    cmp "$out/$1.json" "$out/$2.json" || status=1
    cmp "$out/$1.txt" "$out/$2.txt" || status=1
    [ "$status" -ne 0 ] || echo "identical: $1 and $2"
}

rm -rf "$out"
mkdir -p "$out"
case "$mode" in
jobs)
    flags="--capabilities=all --schedule=optimal --modelBytes=400000 --rounds=3 \
        --baselineRounds=1 --maxPeriod=2 --payload=real"
    run one "$example" $flags --jobs=1
    run other "$example" $flags --jobs=3
    same one other
    [ ! -e "$out/other/.parts" ] || { echo "leftover $out/other/.parts" >&2; status=1; }
    ;;
mpi)
    # skip WHY: nothing to run; ctest's "skipped" (77), or a failure where WAN_MPI_REQUIRED=1
    skip() {
        if [ "${WAN_MPI_REQUIRED:-0}" = 1 ]; then
            echo "outputs-identical: $1, and WAN_MPI_REQUIRED=1" >&2
            exit 1
        fi
        echo "skipped: $1"
        exit 77
    }
    if [ ! -x "$example" ]; then
        skip "no MPI build of nine-city-training ($example); tools/build-ns3.sh builds ns-3 with MPI and this module, tools/check-mpi.sh runs these checks"
    fi
    mpirun=${MPIRUN:-$(command -v mpirun || true)}
    if [ -z "$mpirun" ]; then
        skip "no mpirun (Debian: openmpi-bin)"
    fi
    if [ "$(id -u)" -eq 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
    # Four slots on this machine, written as a cluster's hostfile lists its hosts.
    echo "localhost slots=4" >"$out/hostfile"
    flags="--capabilities=all --modelBytes=300000 --rounds=2 --baselineRounds=1"
    for schedule in global ring; do
        run "$schedule-1" "$example" $flags --schedule=$schedule
        run "$schedule-2" "$mpirun" -np 2 --oversubscribe "$example" $flags \
            --schedule=$schedule --simulator=granted-time-window
        run "$schedule-4" "$mpirun" --hostfile "$out/hostfile" -np 4 "$example" $flags \
            --schedule=$schedule --simulator=null-message
        same "$schedule-1" "$schedule-2"
        same "$schedule-1" "$schedule-4"
    done
    # Loss: each link's error model draws on the rank that receives, in the same order.
    lossy="$flags --schedule=global --lossRate=0.01 --colocated=false"
    run lossy-1 "$example" $lossy
    run lossy-2 "$mpirun" -np 2 --oversubscribe "$example" $lossy --simulator=null-message
    run lossy-4 "$mpirun" --hostfile "$out/hostfile" -np 4 "$example" $lossy \
        --simulator=granted-time-window
    grep -q '"loss_drops": [1-9]' "$out/lossy-1/summary.json" ||
        { echo "lossy-1: no packet was lost: the loss comparison shows nothing" >&2; status=1; }
    # Frames between ranks in bundles (not the default): the same run here.
    run lossy-2f "$mpirun" -np 2 --oversubscribe "$example" $lossy --simulator=null-message \
        --ns3::WanLinkChannel::MaxBundleBytes=1856
    same lossy-1 lossy-2
    same lossy-1 lossy-4
    same lossy-1 lossy-2f
    # A reduction tree over transit FPGAs (the global clique's, with 100 Gbps access links
    # where it is the optimiser's choice), with 1% WAN loss: the pieces the transit FPGAs add
    # up and the repairs of lost ones cross ranks in the same order.
    echo '{"islands": 9, "rounds": [{"cliques": [[0, 1, 2, 3, 4, 5, 6, 7, 8]], "algorithms": ["tree"]}]}' \
        >"$out/tree.json"
    tree="--capabilities=both+transit --accessBandwidth=100Gbps --modelBytes=300000 --rounds=2 \
        --schedule=$out/tree.json --lossRate=0.01 --colocated=false"
    run tree-1 "$example" $tree
    run tree-2 "$mpirun" -np 2 --oversubscribe "$example" $tree --simulator=granted-time-window
    run tree-4 "$mpirun" --hostfile "$out/hostfile" -np 4 "$example" $tree \
        --simulator=null-message
    grep -q "(tree@" "$out/tree-1.txt" ||
        { echo "tree-1: the clique did not exchange over a tree" >&2; status=1; }
    grep -q '"loss_drops": [1-9]' "$out/tree-1/summary.json" ||
        { echo "tree-1: no packet was lost: the loss comparison shows nothing" >&2; status=1; }
    same tree-1 tree-2
    same tree-1 tree-4
    # A topology none of the above was built for: the topology generator's 14 cities on two
    # continents (a 45 ms lookahead between the ranks), 1 or 2 islands per city, FPGAs with
    # 0.5% WAN loss and a 20 MB model, where the FPGAs' early flushes depend on the order of
    # frames arriving at the same nanosecond. One frame per message (the default) matches one
    # process here; bundles (MaxBundleBytes=1856) do not, which is why they are opt-in.
    generator=${example%nine-city-training}topology-generator
    # generate FILE FLAGS...: the generator's topology in $out/FILE; on failure say so, mark
    # the check failed and return non-zero.
    generate() {
        file=$1
        shift
        "$generator" "$@" --output="$out/$file" >"$out/generator.txt" 2>&1 && return 0
        echo "failed: $generator (see $out/generator.txt)" >&2
        status=1
        return 1
    }
    if generate continents-14.json --family=continents --cities=14 --seed=7 --maxIslandsPerCity=2; then
        generated="--topology=$out/continents-14.json --capabilities=fpga --modelBytes=20000000 \
            --rounds=2 --lossRate=0.005 --seed=5 --colocated=false"
        run generated-1 "$example" $generated
        run generated-2 "$mpirun" -np 2 --oversubscribe "$example" $generated \
            --simulator=null-message
        grep -q "partial flushes [1-9]" "$out/generated-1.txt" ||
            { echo "generated-1: no early flush: the comparison shows nothing" >&2; status=1; }
        same generated-1 generated-2
    fi
    # Loss drawn from each frame's bytes (--lossModel=frame) on a generated 20-city backbone,
    # where frames from two ranks meet at routers in the same nanosecond: with ns-3's
    # RateErrorModel (the default) two ranks lose other frames than one process there (see
    # "When a split run differs" in doc/training.rst); with the frame model they lose the same
    # ones, one frame per message and in bundles.
    if generate backbone-20.json --family=backbone --cities=20 --seed=4 --maxIslandsPerCity=2; then
        backbone="--topology=$out/backbone-20.json --capabilities=none --modelBytes=10000000 \
            --rounds=2 --lossRate=0.005 --lossModel=frame --seed=5 --colocated=false"
        run backbone-1 "$example" $backbone
        run backbone-2 "$mpirun" -np 2 --oversubscribe "$example" $backbone \
            --simulator=null-message
        run backbone-2f "$mpirun" -np 2 --oversubscribe "$example" $backbone \
            --simulator=null-message --ns3::WanLinkChannel::MaxBundleBytes=1856
        grep -q '"loss_drops": [1-9]' "$out/backbone-1/summary.json" ||
            { echo "backbone-1: no packet was lost: the loss comparison shows nothing" >&2; status=1; }
        same backbone-1 backbone-2
        same backbone-1 backbone-2f
    fi
    # Fragments exchanged during compute: rounds.csv's hidden_sync_s of every island, rank 1's
    # (LON, AMS, FRA, SIN) too, reaches rank 0 (it once arrived as 0 from other ranks).
    hidden="--capabilities=both --modelBytes=2000000 --rounds=2 --innerSteps=4 --fragments=2 \
        --colocated=false --baselines=false"
    run hidden-1 "$example" $hidden
    run hidden-2 "$mpirun" -np 2 --oversubscribe "$example" $hidden --simulator=null-message
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hidden_sync_s") c = i; next }
             c && $c > 0 { n++ } END { exit n != 18 }' "$out/hidden-1/rounds.csv" ||
        { echo "hidden-1: not every island-round hid sync: the comparison shows nothing" >&2; status=1; }
    same hidden-1 hidden-2
    # Complete split runs end with their work under both simulators: no limit stopped them (a
    # granted-time-window run once went on to --maxSimTime and warned that it had been stopped).
    for label in global-2 ring-2 lossy-4 tree-2 global-4 lossy-2; do
        ! grep -q "stopped by --maxSimTime" "$out/$label.err" ||
            { echo "$label: stopped by its limit, not by its end" >&2; status=1; }
    done
    # The runs were split: rank 0 says so on stderr, one line per experiment.
    grep -q "^partition: both / global: .*(granted-time-window, 2 ranks)" "$out/global-2.err" ||
        { echo "global-2: no partition line" >&2; status=1; }
    ;;
*)
    echo "error: mode '$mode': expected jobs|mpi" >&2
    exit 2
    ;;
esac
exit $status
