#!/bin/sh
# Every bad command-line value is rejected before anything runs: the real example binaries are
# run with one bad flag each and must exit 1, print "error: " and the expected text (which
# names the flag and the value) on stderr, and create no results folder. The rules are listed
# in doc/input-rules.rst ("Command-line flags"); each row there names its case here.
# Expected messages are written from the rules, not copied from the programs' output.
# Usage: test/flag-rejections.sh <examples folder> <scratch folder>
set -u
examples=$(cd "$1" && pwd) || exit 1
mkdir -p "$2" && scratch=$(cd "$2" && pwd) || exit 1
status=0
cases=0
# Each case has a time limit: a value that slips through starts a run, which must not hang.
limit=60

rm -rf "$scratch"
mkdir -p "$scratch/cwd"
# The examples find data/ from the module's source folder, so they can run anywhere: here in
# an empty folder, to see that a rejection creates no results/ folder.
cd "$scratch/cwd" || exit 1

# reject EXAMPLE EXPECTED-TEXT FLAG...: EXAMPLE FLAG... exits 1 and says EXPECTED-TEXT
reject() {
    example=$1
    expected=$2
    shift 2
    cases=$((cases + 1))
    timeout "$limit" "$examples/$example" "$@" >"$scratch/out.txt" 2>"$scratch/err.txt"
    code=$?
    if [ "$code" -ne 1 ]; then
        echo "FAIL: $example $*: exit code $code, expected 1" >&2
        tail -3 "$scratch/err.txt" >&2
        status=1
    elif ! grep -qF -- "error: " "$scratch/err.txt" ||
        ! grep -qF -- "$expected" "$scratch/err.txt"; then
        echo "FAIL: $example $*: stderr lacks '$expected':" >&2
        cat "$scratch/err.txt" >&2
        status=1
    elif [ -e results ]; then
        echo "FAIL: $example $*: rejected, but a results folder was created" >&2
        status=1
    else
        echo "ok: $example $* -> 1: $expected"
    fi
    rm -rf results
}

n=nine-city-training
# ns-3's CommandLine would read -1 into a uint32_t as 4294967295 (four billion rounds).
reject $n "--rounds=-1: must not be negative" --rounds=-1
reject $n "--rounds=0: must be in 1..1000000" --rounds=0
reject $n "--rounds=1000001: must be in 1..1000000" --rounds=1000001
reject $n "--rounds=4294967296: must be in 1..1000000" --rounds=4294967296
reject $n "--rounds=2.5: expected a whole number in 1..1000000" --rounds=2.5
reject $n "--modelBytes=-5: must not be negative" --modelBytes=-5
reject $n "--modelBytes=0: must be in 1..17179869180" --modelBytes=0
# 2^64 - 1 fits the type but not the chunk layout; 2^64 does not fit the type.
reject $n "--modelBytes=18446744073709551615: must be in 1..17179869180" \
    --modelBytes=18446744073709551615
reject $n "--modelBytes=18446744073709551616: must be in 1..17179869180" \
    --modelBytes=18446744073709551616
# A 20 GB virtual model used to abort in the application after the optimiser had run.
reject $n "--modelBytes=20000000000: must be in 1..17179869180 (the most a 32-bit element" \
    --modelBytes=20000000000
reject $n "--modelBytes=1e9: expected a whole number" --modelBytes=1e9
reject $n "--modelBytes=100000000: --payload=real allows at most 67108864" \
    --modelBytes=100000000 --payload=real
