#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Prove that the README's test command passes on newer Debian releases and their ns-3: for each
# release, a clean Debian root made with debootstrap, this repository's committed HEAD cloned
# into it, and `tools/run-tests.sh` run there (chroot), exactly as a new user would.
#
# Usage: tools/check-compat.sh [RELEASE ...]      (default: trixie forky; as root, on Debian)
#   trixie   Debian 13, ns-3 3.43
#   forky    Debian 14 (testing), ns-3 3.48
#   bookworm Debian 12, ns-3 3.37 (the host's release; not in the default list)
#   host     no root: tools/run-tests.sh in this repository on this machine (as .ci/run does)
#
# Prints one line per release: ns-3 version, compiler, C++ standard, tests passed, minutes;
# then the sum over all releases as "check-compat: N passed, M failed".
#
# Environment:
#   WAN_COMPAT_CACHE   cache folder (default /var/cache/wan-training/compat): per release the
#                      pristine root (base/), the downloaded packages and package lists, the
#                      last run's root (run/) and its log (run.log)
#   WAN_COMPAT_MIRROR  Debian mirror (default: the one this machine's apt sources name)
#
# Each run starts from a copy of the pristine root: the packages come from the cached .deb files
# (downloaded once), the build and the tests are redone. The first run also debootstraps the
# roots (about 2 minutes each, both at once).
#
# Only committed work is tested: uncommitted changes are not in the clone.
# Exit code: 0 when every release passed, 1 otherwise.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${WAN_COMPAT_CACHE:-/var/cache/wan-training/compat}
START_SECONDS=$SECONDS
RELEASES=("$@")
[ ${#RELEASES[@]} -gt 0 ] || RELEASES=(trixie forky)

say() { printf 'check-compat: %s\n' "$*" >&2; }
die() {
    say "$*"
    exit 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mount)"
case "$CACHE" in
"$REPO" | "$REPO"/*) die "WAN_COMPAT_CACHE must be outside the repository ($CACHE)" ;;
esac

# One run at a time per cache: a second run would remove the roots the first one is using.
mkdir -p "$CACHE"
exec 9> "$CACHE/.lock"
if ! flock -n 9; then
    say "another check-compat run is using $CACHE; waiting for it"
    flock 9
fi

# The mirror: the first Debian archive named in this machine's apt sources (one-line and deb822
# formats), else deb.debian.org. The machines of this project reach a dated snapshot of Debian.
find_mirror() {
    local uri
    uri=$(
        {
            grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
                sed -E 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+).*/\2/'
            grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | sed -E 's/^URIs:[[:space:]]*//' | tr ' ' '\n'
        } | grep -E '/debian/?$' | head -n 1
    )
    echo "${uri:-http://deb.debian.org/debian}"
}
MIRROR=${WAN_COMPAT_MIRROR:-$(find_mirror)}

# The commit to test.
HEAD_COMMIT=$(git -C "$REPO" rev-parse HEAD)
if [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no)" ]; then
    say "note: uncommitted changes in $REPO are not tested (testing HEAD ${HEAD_COMMIT:0:12})"
fi

# --- roots ------------------------------------------------------------------------------------

# Everything mounted below DIR, deepest first.
unmount_below() {
    local dir=$1 mounts
    mounts=$(awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/self/mounts | sort -r)
    [ -z "$mounts" ] || umount -l $mounts 2> /dev/null || true
    ! awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { found = 1 } END { exit !found }' /proc/self/mounts
}

# A folder is removed only once nothing is mounted below it (never the host's /dev or /proc).
remove_root() {
    local dir=$1
    [ -e "$dir" ] || return 0
    unmount_below "$dir" || die "$dir still has mounts; not removing it"
    rm -rf --one-file-system "$dir"
}

