#!/usr/bin/env bash
# Installs the Debian packages wan-training needs, only those missing. Used by the README's
# two commands and by .ci/run. Usage: tools/install-deps.sh [extra-package ...]
set -euo pipefail

packages=(
    cmake g++ make pkg-config
    ns3 libns3-dev libgsl-dev libsqlite3-dev libxml2-dev # Debian's ns3Config.cmake needs these
    libboost-dev nlohmann-json3-dev libgtest-dev
    libtcmalloc-minimal4 # faster allocation for the examples and benchmarks
    python3 python3-matplotlib
    "$@"
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
fi
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