reject $n "--lossRate=1: must be in [0, 1)" --lossRate=1
reject $n "--lossRate=-0.1: must be in [0, 1)" --lossRate=-0.1
reject $n "--lossRate=nan: expected a number in [0, 1)" --lossRate=nan
reject $n "--lossModel=bogus: expected rate|frame" --lossModel=bogus
reject $n "--lossRate=0.1x: expected a number in [0, 1)" --lossRate=0.1x
reject $n "--epsilon=0: must be in (0, 1)" --epsilon=0
reject $n "--epsilon=1: must be in (0, 1)" --epsilon=1
reject $n "--wanBandwidth=0Gbps: must be positive" --wanBandwidth=0Gbps
reject $n "--accessBandwidth=-5Gbps: must be positive" --accessBandwidth=-5Gbps
reject $n "--accessBandwidth=10: unknown rate unit" --accessBandwidth=10
reject $n "--wanBandwidth=1e10Tbps: too large" --wanBandwidth=1e10Tbps
reject $n "--mtu=1279: must be in 1280..65535" --mtu=1279
reject $n "--mtu=65536: must be in 1280..65535" --mtu=65536
reject $n "--jobs=0: must be in 1..1024" --jobs=0
reject $n "--jobs=-2: must not be negative" --jobs=-2
reject $n "--computeTime=-1ms: must not be negative" --computeTime=-1ms
reject $n "--computeTime=1e300s: too large for ns-3's Time" --computeTime=1e300s
reject $n "--computeTime=100: unknown delay unit" --computeTime=100
reject $n "--updateFormat=int9: expected int32|bf16|int8|int4|topk:FRACTION" --updateFormat=int9
reject $n "--updateFormat=topk:0: expected int32|bf16|int8|int4|topk:FRACTION" --updateFormat=topk:0
reject $n "--updateFormat=topk:1.5: expected" --updateFormat=topk:1.5
reject $n "--updateFormat=topk:0.0123456: expected" --updateFormat=topk:0.0123456
reject $n "--updateFormat=bf16: the colocated reference is ring all-reduce" --updateFormat=bf16
reject $n "--updateFormat=topk:0.01: real top-k averages the islands' changes" \
    --updateFormat=topk:0.01 --payload=real --modelBytes=1000000 --colocated=false
reject $n "start them from one model (--sharedStart=true)" \
    --updateFormat=topk:0.01 --payload=real --modelBytes=1000000 --colocated=false
reject $n "--schedule=gossip: real top-k averages the islands' changes" \
    --updateFormat=topk:0.01 --payload=real --sharedStart=true --modelBytes=1000000 \
    --colocated=false --schedule=gossip
reject $n "--schedule=optimal: real top-k averages the islands' changes" \
    --updateFormat=topk:0.01 --payload=real --sharedStart=true --modelBytes=1000000 \
    --colocated=false --schedule=optimal --baselines=false
reject $n "--workload=examples/traces/tiny-dp: examples/traces/tiny-dp.2.et: cannot open" \
    --workload=examples/traces/tiny-dp --colocated=false
reject $n "--workload=examples/traces/nine-dp: a trace's rounds run with virtual payloads" \
    --workload=examples/traces/nine-dp --payload=real --modelBytes=1000000
reject $n "--workload=examples/traces/nine-dp: a trace's rounds run with virtual payloads" \
    --workload=examples/traces/nine-dp --transport=tcp
reject $n "--workload=examples/traces/nine-dp: the baselines run today's ring all-reduce" \
    --workload=examples/traces/nine-dp --schedule=optimal
printf '\002\012\000' >"$scratch/empty.0.et"
reject $n "--workload=$scratch/empty: $scratch/empty.0.et: no nodes after the GlobalMetadata" \
    --workload="$scratch/empty"
reject $n "--residualDecay=1.5: must be in [0, 1]" --residualDecay=1.5
reject $n "--residualDecay=-1: must be in [0, 1]" --residualDecay=-1
reject $n "--updateFormat=topk:0.01: the ring schedule is ring all-reduce" \
    --updateFormat=topk:0.01 --colocated=false --schedule=ring
printf '{"name":"mixed","islands":9,"rounds":[{"cliques":[[0,1,2,3,4,5,6,7,8]],"format":"int8"}]}' \
    >"$scratch/mixed.json"
reject $n "update formats that vary by round travel as sizes only" \
    --schedule="$scratch/mixed.json" --payload=real --modelBytes=1000000 --colocated=false
printf '{"name":"tree","islands":9,"rounds":[{"cliques":[[0,1,2,3,4,5,6,7,8]],"algorithms":["tree"]}]}' \
    >"$scratch/tree.json"
reject $n "bf16 and top-k updates are exchanged in DIRECT cliques" \
    --updateFormat=bf16 --colocated=false --schedule="$scratch/tree.json" \
    --capabilities=both+transit --modelBytes=1000000
