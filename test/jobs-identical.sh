#!/bin/sh
# Checks that nine-city-training writes the same results whatever --jobs is: runs a small
# experiment (all four capability sets, the optimiser with its baselines, the colocated
# reference, real payloads) with --jobs=1 and --jobs=3 and compares every output byte for
# byte (summary.json apart from its "output" line, which names the folder).
#   test/jobs-identical.sh <nine-city-training binary> <scratch folder>
set -eu
example=$1
out=$2
rm -rf "$out"
flags="--capabilities=all --schedule=optimal --modelBytes=400000 --rounds=3 --baselineRounds=1 \
    --payload=real --maxPeriod=2"
"$example" $flags --jobs=1 --output="$out/one" >"$out.one.txt" 2>/dev/null
"$example" $flags --jobs=3 --output="$out/three" >"$out.three.txt" 2>/dev/null
status=0
for file in rounds.csv links.csv consensus.csv; do
    cmp "$out/one/$file" "$out/three/$file" || status=1
done
grep -v '"output"' "$out/one/summary.json" >"$out.one.json"
grep -v '"output"' "$out/three/summary.json" >"$out.three.json"
cmp "$out.one.json" "$out.three.json" || status=1
cmp "$out.one.txt" "$out.three.txt" || status=1
[ ! -e "$out/three/.parts" ] || { echo "leftover $out/three/.parts" >&2; status=1; }
[ "$status" -eq 0 ] && echo "identical with --jobs=1 and --jobs=3"
exit $status
