#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Prove that wan-training builds and passes its tests in-tree: inside Debian's ns-3 3.37 source
# tree (<ns-3>/contrib/wan-training), in a DEBUG build (NS_ASSERT and NS_LOG compiled in, -Werror),
# with ns-3's own test.py running the module's test suites and its examples as tests
# (test/examples-to-run.py, which reads examples/smoke-tests.txt).
#
# Usage: tools/check-in-tree.sh        (on Debian 12 "bookworm", as root or with sudo)
#
# Environment:
#   WAN_NS3_SRC     cache folder for the ns-3 source and build (default: <repo>/build-in-tree)
#   WAN_NS3_JOBS    parallel build jobs (default: nproc)
#   WAN_NS3_MPI=1   also build ns-3's mpi module (installs Open MPI, about 5 more minutes)
#   WAN_NS3_WERROR=0  do not treat compiler warnings as errors
#
# Re-running is incremental: the source package, the configuration and the build are reused;
# only the module's changed files are copied and rebuilt. The first run takes 10 to 16 minutes
# on 2 cores (ns-3's core, network, internet, point-to-point, applications, bridge and their
# dependencies stats and traffic-control), a re-run a few seconds plus what changed.
#
# Exit code: 0 when every step passed and test.py reports no failure, 1 otherwise.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${WAN_NS3_SRC:-$REPO/build-in-tree}
JOBS=${WAN_NS3_JOBS:-$(nproc)}
WITH_MPI=${WAN_NS3_MPI:-0}
WERROR=${WAN_NS3_WERROR:-1}
MODULE=wan-training
LOGS=$CACHE/logs
START_SECONDS=$SECONDS

mkdir -p "$CACHE" "$LOGS"
CACHE=$(cd "$CACHE" && pwd)

step() { printf '\n=== %s (%ds)\n' "$*" $((SECONDS - START_SECONDS)); }
fail() {
    printf '\n=== check-in-tree: FAILED: %s\n' "$*" >&2
    printf '=== logs: %s\n' "$LOGS" >&2
    exit 1
}

# --- 1. Debian packages -----------------------------------------------------------------------

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo > /dev/null; then
        sudo "$@"
    else
        fail "need root (or sudo) to run: $*"
    fi
}

# A deb-src entry is needed for `apt-get source`; add bookworm's if there is none.
ensure_deb_src() {
    if grep -rqsE '^[[:space:]]*(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        return
    fi
    echo "adding a deb-src entry for Debian bookworm (/etc/apt/sources.list.d/wan-training-src.sources)"
    as_root tee /etc/apt/sources.list.d/wan-training-src.sources > /dev/null << 'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    APT_UPDATED=0
}

APT_UPDATED=0
apt_install() {
    if [ "$APT_UPDATED" -eq 0 ]; then
        as_root apt-get update -q > "$LOGS/apt-update.log" 2>&1 || fail "apt-get update (see $LOGS/apt-update.log)"
        APT_UPDATED=1
    fi
    echo "installing: $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
        >> "$LOGS/apt-install.log" 2>&1 || fail "apt-get install $* (see $LOGS/apt-install.log)"
}

step "checking build dependencies"
missing=()
need_cmd() { command -v "$1" > /dev/null || missing+=("$2"); }
need_file() { [ -e "$1" ] || missing+=("$2"); }
need_cmd g++ build-essential
need_cmd make build-essential
need_cmd cmake cmake
need_cmd ninja ninja-build
need_cmd python3 python3
need_cmd dpkg-source dpkg-dev
need_cmd bzip2 bzip2
need_cmd xz xz-utils
need_file /usr/include/boost/graph/adjacency_list.hpp libboost-dev
need_file /usr/include/nlohmann/json.hpp nlohmann-json3-dev
need_file /usr/share/keyrings/debian-archive-keyring.gpg debian-archive-keyring
if [ "$WITH_MPI" = 1 ]; then
    need_cmd mpicxx libopenmpi-dev
    need_cmd mpirun openmpi-bin
fi
if [ ${#missing[@]} -gt 0 ]; then
    mapfile -t packages < <(printf '%s\n' "${missing[@]}" | sort -u)
    apt_install "${packages[@]}"
else
    echo "all present"
fi

# --- 2. ns-3 source (Debian's source package, Debian patches applied) ---------------------------

find_ns3_tree() {
    local candidate
    for candidate in "$CACHE"/src/ns3-*/ns-3.*; do
        if [ -x "$candidate/ns3" ] && [ -f "$candidate/test.py" ]; then
            echo "$candidate"
            return
        fi
    done
}

step "ns-3 source"
NS3=$(find_ns3_tree)
if [ -z "$NS3" ]; then
    ensure_deb_src
    if [ "$APT_UPDATED" -eq 0 ]; then
        as_root apt-get update -q > "$LOGS/apt-update.log" 2>&1 || fail "apt-get update (see $LOGS/apt-update.log)"
        APT_UPDATED=1
    fi
    mkdir -p "$CACHE/src"
    echo "fetching Debian's source package ns3 into $CACHE/src"
    (cd "$CACHE/src" && apt-get source -q ns3) > "$LOGS/apt-source.log" 2>&1 ||
        fail "apt-get source ns3 (see $LOGS/apt-source.log)"
    NS3=$(find_ns3_tree)
    [ -n "$NS3" ] || fail "no ns-3 tree (ns3 script and test.py) found under $CACHE/src"
else
    echo "reusing $NS3"
fi
NS3_VERSION=$(cat "$NS3/VERSION")
case "$NS3_VERSION" in
    3.3[6-9]* | 3.[4-9]*) ;;
    *) fail "ns-3 $NS3_VERSION in $NS3: the CMake build needs ns-3 >= 3.36 (use wscript for older)" ;;