reject $n "--innerSteps=0: must be in 1..1000000" --innerSteps=0
reject $n "--innerSteps=1000001: must be in 1..1000000" --innerSteps=1000001
reject $n "--innerSteps: 1000000 inner steps of 1e+06 s make a compute phase too large for ns-3's Time" \
    --innerSteps=1000000 --computeTime=1e6s
reject $n "--fragments=0: must be in 1..1000000" --fragments=0
reject $n "--fragments=5: 5 fragments over 4 inner steps" --fragments=5 --innerSteps=4
reject $n "--fragments=2: rounds in fragments run over the planned or adaptive transport" \
    --fragments=2 --innerSteps=2 --payload=real --modelBytes=1000000 --colocated=false \
    --baselines=false
reject $n "--fragments=2: rounds in fragments run over the planned or adaptive transport" \
    --fragments=2 --innerSteps=2 --transport=tcp --colocated=false
reject $n "--fragments=2: the baselines run today's ring all-reduce over TCP" \
    --fragments=2 --innerSteps=2 --schedule=optimal
reject $n "--maxPeriod=0: must be in 1..16" --maxPeriod=0
reject $n "--maxPeriod=17: must be in 1..16" --maxPeriod=17
reject $n "--baselineRounds=-1: must not be negative" --baselineRounds=-1
reject $n "--seed=0: must be in 1..4294944442" --seed=0
# ns-3's MRG32k3a aborts ("invalid Seed") from its second modulus, 4294944443, up.
reject $n "--seed=4294944443: must be in 1..4294944442" --seed=4294944443
reject $n "--seed=4294967295: must be in 1..4294944442" --seed=4294967295
reject wan-fabric "--seed=4294967295: must be in 1..4294944442" --seed=4294967295
reject fpga-aggregation "--seed=4294967295: must be in 1..4294944442" --seed=4294967295
# Shared flags given to a program where they change nothing.
reject wan-fabric "--seed: changes nothing in this run; nothing in wan-fabric's runs is random" \
    --seed=7
reject fpga-aggregation "--seed: changes nothing in this run; it draws the values of real" \
    --seed=7
reject schedule-explorer "--queue: changes nothing in this run; the optimiser's cost model" \
    --queue=1p
reject $n "--seed=-1: must not be negative" --seed=-1
reject $n "--transport=udp: expected planned|adaptive|tcp" --transport=udp
reject $n "--baselineTransports=tcp,udp: \"udp\": expected planned|adaptive|tcp" \
    --baselineTransports=tcp,udp
reject $n "--baselineTransports=planned: \"planned\" is --transport's own" \
    --baselineTransports=planned
reject $n "--baselineTransports=tcp,tcp: \"tcp\" named twice" --baselineTransports=tcp,tcp
reject $n "--baselineTransports=tcp,: an empty entry after the last comma" --baselineTransports=tcp,
reject $n "--tcpBaselineMtu: changes nothing in this run; it applies only with today's TCP baselines" --tcpBaselineMtu=9000
reject $n "--tcpBaselineMtu: changes nothing in this run; it applies only with today's TCP baselines" --tcpBaselineMtu=9000 \
    --schedule=optimal --baselineTransports=tcp --baselines=false
reject $n "--tcpBaselineMtu=1000: expected 0 (--mtu) or 1280 to 65535" --tcpBaselineMtu=1000 \
    --schedule=optimal --baselineTransports=tcp
reject $n "--tcpBaselineMtu=65536: must be in 0..65535" --tcpBaselineMtu=65536
reject $n "--tcp=TcpFoo: not a TCP congestion control of this ns-3; expected one of" --tcp=TcpFoo
reject $n "--tcpBufferBytes=-1: must not be negative" --tcpBufferBytes=-1
reject $n "--tcpBufferBytes=4294967296: must be in 0..4294967295" --tcpBufferBytes=4294967296
reject $n "--tcpStreams=0: must be in 1..256" --tcpStreams=0
reject $n "--tcpStreams=257: must be in 1..256" --tcpStreams=257
# Flags given where they change nothing are refused, even at their defaults (doc/input-rules.rst,
# "Flags that do not apply").
nothing="changes nothing in this run; it applies only with"
reject $n "--tcp: $nothing --transport=tcp" --tcp=TcpCubic
reject $n "--tcp: $nothing --transport=tcp" --tcp=TcpBbr --schedule=optimal \
    --baselineTransports=tcp
