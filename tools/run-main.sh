#!/usr/bin/env bash
# The README's main command: installs what is missing, builds, and runs the nine-city
# experiment over all four capability sets (none, multicast, fpga, both): for each, the
# optimiser's schedule and the global-clique and ring baselines, plus the colocated reference.
#   1. virtual payloads with a large model (round times, link use):  results/<stamp>/virtual
#   2. real payloads with a small model (consensus and loss curves):  results/<stamp>/real
# then draws the figures (PNG) beside each and prints the tables.
# Environment: MODEL_BYTES (default 100000000), ROUNDS (2), REAL_MODEL_BYTES (400000),
# REAL_ROUNDS (8), COMPUTE_TIME (100ms), RESULTS (results). Extra arguments go to both runs.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh release

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${RESULTS:-results}/$stamp
mkdir -p "$out"
common=(--capabilities=all --schedule=optimal --computeTime="${COMPUTE_TIME:-100ms}")

echo "== virtual payloads, ${MODEL_BYTES:-100000000}-byte model -> $out/virtual" >&2
build/examples/nine-city-training "${common[@]}" --payload=virtual \
    --modelBytes="${MODEL_BYTES:-100000000}" --rounds="${ROUNDS:-2}" --output="$out/virtual" "$@"
echo "== real payloads, ${REAL_MODEL_BYTES:-400000}-byte model -> $out/real" >&2
build/examples/nine-city-training "${common[@]}" --payload=real \
    --modelBytes="${REAL_MODEL_BYTES:-400000}" --rounds="${REAL_ROUNDS:-8}" --output="$out/real" "$@"

python3 tools/plot.py experiment "$out/virtual"
python3 tools/plot.py experiment "$out/real"
ln -sfn "$stamp" "${RESULTS:-results}/latest"
echo "results: $out (figures: $out/virtual/*.png, $out/real/*.png)" >&2