esac
[ "$NS3_VERSION" = 3.37 ] || echo "note: ns-3 $NS3_VERSION, the module targets 3.37"

# --- 3. The module, copied into contrib/ -----------------------------------------------------------

# A copy, not a symlink: ns-3 resolves paths under contrib/ and must not see this repository's
# own build folders. tar keeps modification times, so unchanged files are not rebuilt.
step "copying $REPO into contrib/$MODULE"
DEST=$NS3/contrib/$MODULE
rm -rf "$DEST"
mkdir -p "$DEST"
tar -C "$REPO" --exclude='./build' --exclude='./build-*' --exclude='./.git' \
    --exclude='./results' --exclude='__pycache__' -cf - . | tar -C "$DEST" -xf -
case "$CACHE" in
    "$REPO"/*) rm -rf "${DEST:?}/${CACHE#"$REPO"/}" ;; # a cache inside the repository is not module code
esac

# --- 4. Configure (once; ninja re-runs CMake by itself when a CMakeLists.txt changes) ------------

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
STAMP=$NS3/cmake-cache/wan-training-configure.args
if [ -f "$NS3/cmake-cache/build.ninja" ] && [ -f "$STAMP" ] &&
    [ "$(cat "$STAMP")" = "${CONFIGURE_ARGS[*]}" ]; then
    echo "reusing the configuration in $NS3/cmake-cache"
else
    (cd "$NS3" && ./ns3 configure "${CONFIGURE_ARGS[@]}") > "$LOGS/configure.log" 2>&1 ||
        { tail -30 "$LOGS/configure.log" >&2; fail "ns-3 configure (see $LOGS/configure.log)"; }
    sed -n '/Modules configured to be built:/,/^$/p' "$LOGS/configure.log" | grep -qw -- "$MODULE" ||
        { tail -30 "$LOGS/configure.log" >&2; fail "ns-3 did not enable $MODULE (see $LOGS/configure.log)"; }
    echo "${CONFIGURE_ARGS[*]}" > "$STAMP"
    echo "configured"
fi

# --- 5. Build -------------------------------------------------------------------------------------

step "building with $JOBS jobs (log: $LOGS/build.log)"
if ! (cd "$NS3" && cmake --build cmake-cache -j "$JOBS") > "$LOGS/build.log" 2>&1; then
    grep -E -A12 'FAILED:|error:' "$LOGS/build.log" | head -60 >&2 || tail -40 "$LOGS/build.log" >&2
    fail "ns-3 build (see $LOGS/build.log)"
fi
tail -1 "$LOGS/build.log"

# --- 6. test.py -----------------------------------------------------------------------------------

# The suites the module declares: one "// ctest-suite: <name>" line per TestSuite, as for the
# standalone build's ctest registration.
mapfile -t EXPECTED < <(sed -n 's|^// ctest-suite: *\([^ ]*\).*|\1|p' "$REPO"/test/*.cc | sort -u)

step "running ns-3's test.py (suites and examples of $MODULE)"
cd "$NS3"
# test.py --list prints "<type>  <suite>" per suite, then "example  <command line>" per example.
LISTED=$(./test.py --no-build --list --nocolor 2> "$LOGS/test-list.err" |
    awk 'NF == 2 && $1 != "example" && $1 != "Test" { print $2 }' || true)
missing_suites=()
for suite in "${EXPECTED[@]}"; do
    grep -qxF -- "$suite" <<< "$LISTED" || missing_suites+=("$suite")
done
EXAMPLES_LISTED=$(./test.py --no-build --list --nocolor 2> /dev/null | grep -c '^example ' || true)

# Only wan-training's tests and examples are built (--filter-module-examples-and-tests), so
# test.py with no selection runs exactly the module's suites and the examples it lists.
set +e
./test.py --no-build --nocolor --duration --text="$LOGS/test-results" 2>&1 | tee "$LOGS/test.log"
TESTPY_RC=${PIPESTATUS[0]}
set -e

# --- 7. Summary -----------------------------------------------------------------------------------

RESULT_LINE=$(grep -E '^[0-9]+ of [0-9]+ tests passed' "$LOGS/test.log" | tail -1 || true)
FAILED_LINES=$(grep -E '^(FAIL|CRASH|VALGR):' "$LOGS/test.log" || true)
echo
echo "=== check-in-tree summary"
echo "ns-3:           $NS3_VERSION debug (asserts, logs), $NS3"
echo "modules:        $MODULES"
echo "suites declared: ${#EXPECTED[@]} (${EXPECTED[*]:-none})"
if [ ${#missing_suites[@]} -gt 0 ]; then
    echo "NOT REGISTERED: ${missing_suites[*]} (declared by '// ctest-suite:' but unknown to test.py)"
fi
if [ -n "$FAILED_LINES" ]; then
    echo "failures:"
    while IFS= read -r line; do echo "  $line"; done <<< "$FAILED_LINES"
fi
echo "examples:       $EXAMPLES_LISTED listed by test/examples-to-run.py and built"
echo "test.py:        ${RESULT_LINE:-no result line} (exit code $TESTPY_RC)"
echo "elapsed:        $((SECONDS - START_SECONDS)) s; logs in $LOGS"
if [ "$TESTPY_RC" -ne 0 ] || [ -z "$RESULT_LINE" ] || [ ${#missing_suites[@]} -gt 0 ]; then
    echo "=== check-in-tree: FAILED"
    exit 1
fi
echo "=== check-in-tree: PASSED"