reject $n "--tcpStreams: $nothing --transport=tcp" --tcpStreams=4
reject $n "--tcpBufferBytes: $nothing --transport=tcp or today's TCP baselines" --tcpBufferBytes=0
reject $n "--computeTime: $nothing no --workload" --workload=examples/traces/nine-dp \
    --baselines=false --computeTime=50ms
reject $n "--modelBytes: $nothing no --workload" --workload=examples/traces/nine-dp \
    --baselines=false --modelBytes=1000000
reject $n "--innerSteps: $nothing no --workload" --workload=examples/traces/nine-dp \
    --baselines=false --innerSteps=1
reject $n "--fragments: $nothing no --workload" --workload=examples/traces/nine-dp \
    --baselines=false --fragments=1
# A trace's own refusal of --fragments comes first (it once sent the user to --innerSteps).
reject $n "--workload=examples/traces/nine-dp: a trace's rounds run with virtual payloads" \
    --workload=examples/traces/nine-dp --baselines=false --fragments=2
reject $n "--sharedStart: $nothing --payload=real" --sharedStart=false
reject $n "--residualDecay: $nothing --payload=real and --updateFormat=topk:F" \
    --residualDecay=0.5 --payload=real --modelBytes=100000
# Control characters in a value are shown escaped, never raw (a DEL here).
reject $n "--rounds=1\\u007f: expected a whole number" "--rounds=$(printf '1\177')"
reject $n "--topology: no\\u001bfile\\u007f.json: cannot open topology file" \
    "--topology=$(printf 'no\033file\177.json')"
reject $n "--cityCapabilities: \"NYC:none\": not with --capabilities=all" --capabilities=all \
    --cityCapabilities=NYC:none
reject $n "--cityCapabilities: \"N\\u007fC\": unknown city code" \
    "--cityCapabilities=$(printf 'N\177C'):none"
reject $n "--maxSimTime=0s: must be in (0, 9.2e+09] seconds" --maxSimTime=0s
reject $n "--maxSimTime=-5s: must not be negative" --maxSimTime=-5s
reject $n "--maxWallTime=0s: must be in (0, 9.2e+09] seconds" --maxWallTime=0s
reject $n "--maxWallTime=1e300s: too large for ns-3's Time" --maxWallTime=1e300s
# --crossTraffic: a file that does not exist, a flow to a city the topology lacks, a file cut
# short (the flag, the file, then the field or the position).
reject $n "--crossTraffic: no-such-flows.json: cannot open cross-traffic file" \
    --crossTraffic=no-such-flows.json
printf '%s\n' '{"flows": [{"from": "NYC", "to": "XYZ", "protocol": "udp", "rate": "1Gbps",' \
    '"start": 0, "stop": 1}]}' >"$scratch/bad-city.json"
reject $n "--crossTraffic: $scratch/bad-city.json: flows[0].to: \"XYZ\": unknown city code" \
    --crossTraffic="$scratch/bad-city.json"
printf '%s\n' '{"flows": [{"from": "NYC", "to": "LON",' >"$scratch/cut.json"
reject $n "--crossTraffic: $scratch/cut.json: line 2, column 1: invalid JSON" \
    --crossTraffic="$scratch/cut.json"
# What the hosts cannot carry is refused before the results folder is made (it was found when
# the network was built, with the folder already there): a rate above HostAccessRate (400
# Gbit/s), and more flows than sink ports from FirstPort 5001 to 65535 (60535).
printf '%s\n' '{"flows": [{"from": "NYC", "to": "LON", "protocol": "udp", "rate": "500Gbps",' \
    '"start": 0, "stop": 1}]}' >"$scratch/fast.json"
reject $n "--crossTraffic: $scratch/fast.json: CrossTrafficHelper: flow 0: 500000000000 bit/s is above HostAccessRate 400000000000 bit/s" \
    --crossTraffic="$scratch/fast.json"
