#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Prove that wan-training builds and passes its tests in-tree: inside an ns-3 source tree
# (<ns-3>/contrib/wan-training), in a DEBUG build (NS_ASSERT and NS_LOG compiled in, warnings as
# errors, as `./ns3 configure -d debug` does), with ns-3's own test.py running the module's test
# suites and its examples as tests (test/examples-to-run.py, which reads examples/smoke-tests.txt).
#
# Usage: tools/check-in-tree.sh [VERSION]      (as root or with sudo, on Debian)
#   VERSION  the ns-3 release, default 3.48 (the newest supported). The source:
#            - NS3_SOURCE=PATH when set: a release tarball (ns-3.NN.tar.xz/.bz2/.gz) or an ns-3
#              source folder (a checkout or an unpacked release; copied, never built in place);
#            - else for 3.37: Debian's source package ns3 (`apt-get source`, Debian 12 archive);
#            - else <repo>/../shared/ns-3/ns-VERSION.tar.xz (ns-3.48.tar.xz) when present, or
#              the same beside the checkout this repository was cloned from (its origin).
#
# Environment:
#   NS3_SOURCE      the ns-3 source, as above
#   WAN_NS3_CACHE   cache folder (default ${XDG_CACHE_HOME:-$HOME/.cache}/wan-training/in-tree);
#                   each version has its own ns-VERSION/ there (source, build, logs)
#   WAN_NS3_JOBS    parallel build jobs (default: nproc)
#   WAN_NS3_MPI=1   also build ns-3's mpi module (installs Open MPI, about 5 more minutes)
#   WAN_NS3_WERROR=0  do not treat compiler warnings as errors
#
# Re-running is incremental: the source, the configuration and the build are reused; only the
# module's changed files are rebuilt. The first run builds about 420 targets (ns-3's core,
# network, internet, point-to-point, applications, bridge, csma, their dependencies stats and
# traffic-control, and the module): 3.37 takes 10 to 16 minutes on 2 idle cores; 3.37 and 3.48
# each took 72 to 75 minutes on 2 cores shared with other builds (load average 9). A re-run
# takes well under a minute plus what changed.
#
# Exit code: 0 when every step passed and test.py reports no failure, 1 otherwise.

set -euo pipefail

TOOL=check-in-tree
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/lib/ns3-source-tree.sh
. "$REPO/tools/lib/ns3-source-tree.sh"
WITH_MPI=${WAN_NS3_MPI:-0}
WERROR=${WAN_NS3_WERROR:-1}

# --- 1. Version, cache and Debian packages -------------------------------------------------------

ns3_resolve_version "${1:-}"
ns3_use_cache "${WAN_NS3_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wan-training/in-tree}/ns-$VERSION"
if [ "$WITH_MPI" = 1 ]; then ns3_install_deps mpi; else ns3_install_deps; fi

# --- 2. ns-3 source, 3. the module copied into contrib/ -------------------------------------------

ns3_get_source
ns3_sync_module

# --- 4. Configure (once) --------------------------------------------------------------------------

# csma: ns-3 3.37's own test-runner links src/test/ns3tcp/ns3tcp-socket-test-suite.cc, which
# uses CsmaHelper, whenever applications and point-to-point are enabled (an upstream omission).
MODULES=core,network,internet,point-to-point,applications,bridge,csma,$MODULE
[ "$WITH_MPI" = 1 ] && MODULES=$MODULES,mpi
CONFIGURE_ARGS=(-G Ninja -d debug --enable-asserts --enable-logs --enable-tests --enable-examples
    "--enable-modules=$MODULES" "--filter-module-examples-and-tests=$MODULE"
    --disable-python-bindings --disable-gtk)
[ "$WITH_MPI" = 1 ] && CONFIGURE_ARGS+=(--enable-mpi)
[ "$WERROR" = 0 ] && CONFIGURE_ARGS+=(--disable-werror)

step "configuring ns-3 $NS3_VERSION (debug; modules $MODULES)"
ns3_configure "${CONFIGURE_ARGS[@]}"

# --- 5. Build -------------------------------------------------------------------------------------

