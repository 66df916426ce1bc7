#!/bin/sh
# Chakra ET files, written by tools/chakra-et.py and read back by chakra-trace-info (ChakraTrace):
#  1. a 2-rank trace generated with --json reads back as the same nodes (the two JSON documents
#     are equal: every id, name, type, dependency, duration, collective and attribute);
#  2. the committed traces of examples/traces/ are what the commands of its README write, byte
#     for byte, and tiny-dp holds the values worked out by hand in that README;
#  3. a trace cut short is refused with exit code 1 and a message naming the file, the node and
#     the field, and nothing on standard output.
# Usage: test/chakra-round-trip.sh <chakra-trace-info binary> <scratch folder>
# Run from the module's root (ctest sets it).
set -u
info=$1
scratch=$2
status=0
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1

fail() {
    echo "FAIL: $*" >&2
    status=1
}

# 1. Round trip: 3 layers, 2 buckets (the second of one layer), 2 ranks.
python3 tools/chakra-et.py --ranks 2 --layers 3 --params-per-layer 1000 --tokens 512 \
    --device-flops 1e9 --bytes-per-param 2 --bucket-bytes 4000 --prefix "$scratch/rt/dp" \
    --json "$scratch/meant.json" >/dev/null || fail "chakra-et.py exited $?"
"$info" --prefix="$scratch/rt/dp" --ranks=2 --output="$scratch/read.json" ||
    fail "chakra-trace-info exited $?"
python3 - "$scratch/meant.json" "$scratch/read.json" <<'EOF' || fail "round trip"
import json, sys
meant, read = (json.load(open(path)) for path in sys.argv[1:3])
if meant != read:
    for m, r in zip(meant["traces"], read["traces"]):
        for a, b in zip(m["nodes"], r["nodes"]):
            if a != b:
                print("meant %s\nread  %s" % (a, b), file=sys.stderr)
    sys.exit(1)
nodes = read["traces"][1]["nodes"]
# 2 x 1000 x 512 FLOP at 1e9 FLOP/s: 1024 us; backward 2048 us. Buckets of 2000-byte layers:
# {2, 1} (4000 bytes), then {0}.
assert len(read["traces"]) == 2 and len(nodes) == 8, nodes
assert [n["name"] for n in nodes] == ["fwd_layer_0", "fwd_layer_1", "fwd_layer_2", "bwd_layer_2",
                                      "bwd_layer_1", "all_reduce_bucket_0", "bwd_layer_0",
                                      "all_reduce_bucket_1"], nodes
assert [n["duration_micros"] for n in nodes] == [1024, 1024, 1024, 2048, 2048, 0, 2048, 0]
assert (nodes[5]["comm_size"], nodes[7]["comm_size"]) == (4000, 2000)
assert (nodes[7]["data_deps"], nodes[7]["ctrl_deps"]) == ([6], [5])
print("ok: round trip of %d nodes x 2 ranks" % len(nodes))
EOF

# 2. The committed traces: each README command again, into the scratch folder.
grep '^    python3 tools/chakra-et.py ' examples/traces/README.md |
    sed "s|--prefix examples/traces/|--prefix $scratch/committed/|" >"$scratch/commands.sh"
[ "$(wc -l <"$scratch/commands.sh")" -ge 2 ] || fail "examples/traces/README.md: no commands"
sh -e "$scratch/commands.sh" >/dev/null || fail "a command of examples/traces/README.md failed"
for committed in examples/traces/*.et; do
    cmp -s "$committed" "$scratch/committed/$(basename "$committed")" ||
        fail "$committed: not what examples/traces/README.md writes"
done
"$info" --prefix=examples/traces/tiny-dp --ranks=2 --output="$scratch/tiny.json" ||
    fail "chakra-trace-info tiny-dp exited $?"
python3 - "$scratch/tiny.json" <<'EOF' || fail "tiny-dp values"
import json, sys
traces = json.load(open(sys.argv[1]))["traces"]
nodes = traces[1]["nodes"]
# examples/traces/README.md: 2 x 25e6 x 4096 FLOP at 312e12 FLOP/s = 656.4 us -> 657;
# backward 1312.8 -> 1313; layers of 100 MB in buckets of 200 MB: {3, 2}, {1, 0}.
assert [n["duration_micros"] for n in nodes] == [657] * 4 + [1313, 1313, 0, 1313, 1313, 0], nodes
assert [n.get("comm_size") for n in nodes if n["type"] == "COMM_COLL_NODE"] == [200000000] * 2
assert nodes[6]["data_deps"] == [5] and nodes[9]["data_deps"] == [8]
assert nodes[9]["ctrl_deps"] == [6] and nodes[4]["data_deps"] == [3]
print("ok: examples/traces/tiny-dp as worked out by hand")
EOF

# 3. A trace cut short after 100 bytes. By hand: the metadata frame is 8 bytes (07 0a 05
# "0.0.4"); fwd_layer_0's node is 36 bytes (id 2, name 13, type 2, duration 657 in 3, the
# is_cpu_op attribute 16), its frame 37 (bytes 8-44); fwd_layer_1's adds data_deps (3): frame
# 40 (45-84); fwd_layer_2's frame starts at byte 85 and announces 39 bytes, 14 are left.
head -c 100 examples/traces/tiny-dp.0.et >"$scratch/cut.0.et"
"$info" --file="$scratch/cut.0.et" >"$scratch/out.txt" 2>"$scratch/err.txt"
code=$?
expected="error: $scratch/cut.0.et: node 2: length prefix: at byte 85: length 39 goes past the end"
if [ "$code" -ne 1 ]; then
    fail "cut trace: exit code $code, expected 1"
elif ! grep -qF -- "$expected" "$scratch/err.txt"; then
    fail "cut trace: stderr lacks '$expected':"
    cat "$scratch/err.txt" >&2
elif [ -s "$scratch/out.txt" ]; then
    fail "cut trace: printed a document"
else
    echo "ok: a cut trace is refused: $(cat "$scratch/err.txt")"
fi
exit $status
