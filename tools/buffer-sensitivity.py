#!/usr/bin/env python3
"""How the optimiser's gain over the best TCP ring depends on router buffers (doc/tools.rst).

Runs the sweep examples/sweeps/buffer-sensitivity.json through tools/sweep.py: the default
topology (doublezero-9), --queue in {1ms, 10ms, 50ms, bdp} x --capabilities in {none, both} x
--modelBytes in {100 MB, 1 GB}, each with --schedule=optimal --baselineTransports=tcp
--mtu=64000 --rounds=2 --baselineRounds=2 (and --colocated=false: the reference is not
needed for the gain). Then writes, beside the sweep's results.csv:

  buffer-sensitivity.md   a Markdown table (also printed): per capability set, model size
                          and queue, the optimiser's round time, the best TCP ring (its
                          variant, warm round time and cold first round) and the optimiser's
                          gain over it (gain_over.tcp: the best TCP's time to epsilon over
                          the optimiser's)
  buffer-sensitivity.png  that gain against the queue, one line per (capability set, model
                          size): tools/plot.py buffer-sensitivity

    python3 tools/buffer-sensitivity.py -j 2                 # new results/sweep/buffer-sensitivity/<stamp>
    python3 tools/buffer-sensitivity.py -j 2 --out DIR       # DIR new, empty, or this sweep's (resumes)
    python3 tools/buffer-sensitivity.py --table-only --out DIR   # table and figure only

Options: --spec FILE (another spec of the same shape), --example PROGRAM (run it instead of
the spec's example, e.g. tools/fake-experiment.py in the tests). Exit status: sweep.py's
when it is not 0 (1: a point failed or the folder was refused, 2: bad spec, 130:
interrupted; with 1 the table still covers the points that are done), else 1 when the table
or the figure cannot be made, else 0. Standard library only (the figure needs matplotlib,
through plot.py).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import plot
import results_dir

TOOLS = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(TOOLS)
SPEC = os.path.join(REPO_ROOT, "examples", "sweeps", "buffer-sensitivity.json")
TABLE = "buffer-sensitivity.md"
FIGURE = "buffer-sensitivity.png"
HEADER = ["capabilities", "model (bytes)", "queue", "optimal (s/round)", "best TCP ring",
          "TCP (s/round, warm)", "TCP cold round (s)", "gain over best TCP"]
RIGHT = {"model (bytes)", "optimal (s/round)", "TCP (s/round, warm)", "TCP cold round (s)",
         "gain over best TCP"}


def seconds(value):
    return f"{value:.3f}" if plot.is_number(value) else "-"


def table(rows, sweep_dir, spec):
    """The Markdown text: a heading, one line on what was run, the table."""
    fixed = " ".join(f"--{k}={plot.flag_text(v)}" for k, v in (spec.get("fixed") or {}).items())
    lines = ["# Buffer sensitivity: the optimiser's gain over the best TCP ring", "",
             f"Sweep `{sweep_dir}`, every point with `{fixed}`. The gain is the best TCP "
             f"ring's time to epsilon-consensus over the optimiser's (`gain_over.tcp`); TCP's "
             f"round time is over its warm rounds, its cold first round apart.", ""]
    cells = [[r["capabilities"], r["modelBytes"], r["queue"], seconds(r["optimal_s"]),
              r["best_tcp"], seconds(r["tcp_s"]), seconds(r["tcp_cold_s"]),
              f"{r['gain']:.1f}x"] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(HEADER)]

    def line(values):
        return "| " + " | ".join(v.rjust(w) if h in RIGHT else v.ljust(w)
                                 for v, w, h in zip(values, widths, HEADER)) + " |"
    lines.append(line(HEADER))
    lines.append("|" + "|".join(("-" * (w + 1) + ":") if h in RIGHT else "-" * (w + 2)
                                for w, h in zip(widths, HEADER)) + "|")
    lines += [line(c) for c in cells]
    return "\n".join(lines) + "\n"


def write_table(sweep_dir):
    """Writes and prints the table of the sweep folder; returns its path."""
    results = os.path.join(sweep_dir, "results.csv")
    rows = plot.sensitivity_rows(results)
    spec = plot.sweep_grid(results)
    text = table(rows, sweep_dir, spec)
    path = os.path.join(sweep_dir, TABLE)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    sys.stdout.write(text)
    return path


def run_sweep(args, spec_path):
    """Runs sweep.py into the sweep folder (made here when --out is not given, so that its
    path is known); returns (folder, status)."""
    sweep = [sys.executable, os.path.join(TOOLS, "sweep.py"), spec_path]
    # Spec and example flags first: a bad spec stops before any folder is made.
    check = subprocess.run(sweep + ["--dry-run"], stdout=subprocess.DEVNULL)
    if check.returncode != 0:
        return None, check.returncode
    if args.out:
        folder = os.path.abspath(args.out)
    else:
        with open(spec_path, encoding="utf-8") as f:
            name = json.load(f)["name"]
        folder = results_dir.new_linked_run_dir(f"sweep/{name}")
    status = subprocess.run(sweep + ["--out", folder, "-j", str(args.jobs)]).returncode
    return folder, status


def spec_with_example(spec_path, example, tmp):
    """A copy of the spec whose example is the given program (absolute)."""
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    spec["example"] = os.path.abspath(example)
    path = os.path.join(tmp, os.path.basename(spec_path))
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f, indent=2)
    return path


def parse_args(argv):
    parser = argparse.ArgumentParser(description="The optimiser's gain over the best TCP ring "
                                                 "against router buffers (see doc/tools.rst).")
    parser.add_argument("--out", metavar="DIR", help="sweep folder: new, empty, or an earlier "
                        "run of this sweep to resume (default: a new "
                        "results/sweep/buffer-sensitivity/<UTC stamp>)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help="points run in parallel (default: number of CPUs)")
    parser.add_argument("--spec", default=SPEC, help="sweep spec (default: %(default)s)")
    parser.add_argument("--example", metavar="PROGRAM",
                        help="run this program instead of the spec's example")
    parser.add_argument("--table-only", action="store_true",
                        help="only (re)write the table and the figure of the sweep --out DIR")
    args = parser.parse_args(argv)
    if args.table_only and not args.out:
        parser.error("--table-only needs --out DIR, the sweep folder")
    if args.jobs < 1:
        parser.error("-j must be at least 1")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    status = 0
    with tempfile.TemporaryDirectory(prefix="buffer-sensitivity-") as tmp:
        if args.table_only:
            folder = os.path.abspath(args.out)
        else:
            spec_path = spec_with_example(args.spec, args.example, tmp) if args.example \
                else args.spec
            try:
                folder, status = run_sweep(args, spec_path)
            except (results_dir.ResultsError, OSError, ValueError, KeyError) as e:
                print(f"buffer-sensitivity: error: {e}", file=sys.stderr)
                return 1
            if folder is None or status not in (0, 1):
                return status
    results = os.path.join(folder, "results.csv")
    try:
        path = write_table(folder)
    except plot.InputError as e:
        print(f"buffer-sensitivity: error: {e}", file=sys.stderr)
        return status or 1
    print(f"buffer-sensitivity: wrote {path}", file=sys.stderr)
    drawn = subprocess.run([sys.executable, os.path.join(TOOLS, "plot.py"),
                            "buffer-sensitivity", results,
                            "--out", os.path.join(folder, FIGURE)]).returncode
    return status or (1 if drawn else 0)


if __name__ == "__main__":
    sys.exit(main())
