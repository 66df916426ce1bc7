#!/usr/bin/env python3
"""Stand-in for examples/nine-city-training in the tests of tools/ (no simulation at all).

Takes the same flags as the real example (ns-3 CommandLine style, --name=value; --PrintHelp
and --PrintGlobals print ns-3's formats), rejects unknown flags and bad values with exit 1,
sleeps a little, and writes summary.json, rounds.csv, links.csv and (with --payload=real)
consensus.csv into --output in the format of helper/training-output.cc. Every number is a
deterministic function of the flags, so two runs with the same flags give identical files.

As the real example: with --schedule=optimal (and --baselines=true) each capability set also
runs the global and ring baselines; --baselineTransports=tcp adds the TCP ring ONCE, on the
passive WAN (capabilities "none"), as four variants labelled "tcp-ring (TcpCubic x1)",
"tcp-ring (TcpCubic x8)", "tcp-ring (TcpBbr x1)", "tcp-ring (TcpBbr x8)" (transport "tcp",
"best_tcp" true on the fastest), and every other result gets "gain_over": {"tcp": its gain
over the best} and "gain_over_label": {"tcp": that variant's label}; --colocated=true adds
the colocated reference (capabilities "colocated", schedule "ring") last (the fake does this
with --schedule=optimal only). TCP runs leave their cold first round out of mean_round_s and
time_to_epsilon_s ("warmup_rounds": 1, "first_round_s"; 0 and null otherwise). --queue
(config "queue") makes the TCP rings slower the smaller it is below one bandwidth-delay
product (bdp), Cubic with one connection most. rounds_to_epsilon and time_to_epsilon_s come
from the schedule's (invented) contraction in both payload modes, as the real example's come
from its mixing math.
Output folders follow the results rule as the real examples do: --output must be new or
empty (exit 1 otherwise); without it, results/nine-city-training/<UTC stamp>/ and
results/latest linked to it (tools/results_dir.py).

Exit codes as the real example's: 0 every round complete, 3 results written but partial,
1 bad input.

Test hooks (environment variables, so the flags stay those of the real example):
  FAKE_EXPERIMENT_SLEEP=SECONDS   how long to pretend to simulate (default 0.2)
  FAKE_EXPERIMENT_COUNTER=FILE    append one line "<output folder's parent>" per run that
                                  passed validation (counts reruns of sweep points)
  FAKE_EXPERIMENT_EXIT="FLAG=VALUE:CODE ..."
                                  when --FLAG has that value, end with CODE instead of 0:
                                    1      an error before any output (like bad input)
                                    3      partial results: in the last round one island
                                           loses a peer, which leaves its round unfinished
                                    abort  results written, then SIGABRT (a crash)
                                    N      any other number: results written, then exit N
                                  Several rules are separated by spaces; the first that
                                  matches applies.
"""

import csv
import hashlib
import json
import math
import os
import re
import signal
import sys
import time

import results_dir

PROGRAM = "nine-city-training"
DEFAULT_TOPOLOGY = "data/topologies/doublezero-9.json"
CAPABILITY_SETS = ("none", "multicast", "fpga", "both")
SCHEDULES = ("global", "ring", "moshpit", "gossip", "exponential", "optimal")