awk 'BEGIN { printf "{\"flows\": ["; for (i = 0; i < 60536; i++)
    printf "%s{\"from\": \"NYC\", \"to\": \"LON\", \"protocol\": \"udp\", \"rate\": \"1Mbps\", \"start\": 0, \"stop\": 1}", (i ? ", " : "");
    print "]}" }' >"$scratch/many.json"
reject $n "--crossTraffic: $scratch/many.json: CrossTrafficHelper: 60536 flows need sink ports beyond 65535 from FirstPort 5001" \
    --crossTraffic="$scratch/many.json"

reject fpga-aggregation "--k=0: must be in 1..1000" --k=0
# It builds its own network: no topology flags to ignore; ns-3's CommandLine refuses the
# unknown flag itself (its own words, then the help).
cases=$((cases + 1))
timeout "$limit" "$examples/fpga-aggregation" --topology=data/topologies/dense-9.json \
    >"$scratch/out.txt" 2>"$scratch/err.txt"
code=$?
if [ "$code" -ne 1 ] ||
    ! grep -qF -- "Invalid command-line argument: --topology" "$scratch/err.txt"; then
    echo "FAIL: fpga-aggregation --topology: exit code $code, expected 1 and ns-3's refusal" >&2
    status=1
else
    echo "ok: fpga-aggregation --topology -> 1: no such flag"
fi
reject fpga-aggregation "--k=-1: must not be negative" --k=-1
reject fpga-aggregation "--chunks=0: must be in 1..1000000" --chunks=0
reject fpga-aggregation "--elements=2001: must be in 1..2000" --elements=2001
reject wan-fabric "--bytes=0: must be in 1..1000000000000" --bytes=0
reject wan-fabric "--bytes=-1: must not be negative" --bytes=-1
# Allowed by the range, but every copy is queued at once: 10^12 bytes would need ~270 GB.
reject wan-fabric "--bytes=1000000000000: the unicast run would queue 891662952 datagrams at once (111457869 to each of 8 receivers; at most 16777216)" \
    --bytes=1000000000000
reject schedule-explorer "--modelBytes=-5: must not be negative" --modelBytes=-5
reject schedule-explorer "--modelBytes=20000000000: must be in 1..17179869180" \
    --modelBytes=20000000000
reject schedule-explorer "--computeTime=-1: must be in [0, 9.2e+09]" --computeTime=-1
reject schedule-explorer "--innerSteps=0: must be in 1..1000000" --innerSteps=0
reject schedule-explorer "--innerSteps: 20 inner steps of 1e+09 s make a compute phase too large" \
    --innerSteps=20 --computeTime=1e9
reject schedule-explorer "--epsilon=1: must be in (0, 1)" --epsilon=1
reject schedule-explorer "--maxPeriod=17: must be in 1..16" --maxPeriod=17
reject schedule-explorer "--iterations=-1: must not be negative" --iterations=-1
reject topology-generator "--cities=-1: must not be negative" --cities=-1
reject topology-generator "--cities=1: must be in 2..1024" --cities=1
reject topology-generator "--islandsPerCity=17: must be in 1..16" --islandsPerCity=17
reject topology-generator "--k=-3: must not be negative" --k=-3
reject topology-generator "--seed=-1: must not be negative" --seed=-1
# The rate limit is exclusive, and the message says so (it once said "at most" the value it refused).
reject topology-generator "--wanBandwidthMax=9.2e18bps: too large (must be below 9.2e18 bit/s)" \
    --wanBandwidthMax=9.2e18bps
reject topology-generator "--multicastFraction=1.5: must be in [0, 1]" --multicastFraction=1.5
reject topology-generator "--routeFactor=0.5: must be in [1, 100]" --routeFactor=0.5
reject topology-generator "--wanBandwidth=-5Gbps: must be positive" --wanBandwidth=-5Gbps
reject topology-generator "--accessDelay=2000s: must be in [0, 1000] seconds" \
    --accessDelay=2000s

