# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# The steps shared by the scripts that build ns-3 from source with this module in
# <ns-3>/contrib/wan-training: tools/check-in-tree.sh (debug, test.py) and tools/build-ns3.sh
# (release, MPI). Sourced, not run. The caller sets TOOL (its name, for messages) and REPO (the
# repository root), sources this file, then calls, in this order:
#
#   ns3_resolve_version "$1"     VERSION and SOURCE, from the argument and NS3_SOURCE
#   ns3_use_cache DIR            CACHE (DIR made absolute, refused inside the repository), LOGS
#   ns3_install_deps [mpi]       apt-get install of the missing build dependencies
#   ns3_get_source               NS3 (the source tree, in CACHE) and NS3_VERSION
#   ns3_sync_module              the repository copied to $NS3/contrib/$MODULE
#   ns3_configure ARGS...        ./ns3 configure ARGS, skipped when the same ARGS configured it
#   ns3_build                    cmake --build with $JOBS jobs
#
# Each step prints a "=== <step> (<seconds>s)" line; a failure prints where the logs are and exits
# with 1 (2 for a bad version or source).

NEWEST=3.48
MODULE=wan-training
JOBS=${WAN_NS3_JOBS:-$(nproc)}
START_SECONDS=$SECONDS

# ./ns3 sets CLICOLOR=1, and ns-3's CMake then adds -fdiagnostics-color=always to every compile
# line. Set it here too, so that CMake re-runs started by ninja produce the same compile lines;
# otherwise the precompiled header and all of ns-3 would be rebuilt.
export CLICOLOR=1

step() { printf '\n=== %s (%ds)\n' "$*" $((SECONDS - START_SECONDS)); }
fail() {
    printf '\n=== %s: FAILED: %s\n' "$TOOL" "$*" >&2
    printf '=== logs: %s\n' "$LOGS" >&2
    exit 1
}

# VERSION: the argument, else the version of NS3_SOURCE (its VERSION file or its tarball's name
# ns-3.NN.tar.xz), else the newest supported. SOURCE: NS3_SOURCE, else for any version but 3.37
# (Debian's source package) the first ns-VERSION.tar.xz found in <dir>/../shared/ns-3/, <dir>
# being the repository and then, for a clone of a checkout on this machine (a clone in a scratch
# folder, as CI makes), the checkout it was cloned from (its origin remote).
ns3_shared_tarball() {
    local dir origin
    origin=$(git -C "$REPO" remote get-url origin 2>/dev/null || true)
    for dir in "$REPO" "$origin"; do
        if [ -n "$dir" ] && [ -f "$dir/../shared/ns-3/ns-$VERSION.tar.xz" ]; then
            echo "$(cd "$dir/../shared/ns-3" && pwd)/ns-$VERSION.tar.xz"
            return
        fi
    done
}

ns3_resolve_version() {
    VERSION=${1:-}
    SOURCE=${NS3_SOURCE:-}
    if [ -z "$VERSION" ] && [ -n "$SOURCE" ]; then
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
        echo "$TOOL: ns-3 '$VERSION': the CMake build needs ns-3 >= 3.36 (use wscript for older)" >&2
        exit 2
        ;;
    esac
    if [ -z "$SOURCE" ] && [ "$VERSION" != 3.37 ]; then
        SOURCE=$(ns3_shared_tarball)
    fi
}

# The cache folder, checked before anything is created in it.
ns3_use_cache() {
    local root
    root=$(realpath "$REPO")
    CACHE=$(realpath -m "$1")
    case "$CACHE" in
    "$root" | "$root"/*)
        echo "$TOOL: the cache ($CACHE) must be outside the repository" >&2
        exit 2
        ;;
    esac
    LOGS=$CACHE/logs
    mkdir -p "$LOGS"
}

# --- Debian packages ------------------------------------------------------------------------------

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo > /dev/null; then
        sudo "$@"
    else
        fail "need root (or sudo) to run: $*"
    fi
}

APT_UPDATED=0
apt_update_once() {
    if [ "$APT_UPDATED" -eq 0 ]; then
        as_root apt-get update -q > "$LOGS/apt-update.log" 2>&1 || fail "apt-get update (see $LOGS/apt-update.log)"
        APT_UPDATED=1
    fi
}

apt_install() {
    apt_update_once
    echo "installing: $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
        >> "$LOGS/apt-install.log" 2>&1 || fail "apt-get install $* (see $LOGS/apt-install.log)"
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

# Installs, in one apt-get call, the package of each missing command or file; "mpi" adds Debian's
# Open MPI (compiler wrappers and mpirun).
ns3_install_deps() {
    step "checking build dependencies"
    local missing=() packages
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
    if [ "${1:-}" = mpi ]; then
        need_cmd mpicxx libopenmpi-dev
        need_cmd mpirun openmpi-bin
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        mapfile -t packages < <(printf '%s\n' "${missing[@]}" | sort -u)
        apt_install "${packages[@]}"
    else
        echo "all present"
    fi
}

# --- ns-3 source ----------------------------------------------------------------------------------

find_ns3_tree() {
    local candidate
    for candidate in "$CACHE"/ns-3.* "$CACHE"/*/ns-3.*; do
        if [ -x "$candidate/ns3" ] && [ -f "$candidate/test.py" ] && [ -f "$candidate/VERSION" ]; then
            echo "$candidate"
            return
        fi
    done
}

