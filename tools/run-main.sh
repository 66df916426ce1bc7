#!/usr/bin/env bash
# The README's main command: installs what is missing, builds, runs the main experiment.
# Extra arguments go to the experiment program.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh release
exec build/examples/wan-fabric "$@"