# Flag -> (default, help), in the order the real example declares them.
FLAGS = {
    "topology": (DEFAULT_TOPOLOGY, "Topology JSON file"),
    "capabilities": ("both", "Capability set: none|multicast|fpga|both|all"),
    "cityCapabilities": ("", "Per-city capability overrides CODE:set,..."),
    "seed": ("1", "Random seed"),
    "output": ("", "Output folder, new or empty (default: results/nine-city-training/STAMP)"),
    "schedule": ("optimal", "Schedule: global|ring|moshpit|gossip|exponential|optimal|FILE"),
    "modelBytes": ("100000000", "Model (update) size in bytes"),
    "rounds": ("10", "Training rounds"),
    "computeTime": ("100ms", "Compute time per round"),
    "payload": ("virtual", "Payload mode: virtual|real"),
    "lossRate": ("0", "Per-packet loss probability on every WAN link"),
    "wanBandwidth": ("", "WAN link rate override, e.g. 100Gbps (empty: the file's)"),
    "accessBandwidth": ("", "Access link rate override, e.g. 10Gbps (empty: the file's)"),
    "epsilon": ("0.001", "Consensus distance target"),
    # Accepted as the real example does; the fake's numbers do not depend on them.
    "baselines": ("true", "With --schedule=optimal, also run the global and ring baselines and "
                  "the --baselineTransports rings"),
    "colocated": ("true", "With --schedule=optimal, also the colocated reference"),
    "maxPeriod": ("4", "Largest period the optimiser considers (ignored)"),
    "baselineRounds": ("0", "Rounds of the baselines and the colocated reference (0: --rounds)"),
    "jobs": ("1", "Experiments run at once (ignored)"),
    "mtu": ("9000", "MTU of every link, bytes (ignored)"),
    "maxSimTime": ("", "Simulated-time guard (ignored)"),
    "maxWallTime": ("", "Wall-time guard (ignored)"),
    "simulator": ("default", "Simulator (ignored)"),
    "partition": ("", "Rank of every city (ignored)"),
    "crossTraffic": ("", "Cross-traffic file (ignored)"),
    "transport": ("planned", "Transport: planned|adaptive|tcp (tcp: unicast, no capability helps)"),
    "baselineTransports": ("", "Transports of extra ring baselines, e.g. tcp (empty: none)"),
    "tcp": ("TcpCubic", "TCP congestion control (ignored)"),
    "tcpBufferBytes": ("0", "TCP buffer bytes (ignored)"),
    "queue": ("50ms", "Buffer of every router/link queue: TIME (50ms), bdp, Np (packets), "
              "SIZE (12MB); empty: the topology file's"),
    "tcpStreams": ("1", "TCP connections per peer (ignored)"),
    "tcpBaselineMtu": ("0", "MTU of the TCP baselines' links (ignored)"),
}
TRANSPORTS = ("planned", "adaptive", "tcp")

# The nine-city set of doc FACTS (used when the default topology file does not exist yet).
BUILTIN_CITIES = [
    ("NYC", "New York", 40.7128, -74.0060), ("LAX", "Los Angeles", 34.0522, -118.2437),
    ("LON", "London", 51.5074, -0.1278), ("AMS", "Amsterdam", 52.3676, 4.9041),
    ("FRA", "Frankfurt", 50.1109, 8.6821), ("TYO", "Tokyo", 35.6762, 139.6503),
    ("SEO", "Seoul", 37.5665, 126.9780), ("SIN", "Singapore", 1.3521, 103.8198),
    ("BUE", "Buenos Aires", -34.6037, -58.3816),
]
BUILTIN_LINKS = [("SEO", "TYO"), ("TYO", "LAX"), ("TYO", "SIN"), ("SIN", "LAX"), ("SIN", "FRA"),
                 ("LAX", "NYC"), ("NYC", "BUE"), ("NYC", "LON"), ("LON", "AMS"), ("LON", "FRA"),
                 ("AMS", "FRA")]

TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12, "min": 60.0,
              "h": 3600.0, "d": 86400.0, "": 1.0}
RATE_UNITS = {"bps": 1.0, "kbps": 1e3, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9, "Tbps": 1e12}
DEFAULT_WAN_BPS = 100e9
DEFAULT_ACCESS_BPS = 10e9

CAPABILITY_FACTOR = {"none": 1.0, "multicast": 0.55, "fpga": 0.45, "both": 0.25}
SCHEDULE_CLIQUE = {"global": 9, "ring": 9, "moshpit": 3, "gossip": 2, "exponential": 2,
                   "optimal": 3}
SCHEDULE_PERIOD = {"global": 1, "ring": 1, "moshpit": 2, "gossip": 4, "exponential": 4,
                   "optimal": 2}
# Contraction of the consensus distance per round (invented, plausible ordering).
SCHEDULE_CONTRACTION = {"global": 1e-6, "ring": 0.85, "moshpit": 0.05, "gossip": 0.6,
                        "exponential": 0.5, "optimal": 0.03}
BOOLEANS = {"true": True, "1": True, "false": False, "0": False}

