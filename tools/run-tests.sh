#!/usr/bin/env bash
# The README's test command: installs what is missing, builds with the module's checks on,
# runs every test (ns-3 suites, GoogleTest units, example smoke tests, Python tool tests).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh test
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir build-test --output-on-failure -j "$jobs"