# Once per cache: a release tarball is unpacked, a folder copied (never built in place), and
# without SOURCE Debian's source package fetched (ns-3 3.37 with Debian's patches).
ns3_get_source() {
    step "ns-3 $VERSION source"
    NS3=$(find_ns3_tree)
    if [ -n "$NS3" ]; then
        echo "reusing $NS3"
    elif [ -n "$SOURCE" ]; then
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
    elif [ "$VERSION" != 3.37 ]; then
        # Only 3.37 has a Debian source package on this mirror; a cached tree needs no source.
        echo "$TOOL: no source for ns-3 $VERSION: set NS3_SOURCE to its release tarball" \
            "(ns-$VERSION.tar.xz from nsnam.org) or to an ns-3 checkout" >&2
        exit 2
    else
        ensure_deb_src
        apt_update_once
        echo "fetching Debian's source package ns3 into $CACHE"
        (cd "$CACHE" && apt-get source -q ns3) > "$LOGS/apt-source.log" 2>&1 ||
            fail "apt-get source ns3 (see $LOGS/apt-source.log)"
        NS3=$(find_ns3_tree)
        [ -n "$NS3" ] || fail "no ns-3 tree (ns3 script and test.py) found under $CACHE"
    fi
    NS3_VERSION=$(cat "$NS3/VERSION")
    [ "$NS3_VERSION" = "$VERSION" ] || fail "asked for ns-3 $VERSION, but $NS3 is ns-3 $NS3_VERSION"
}

# --- The module, copied into contrib/ -------------------------------------------------------------

# A copy, not a symlink: ns-3 must not see this repository's own build folders. Like
# `rsync --checksum --delete`: files whose content changed are rewritten (new modification time,
# so ninja rebuilds what depends on them), identical files are left alone (nothing rebuilt), and
# files gone from the repository are removed.
ns3_sync_module() {
    step "syncing $REPO into contrib/$MODULE"
    python3 - "$REPO" "$NS3/contrib/$MODULE" "$CACHE" << 'EOF'
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
}

# --- Configure and build --------------------------------------------------------------------------

# Configures once: the arguments are kept in a stamp file, and the configuration is reused while
# they are the same (ninja re-runs CMake by itself when a CMakeLists.txt changes).
ns3_configure() {
    local stamp=$NS3/cmake-cache/wan-training-configure.args
    if [ -f "$NS3/cmake-cache/build.ninja" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$*" ]; then
        echo "reusing the configuration in $NS3/cmake-cache"
        return
    fi
    (cd "$NS3" && ./ns3 configure "$@") > "$LOGS/configure.log" 2>&1 ||
        { tail -30 "$LOGS/configure.log" >&2; fail "ns-3 configure (see $LOGS/configure.log)"; }
    sed -n '/Modules configured to be built:/,/^$/p' "$LOGS/configure.log" | grep -qw -- "$MODULE" ||
        { tail -30 "$LOGS/configure.log" >&2; fail "ns-3 did not enable $MODULE (see $LOGS/configure.log)"; }
    echo "$*" > "$stamp"
    echo "configured"
}

ns3_build() {
    step "building with $JOBS jobs (log: $LOGS/build.log)"
    if ! (cd "$NS3" && cmake --build cmake-cache -j "$JOBS") > "$LOGS/build.log" 2>&1; then
        grep -E -A12 'FAILED:|error:' "$LOGS/build.log" | head -60 >&2 || tail -40 "$LOGS/build.log" >&2
        fail "ns-3 build (see $LOGS/build.log)"
    fi
    tail -1 "$LOGS/build.log"
}
