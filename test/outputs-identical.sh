#!/bin/sh
# Checks that nine-city-training writes the same results however its work is spread over
# processes, comparing every output byte for byte (summary.json apart from its "output" line,
# which names the folder):
#   jobs:  --jobs=1 against --jobs=3 on a small experiment (all four capability sets, the
#          optimiser with its baselines, the colocated reference, real payloads);
#   ranks: --ranks=1 against --ranks=3 (each experiment split over three processes by city)
#          on the same experiment with virtual payloads and a 1% WAN loss.
#   test/outputs-identical.sh jobs|ranks <nine-city-training binary> <scratch folder>
set -eu
mode=$1
example=$2
out=$3
flags="--capabilities=all --schedule=optimal --modelBytes=400000 --rounds=3 --baselineRounds=1 \
    --maxPeriod=2"
case "$mode" in
jobs) flags="$flags --payload=real"; one="--jobs=1"; other="--jobs=3" ;;
ranks) flags="$flags --lossRate=0.01"; one="--ranks=1"; other="--ranks=3" ;;
*) echo "error: mode '$mode': expected jobs|ranks" >&2; exit 2 ;;
esac
rm -rf "$out" "$out".*
"$example" $flags $one --output="$out/one" >"$out.one.txt" 2>/dev/null
"$example" $flags $other --output="$out/other" >"$out.other.txt" 2>/dev/null
status=0
for file in rounds.csv links.csv consensus.csv; do
    [ -e "$out/one/$file" ] || [ -e "$out/other/$file" ] || continue
    cmp "$out/one/$file" "$out/other/$file" || status=1
done
grep -v '"output"' "$out/one/summary.json" >"$out.one.json"
grep -v '"output"' "$out/other/summary.json" >"$out.other.json"
cmp "$out.one.json" "$out.other.json" || status=1
cmp "$out.one.txt" "$out.other.txt" || status=1
[ ! -e "$out/other/.parts" ] || { echo "leftover $out/other/.parts" >&2; status=1; }
[ "$status" -eq 0 ] && echo "identical with $one and $other"
exit $status
