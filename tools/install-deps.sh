#!/usr/bin/env bash
# Installs the Debian packages wan-training needs, only those missing. Used by the README's
# two commands and by .ci/run. Usage: tools/install-deps.sh [--fuzz] [extra-package ...]
#   --fuzz  also clang and the libFuzzer/sanitizer runtime of its version (libclang-rt-N-dev,
#           e.g. libclang-rt-14-dev on Debian 12), for tools/run-fuzzers.sh
# Knows the package names of Debian 12 bookworm (ns-3 3.37), 13 trixie (3.43) and 14 forky
# (3.48); see doc/building.rst.
set -euo pipefail

fuzz=0
if [ "${1:-}" = --fuzz ]; then
    fuzz=1
    shift
fi

codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
case "$codename" in
bookworm) tcmalloc=libtcmalloc-minimal4 ;;
*) tcmalloc=libtcmalloc-minimal4t64 ;; # trixie and later: the 64-bit time_t ("t64") rename
esac

packages=(
    cmake g++ make pkg-config
    ns3 libns3-dev libgsl-dev libsqlite3-dev libxml2-dev # Debian's ns3Config.cmake needs these
    libboost-dev nlohmann-json3-dev libgtest-dev
    "$tcmalloc" # faster allocation for the examples and benchmarks
    python3 python3-matplotlib
    ccache # tools/build.sh and tools/run-fuzzers.sh compile through it when installed
    "$@"
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
fi
updated=0
install() {
    local missing=() p
    for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$p")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "install-deps: installing ${missing[*]}" >&2
    if [ -n "$sudo" ] && ! command -v sudo >/dev/null; then
        echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    if [ "$updated" -eq 0 ]; then
        $sudo apt-get update -q
        updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}
install "${packages[@]}"

# Debian's ns-3 >= 3.46 (forky) lists the Python headers it was built with among the include
# directories of its exported targets, so find_package(ns3) fails while that folder is missing.
# That Python need not be the default one (forky: libns3-dev built with 3.13, python3-dev is
# 3.14): install the libpythonX.Y-dev of each Python include folder ns-3's CMake files name.
python_dev=()
for dir in $(grep -ho '/usr/include/python3\.[0-9]*' /usr/lib/*/cmake/ns3/*.cmake 2>/dev/null | sort -u); do
    [ -d "$dir" ] || python_dev+=("lib${dir#/usr/include/}-dev")
done
[ ${#python_dev[@]} -eq 0 ] || install "${python_dev[@]}"

# libFuzzer ships in clang's runtime package, named after clang's major version (Debian 12:
# clang 14, libclang-rt-14-dev), so it is chosen once clang is there.
if [ "$fuzz" -eq 1 ]; then
    install clang
    clang_major=$(clang --version | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -n 1)
    [ -n "$clang_major" ] || { echo "install-deps: cannot tell clang's version" >&2; exit 1; }
    install "libclang-rt-$clang_major-dev"
fi
