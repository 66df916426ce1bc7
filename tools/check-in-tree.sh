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
#            - else <repo>/../shared/ns-3/ns-VERSION.tar.xz (ns-3.48.tar.xz) when present.
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

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NEWEST=3.48
VERSION=${1:-}
SOURCE=${NS3_SOURCE:-}
if [ -z "$VERSION" ] && [ -n "$SOURCE" ]; then
    # The version of the named source: from its file name (ns-3.NN.tar.xz) or its VERSION file.
    if [ -f "$SOURCE/VERSION" ]; then
        VERSION=$(cat "$SOURCE/VERSION")
    else
        VERSION=$(basename "$SOURCE" | sed -nE 's/^ns-3\.([0-9]+(\.[0-9]+)?)\.tar\..*/3.\1/p')
    fi
fi
VERSION=${VERSION:-$NEWEST}
case "$VERSION" in
3.3[6-9]* | 3.[4-9]*) ;;
*)
    echo "check-in-tree: ns-3 '$VERSION': the CMake build needs ns-3 >= 3.36 (use wscript for older)" >&2
    exit 2
    ;;
esac
if [ -z "$SOURCE" ] && [ "$VERSION" != 3.37 ] && [ -f "$REPO/../shared/ns-3/ns-$VERSION.tar.xz" ]; then
    SOURCE=$(cd "$REPO/../shared/ns-3" && pwd)/ns-$VERSION.tar.xz
fi
if [ -z "$SOURCE" ] && [ "$VERSION" != 3.37 ]; then
    echo "check-in-tree: no source for ns-3 $VERSION: set NS3_SOURCE to its release tarball" \
        "(ns-$VERSION.tar.xz from nsnam.org) or to an ns-3 checkout" >&2
    exit 2
fi
CACHE_ROOT=${WAN_NS3_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wan-training/in-tree}
CACHE=$CACHE_ROOT/ns-$VERSION
JOBS=${WAN_NS3_JOBS:-$(nproc)}
WITH_MPI=${WAN_NS3_MPI:-0}
WERROR=${WAN_NS3_WERROR:-1}
MODULE=wan-training
LOGS=$CACHE/logs
START_SECONDS=$SECONDS

# ./ns3 sets CLICOLOR=1, and ns-3's CMake then adds -fdiagnostics-color=always to every compile
# line. Set it here too, so that CMake re-runs started by ninja produce the same compile lines;
# otherwise the precompiled header and all of ns-3 would be rebuilt.
export CLICOLOR=1

mkdir -p "$CACHE" "$LOGS"
CACHE=$(cd "$CACHE" && pwd)
case "$CACHE" in
"$REPO" | "$REPO"/*)
    echo "check-in-tree: the cache ($CACHE) must be outside the repository" >&2
    exit 2
    ;;
esac

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

# --- 2. ns-3 source ---------------------------------------------------------------------------------

find_ns3_tree() {
    local candidate
    for candidate in "$CACHE"/ns-3.* "$CACHE"/*/ns-3.*; do
        if [ -x "$candidate/ns3" ] && [ -f "$candidate/test.py" ] && [ -f "$candidate/VERSION" ]; then
            echo "$candidate"
            return
        fi
    done
}

step "ns-3 $VERSION source"
NS3=$(find_ns3_tree)
if [ -n "$NS3" ]; then
    echo "reusing $NS3"
elif [ -n "$SOURCE" ]; then
    true
    if [ -f "$SOURCE" ]; then
        echo "unpacking $SOURCE into $CACHE"
        tar -xf "$SOURCE" -C "$CACHE" || fail "could not unpack $SOURCE"
    elif [ -d "$SOURCE" ]; then
        # A copy, without version control and build folders: the user's tree stays untouched.
        echo "copying $SOURCE into $CACHE/ns-3.$VERSION"
        mkdir -p "$CACHE/ns-3.$VERSION"
        tar -C "$SOURCE" --exclude=./.git --exclude=./build --exclude=./cmake-cache \
            --exclude=./contrib/$MODULE -cf - . | tar -C "$CACHE/ns-3.$VERSION" -xf - ||
            fail "could not copy $SOURCE"
    else
        fail "NS3_SOURCE=$SOURCE is neither a file nor a folder"
    fi
    NS3=$(find_ns3_tree)
    [ -n "$NS3" ] || fail "no ns-3 tree (ns3 script, test.py, VERSION) found in $SOURCE"
else
    ensure_deb_src
    if [ "$APT_UPDATED" -eq 0 ]; then
        as_root apt-get update -q > "$LOGS/apt-update.log" 2>&1 || fail "apt-get update (see $LOGS/apt-update.log)"
        APT_UPDATED=1
    fi
    true
    echo "fetching Debian's source package ns3 into $CACHE"
    (cd "$CACHE" && apt-get source -q ns3) > "$LOGS/apt-source.log" 2>&1 ||
        fail "apt-get source ns3 (see $LOGS/apt-source.log)"
    NS3=$(find_ns3_tree)
    [ -n "$NS3" ] || fail "no ns-3 tree (ns3 script and test.py) found under $CACHE"
fi
NS3_VERSION=$(cat "$NS3/VERSION")
[ "$NS3_VERSION" = "$VERSION" ] || fail "asked for ns-3 $VERSION, but $NS3 is ns-3 $NS3_VERSION"

# --- 3. The module, copied into contrib/ -----------------------------------------------------------

# A copy, not a symlink: ns-3 must not see this repository's own build folders. Like
# `rsync --checksum --delete`: files whose content changed are rewritten (new modification time,
# so ninja rebuilds what depends on them), identical files are left alone (nothing rebuilt), and
# files gone from the repository are removed.
step "syncing $REPO into contrib/$MODULE"
DEST=$NS3/contrib/$MODULE
python3 - "$REPO" "$DEST" "$CACHE" << 'EOF'
import filecmp, os, shutil, sys

repo, dest, cache = (os.path.realpath(p) for p in sys.argv[1:4])
skip_top = {".git", "build", "results"}
copied = removed = 0
wanted = set()
for root, dirs, files in os.walk(repo):
    rel = os.path.relpath(root, repo)
    dirs[:] = sorted(
        d for d in dirs
        if d != "__pycache__"
        and os.path.realpath(os.path.join(root, d)) != cache
        and not (rel == "." and (d in skip_top or d.startswith("build-")))
    )
    for name in files:
        source = os.path.join(root, name)
        target = os.path.normpath(os.path.join(dest, rel, name))
        wanted.add(target)
        if os.path.isfile(target) and filecmp.cmp(source, target, shallow=False):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(source, target)
        shutil.copymode(source, target)
        copied += 1
for root, dirs, files in os.walk(dest, topdown=False):
    for name in files:
        path = os.path.join(root, name)
        if path not in wanted:
            os.remove(path)
            removed += 1
    if root != dest and not os.listdir(root):
        os.rmdir(root)
print("%d files updated, %d removed, %d unchanged" % (copied, removed, len(wanted) - copied))
EOF

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