# The --baselineTransports=tcp rings: run once, on the passive WAN (capabilities none), one per
# (congestion control, connections per peer), labelled "tcp-ring (TcpBbr x8)". Per variant:
# (round-time factor with a buffer of one bandwidth-delay product, how much of the small-buffer
# slowdown it suffers). Invented, plausibly ordered: Cubic with one connection suffers most;
# with a full bandwidth-delay product of buffer, Cubic with 8 connections is the fastest.
TCP_VARIANTS = [("TcpCubic", 1, 2.0, 1.0), ("TcpCubic", 8, 1.1, 0.3),
                ("TcpBbr", 1, 1.6, 0.15), ("TcpBbr", 8, 1.15, 0.05)]
TCP_MAX_SLOWDOWN = 9.0  # Cubic x1 with a LAN switch's buffer: about 10x (doc/DESIGN: 21.4 s/2.1 s)
TCP_COLD_EXTRA = 0.6  # the first round (connection start, slow start) is 1.6x a warm one
FAKE_RTT_S = 0.1  # what --queue=bdp stands for, in seconds of queue at line rate
DEFAULT_QUEUE_S = 0.05  # --queue= (the topology file's own values): as 50ms
COLOCATED_ACCESS_BPS = 400e9
SIZE_UNITS = {"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1024.0,
              "MiB": 1024.0**2, "GiB": 1024.0**3}


class UsageError(Exception):
    pass


def print_help(stream):
    width = max(len(name) for name in FLAGS) + 3
    stream.write(f"{PROGRAM} [Program Options] [General Arguments]\n\nProgram Options:\n")
    for name, (default, text) in FLAGS.items():
        stream.write(f"    --{(name + ':').ljust(width)}{text} [{default}]\n")
    stream.write("\nGeneral Arguments:\n"
                 "    --PrintGlobals:              Print the list of globals.\n"
                 "    --PrintHelp:                 Print this help message.\n\n")


def print_globals(stream):
    stream.write("Global values:\n    --RngRun=[1]\n        The substream index used for all "
                 "streams\n    --RngSeed=[1]\n        The global seed of all rng streams\n")


def parse_time(text, flag):
    match = re.fullmatch(r"([0-9.eE+-]+)\s*([a-z]*)", text)
    if not match or match.group(2) not in TIME_UNITS:
        raise UsageError(f"--{flag}={text}: not an ns-3 time (e.g. 100ms)")
    return float(match.group(1)) * TIME_UNITS[match.group(2)]


def parse_rate(text, flag, default):
    if text == "":
        return default
    match = re.fullmatch(r"([0-9.eE+-]+)\s*([A-Za-z]+)", text)
    if not match or match.group(2) not in RATE_UNITS:
        raise UsageError(f"--{flag}={text}: not a data rate (e.g. 10Gbps)")
    return float(match.group(1)) * RATE_UNITS[match.group(2)]


def parse_args(argv):
    values = {name: default for name, (default, _) in FLAGS.items()}
    for arg in argv:
        if arg in ("--PrintHelp", "--help"):
            print_help(sys.stdout)
            sys.exit(0)
        if arg == "--PrintGlobals":
            print_globals(sys.stdout)
            sys.exit(0)
    for arg in argv:
        match = re.fullmatch(r"--?([A-Za-z][A-Za-z0-9_:]*)(?:=(.*))?", arg, re.S)
        if not match or (match.group(1) not in FLAGS and match.group(1) not in ("RngRun",
                                                                              "RngSeed")):
            sys.stderr.write(f"Invalid command-line argument: {arg}\n")
            print_help(sys.stderr)
            sys.exit(1)
        if match.group(1) in FLAGS:
            values[match.group(1)] = match.group(2) or ""
    return values


