#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build ns-3 from source with MPI, in release mode, with this module in
# <ns-3>/contrib/wan-training, into a cache folder outside the repository; print where the
# programs are and write the same facts to <cache>/build-ns3.env for other scripts to source.
#
# Usage: tools/build-ns3.sh [VERSION]      (as root or with sudo, on Debian)
#   VERSION  the ns-3 release, default 3.48 (the newest supported); the source as for
#            tools/check-in-tree.sh: NS3_SOURCE=PATH (tarball or folder), else for 3.37 Debian's
#            source package, else ns-VERSION.tar.xz in <repo>/../shared/ns-3/ (or beside the
#            checkout this repository was cloned from).
#
# Environment:
#   NS3_SOURCE          the ns-3 source, as above
#   WAN_NS3_MPI_CACHE   cache folder (default ${XDG_CACHE_HOME:-$HOME/.cache}/wan-training/mpi);
#                       each version has its own ns-VERSION/ there (source, build, logs, env file)
#   WAN_NS3_JOBS        parallel build jobs (default: nproc)
#   WAN_NS3_WERROR=0    do not treat compiler warnings as errors
#
# Installs Debian's Open MPI (libopenmpi-dev, openmpi-bin) and the other build dependencies when
# missing. Re-running is incremental: nothing is configured or rebuilt when nothing changed.
#
# Exit code: 0 when the build passed and the example programs were found, 1 otherwise, 2 for a bad
# version, source or cache folder.

set -euo pipefail

TOOL=build-ns3
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/lib/ns3-source-tree.sh
. "$REPO/tools/lib/ns3-source-tree.sh"
WERROR=${WAN_NS3_WERROR:-1}

ns3_resolve_version "${1:-}"
ns3_use_cache "${WAN_NS3_MPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wan-training/mpi}/ns-$VERSION"

# One run at a time per cache folder: two would build the same tree at once.
exec 9> "$CACHE/.lock"
if ! flock -n 9; then
    echo "waiting for another run that uses $CACHE"
    flock 9
fi

ns3_install_deps mpi
ns3_get_source
ns3_sync_module

# csma: ns-3 3.37's own test-runner uses CsmaHelper once applications and point-to-point are
# enabled. `-d release` turns warnings-as-errors off, so --enable-werror turns it back on.
MODULES=core,network,internet,point-to-point,applications,bridge,csma,mpi,$MODULE
CONFIGURE_ARGS=(-G Ninja -d release --enable-mpi --enable-examples --enable-tests
    "--enable-modules=$MODULES" "--filter-module-examples-and-tests=$MODULE"
    --disable-python-bindings --disable-gtk)
if [ "$WERROR" = 0 ]; then CONFIGURE_ARGS+=(--disable-werror); else CONFIGURE_ARGS+=(--enable-werror); fi

step "configuring ns-3 $NS3_VERSION (release, MPI; modules $MODULES)"
ns3_configure "${CONFIGURE_ARGS[@]}"
ns3_build

# --- Where the build put things -------------------------------------------------------------------

# ns-3 names programs ns3.NN-<name>, with a -<profile> suffix except in release; Debian's patched
# 3.37 tree names its libraries libns3-<module>[-profile].so. Search rather than assume.
find_program() {
    find "$NS3/build" -type f -perm -u+x -name "ns$NS3_VERSION-$1*" | sort | head -1
}
step "locating the programs"
NINE_CITY_TRAINING=$(find_program nine-city-training)
TRAINING_BENCH=$(find_program training-bench)
TEST_RUNNER=$(find_program test-runner)
CORE_LIB=$(find "$NS3/build" -name 'libns3*core*.so' | sort | head -1)
MPIRUN=$(command -v mpirun || true)
[ -n "$NINE_CITY_TRAINING" ] || fail "no nine-city-training program under $NS3/build"
[ -n "$CORE_LIB" ] || fail "no ns-3 core library under $NS3/build"
NS3_LIB_DIR=${CORE_LIB%/*}
NS3_TREE=$NS3

{
    printf '# written by tools/build-ns3.sh %s\n' "$VERSION"
    for key in NS3_VERSION NS3_TREE NS3_LIB_DIR NINE_CITY_TRAINING TRAINING_BENCH TEST_RUNNER MPIRUN; do
        printf '%s=%q\n' "$key" "${!key}"
    done
} > "$CACHE/build-ns3.env.new"
mv "$CACHE/build-ns3.env.new" "$CACHE/build-ns3.env"

ELAPSED=$((SECONDS - START_SECONDS))
echo
echo "=== build-ns3 summary"
echo "ns-3:               $NS3_VERSION release, MPI"
echo "tree:               $NS3_TREE"
echo "examples:           $(dirname "$NINE_CITY_TRAINING")/"
echo "nine-city-training: $NINE_CITY_TRAINING"
echo "training-bench:     ${TRAINING_BENCH:-not found under $NS3/build}"
echo "test runner:        ${TEST_RUNNER:-not found under $NS3/build}"
echo "libraries:          $NS3_LIB_DIR (LD_LIBRARY_PATH)"
echo "mpirun:             ${MPIRUN:-not found}"
if [ "$(id -u)" -eq 0 ] && [ -n "$MPIRUN" ]; then
    echo "                    as root, Open MPI's mpirun needs" \
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
fi
echo "env file:           $CACHE/build-ns3.env"
awk -v s="$ELAPSED" -v logs="$LOGS" 'BEGIN { printf "elapsed:            %.1f min (%d s); logs in %s\n", s / 60, s, logs }'
