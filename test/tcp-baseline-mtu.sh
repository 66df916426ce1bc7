#!/bin/sh
# --tcpBaselineMtu: the TCP baselines run on links of that MTU, every other run at --mtu.
# Checked against second runs that set the MTU alone, row for row of rounds.csv (the schedule
# label apart):
#   the tcp-ring (TcpBbr x1) rows of an optimal run at --mtu=9000 --tcpBaselineMtu=64000 equal a
#     ring all-reduce over TCP (TcpBbr, one connection per peer) at --mtu=64000;
#   its optimal rows equal an optimal run at --mtu=9000 without TCP baselines;
#   and the tcp-ring rows differ from a ring over TCP at 9000 (the MTU reached the run).
# Usage: test/tcp-baseline-mtu.sh <nine-city-training binary> <scratch folder>
set -u
example=$1
out=$2
status=0
rm -rf "$out"
mkdir -p "$out"

common="--capabilities=none --modelBytes=2000000 --computeTime=10ms --colocated=false"

# run LABEL FLAG...: one run into $out/LABEL; it must exit 0
run() {
    label=$1
    shift
    if ! "$example" $common "$@" --output="$out/$label" >"$out/$label.txt" 2>"$out/$label.err"; then
        echo "FAIL: $label exited non-zero: $*" >&2
        tail -3 "$out/$label.err" >&2
        status=1
    fi
}

# rows LABEL SCHEDULE: the rows of run LABEL whose schedule column is SCHEDULE, without it
rows() {
    awk -F, -v s="$2" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "schedule") c = i; next }
                      $c == s { $c = ""; print }' OFS=, "$out/$1/rounds.csv"
}

# same A B WHAT: two row sets equal and not empty
same() {
    if [ -z "$1" ]; then
        echo "FAIL: no rows for $3" >&2
        status=1
    elif [ "$1" != "$2" ]; then
        echo "FAIL: $3 differ:" >&2
        echo "$1" | head -3 >&2
        echo "--" >&2
        echo "$2" | head -3 >&2
        status=1
    fi
}

run mixed --schedule=optimal --baselineTransports=tcp --rounds=2 --baselineRounds=1 \
    --mtu=9000 --tcpBaselineMtu=64000
run tcp64k --transport=tcp --schedule=ring --tcp=ns3::TcpBbr --tcpStreams=1 --rounds=1 \
    --mtu=64000
run tcp9k --transport=tcp --schedule=ring --tcp=ns3::TcpBbr --tcpStreams=1 --rounds=1 --mtu=9000
run planned9k --schedule=optimal --rounds=2 --baselineRounds=1 --mtu=9000

same "$(rows mixed 'tcp-ring (TcpBbr x1)')" "$(rows tcp64k ring)" \
    "the TCP baseline's rows and a TCP ring at MTU 64000"
same "$(rows mixed optimal)" "$(rows planned9k optimal)" \
    "the optimal rows and an optimal run at MTU 9000"
if [ "$(rows mixed 'tcp-ring (TcpBbr x1)')" = "$(rows tcp9k ring)" ]; then
    echo "FAIL: the TCP baseline's rows equal a TCP ring at MTU 9000: --tcpBaselineMtu unused" >&2
    status=1
fi
if ! grep -q "links of MTU 64000 (--tcpBaselineMtu; the other runs 9000)" "$out/mixed.txt"; then
    echo "FAIL: the table's assumptions do not name the TCP baselines' MTU" >&2
    status=1
fi
if ! grep -q '"tcpBaselineMtu": 64000' "$out/mixed/summary.json"; then
    echo "FAIL: summary.json lacks tcpBaselineMtu" >&2
    status=1
fi
[ "$status" -eq 0 ] && echo "tcp-baseline-mtu: ok"
exit "$status"