def load_topology(path):
    if not os.path.exists(path):
        if path == DEFAULT_TOPOLOGY:
            return ([{"code": c, "name": n, "latitude": la, "longitude": lo}
                     for c, n, la, lo in BUILTIN_CITIES],
                    [{"a": a, "b": b} for a, b in BUILTIN_LINKS])
        raise UsageError(f"--topology={path}: file does not exist")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        cities, links = data["cities"], data["links"]
        codes = [c["code"] for c in cities]
        for link in links:
            if link["a"] not in codes or link["b"] not in codes:
                raise KeyError(f"link {link['a']}-{link['b']}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise UsageError(f"--topology={path}: bad topology file: {e}")
    return cities, links


def parse_queue(text, mtu, wan_bps):
    """--queue as seconds of queue at the WAN rate: TIME, bdp, Np (packets of one MTU), SIZE."""
    text = text.strip()
    if text == "":
        return DEFAULT_QUEUE_S
    if text == "bdp":
        return FAKE_RTT_S
    match = re.fullmatch(r"([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z]*)", text)
    if match and float(match.group(1)) > 0:
        number, unit = float(match.group(1)), match.group(2)
        if unit in TIME_UNITS and unit != "":
            return number * TIME_UNITS[unit]
        if unit == "p":
            return number * mtu * 8.0 / wan_bps
        if unit in SIZE_UNITS:
            return number * SIZE_UNITS[unit] * 8.0 / wan_bps
    raise UsageError(f"--queue={text}: expected a time (50ms), bdp, packets (100p) or a size "
                     f"(12MB), or empty for the topology file's")


def validate(values):
    cfg = dict(values)
    if cfg["capabilities"] not in CAPABILITY_SETS + ("all",):
        raise UsageError(f"--capabilities={cfg['capabilities']}: expected "
                         f"none|multicast|fpga|both|all")
    if cfg["schedule"] not in SCHEDULES:
        raise UsageError(f"--schedule={cfg['schedule']}: unknown schedule (the fake knows "
                         f"{'|'.join(SCHEDULES)})")
    if cfg["transport"] not in TRANSPORTS:
        raise UsageError(f"--transport={cfg['transport']}: expected {'|'.join(TRANSPORTS)}")
    if cfg["payload"] not in ("virtual", "real"):
        raise UsageError(f"--payload={cfg['payload']}: expected virtual|real")
    for flag in ("seed", "modelBytes", "rounds"):
        if not re.fullmatch(r"[0-9]+", cfg[flag]) or (flag != "seed" and int(cfg[flag]) == 0):
            raise UsageError(f"--{flag}={cfg[flag]}: expected a positive integer")
        cfg[flag] = int(cfg[flag])
    for flag in ("lossRate", "epsilon"):
        try:
            cfg[flag] = float(cfg[flag])
        except ValueError:
            raise UsageError(f"--{flag}={cfg[flag]}: expected a number")
    if not 0.0 <= cfg["lossRate"] < 1.0:
        raise UsageError(f"--lossRate={cfg['lossRate']}: expected 0 <= P < 1")
    for flag in ("mtu", "baselineRounds"):
        if not re.fullmatch(r"[0-9]+", cfg[flag]) or (flag == "mtu" and int(cfg[flag]) == 0):
            raise UsageError(f"--{flag}={cfg[flag]}: expected a "
                             f"{'positive' if flag == 'mtu' else 'non-negative'} integer")
        cfg[flag] = int(cfg[flag])
    for flag in ("baselines", "colocated"):
        if cfg[flag] not in BOOLEANS:
            raise UsageError(f"--{flag}={cfg[flag]}: expected true or false")
        cfg[flag] = BOOLEANS[cfg[flag]]
    transports = [t for t in cfg["baselineTransports"].split(",") if t]
    for transport in transports:
        if transport not in TRANSPORTS:
            raise UsageError(f"--baselineTransports={cfg['baselineTransports']}: unknown "
                             f"transport {transport} (expected {'|'.join(TRANSPORTS)})")
    parse_time(cfg["computeTime"], "computeTime")
    parse_rate(cfg["wanBandwidth"], "wanBandwidth", DEFAULT_WAN_BPS)
    parse_rate(cfg["accessBandwidth"], "accessBandwidth", DEFAULT_ACCESS_BPS)
    parse_queue(cfg["queue"], cfg["mtu"],
                parse_rate(cfg["wanBandwidth"], "wanBandwidth", DEFAULT_WAN_BPS))
    return cfg


def jitter(cfg, *keys):
    """A deterministic number in [0, 1) from the flags and the given keys."""
    text = json.dumps([sorted((k, str(v)) for k, v in cfg.items() if k != "output"), keys])
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) / 2.0**32


