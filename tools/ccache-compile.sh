#!/bin/sh
# Compiler launcher of the asan and fuzz builds (set by tools/ccache-launcher.sh): runs ccache
# with CCACHE_BASEDIR=$WAN_CCACHE_BASEDIR (the clone's root), so that absolute paths under it are
# rewritten relative and a clone in another folder hits the same objects, except for a source
# file that names __FILE__ itself: rewritten, its __FILE__ would be relative, and
# WanCommandLine::ResolveDataPath (helper/wan-command-line.cc) finds the module's data files
# from an absolute __FILE__ (suite/wan-topology checks it). Such a file keeps absolute paths:
# cached, but hit only by a build in the same folder. (__FILE__ inside macros of headers, as in
# NS_ASSERT and the test macros, only names files in messages; those become relative.)
# Usage: ccache-compile.sh COMPILER ARGS...
src=""
for arg in "$@"; do
    case "$arg" in
    -*) ;;
    *.cc | *.cpp | *.cxx | *.c) src=$arg ;;
    esac
done
if [ -n "${WAN_CCACHE_BASEDIR:-}" ] && [ -n "$src" ] && ! grep -q __FILE__ "$src" 2>/dev/null; then
    CCACHE_BASEDIR=$WAN_CCACHE_BASEDIR
    CCACHE_NOHASHDIR=1
    export CCACHE_BASEDIR CCACHE_NOHASHDIR
else
    unset CCACHE_BASEDIR CCACHE_NOHASHDIR
fi
exec ccache "$@"
