#!/usr/bin/env bash
# Prints the CMAKE_CXX_COMPILER_LAUNCHER value for a build of tools/build.sh or
# tools/run-fuzzers.sh: ccache with its settings fixed in the command (so that a later
# `cmake --build DIR` by hand uses the same cache), or nothing when ccache is not installed or
# WAN_CCACHE=0. Usage: tools/ccache-launcher.sh release|test|asan|fuzz
#   cache:   ${WAN_CCACHE_DIR:-~/.cache/wan-training/ccache}, outside any clone
#   asan, fuzz: through tools/ccache-compile.sh: CCACHE_BASEDIR = the clone's root and
#            CCACHE_NOHASHDIR=1, so a fresh clone in another folder hits the objects of an
#            earlier one (paths under the root are rewritten relative; the compiler's working
#            directory is not hashed, so the debug info's compilation folder may be the earlier
#            clone's), except for sources that name __FILE__ (see there)
#   release, test: no path rewriting: hits only for the same folder, __FILE__ stays absolute
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:?usage: tools/ccache-launcher.sh release|test|asan|fuzz}
[ "${WAN_CCACHE:-1}" != 0 ] || exit 0
ccache=$(command -v ccache 2>/dev/null) || exit 0
cache=${WAN_CCACHE_DIR:-${HOME:-/root}/.cache/wan-training/ccache}
case "$cache" in
"$root" | "$root"/*) echo "ccache-launcher: WAN_CCACHE_DIR must be outside the clone ($cache)" >&2; exit 1 ;;
esac
case "$cache$root" in
*[[:space:]\;]*) echo "ccache-launcher: no ccache (a space or ';' in $cache or $root)" >&2; exit 0 ;;
esac
settings=("CCACHE_DIR=$cache")
case "$mode" in
asan | fuzz) settings+=("WAN_CCACHE_BASEDIR=$root" "$root/tools/ccache-compile.sh") ;;
release | test) settings+=("$ccache") ;;
*) echo "ccache-launcher: unknown mode '$mode'" >&2; exit 2 ;;
esac
# A CMake list: env sets the variables, then ccache (or ccache-compile.sh) runs the compiler.
printf '%s' "$(IFS=';'; echo "/usr/bin/env;${settings[*]}")"