def cliques(islands, schedule, rnd):
    """Partition of the islands in round rnd: rotations; moshpit alternates rows/columns."""
    size = min(SCHEDULE_CLIQUE[schedule], len(islands))
    if schedule == "moshpit" and len(islands) == size * size:
        if rnd % 2 == 0:
            return [islands[i:i + size] for i in range(0, len(islands), size)]
        return [islands[c::size] for c in range(size)]
    shift = rnd % SCHEDULE_PERIOD[schedule]
    order = islands[shift:] + islands[:shift]
    return [order[i:i + size] for i in range(0, len(order), size)]


def make_job(cfg, caps, schedule, label=None, transport=None, rounds=None, tcp=None):
    """One experiment: a capability set, a schedule's shape, its label in the outputs, its
    transport, its rounds and, for a --baselineTransports=tcp ring, its TCP variant."""
    return {"caps": caps, "schedule": schedule, "label": label or schedule,
            "transport": transport or cfg["transport"], "rounds": rounds or cfg["rounds"],
            "tcp": tcp}


def jobs_of(cfg, sets):
    """The experiments of one run, in the real example's order: per capability set the
    schedule asked for (with --schedule=optimal and --baselines, then the global and ring
    baselines and the rings of the other --baselineTransports); the --baselineTransports=tcp
    rings once, on the passive WAN; with --schedule=optimal and --colocated, the colocated
    reference last. (The real example also adds the colocated reference to other schedules;
    the fake keeps those runs to one row per capability set.)"""
    baseline_rounds = cfg["baselineRounds"] or cfg["rounds"]
    optimal = cfg["schedule"] == "optimal"
    extra = [t for t in cfg["baselineTransports"].split(",") if t] \
        if optimal and cfg["baselines"] else []
    jobs = []
    for caps in sets:
        jobs.append(make_job(cfg, caps, cfg["schedule"]))
        if optimal and cfg["baselines"]:
            jobs += [make_job(cfg, caps, name, rounds=baseline_rounds)
                     for name in ("global", "ring")]
        jobs += [make_job(cfg, caps, "ring", f"{t}-ring", t, baseline_rounds)
                 for t in extra if t != "tcp"]
    if "tcp" in extra:
        jobs += [make_job(cfg, "none", "ring", f"tcp-ring ({cc} x{n})", "tcp", baseline_rounds,
                          (cc, n, base, weight)) for cc, n, base, weight in TCP_VARIANTS]
    if optimal and cfg["colocated"]:
        jobs.append(make_job(cfg, "colocated", "ring", rounds=baseline_rounds))
    return jobs


def tcp_factor(cfg, job):
    """How much slower than the planned transport a TCP run's warm round is: 1 for the other
    transports; for the tcp-ring variants, their base factor plus a slowdown that grows as the
    --queue buffer shrinks below one bandwidth-delay product."""
    if job["tcp"] is None:
        return 1.0
    _, _, base, weight = job["tcp"]
    wan_bps = parse_rate(cfg["wanBandwidth"], "wanBandwidth", DEFAULT_WAN_BPS)
    queue_s = parse_queue(cfg["queue"], cfg["mtu"], wan_bps)
    shortfall = max(0.0, 1.0 - queue_s / FAKE_RTT_S)
    return base * (1.0 + TCP_MAX_SLOWDOWN * weight * shortfall ** 2)


