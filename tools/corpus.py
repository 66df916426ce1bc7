#!/usr/bin/env python3
"""Check lossless training runs over a corpus of generated WANs, up to 64 islands.

The larger sibling of the ctest suites wan-corpus-none, wan-corpus-multicast, wan-corpus-fpga,
wan-corpus-both and wan-corpus-mixed (test/wan-corpus-test-suite.cc). It

1. generates WANs with build/examples/topology-generator (every family by default, the given
   sizes and seeds, WAN links drawn from 20 to 100 Gbps so that streams get different max-min
   rates) into <out>/topologies/;
2. runs build/examples/nine-city-training on each, for every capability set
   (--capabilities=all) and the schedules global (direct exchange), ring (ring all-reduce) and
   moshpit (rotating cliques), through tools/sweep.py (parallel, resumable);
3. checks every run: exit code 0 (not 3, partial), no resends, no queue drops, no FPGA partial
   flushes or overflows, every island finished (no lost peer), and a mean sync time within 1%
   of the cost model's;
4. prints a table per size (runs, failures, worst sync error) and a closing line
   "corpus: N passed, M failed"; exits 1 if any run failed.

    python3 tools/corpus.py                       # the full corpus (sizes 8 to 64)
    python3 tools/corpus.py --sizes 8 16 --seeds 1 -j 2

The output folder follows the results rule (tools/results_dir.py): a new
results/corpus/<UTC stamp>/ (results/latest links to it), or --out DIR, new or empty, or a
corpus folder of an earlier run, which resumes it.

Build first with tools/build.sh release. Standard library only (Python >= 3.8).
"""

import argparse
import csv
import json
import os
import subprocess
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO_ROOT, "tools"))
import results_dir  # noqa: E402  (tools/results_dir.py, beside this file)
import sweep  # noqa: E402  (tools/sweep.py, beside this file)

