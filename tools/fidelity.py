#!/usr/bin/env python3
"""The Fidelity table of doc/wan-training.rst: packet simulation against the cost model.

Reads a nine-city-training output folder (summary.json and rounds.csv) and prints, as an
reStructuredText simple table, one row per capability set and schedule of the run:

  schedule    what ran: summary.json's schedule_detail (the schedule's name and clique sizes)
  sync_s      the simulated mean of the islands' sync times (sync_end_s - sync_start_s over
              the finished rows of rounds.csv)
  est_sync_s  the cost model's replay of the same rounds (estimated_sync_s, summary.json)
  difference  (sync_s - est_sync_s) / est_sync_s
  resends     the sum of the retransmissions column of rounds.csv

then a line naming the largest difference. The doc's table is this script's output, pasted:

    python3 tools/fidelity.py --run             # runs the doc's command, then prints
    python3 tools/fidelity.py results/latest    # prints the table of an existing run

--run writes into a new results/fidelity/<UTC stamp>/ (results/latest links to it) or into
--out DIR (new or empty), with the example found in build/ or build-test/ (or --example).
Exit status: 0; 3 when the run's results are partial (the table is still printed, marked);
1 on bad input (a missing or malformed folder, a summary that disagrees with rounds.csv, an
example run that failed). Standard library only (Python >= 3.8).
"""

import argparse
import csv
import json
import os
import subprocess
import sys

import results_dir

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = "nine-city-training"
# The doc's command (doc/wan-training.rst, "Fidelity"), without --output.
FLAGS = ["--modelBytes=100000000", "--rounds=2", "--schedule=optimal", "--capabilities=all",
         "--computeTime=100ms"]
COLUMNS = ["capabilities", "schedule", "sync_s", "est_sync_s", "difference", "resends"]
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


def read_rounds(folder):
    """Per (capabilities, schedule): [sum of sync times, finished rows, resends, rows]."""
    path = os.path.join(folder, "rounds.csv")
    groups = {}
    try:
        with open(path, newline="", encoding="utf-8") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                try:
                    group = groups.setdefault((row["capabilities"], row["schedule"]),
                                              [0.0, 0, 0, 0])
                    group[3] += 1
                    group[2] += int(row["retransmissions"])
                    if row["sync_start_s"] and row["sync_end_s"]:  # empty: unfinished
                        group[0] += float(row["sync_end_s"]) - float(row["sync_start_s"])
                        group[1] += 1
                except (KeyError, TypeError, ValueError) as e:
                    raise FidelityError(f"{path}:{line}: malformed row: {e}")
    except OSError as e:
        raise FidelityError(f"{path}: {e.strerror}")
    return groups


def table_rows(folder):
    """From an output folder: the rows of the table (dicts of COLUMNS, values as text), the
    largest difference (relative, with its row) and whether some rounds are unfinished."""
    entries = read_summary(folder)
    groups = read_rounds(folder)
    rows = []
    worst = None
    partial = False
    for entry in entries:
        try:
            key = (entry["capabilities"], entry["schedule"])
            estimated = float(entry["estimated_sync_s"])
            summary_sync = entry["mean_sync_s"]
        except (KeyError, TypeError, ValueError) as e:
            raise FidelityError(f"{folder}/summary.json: malformed results entry: {e}")
        if key not in groups:
            raise FidelityError(f"{folder}/rounds.csv: no rows for {key[0]} / {key[1]}")
        sync_sum, finished, resends, total = groups.pop(key)
        partial = partial or finished < total
        if finished == 0:
            raise FidelityError(f"{folder}/rounds.csv: no finished rows for {key[0]} / {key[1]}")
        sync = sync_sum / finished
        if summary_sync is None or abs(float(summary_sync) - sync) > CSV_TOLERANCE_S:
            raise FidelityError(f"{folder}: {key[0]} / {key[1]}: mean sync {summary_sync} s in "
                                f"summary.json, {sync:.9f} s from rounds.csv")
        difference = (sync - estimated) / estimated if estimated > 0 else 0.0
        # schedule_detail names what ran, e.g. "optimal:local-search 3x3 | 3x3".
        row = {"capabilities": key[0], "schedule": entry.get("schedule_detail") or key[1],
               "sync_s": f"{sync:.4f}", "est_sync_s": f"{estimated:.4f}",
               "difference": f"{100 * difference:+.3f}%", "resends": str(resends)}
        rows.append(row)
        if worst is None or abs(difference) > abs(worst[0]):
            worst = (difference, row)
    if groups:
        extra = ", ".join(f"{c} / {s}" for c, s in groups)
        raise FidelityError(f"{folder}/rounds.csv: rows for {extra}, not in summary.json")
    return rows, worst, partial


def format_table(rows):
    """An RST simple table of rows (dicts of COLUMNS), numbers right-aligned."""
    widths = [max([len(c)] + [len(r[c]) for r in rows]) for c in COLUMNS]
    left = ("capabilities", "schedule")
    rule = "  ".join("=" * w for w in widths)

    def line(cells):
        return "  ".join(cell.ljust(w) if c in left else cell.rjust(w)
                         for c, cell, w in zip(COLUMNS, cells, widths)).rstrip()

    out = [rule, line(COLUMNS), rule]
    out += [line([r[c] for c in COLUMNS]) for r in rows]
    out.append(rule)
    return "\n".join(out) + "\n"


def format_worst(worst):
    difference, row = worst
    return (f"Largest difference: {100 * abs(difference):.3f}% ({row['capabilities']}, "
            f"{row['schedule']}).\n")


def find_example():
    for build in ("build", "build-test"):
        path = os.path.join(REPO_ROOT, build, "examples", EXAMPLE)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def run(args):
    """Runs the doc's command into a new folder; returns (folder, exit code)."""
    example = args.example or find_example()
    if not example or not os.path.isfile(example):
        raise FidelityError(f"{EXAMPLE} is not built (tools/build.sh release) or --example "
                            f"{args.example} does not exist")
    if args.out:
        results_dir.check_explicit_out(args.out)
        folder = os.path.abspath(args.out)
    else:
        folder = results_dir.new_linked_run_dir("fidelity")
    command = [example, *FLAGS, f"--output={folder}"]
    print("fidelity: " + " ".join(command), file=sys.stderr)
    code = subprocess.run(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL).returncode
    if code not in (EXIT_OK, EXIT_PARTIAL):
        raise FidelityError(f"{EXAMPLE} exited {code}")
    return folder, code


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", help="a nine-city-training output folder")
    parser.add_argument("--run", action="store_true", help="run the doc's command first")
    parser.add_argument("--example", help=f"the {EXAMPLE} program (default: build/ or "
                                          f"build-test/)")
    parser.add_argument("--out", help="with --run: the output folder (new or empty)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if bool(args.run) == bool(args.folder):
        parser.error("give either an output folder or --run")
    code = EXIT_OK
    try:
        if args.run:
            folder, code = run(args)
        else:
            folder = args.folder
        rows, worst, partial = table_rows(folder)
    except (FidelityError, results_dir.ResultsError) as e:
        print(f"fidelity: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    sys.stdout.write(format_table(rows) + "\n" + format_worst(worst))
    if code == EXIT_PARTIAL or partial:
        print(f"fidelity: the run's results are partial (unfinished rounds or {EXAMPLE} "
              f"exited 3): not for the doc", file=sys.stderr)
        return EXIT_PARTIAL
    return code


if __name__ == "__main__":
    sys.exit(main())
