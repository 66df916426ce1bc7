#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Check distributed runs on ns-3's own MPI engine: builds ns-3 with MPI and this module
# (tools/build-ns3.sh, cached and incremental), then runs test/outputs-identical.sh mpi:
# nine-city-training on 1, 2 and 4 ranks (granted-time-window and null-message, a hostfile
# with 4 slots, all four capability sets, direct and ring, and 1% WAN loss) must write the
# same outputs byte for byte.
#
# Usage: tools/check-mpi.sh [--if-built] [--bench] [VERSION]
#   --if-built  only if an MPI build exists already (it is updated first); otherwise report
#               "skipped" and exit 77 (ctest's mpi/outputs-identical runs this)
#   --bench     also time training-bench (1 GB model, MTU 9000, sets none and both) on one
#               rank and on two, in the same run, and print both tables
#   VERSION     the ns-3 release (default: tools/build-ns3.sh's, the newest supported)
# Environment: WAN_NS3_MPI_CACHE as for tools/build-ns3.sh; WAN_MPI_REQUIRED=1 turns --if-built's
#   "skipped" into a failure (exit 1), for CI, which builds the MPI ns-3 first (.ci/run).
#
# Exit code: 0 all identical, 1 a difference or a failed run, 77 skipped (--if-built).

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IF_BUILT=0
BENCH=0
VERSION=3.48
for arg in "$@"; do
    case "$arg" in
    --if-built) IF_BUILT=1 ;;
    --bench) BENCH=1 ;;
    -*)
        echo "check-mpi: unknown option '$arg'" >&2
        exit 2
        ;;
    *) VERSION=$arg ;;
    esac
done
CACHE=${WAN_NS3_MPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wan-training/mpi}/ns-$VERSION
ENV_FILE=$CACHE/build-ns3.env

if [ "$IF_BUILT" = 1 ] && [ ! -f "$ENV_FILE" ]; then
    if [ "${WAN_MPI_REQUIRED:-0}" = 1 ]; then
        echo "check-mpi: no MPI build of ns-3 $VERSION in $CACHE, and WAN_MPI_REQUIRED=1" >&2
        exit 1
    fi
    echo "skipped: no MPI build of ns-3 $VERSION in $CACHE (tools/build-ns3.sh builds one, about" \
        "30 minutes on 2 cores; tools/check-mpi.sh then runs these checks)"
    exit 77
fi
START=$SECONDS
"$REPO/tools/build-ns3.sh" "$VERSION" > "$CACHE.build.log" 2>&1 ||
    {
        tail -20 "$CACHE.build.log" >&2
        echo "check-mpi: tools/build-ns3.sh $VERSION failed (log: $CACHE.build.log)" >&2
        exit 1
    }
# shellcheck source=/dev/null
. "$ENV_FILE"
export LD_LIBRARY_PATH=$NS3_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export MPIRUN
echo "ns-3 $NS3_VERSION with MPI: $NS3_TREE (build up to date in $((SECONDS - START)) s)"

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/wan-training-mpi.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
status=0
sh "$REPO/test/outputs-identical.sh" mpi "$NINE_CITY_TRAINING" "$SCRATCH/runs" || status=$?

if [ "$BENCH" = 1 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
    bench=(--topology="$REPO/data/topologies/doublezero-9.json" --modelBytes=1000000000 --mtu=9000
        --sets=none,both)
    echo "== training-bench, one process (ns-3's default simulator)"
    "$TRAINING_BENCH" "${bench[@]}" || status=1
    echo "== training-bench, two ranks"
    "$MPIRUN" -np 2 "$TRAINING_BENCH" "${bench[@]}" --simulator=null-message || status=1
fi
case "$status" in
0) verdict=PASSED ;;
77) verdict="SKIPPED (see above)" ;;
*) verdict=FAILED ;;
esac
echo "check-mpi: $verdict in $((SECONDS - START)) s"
exit "$status"