FAMILIES = ["geometric", "ring", "hub", "grid", "continents", "backbone"]
SCHEDULES = ["global", "ring", "moshpit"]
# What nine-city-training --capabilities=all runs (WanCommandLine, doc/wan-training.rst): one
# result per set, topology and schedule.
CAPABILITY_SETS_OF_ALL = ["none", "multicast", "fpga", "both", "transit", "both+transit"]
# The ranges topology-generator and nine-city-training accept (doc/input-rules.rst).
MAX_CITIES = 1024
MAX_SEED = 4294944442
MTU_RANGE = (1280, 65535)
SYNC_TOLERANCE = 0.01
SPEC = "corpus-sweep.json"  # the sweep spec in the corpus folder; also marks it as a corpus's


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--families", nargs="+", default=FAMILIES, choices=FAMILIES)
    parser.add_argument("--sizes", nargs="+", type=int, default=[8, 16, 24, 32, 48, 64],
                        help="numbers of cities (one island each)")
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--model-bytes", type=int, default=1000000)
    parser.add_argument("--mtu", type=int, default=9000)
    parser.add_argument("--build", default=os.path.join(REPO_ROOT, "build"),
                        help="build folder holding examples/ (default: build)")
    parser.add_argument("--out", help="output folder: new, empty, or an earlier corpus run "
                                      "to resume (default: a new results/corpus/<UTC stamp>)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    # Checked before any folder or topology is made.
    if any(size < 2 or size > MAX_CITIES for size in args.sizes):
        parser.error(f"--sizes: each must be 2 to {MAX_CITIES} cities")
    if any(seed < 1 or seed > MAX_SEED for seed in args.seeds):
        parser.error(f"--seeds: each must be 1 to {MAX_SEED}")
    if args.model_bytes < 1:
        parser.error("--model-bytes: must be at least 1")
    if not MTU_RANGE[0] <= args.mtu <= MTU_RANGE[1]:
        parser.error(f"--mtu: must be {MTU_RANGE[0]} to {MTU_RANGE[1]}")
    if args.jobs < 1:
        parser.error("--jobs: must be at least 1")
    return args


class CorpusError(Exception):
    """A step of the corpus failed; the message says which."""


def generate(args, generator):
    """Writes the corpus topologies; returns their paths."""
    folder = os.path.join(args.out, "topologies")
    os.makedirs(folder, exist_ok=True)
    paths = []
    for family in args.families:
        for cities in args.sizes:
            for seed in args.seeds:
                path = os.path.join(folder, f"{family}-{cities}-seed{seed}.json")
                if not os.path.exists(path):
                    run = subprocess.run([generator, f"--family={family}", f"--cities={cities}",
                                          f"--seed={seed}", "--wanBandwidth=20Gbps",
                                          "--wanBandwidthMax=100Gbps", f"--output={path}"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                         text=True, check=False)
                    if run.returncode != 0:
                        raise CorpusError(f"topology-generator --family={family} "
                                          f"--cities={cities} --seed={seed} exited "
                                          f"{run.returncode}: {run.stderr.strip()}")
                paths.append(path)
    return paths


def failures(row):
    """Returns what is wrong with one results.csv row (empty if nothing)."""
    problems = []
    if row["exit_code"] != "0":
        problems.append(f"exit_code={row['exit_code']}")
    for field in ("retransmissions", "queue_drops", "lost_peers", "fpga_partial_flushes",
                  "fpga_overflows"):
        if float(row[field]) != 0:
            problems.append(f"{field}={row[field]}")
    error = sync_error(row)
    if error > SYNC_TOLERANCE:
        problems.append(f"sync {row['mean_sync_s']} s vs plan {row['estimated_sync_s']} s "
                        f"({100 * error:.2f}%)")
    return problems


def sync_error(row):
    """Relative error of the mean sync time against the cost model's."""
    estimated = float(row["estimated_sync_s"])
    return abs(float(row["mean_sync_s"]) - estimated) / estimated if estimated > 0 else 0.0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    examples = os.path.join(args.build, "examples")
    for program in ("topology-generator", "nine-city-training"):
        if not os.path.exists(os.path.join(examples, program)):
            print(f"corpus: error: {examples}/{program} is missing (run tools/build.sh release)",
                  file=sys.stderr)
            return 2
    try:
        if args.out is None:
            args.out = results_dir.new_linked_run_dir("corpus")
        elif not os.path.isfile(os.path.join(args.out, SPEC)):
            results_dir.check_explicit_out(args.out)  # else: resume the corpus there
    except (results_dir.ResultsError, OSError) as e:
        print(f"corpus: error: {e}", file=sys.stderr)
        return 1
    try:
        topologies = generate(args, os.path.join(examples, "topology-generator"))
    except CorpusError as e:
        print(f"corpus: error: {e}", file=sys.stderr)
        return 1
    spec = {
        "name": "corpus",
        "example": os.path.join(examples, "nine-city-training"),
        "fixed": {"capabilities": "all", "modelBytes": args.model_bytes, "mtu": args.mtu,
                  "rounds": 2, "baselines": "false", "colocated": "false"},
        "grid": {"topology": topologies, "schedule": SCHEDULES},
        "timeout_s": 3600,
    }
    spec_path = os.path.join(args.out, SPEC)
    with open(spec_path, "w", encoding="utf-8") as f:
        json.dump(spec, f, indent=1)
    status = sweep.main([spec_path, "--out", os.path.join(args.out, "sweep"), "-j",
                         str(args.jobs), "--quiet"], link=False)
    if status != 0:
        print(f"corpus: error: the sweep exited {status}", file=sys.stderr)
        return 1

    with open(os.path.join(args.out, "sweep", "results.csv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    by_size = {}
    failed = 0
    for row in rows:
        name = os.path.basename(row["topology"])[:-len(".json")]
        size = int(name.split("-")[1])
        stats = by_size.setdefault(size, {"runs": 0, "failed": 0, "worst": 0.0})
        stats["runs"] += 1
        stats["worst"] = max(stats["worst"], sync_error(row))
        problems = failures(row)
        if problems:
            failed += 1
            stats["failed"] += 1
            print(f"FAIL {name} {row['result_capabilities']} {row['schedule']}: "
                  + "; ".join(problems))
    print(f"{'cities':>6} {'runs':>5} {'failed':>6} {'worst sync error':>17}")
    for size in sorted(by_size):
        s = by_size[size]
        print(f"{size:>6} {s['runs']:>5} {s['failed']:>6} {100 * s['worst']:>16.3f}%")
    expected = len(topologies) * len(SCHEDULES) * len(CAPABILITY_SETS_OF_ALL)
    if len(rows) != expected:
        print(f"corpus: error: {len(rows)} results, expected {expected}", file=sys.stderr)
        return 1
    print(f"corpus: {len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