ns3_build

# --- 6. test.py -----------------------------------------------------------------------------------

# The suites the module declares: one "// ctest-suite: <name>" line per TestSuite, as for the
# standalone build's ctest registration.
mapfile -t EXPECTED < <(sed -n 's|^// ctest-suite: *\([^ ]*\).*|\1|p' "$REPO"/test/*.cc | sort -u)

step "running ns-3's test.py (suites and examples of $MODULE)"
cd "$NS3"
# test.py --list prints "<type>  <suite>" per suite, then "example  <command line>" per example.
./test.py --no-build --list --nocolor > "$LOGS/test-list.txt" 2>&1 || true
LISTED=$(awk 'NF == 2 && $1 != "example" && $1 != "Test" { print $2 }' "$LOGS/test-list.txt")
EXAMPLES_LISTED=$(grep -c '^example ' "$LOGS/test-list.txt" || true)
registered=()
missing_suites=()
for suite in "${EXPECTED[@]}"; do
    if grep -qxF -- "$suite" <<< "$LISTED"; then
        registered+=("$suite")
    else
        missing_suites+=("$suite")
    fi
done

# test.py runs one suite per --suite, or every suite of the runner, which here also holds ns-3's
# own src/test suites: so one run per module suite, then one run of the examples listed by
# test/examples-to-run.py (--constrain=example; only this module's examples are built).
# Details of failures go to $LOGS/test-<name>.txt.
: > "$LOGS/test.log"
TESTPY_RUNS=0
TESTPY_FAILED_RUNS=0
run_testpy() {
    local name=$1
    shift
    TESTPY_RUNS=$((TESTPY_RUNS + 1))
    set +e
    ./test.py --no-build --nocolor --duration --text="$LOGS/test-$name" "$@" 2>&1 | tee -a "$LOGS/test.log"
    local rc=${PIPESTATUS[0]}
    set -e
    [ "$rc" -eq 0 ] || TESTPY_FAILED_RUNS=$((TESTPY_FAILED_RUNS + 1))
}
for suite in "${registered[@]}"; do
    run_testpy "$suite" --suite="$suite"
done
run_testpy examples --constrain=example

# --- 7. Summary -----------------------------------------------------------------------------------

# Each run ends with "<passed> of <total> tests passed (...)": add them up.
read -r PASSED TOTAL < <(awk '/^[0-9]+ of [0-9]+ tests passed/ { p += $1; t += $3 } END { print p + 0, t + 0 }' "$LOGS/test.log")
# test.py prints "[i/n] FAIL (seconds): TestSuite <name>" (or CRASH, VALGR) per failed test.
FAILED_LINES=$(grep -E '^\[[0-9]+/[0-9]+\] (FAIL|CRASH|VALGR)' "$LOGS/test.log" || true)
echo
echo "=== check-in-tree summary"
echo "ns-3:            $NS3_VERSION debug (asserts, logs), $NS3"
echo "modules:         $MODULES"
echo "suites declared: ${#EXPECTED[@]} (${EXPECTED[*]:-none})"
if [ ${#missing_suites[@]} -gt 0 ]; then
    echo "NOT REGISTERED:  ${missing_suites[*]} (declared by '// ctest-suite:' but unknown to test.py)"
fi
echo "examples:        $EXAMPLES_LISTED listed by test/examples-to-run.py and built"
if [ -n "$FAILED_LINES" ]; then
    echo "failures:"
    while IFS= read -r line; do echo "  $line"; done <<< "$FAILED_LINES"
fi
echo "test.py:         $PASSED of $TOTAL tests passed ($TESTPY_RUNS runs, $TESTPY_FAILED_RUNS failed)"
echo "elapsed:         $((SECONDS - START_SECONDS)) s; logs in $LOGS"
if [ "$TESTPY_FAILED_RUNS" -ne 0 ] || [ "$PASSED" -ne "$TOTAL" ] || [ ${#missing_suites[@]} -gt 0 ]; then
    echo "=== check-in-tree: FAILED"
    exit 1
fi
echo "=== check-in-tree: PASSED"