# chakra-trace-info: one source of traces, ranks in range, files that exist and read.
reject chakra-trace-info "--prefix or --file: give one of them"
reject chakra-trace-info "--file=a.et: not with --prefix" --file=a.et --prefix=b
reject chakra-trace-info "--ranks=0: must be in 1..1048576" --prefix=b --ranks=0
reject chakra-trace-info "--ranks=2: counts the files of --prefix; --file reads one" \
    --file=examples/traces/tiny-dp.0.et --ranks=2
reject chakra-trace-info "--ranks=1: counts the files of --prefix; --file reads one" \
    --file=examples/traces/tiny-dp.0.et --ranks=1
reject chakra-trace-info "missing.et: cannot open the Chakra trace file" --file=missing.et
# A trace file over 2 GiB is refused by its size before it is read: a sparse 3 GiB file, with
# memory limited to 1.5 GB, which reading it would exceed. The limit is the address space
# (std::bad_alloc), or under AddressSanitizer, which reserves terabytes of address space for
# itself, its largest allocation (its own report, and no refusal of ours).
truncate -s 3G "$scratch/huge.et"
cases=$((cases + 1))
if ldd "$examples/chakra-trace-info" 2>/dev/null | grep -q libasan; then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=1500" \
        timeout "$limit" "$examples/chakra-trace-info" --file="$scratch/huge.et" \
        >"$scratch/out.txt" 2>"$scratch/err.txt"
else
    (ulimit -v 1500000 && exec timeout "$limit" "$examples/chakra-trace-info" \
        --file="$scratch/huge.et") >"$scratch/out.txt" 2>"$scratch/err.txt"
fi
code=$?
if [ "$code" -ne 1 ] || ! grep -qF "huge.et: larger than the 2 GiB a trace may have" \
    "$scratch/err.txt"; then
    echo "FAIL: chakra-trace-info --file=huge.et (3 GiB): exit code $code:" >&2
    cat "$scratch/err.txt" >&2
    status=1
else
    echo "ok: chakra-trace-info --file=huge.et (3 GiB) -> 1: refused by its size"
fi
rm -f "$scratch/huge.et"
# Paths are shown with their control characters escaped (an ESC here), in every program.
reject chakra-trace-info "no\\u001bfile.et: cannot open the Chakra trace file" \
    "--file=$(printf 'no\033file.et')"
printf '\005\012\000' >"$scratch/cut.et"
reject chakra-trace-info "cut.et: global metadata: length prefix: at byte 0: length 5 goes past" \
    --file="$scratch/cut.et"
printf '\002\012\000' >"$scratch/no-nodes.et"
reject chakra-trace-info "no-nodes.et: no nodes after the GlobalMetadata message" \
    --file="$scratch/no-nodes.et"

# The results folder: an --output that is not empty is never mixed with a new run, and a
# results/latest that is a real folder (the old layout) is kept and the run refused.
mkdir -p used
echo "{}" >used/summary.json
reject $n "--output: \"used\": exists and is not empty" --output=used --rounds=1
rm -rf used
mkdir -p results/latest/old
cases=$((cases + 1))
timeout "$limit" "$examples/wan-fabric" --bytes=1000 >"$scratch/out.txt" 2>"$scratch/err.txt"
code=$?
if [ "$code" -ne 1 ] || ! grep -qF 'results/latest": is a folder' "$scratch/err.txt" ||
    [ ! -d results/latest/old ] || [ -e results/wan-fabric ]; then
    echo "FAIL: results/latest a folder: exit code $code (expected 1, the folder kept):" >&2
    cat "$scratch/err.txt" >&2
    status=1
else
    echo "ok: wan-fabric with a results/latest folder -> 1: kept, run refused"
fi
rm -rf results

# --help names the program on its first line, as ns-3's usage line does (it was blank).
for example in nine-city-training wan-fabric fpga-aggregation schedule-explorer \
    topology-generator chakra-trace-info; do
    cases=$((cases + 1))
    first=$(timeout "$limit" "$examples/$example" --help 2>&1 | head -n 1)
    case "$first" in
    "$example [Program Options]"*) echo "ok: $example --help names the program" ;;
    *)
        echo "FAIL: $example --help: first line '$first', expected '$example [Program Options]...'" >&2
        status=1
        ;;
    esac
done

echo "$cases cases"
exit $status
