#!/usr/bin/env python3
"""The Fidelity table of doc/wan-training.rst: packet simulation against the cost model and
against a lower bound that does not use it, per transport.

Reads nine-city-training output folders (summary.json and rounds.csv; one per transport) and
prints, as an reStructuredText simple table, one row per transport, capability set and
schedule of the runs:

  transport   the entry's transport (summary.json's transport)
  schedule    what ran: summary.json's schedule_detail (the schedule's name and clique sizes)
  sim_s       the simulated mean of the islands' sync times (sync_end_s - sync_start_s over
              the finished rows of rounds.csv; must match summary.json's mean_sync_s)
  est_s       the cost model's replay of the same rounds (estimated_sync_s)
  exch_s      the simulated mean exchange time of the clique-rounds: last sync end - first
              sync start of each clique (mean_exchange_s)
  bound_s     ExchangeBound's mean lower bound over the same clique-rounds (exchange_bound_s):
              the bytes each link direction must carry at its capacity plus propagation,
              computed without the cost model
  sim/est-1   (sim_s - est_s) / est_s
  exch/bound  exch_s / bound_s (>= 1: the simulation never beats physics)
  resends     the sum of the retransmissions column of rounds.csv

then, per transport, a line naming its largest |sim/est-1| and its range of exch/bound. The
doc's table is this script's output, pasted:

    python3 tools/fidelity.py --run               # runs the doc's commands, then prints
    python3 tools/fidelity.py DIR/planned DIR/adaptive DIR/tcp # prints the table of runs

--run runs the doc's command once per transport of TRANSPORTS into <folder>/<transport>,
<folder> a new results/fidelity/<UTC stamp>/ (results/latest links to it) or --out DIR (new
or empty), with the example found in build/ or build-test/ (or --example). Exit status: 0;
3 when a run's results are partial (the table is still printed, marked); 1 on bad input (a
missing or malformed folder, a summary that disagrees with rounds.csv, an example run that
failed). Standard library only (Python >= 3.8).
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys

import results_dir

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = "nine-city-training"
# The doc's command (doc/wan-training.rst, "Fidelity"), without --transport and --output.
FLAGS = ["--modelBytes=100000000", "--rounds=2", "--schedule=optimal", "--capabilities=all",
         "--computeTime=100ms", "--baselines=false", "--colocated=false"]
# The transports --run compares, one run each: a new transport is one more entry.
TRANSPORTS = ["planned", "adaptive", "tcp"]
COLUMNS = ["transport", "capabilities", "schedule", "sim_s", "est_s", "exch_s", "bound_s",
           "sim/est-1", "exch/bound", "resends"]
LEFT = ("transport", "capabilities", "schedule")
# The CSV holds times to the nanosecond: its mean and summary.json's may differ by that much.
CSV_TOLERANCE_S = 1e-8

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_PARTIAL = 3


class FidelityError(Exception):
    """A missing or inconsistent input; the message names the file."""


def read_summary(folder):
    """The results entries of folder/summary.json."""
    path = os.path.join(folder, "summary.json")
    try:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)["results"]
        if not isinstance(entries, list) or not entries:
            raise ValueError("results is not a non-empty list")
        return entries
    except OSError as e:
        raise FidelityError(f"{path}: {e.strerror}")
    except (ValueError, KeyError, TypeError) as e:
        raise FidelityError(f"{path}: malformed: {e}")


def read_rounds(folder, warmups):
    """Per (capabilities, schedule): [sum of sync times, finished rows, resends, rows], the
    sync times and finished rows without the first warmups[(capabilities, schedule)] rounds
    (summary.json's warmup_rounds: left out of its mean_sync_s)."""
    path = os.path.join(folder, "rounds.csv")
    groups = {}
    try:
        with open(path, newline="", encoding="utf-8") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                try:
                    key = (row["capabilities"], row["schedule"])
                    if int(row["round"]) < warmups.get(key, 0):
                        continue
                    group = groups.setdefault(key, [0.0, 0, 0, 0])
                    group[3] += 1
                    group[2] += int(row["retransmissions"])
                    if row["sync_start_s"] and row["sync_end_s"]:  # empty: unfinished
                        sync = float(row["sync_end_s"]) - float(row["sync_start_s"])
                        if not math.isfinite(sync):
                            raise ValueError(f"sync {row['sync_start_s']} to "
                                             f"{row['sync_end_s']} s is not a finite time")
                        group[0] += sync
                        group[1] += 1
                except (KeyError, TypeError, ValueError) as e:
                    raise FidelityError(f"{path}:{line}: malformed row: {e}")
    except OSError as e:
        raise FidelityError(f"{path}: {e.strerror}")
    return groups


def optional_number(entry, key, folder):
    """entry[key] as a float, or None when it is null (not compared)."""
    value = entry.get(key)
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        raise FidelityError(f"{folder}/summary.json: malformed {key}: {value!r}")


def folder_rows(folder):
    """From one output folder: its rows (dicts of COLUMNS, values as text, plus the numbers
    under "_difference" and "_ratio") and whether some rounds are unfinished."""
    entries = read_summary(folder)
    try:
        warmups = {(e["capabilities"], e["schedule"]): int(e.get("warmup_rounds", 0))
                   for e in entries}
    except (KeyError, TypeError, ValueError) as e:
        raise FidelityError(f"{folder}/summary.json: malformed results entry: {e}")
    groups = read_rounds(folder, warmups)
    rows = []
    partial = False
    for entry in entries:
        try:
            key = (entry["capabilities"], entry["schedule"])
            estimated = float(entry["estimated_sync_s"])
            summary_sync = entry["mean_sync_s"]
            transport = str(entry["transport"])
        except (KeyError, TypeError, ValueError) as e:
            raise FidelityError(f"{folder}/summary.json: malformed results entry: {e}")
        exchange = optional_number(entry, "mean_exchange_s", folder)
        bound = optional_number(entry, "exchange_bound_s", folder)
        if key not in groups:
            raise FidelityError(f"{folder}/rounds.csv: no rows for {key[0]} / {key[1]}")
        sync_sum, finished, resends, total = groups.pop(key)
        # Partial: unfinished rounds, or lost peers (an entry's "complete" says both).
        partial = partial or finished < total or entry.get("complete") is False
        if finished == 0:
            raise FidelityError(f"{folder}/rounds.csv: no finished rows for {key[0]} / {key[1]}")
        sync = sync_sum / finished
        if summary_sync is None or abs(float(summary_sync) - sync) > CSV_TOLERANCE_S:
            raise FidelityError(f"{folder}: {key[0]} / {key[1]}: mean sync {summary_sync} s in "
                                f"summary.json, {sync:.9f} s from rounds.csv")
        difference = (sync - estimated) / estimated if estimated > 0 else 0.0
        ratio = exchange / bound if exchange is not None and bound else None
        # schedule_detail names what ran, e.g. "optimal:local-search 3x3 | 3x3".
        rows.append({"transport": transport, "capabilities": key[0],
                     "schedule": entry.get("schedule_detail") or key[1],
                     "sim_s": f"{sync:.4f}", "est_s": f"{estimated:.4f}",
                     "exch_s": "-" if exchange is None else f"{exchange:.4f}",
                     "bound_s": "-" if bound is None else f"{bound:.4f}",
                     "sim/est-1": f"{100 * difference:+.3f}%",
                     "exch/bound": "-" if ratio is None else f"{ratio:.3f}",
                     "resends": str(resends), "_difference": difference, "_ratio": ratio})
    if groups:
        extra = ", ".join(f"{c} / {s}" for c, s in groups)
        raise FidelityError(f"{folder}/rounds.csv: rows for {extra}, not in summary.json")
    return rows, partial


def table_rows(folders):
    """From output folders: the rows of the table and whether some rounds are unfinished."""
    rows = []
    partial = False
    for folder in folders:
        folder_part, folder_partial = folder_rows(folder)
        rows += folder_part
        partial = partial or folder_partial
    return rows, partial


def format_table(rows):
    """An RST simple table of rows (dicts of COLUMNS), numbers right-aligned."""
    widths = [max([len(c)] + [len(r[c]) for r in rows]) for c in COLUMNS]
    rule = "  ".join("=" * w for w in widths)

    def line(cells):
        return "  ".join(cell.ljust(w) if c in LEFT else cell.rjust(w)
                         for c, cell, w in zip(COLUMNS, cells, widths)).rstrip()

    out = [rule, line(COLUMNS), rule]
    out += [line([r[c] for c in COLUMNS]) for r in rows]
    out.append(rule)
    return "\n".join(out) + "\n"


def format_worst(rows):
    """Per transport, in the order of the rows: its largest |sim/est-1| and the range of its
    exch/bound."""
    out = []
    for transport in dict.fromkeys(r["transport"] for r in rows):
        mine = [r for r in rows if r["transport"] == transport]
        worst = max(mine, key=lambda r: abs(r["_difference"]))
        text = (f"{transport}: largest |sim/est-1| {100 * abs(worst['_difference']):.3f}% "
                f"({worst['capabilities']}, {worst['schedule']})")
        ratios = [r["_ratio"] for r in mine if r["_ratio"] is not None]
        if ratios:
            text += f"; exch/bound {min(ratios):.3f} to {max(ratios):.3f}"
        out.append(text + ".\n")
    return "".join(out)


def find_example():
    for build in ("build", "build-test"):
        path = os.path.join(REPO_ROOT, build, "examples", EXAMPLE)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def run(args):
    """Runs the doc's command once per transport into a new folder; returns (the runs'
    folders, the worst exit code)."""
    example = args.example or find_example()
    if not example or not os.path.isfile(example):
        raise FidelityError(f"{EXAMPLE} is not built (tools/build.sh release) or --example "
                            f"{args.example} does not exist")
    if args.out:
        results_dir.check_explicit_out(args.out)
        folder = os.path.abspath(args.out)
    else:
        folder = results_dir.new_linked_run_dir("fidelity")
    folders = []
    worst = EXIT_OK
    for transport in TRANSPORTS:
        out = os.path.join(folder, transport)
        command = [example, *FLAGS, f"--transport={transport}", f"--output={out}"]
        print("fidelity: " + " ".join(command), file=sys.stderr)
        code = subprocess.run(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL).returncode
        if code not in (EXIT_OK, EXIT_PARTIAL):
            raise FidelityError(f"{EXAMPLE} --transport={transport} exited {code}")
        folders.append(out)
        worst = max(worst, code)
    return folders, worst


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", help="nine-city-training output folders")
    parser.add_argument("--run", action="store_true", help="run the doc's commands first")
    parser.add_argument("--example", help=f"the {EXAMPLE} program (default: build/ or "
                                          f"build-test/)")
    parser.add_argument("--out", help="with --run: the output folder (new or empty)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if bool(args.run) == bool(args.folders):
        parser.error("give either output folders or --run")
    code = EXIT_OK
    try:
        if args.run:
            folders, code = run(args)
        else:
            folders = args.folders
        rows, partial = table_rows(folders)
    except (FidelityError, results_dir.ResultsError) as e:
        print(f"fidelity: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    sys.stdout.write(format_table(rows) + "\n" + format_worst(rows))
    if code == EXIT_PARTIAL or partial:
        print(f"fidelity: the run's results are partial (unfinished rounds or {EXAMPLE} "
              f"exited 3): not for the doc", file=sys.stderr)
        return EXIT_PARTIAL
    return code


if __name__ == "__main__":
    sys.exit(main())