def simulate(cfg, job, islands, links, partial=False):
    """Rows of rounds.csv, consensus.csv, links.csv and one results entry for one job.

    partial: in the last round, the first island of the first clique declares the clique's
    last island lost, whose round then stays unfinished (empty times), as the real example
    records a lost peer.

    TCP (any run whose transport is tcp) runs one round more than asked, a cold first round
    TCP_COLD_EXTRA slower: it is left out of mean_round_s, mean_sync_s and time_to_epsilon_s
    (warmup_rounds 1, its time first_round_s), as the real example does."""
    caps, schedule, label = job["caps"], job["schedule"], job["label"]
    tcp = job["transport"] == "tcp"
    compute_s = parse_time(cfg["computeTime"], "computeTime")
    access_bps = parse_rate(cfg["accessBandwidth"], "accessBandwidth", DEFAULT_ACCESS_BPS)
    wan_bps = parse_rate(cfg["wanBandwidth"], "wanBandwidth", DEFAULT_WAN_BPS)
    k = min(SCHEDULE_CLIQUE[schedule], len(islands))
    factor = CAPABILITY_FACTOR.get(caps, 1.0) if not tcp else 1.0
    if caps == "colocated":
        access_bps = COLOCATED_ACCESS_BPS
    sync_est = cfg["modelBytes"] * 8.0 * max(k - 1, 1) / access_bps * factor + 0.05
    packets = math.ceil(cfg["modelBytes"] / 1400)
    warmup = 1 if tcp else 0
    total_rounds = job["rounds"] + warmup
    slowdown = tcp_factor(cfg, job)
    main_job = label == cfg["schedule"] and caps != "colocated" and job["tcp"] is None
    keys = (caps,) if main_job else (caps, label)  # the main job's numbers as before
    rounds_rows, consensus_rows = [], []
    round_times, sync_times = [], []
    t = 0.0
    distance = 1.0
    lost = []
    exchanges = []  # per finished clique-round: last sync end - first sync start
    for rnd in range(total_rounds):
        round_end = t
        cold = 1.0 + TCP_COLD_EXTRA if tcp and rnd == 0 else 1.0
        for clique_id, members in enumerate(cliques(islands, schedule, rnd)):
            window = []
            for island in members:
                sync = sync_est * slowdown * cold * (1.0 + 0.2 * jitter(cfg, *keys, rnd, island))
                retrans = round(packets * cfg["lossRate"] * (len(members) - 1))
                row = {
                    "capabilities": caps, "schedule": label, "island": island, "round": rnd,
                    "clique": clique_id, "members": " ".join(members),
                    "compute_start_s": f"{t:.9f}", "sync_start_s": f"{t + compute_s:.9f}",
                    "sync_end_s": f"{t + compute_s + sync:.9f}",
                    "bytes_sent": cfg["modelBytes"] * (len(members) - 1),
                    "bytes_received": cfg["modelBytes"] * (len(members) - 1),
                    "packets_sent": packets * (len(members) - 1),
                    "packets_received": packets * (len(members) - 1),
                    "retransmissions": retrans, "lost_peers": "",
                    "control_packets_sent": len(members) - 1,
                    "control_packets_received": len(members) - 1, "complete": 1}
                last_clique = (partial and rnd == total_rounds - 1 and clique_id == 0
                               and len(members) > 1)
                if last_clique and island == members[0]:
                    row["lost_peers"] = members[-1]
                    lost.append(island)  # the island that lost a peer
                if last_clique and island == members[-1]:
                    for key in ("compute_start_s", "sync_start_s", "sync_end_s"):
                        row[key] = ""  # unfinished: the real example leaves the times empty
                    row["complete"] = 0
                    rounds_rows.append(row)
                    continue
                rounds_rows.append(row)
                if rnd >= warmup:
                    sync_times.append(sync)
                window.append((t + compute_s, t + compute_s + sync))
                round_end = max(round_end, t + compute_s + sync)
            if len(members) > 1 and len(window) == len(members) and rnd >= warmup:
                exchanges.append(max(e for _, e in window) - min(s for s, _ in window))
        round_times.append(round_end - t)
        t = round_end
        distance *= SCHEDULE_CONTRACTION[schedule]
        loss = 2.3 * math.exp(-0.3 * (rnd + 1)) + 0.1 * distance
        consensus_rows.append({"capabilities": caps, "schedule": label, "round": rnd,
                               "time_s": f"{t:.9f}", "consensus_distance": f"{distance:.6e}",
                               "loss": f"{loss:.6f}"})
    link_rows = []
    for link in (links if caps != "colocated" else []):  # the colocated run has no WAN
        for a, b in ((link["a"], link["b"]), (link["b"], link["a"])):
            util = 0.05 + 0.9 * jitter(cfg, *keys, a, b) * CAPABILITY_FACTOR.get(caps, 1.0)
            nbytes = int(util * wan_bps * t / 8)
            link_rows.append({"capabilities": caps, "schedule": label, "link": f"{a}-{b}",
                              "from": a, "to": b, "bytes": nbytes,
                              "utilisation": f"{nbytes * 8 / (wan_bps * t):.6f}"})
    first_round = round_times[0] if warmup else None
    warm = sorted(round_times[warmup:])
    rho = SCHEDULE_CONTRACTION[schedule]
    to_eps = max(1, math.ceil(math.log(cfg["epsilon"]) / math.log(rho)))
    mean_round = sum(warm) / len(warm)
    colocated = to_eps * (compute_s + cfg["modelBytes"] * 8.0 / 400e9)
    result = {
        "capabilities": caps, "schedule": label,
        "schedule_detail": f"{schedule}: cliques of {k}, period {SCHEDULE_PERIOD[schedule]}",
        "period": SCHEDULE_PERIOD[schedule], "rounds": total_rounds,
        "mean_round_s": mean_round,
        "p50_round_s": warm[len(warm) // 2],
        "p99_round_s": warm[min(len(warm) - 1, math.ceil(0.99 * len(warm)) - 1)],
        "mean_sync_s": sum(sync_times) / len(sync_times), "estimated_sync_s": sync_est,
        "mean_compute_s": compute_s, "total_time_s": t, "rounds_to_epsilon": to_eps,
        "time_to_epsilon_s": to_eps * mean_round, "queue_drops": 0, "loss_drops": 0,
        "retransmissions": sum(r["retransmissions"] for r in rounds_rows),
        "lost_peers": len(lost),
        "lost_peers_by_island": [{"island": island, "lost_peers": lost.count(island)}
                                 for island in islands],
        "complete": not lost, "unfinished_rounds": 1 if lost else 0, "stopped_by": None,
        "fpga_partial_flushes": 0, "fpga_early_flushes": 0, "fpga_overflows": 0,
        "fpga_wraps": 0, "fpga_pass_throughs": {}, "router_drops": {}, "held_starts": 0,
        "transport": job["transport"], "transport_note": None,
        "colocated_time_to_epsilon_s": colocated,
        "gap_to_colocated": to_eps * mean_round / colocated,
        "cliques_per_round": [len(cliques(islands, schedule, r)) for r in range(total_rounds)],
        # The fake's bound: 90% of the estimate, as a number the tests can read back.
        "mean_exchange_s": sum(exchanges) / len(exchanges) if exchanges else None,
        "exchange_bound_s": 0.9 * sync_est if exchanges else None,
        "gain_over": {},
        "warmup_rounds": warmup,
        "first_round_s": first_round,
    }
    if job["tcp"] is not None:
        result["best_tcp"] = False  # set on the fastest variant once all have run
    result["sim_vs_estimate"] = result["mean_sync_s"] / sync_est - 1
    result["exchange_vs_bound"] = (result["mean_exchange_s"] / result["exchange_bound_s"]
                                   if exchanges else None)
    return rounds_rows, consensus_rows, link_rows, result, t


def add_gains(cfg, results, jobs):
    """best_tcp on the fastest tcp-ring variant (smallest time to epsilon); every result of
    another transport gets its gain over it (the variant's time to epsilon over the result's
    own) and the variant's label. Results of --transport also get, per capability set, their
    gain over the set's rings of the other --baselineTransports (e.g. adaptive)."""
    tcp = [r for r, j in zip(results, jobs) if j["tcp"] is not None]
    best = min(tcp, key=lambda r: r["time_to_epsilon_s"]) if tcp else None
    if best is not None:
        best["best_tcp"] = True
    for r, j in zip(results, jobs):
        if r["transport"] == "tcp":
            continue
        if best is not None:
            r["gain_over"]["tcp"] = best["time_to_epsilon_s"] / r["time_to_epsilon_s"]
            r["gain_over_label"] = {"tcp": best["schedule"]}
        if j["transport"] != cfg["transport"]:
            continue
        for other, o in zip(results, jobs):
            if o["transport"] not in (cfg["transport"], "tcp") and o["caps"] == j["caps"]:
                r["gain_over"][o["transport"]] = (other["time_to_epsilon_s"] /
                                                  r["time_to_epsilon_s"])


def write_csv(path, rows, columns):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def requested_exit(values):
    """The FAKE_EXPERIMENT_EXIT rule matching the flags: "1", "3", "abort", a number or None."""
    for rule in os.environ.get("FAKE_EXPERIMENT_EXIT", "").split():
        match = re.fullmatch(r"([A-Za-z][A-Za-z0-9_]*)=(.*):(abort|[0-9]+)", rule)
        if not match:
            raise UsageError(f"FAKE_EXPERIMENT_EXIT: bad rule {rule!r} (FLAG=VALUE:CODE)")
        if values.get(match.group(1)) == match.group(2):
            return match.group(3)
    return None


def output_folder(values):
    """The output folder, by the results rule: --output new or empty, else a stamped one."""
    if values["output"]:
        results_dir.check_explicit_out(values["output"])
        os.makedirs(values["output"], exist_ok=True)
        return values["output"]
    return results_dir.new_linked_run_dir(PROGRAM, os.path.abspath("results"))


def main(argv):
    values = parse_args(argv)
    try:
        cfg = validate(values)
        cities, links = load_topology(cfg["topology"])
        code = requested_exit(values)
        if code == "1":
            raise UsageError("fake failure requested by FAKE_EXPERIMENT_EXIT")
        out = output_folder(values)
    except (UsageError, results_dir.ResultsError) as e:
        sys.stderr.write(f"error: {e}\n")
        return 1
    counter = os.environ.get("FAKE_EXPERIMENT_COUNTER")
    if counter:
        with open(counter, "a", encoding="utf-8") as f:
            f.write(os.path.basename(os.path.dirname(os.path.normpath(out))) + "\n")
    time.sleep(float(os.environ.get("FAKE_EXPERIMENT_SLEEP", "0.2")))

    islands = [c["code"] for c in cities]
    sets = CAPABILITY_SETS if cfg["capabilities"] == "all" else (cfg["capabilities"],)
    all_rounds, all_consensus, all_links, results = [], [], [], []
    wall0 = time.monotonic()
    jobs = jobs_of(cfg, sets)
    for job in jobs:
        rounds_rows, consensus_rows, link_rows, result, sim_t = simulate(
            cfg, job, islands, links, partial=code == "3")
        sys.stderr.write(f"progress: capabilities={job['caps']} schedule={job['label']} round "
                         f"{job['rounds']}/{job['rounds']} sim={sim_t:.2f}s "
                         f"wall={time.monotonic() - wall0:.1f}s\n")
        all_rounds += rounds_rows
        all_consensus += consensus_rows
        all_links += link_rows
        results.append(result)
    add_gains(cfg, results, jobs)

    cfg["output"] = out
    exit_code = int(code) if code not in (None, "abort") else 0
    write_csv(os.path.join(out, "rounds.csv"), all_rounds,
              ["capabilities", "schedule", "island", "round", "clique", "members",
               "compute_start_s", "sync_start_s", "sync_end_s", "bytes_sent", "bytes_received",
               "packets_sent", "packets_received", "retransmissions", "lost_peers",
               "control_packets_sent", "control_packets_received", "complete"])
    if cfg["payload"] == "real":
        write_csv(os.path.join(out, "consensus.csv"), all_consensus,
                  ["capabilities", "schedule", "round", "time_s", "consensus_distance", "loss"])
    write_csv(os.path.join(out, "links.csv"), all_links,
              ["capabilities", "schedule", "link", "from", "to", "bytes", "utilisation"])
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump({"config": cfg, "results": results, "exit_code": exit_code}, f, indent=2)
        f.write("\n")
    if code == "abort":
        sys.stderr.write("terminate called without an active exception (fake)\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGABRT)
    if code is not None:
        sys.stderr.write(f"fake exit {code} requested by FAKE_EXPERIMENT_EXIT\n")
        return int(code)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