# Pristine root of RELEASE in $CACHE/RELEASE/base: debootstrap (minbase), this machine's mirror,
# and apt told to accept the snapshot's expired Release files.
make_base() {
    local release=$1 dir=$CACHE/$1 script=()
    [ -f "$dir/base/.wan-training-base" ] && return 0
    mkdir -p "$dir"
    remove_root "$dir/base.tmp"
    # debootstrap 1.0.128 (Debian 12) has no script named after newer testing releases.
    [ -e "/usr/share/debootstrap/scripts/$release" ] || script=(/usr/share/debootstrap/scripts/sid)
    if ! debootstrap --variant=minbase "$release" "$dir/base.tmp" "$MIRROR" "${script[@]}" \
        > "$dir/debootstrap.log" 2>&1; then
        tail -n 5 "$dir/debootstrap.log" >&2
        die "$release: debootstrap failed (see $dir/debootstrap.log)"
    fi
    echo "deb $MIRROR $release main" > "$dir/base.tmp/etc/apt/sources.list"
    echo 'Acquire::Check-Valid-Until "false";' > "$dir/base.tmp/etc/apt/apt.conf.d/99wan-training-snapshot"
    rm -f "$dir/base.tmp"/var/cache/apt/archives/*.deb
    touch "$dir/base.tmp/.wan-training-base"
    mv "$dir/base.tmp" "$dir/base"
}

to_make=()
for release in "${RELEASES[@]}"; do
    [ "$release" = host ] && continue
    [ -f "$CACHE/$release/base/.wan-training-base" ] || to_make+=("$release")
done
if [ ${#to_make[@]} -gt 0 ]; then
    if ! command -v debootstrap > /dev/null; then
        say "installing debootstrap"
        apt-get update -q > /dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap > /dev/null
    fi
    say "debootstrap ${to_make[*]} from $MIRROR into $CACHE (once; cached)"
    pids=()
    for release in "${to_make[@]}"; do
        make_base "$release" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || die "could not make a root"
    done
fi

# --- one release --------------------------------------------------------------------------------

RUN_ROOT=""
cleanup() {
    if [ -n "$RUN_ROOT" ]; then
        unmount_below "$RUN_ROOT" || say "warning: mounts left below $RUN_ROOT"
    fi
}
trap cleanup EXIT

SUMMARY=()
FAILED=0
SUM_PASSED=0
SUM_FAILED=0

# One line of the summary from a run's log; the ns-3 version and compiler come from RUN_IN.
summarise() {
    local release=$1 log=$2 rc=$3 started=$4 configure_log=$5
    local ns3 compiler std tests minutes passed total status=PASSED
    ns3=$(run_in dpkg-query -W -f='${Version}' libns3-dev 2> /dev/null || echo '?')
    compiler=$(run_in g++ --version 2> /dev/null | head -n 1 | sed -E 's/^g\+\+ \(.*\) /g++ /' || echo '?')
    std=$(sed -n 's/.*wan-training: ns-3 .*, C++\([0-9]*\) .*/C++\1/p' "$configure_log" 2> /dev/null | head -n 1)
    # ctest: "100% tests passed, 0 tests failed out of 123"
    read -r failed total < <(sed -nE 's/.*tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1 \2/p' "$log" |
        tail -n 1) || true
    if [ -n "${total:-}" ]; then
        passed=$((total - failed))
        tests="$passed of $total tests passed"
        SUM_PASSED=$((SUM_PASSED + passed))
        SUM_FAILED=$((SUM_FAILED + failed))
    fi
    minutes=$(awk -v s=$((SECONDS - started)) 'BEGIN { printf "%.1f", s / 60 }')
    if [ "$rc" -ne 0 ] || [ -z "${tests:-}" ]; then
        status="FAILED (exit $rc; see $log)"
        FAILED=1
        grep -E 'error:|Error|FAILED|Failed|\*\*\*' "$log" | head -n 20 >&2 || tail -n 20 "$log" >&2
    fi
    SUMMARY+=("$(printf '%-9s ns-3 %s, %s, %s: %s, %s min: %s' "$release:" "$ns3" "$compiler" \
        "${std:-C++?}" "${tests:-no tests run}" "$minutes" "$status")")
}

check_host() {
    local started=$SECONDS log=$CACHE/host.log rc=0
    mkdir -p "$CACHE"
    say "host: running tools/run-tests.sh in $REPO"
    (cd "$REPO" && tools/run-tests.sh) < /dev/null 2>&1 | tee "$log" || rc=$?
    run_in() { "$@"; }
    summarise host "$log" "$rc" "$started" "$REPO/build-test.configure.log"
}

check_release() {
    local release=$1 dir=$CACHE/$1 started=$SECONDS
    local root=$dir/run log=$dir/run.log
    RUN_ROOT=$root
    remove_root "$root"
    cp -a --reflink=auto "$dir/base" "$root"
    mkdir -p "$dir/archives/partial" "$dir/lists/partial"
    mount -t proc proc "$root/proc"
    mount --bind /dev "$root/dev"
    mount --bind /dev/pts "$root/dev/pts"
    mount --bind "$dir/archives" "$root/var/cache/apt/archives"
    mount --bind "$dir/lists" "$root/var/lib/apt/lists"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2> /dev/null || true

    # A clone of the committed HEAD (git runs on this machine: the root has no git).
    git init -q "$root/root/wan-training"
    git -C "$root/root/wan-training" fetch -q "$REPO" "$HEAD_COMMIT"
    git -C "$root/root/wan-training" checkout -q FETCH_HEAD

    say "$release: running tools/run-tests.sh in a clean root (log: $log)"
    local rc=0
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI="${CI:-}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -c 'cd /root/wan-training && tools/run-tests.sh' < /dev/null > "$log" 2>&1 || rc=$?

    run_in() { chroot "$root" "$@"; }
    summarise "$release" "$log" "$rc" "$started" "$root/root/wan-training/build-test.configure.log"
    unmount_below "$root" || say "warning: mounts left below $root"
    RUN_ROOT=""
}

for release in "${RELEASES[@]}"; do
    if [ "$release" = host ]; then
        check_host
    else
        check_release "$release"
    fi
done

echo
echo "=== check-compat ($(git -C "$REPO" log -1 --format='%h %s' | cut -c1-60))"
printf '%s\n' "${SUMMARY[@]}"
echo "total: $(awk -v s=$((SECONDS - START_SECONDS)) 'BEGIN { printf "%.1f", s / 60 }') min"
echo "check-compat: $SUM_PASSED passed, $SUM_FAILED failed"
exit "$FAILED"
