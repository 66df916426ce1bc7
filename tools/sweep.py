#!/usr/bin/env python3
"""Run a wan-training example over a grid of flag values, in parallel, resumably.

A sweep spec is a JSON file:

    {"name": "capabilities",
     "example": "build/examples/nine-city-training",
     "fixed": {"rounds": 2, "seed": 1},
     "grid": {"capabilities": ["none", "both"], "modelBytes": [1000000, 4000000]},
     "timeout_s": 600}

Every combination of grid values (plus the fixed flags) is one point. Each point runs
`<example> --flag=value ... --output=<sweepdir>/points/<hash>/output` from the repository
root, where <hash> identifies the point's parameters; the output folder does not exist when
the example starts. A point is done when its output holds summary.json and its folder the
marker sweep-done.json (written only after the example exited 0, or 3: results written but
partial), so an interrupted sweep resumes where it stopped. The scalar results of all done
points, with each point's exit code, are collected into <sweepdir>/results.csv.

The sweep folder is results/sweep/<name>/<UTC stamp>/ by default (results/latest then links
to it), or --out DIR (results/latest untouched): a new or empty folder, or one an earlier run of the same sweep made
(it holds the marker sweep-folder.json), which resumes it. See doc/tools.rst.

Standard library only (Python >= 3.8).
"""

import argparse
import csv
import difflib
import hashlib
import itertools
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import results_dir

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SPEC_KEYS = {"name", "example", "fixed", "grid", "timeout_s"}
REQUIRED_KEYS = ("name", "example", "grid")
RESERVED_FLAGS = {"output"}  # set by the sweep itself, one folder per point

MARKER = "sweep-done.json"
SWEEP_MARKER = "sweep-folder.json"  # names the folder as a sweep's: only then may it resume
OUTPUT = "output"  # the example's --output, inside the point's folder
PARAMS_FILE = "sweep-params.json"
STDOUT_FILE = "sweep-stdout.log"
STDERR_FILE = "sweep-stderr.log"
SUMMARY = "summary.json"

HELP_TIMEOUT_S = 60  # generous: the first run of a freshly linked binary can be slow
STDERR_TAIL_LINES = 15
POLL_INTERVAL_S = 0.05
HASH_CHARS = 16  # 64 bits of sha256: collisions are out of reach for any real sweep

EXIT_OK = 0
EXIT_POINT_FAILED = 1
EXIT_FOLDER_REFUSED = 1  # the results rule refused the folder (as the examples do)
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

# The examples' exit codes (doc/training.rst): 0 every round complete; 3 results written but
# partial (lost peers, unfinished rounds, a time guard hit); anything else is a failure.
EXAMPLE_COMPLETE = 0
EXAMPLE_PARTIAL = 3
DONE_CODES = (EXAMPLE_COMPLETE, EXAMPLE_PARTIAL)


class SpecError(Exception):
    """Bad sweep spec or bad command line: reported before anything runs."""


class PointDataError(Exception):
    """A done point's marker or summary.json cannot be read: that point failed (exit 1)."""


# ---------------------------------------------------------------------------------------------
# Spec loading and validation
# ---------------------------------------------------------------------------------------------


def flag_value(value):
    """The command-line text of a spec value (what the example sees after '=')."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        # 1e6 in JSON is a float; the example wants an integer byte count.
        return str(int(value))
    return str(value)


def _check_flag_name(path, where, flag):
    if flag in RESERVED_FLAGS:
        raise SpecError(f"{path}: {where}: flag --{flag} is set by the sweep (one folder per "
                        f"point); remove it from the spec")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*|ns3::[A-Za-z0-9_:]+", flag):
        raise SpecError(f"{path}: {where}: '{flag}' is not a flag name (write it without the "
                        f"leading '--')")


def _check_scalar(path, where, value):
    if isinstance(value, (dict, list)) or value is None:
        raise SpecError(f"{path}: {where}: value {json.dumps(value)} is not a string, number "
                        f"or boolean")
    if isinstance(value, float) and not math.isfinite(value):
        # JSON has no such numbers: 1e400 reads as infinity.
        raise SpecError(f"{path}: {where}: value {value!r} is not a finite number")
    if isinstance(value, str) and (value == "" or "\n" in value):
        raise SpecError(f"{path}: {where}: empty or multi-line value {json.dumps(value)}")
    if isinstance(value, str) and any(ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f for c in value):
        raise SpecError(f"{path}: {where}: value {json.dumps(value)} holds a control character")


def _refuse_constant(path, name):
    """json.loads reads NaN, Infinity and -Infinity, which JSON does not have."""
    raise SpecError(f"{path}: {name} is not a JSON number")


def load_spec(path):
    """Reads and validates a spec file (everything that needs no example run)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SpecError(f"{path}: cannot read sweep spec: {e.strerror}")
    try:
        spec = json.loads(text, parse_constant=lambda name: _refuse_constant(path, name))
    except json.JSONDecodeError as e:
        raise SpecError(f"{path}:{e.lineno}:{e.colno}: malformed JSON: {e.msg}")
    if not isinstance(spec, dict):
        raise SpecError(f"{path}: the spec must be a JSON object")
    unknown = sorted(set(spec) - SPEC_KEYS)
    if unknown:
        raise SpecError(f"{path}: unknown top-level key(s) {', '.join(unknown)}; allowed: "
                        f"{', '.join(sorted(SPEC_KEYS))}")
    for key in REQUIRED_KEYS:
        if key not in spec:
            raise SpecError(f"{path}: missing top-level key '{key}'")
    name = spec["name"]
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        raise SpecError(f"{path}: name {json.dumps(name)} must be a non-empty word of letters, "
                        f"digits, '.', '_' or '-' (it names the sweep folder)")
    if not isinstance(spec["example"], str) or not spec["example"]:
        raise SpecError(f"{path}: example must be the path of the example program")
    fixed = spec.get("fixed", {})
    if not isinstance(fixed, dict):
        raise SpecError(f"{path}: fixed must be an object {{flag: value}}")
    grid = spec["grid"]
    if not isinstance(grid, dict):
        raise SpecError(f"{path}: grid must be an object {{flag: [values...]}}")
    for flag, value in fixed.items():
        _check_flag_name(path, "fixed", flag)
        _check_scalar(path, f"fixed.{flag}", value)
    for flag, values in grid.items():
        _check_flag_name(path, "grid", flag)
        if flag in fixed:
            raise SpecError(f"{path}: flag --{flag} is both in fixed and in grid")
        if not isinstance(values, list):
            raise SpecError(f"{path}: grid.{flag} must be a list of values")
        if not values:
            raise SpecError(f"{path}: grid.{flag} has no values (an empty list gives no points)")
        seen = set()
        for value in values:
            _check_scalar(path, f"grid.{flag}", value)
            text = flag_value(value)
            if text in seen:
                raise SpecError(f"{path}: grid.{flag} lists the value {json.dumps(value)} twice")
            seen.add(text)
    timeout = spec.get("timeout_s")
    if timeout is not None and (isinstance(timeout, bool) or
                                not isinstance(timeout, (int, float)) or timeout <= 0):
        raise SpecError(f"{path}: timeout_s must be a positive number of seconds, not "
                        f"{json.dumps(timeout)}")
    spec.setdefault("fixed", {})
    return spec


def example_path(spec):
    """Absolute path of the spec's example program (relative paths are from the repo root)."""
    return os.path.normpath(os.path.join(REPO_ROOT, spec["example"]))


def example_flags(program):
    """Flags the example declares, read from its ns-3 CommandLine --PrintHelp output.

    ns-3 prints each program option as a line '    --name:  help [default]' under
    'Program Options:'. Global values (--PrintGlobals, e.g. RngRun) are accepted too.
    """
    if not os.path.isfile(program):
        raise SpecError(f"example program {program} does not exist (build it first)")
    if not os.access(program, os.X_OK):
        raise SpecError(f"example program {program} is not executable")
    flags = set()
    for option, section in (("--PrintHelp", "Program Options:"), ("--PrintGlobals", None)):
        try:
            proc = subprocess.run([program, option], cwd=REPO_ROOT, capture_output=True,
                                  text=True, timeout=HELP_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise SpecError(f"cannot run {program} {option}: {e}")
        if proc.returncode != 0:
            if option == "--PrintGlobals":
                continue  # optional: only used to allow global values such as RngRun
            raise SpecError(f"{program} {option} exited with {proc.returncode}: "
                            f"{tail(proc.stderr, 5)}")
        in_section = section is None
        for line in proc.stdout.splitlines():
            if section is not None and line.strip().endswith(":") and not line.startswith(" "):
                in_section = line.strip() == section
                continue
            match = re.match(r"\s+--([A-Za-z][A-Za-z0-9_:]*)[:=]", line)
            if in_section and match:
                flags.add(match.group(1))
        if option == "--PrintHelp" and not flags:
            raise SpecError(f"{program} --PrintHelp lists no program options; is it an ns-3 "
                            f"example using CommandLine?")
    return flags


def check_flags(spec, spec_path, known):
    """Fails naming the first flag of the spec the example does not declare."""
    program = spec["example"]
    for where in ("fixed", "grid"):
        for flag in spec[where]:
            if flag.startswith("ns3::"):
                continue  # attribute defaults: ns-3 itself checks them when the point runs
            if flag not in known:
                close = difflib.get_close_matches(flag, sorted(known), n=1)
                hint = f" (did you mean --{close[0]}?)" if close else ""
                raise SpecError(f"{spec_path}: {where}: --{flag} is not a flag of {program}"
                                f"{hint}; its flags: "
                                f"{' '.join('--' + k for k in sorted(known))}")


# ---------------------------------------------------------------------------------------------
# Points
# ---------------------------------------------------------------------------------------------


def point_hash(params):
    """Hash of a point's parameters: sha256 of their sorted, canonical JSON (string values)."""
    canonical = json.dumps(params, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:HASH_CHARS]


def expand(spec):
    """Points of the grid, in a fixed order (grid flags in spec order, last flag fastest).

    Each point is a dict: index, params {flag: text} (grid flags then fixed flags), hash.
    """
    grid_flags = list(spec["grid"])
    points = []
    for index, combo in enumerate(itertools.product(*(spec["grid"][f] for f in grid_flags))):
        params = {f: flag_value(v) for f, v in zip(grid_flags, combo)}
        for flag, value in spec["fixed"].items():
            params[flag] = flag_value(value)
        points.append({"index": index, "params": params, "hash": point_hash(params)})
    return points


def point_dir(sweep_dir, point):
    """The point's folder: its parameters, logs and done marker."""
    return os.path.join(sweep_dir, "points", point["hash"])


def output_dir(sweep_dir, point):
    """The example's --output for the point: inside point_dir, absent until the example runs."""
    return os.path.join(point_dir(sweep_dir, point), OUTPUT)


def is_done(sweep_dir, point):
    return (os.path.isfile(os.path.join(output_dir(sweep_dir, point), SUMMARY)) and
            os.path.isfile(os.path.join(point_dir(sweep_dir, point), MARKER)))


def done_exit_code(sweep_dir, point):
    """The exit code a done point's marker records (0 for a marker written before codes were)."""
    path = os.path.join(point_dir(sweep_dir, point), MARKER)
    try:
        with open(path, encoding="utf-8") as f:
            code = json.load(f).get("exit_code", EXAMPLE_COMPLETE)
    except (OSError, ValueError, AttributeError) as e:
        raise PointDataError(f"{path}: unreadable done marker: {e}")
    if code not in DONE_CODES:
        raise PointDataError(f"{path}: exit_code {code!r} is not one of a done point")
    return code


def command(program, sweep_dir, point):
    args = [program]
    args += [f"--{flag}={value}" for flag, value in point["params"].items()]
    args.append(f"--output={output_dir(sweep_dir, point)}")
    return args


def tail(text, lines):
    kept = text.rstrip("\n").splitlines()[-lines:]
    return "\n".join(kept)


def prepare_point(sweep_dir, point):
    """Empties the folder of a point that is not done, then records its parameters.

    The example's output folder is not created: the example makes it (and refuses one that
    exists and is not empty)."""
    folder = point_dir(sweep_dir, point)
    if os.path.isdir(folder):
        shutil.rmtree(folder)  # a partial run of an interrupted sweep: redo from scratch
    os.makedirs(folder)
    with open(os.path.join(folder, PARAMS_FILE), "w", encoding="utf-8") as f:
        json.dump(point["params"], f, indent=2, sort_keys=True)
        f.write("\n")


def write_marker(sweep_dir, point, wall_s, exit_code):
    folder = point_dir(sweep_dir, point)
    tmp = os.path.join(folder, MARKER + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"hash": point["hash"], "exit_code": exit_code, "wall_s": round(wall_s, 3),
                   "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")}, f)
        f.write("\n")
    os.replace(tmp, os.path.join(folder, MARKER))  # atomic: a marker is never half-written


def _die_with_parent(parent_pid):
    """In the child, before exec: ask Linux to SIGKILL it if the sweep dies, even by SIGKILL.
    If the sweep died between fork and this call, the request came too late: exit now."""
    try:
        import ctypes
        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    except (OSError, AttributeError):
        return  # not Linux: an orphan may finish, but without the marker it is redone anyway
    if os.getppid() != parent_pid:
        os._exit(1)


def format_duration(seconds):
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Runner:
    """Runs points in parallel child processes, polling them from one thread."""

    def __init__(self, program, sweep_dir, timeout_s, jobs, quiet):
        self.program = program
        self.sweep_dir = sweep_dir
        self.timeout_s = timeout_s
        self.jobs = jobs
        self.quiet = quiet
        self.running = {}  # pid -> (point, Popen, start time, stdout file, stderr file)
        self.failed = []
        self.partial = []  # done, but the example exited 3
        self.finished_walls = []

    def log(self, message):
        print(message, file=sys.stderr, flush=True)

    def start(self, point):
        prepare_point(self.sweep_dir, point)
        folder = point_dir(self.sweep_dir, point)
        out = open(os.path.join(folder, STDOUT_FILE), "wb")
        err = open(os.path.join(folder, STDERR_FILE), "wb")
        parent = os.getpid()
        preexec = (lambda: _die_with_parent(parent)) if sys.platform.startswith("linux") else None
        proc = subprocess.Popen(command(self.program, self.sweep_dir, point), cwd=REPO_ROOT,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                start_new_session=True, preexec_fn=preexec)
        self.running[proc.pid] = (point, proc, time.monotonic(), out, err)

    def kill_all(self):
        for point, proc, _, out, err in self.running.values():
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # the example and anything it started
            except ProcessLookupError:
                pass
            proc.wait()
            out.close()
            err.close()
        self.running.clear()

    def reap(self):
        """Collects finished or timed-out children; returns how many ended."""
        ended = 0
        now = time.monotonic()
        for pid in list(self.running):
            point, proc, started, out, err = self.running[pid]
            code = proc.poll()
            timed_out = False
            if code is None:
                if self.timeout_s is None or now - started < self.timeout_s:
                    continue
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                code = proc.wait()
                timed_out = True
            out.close()
            err.close()
            del self.running[pid]
            ended += 1
            wall = now - started
            self.finished_walls.append(wall)
            if code in DONE_CODES and not timed_out and os.path.isfile(
                    os.path.join(output_dir(self.sweep_dir, point), SUMMARY)):
                write_marker(self.sweep_dir, point, wall, code)
                if code == EXAMPLE_PARTIAL:
                    self.partial.append(point)
                continue
            if timed_out:
                reason = f"timed out after {self.timeout_s:g} s"
            elif code in DONE_CODES:
                reason = f"exited {code} but wrote no {SUMMARY}"
            else:
                reason = f"exit code {code}"
            self.failed.append(point)
            with open(os.path.join(point_dir(self.sweep_dir, point), STDERR_FILE),
                      encoding="utf-8", errors="replace") as f:
                stderr_tail = tail(f.read(), STDERR_TAIL_LINES)
            self.log(f"sweep: point {point['index']} ({point['hash']}) FAILED: {reason}\n"
                     f"  command: {shlex.join(command(self.program, self.sweep_dir, point))}\n"
                     f"  stderr (last {STDERR_TAIL_LINES} lines):\n"
                     + "\n".join("    " + line for line in stderr_tail.splitlines()))
        return ended

    def progress(self, done, total, todo_left, t0):
        if self.quiet:
            return
        elapsed = time.monotonic() - t0
        eta = "?"
        if self.finished_walls:
            mean = sum(self.finished_walls) / len(self.finished_walls)
            remaining = todo_left + len(self.running)
            eta = format_duration(mean * remaining / self.jobs)
        self.log(f"sweep: {done}/{total} done, {len(self.running)} running, "
                 f"{len(self.failed)} failed, elapsed {format_duration(elapsed)}, ETA {eta}")

    def run(self, points, total, already_done):
        queue = list(points)
        done = already_done
        t0 = time.monotonic()
        self.progress(done, total, len(queue), t0)
        while queue or self.running:
            while queue and len(self.running) < self.jobs:
                self.start(queue.pop(0))
            if not self.reap():
                time.sleep(POLL_INTERVAL_S)
                continue
            while queue and len(self.running) < self.jobs:
                self.start(queue.pop(0))  # refill first, so the progress line is current
            done = total - len(queue) - len(self.running) - len(self.failed)
            self.progress(done, total, len(queue), t0)
        return self.failed


# ---------------------------------------------------------------------------------------------
# Collecting results
# ---------------------------------------------------------------------------------------------


def is_scalar(value):
    return value is None or isinstance(value, (str, int, float, bool))


def csv_value(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def collect(spec, sweep_dir, points):
    """Writes <sweep_dir>/results.csv from every done point.

    Returns (rows, points not done, done points whose example exited 3).

    Columns: point, then the point's parameters (grid flags, then fixed flags), then
    exit_code (the example's: 0 complete, 3 partial), then every scalar field of the summary's
    results entries (first-seen order). A results field whose name is also a parameter (e.g.
    capabilities) or one of the sweep's columns gets the column result_<name>. One row per
    results entry: a point run with --capabilities=all gives one row per capability set.
    """
    param_cols = list(spec["grid"]) + list(spec["fixed"])
    own_cols = {"point", "exit_code"}
    result_cols = []
    rows = []
    missing = []
    partial = []
    for point in points:
        if not is_done(sweep_dir, point):
            missing.append(point)
            continue
        exit_code = done_exit_code(sweep_dir, point)
        if exit_code == EXAMPLE_PARTIAL:
            partial.append(point)
        path = os.path.join(output_dir(sweep_dir, point), SUMMARY)
        try:
            with open(path, encoding="utf-8") as f:
                summary = json.load(f)
            entries = summary["results"]
            if not isinstance(entries, list):
                raise TypeError("results is not a list")
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise PointDataError(f"{path}: cannot read results: {e}")
        for entry in entries:
            row = {"point": point["hash"]}
            row.update(point["params"])
            row["exit_code"] = exit_code
            for key, value in entry.items():
                if not is_scalar(value):
                    continue  # lists/objects do not fit a CSV cell
                col = f"result_{key}" if key in param_cols or key in own_cols else key
                if col not in result_cols:
                    result_cols.append(col)
                row[col] = csv_value(value)
            rows.append(row)
    out = os.path.join(sweep_dir, "results.csv")
    tmp = out + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, restval="", lineterminator="\n",
                                fieldnames=["point"] + param_cols + ["exit_code"] + result_cols)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, out)
    return rows, missing, partial


# ---------------------------------------------------------------------------------------------
# Slurm
# ---------------------------------------------------------------------------------------------


def slurm_script(spec_path, spec, program, sweep_dir, points):
    """A bash script: under sbatch, one array task per point; run with bash, it submits the
    array and a collect job that waits for it."""
    sweep_py = os.path.abspath(__file__)
    collect_cmd = shlex.join(["python3", sweep_py, os.path.abspath(spec_path),
                              "--out", sweep_dir, "--collect-only"])
    lines = [
        "#!/bin/bash",
        f"# Slurm job array for the wan-training sweep '{spec['name']}' "
        f"({len(points)} points), written by tools/sweep.py.",
        "#   bash THIS_FILE    submits the array and a collect job that runs after it",
        "#   sbatch THIS_FILE  submits the array only; collect afterwards with:",
        f"#     {collect_cmd}",
        f"#SBATCH --job-name=wan-sweep-{spec['name']}",
        f"#SBATCH --array=0-{len(points) - 1}",
        "#SBATCH --ntasks=1",
        "#SBATCH --cpus-per-task=1",
        f"#SBATCH --output={sweep_dir}/slurm-%A_%a.log",
    ]
    if spec.get("timeout_s"):
        minutes = max(1, int(-(-spec["timeout_s"] // 60)))
        lines.append(f"#SBATCH --time={minutes}")
    lines += [
        "set -u",
        "",
        'if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then',
        '    array_job=$(sbatch --parsable "$0") || exit 1',
        f"    sbatch --dependency=afterany:${{array_job%%;*}} --job-name=wan-sweep-collect "
        f"--output={shlex.quote(sweep_dir)}/slurm-collect-%j.log --wrap "
        f"{shlex.quote(collect_cmd)}",
        "    exit $?",
        "fi",
        "",
        f"cd {shlex.quote(REPO_ROOT)} || exit 1",
        "# Same done-marker rule as a local run: a finished point is not run again; exit 0",
        f"# (complete) and {EXAMPLE_PARTIAL} (partial) with {SUMMARY} make a point done.",
        "run_point() {",
        '    local dir=$1; shift',
        f'    if [ -f "$dir/{OUTPUT}/{SUMMARY}" ] && [ -f "$dir/{MARKER}" ]; then',
        '        echo "point $dir already done"; return 0',
        "    fi",
        '    rm -rf "$dir" && mkdir -p "$dir" || return 1',
        "    local start=$SECONDS code=0",
        f'    "$@" >"$dir/{STDOUT_FILE}" 2>"$dir/{STDERR_FILE}" || code=$?',
        f'    if [ $code -ne {EXAMPLE_COMPLETE} ] && [ $code -ne {EXAMPLE_PARTIAL} ]; then',
        f'        tail -n {STDERR_TAIL_LINES} "$dir/{STDERR_FILE}" >&2; return $code',
        "    fi",
        f'    [ -f "$dir/{OUTPUT}/{SUMMARY}" ] || {{ echo "no {SUMMARY} in $dir/{OUTPUT}" >&2; '
        "return 1; }",
        f"    printf '{{\"hash\": \"%s\", \"exit_code\": %d, \"wall_s\": %d, "
        f"\"finished\": \"%s\"}}\\n' "
        f'"$(basename "$dir")" $code $((SECONDS - start)) "$(date +%Y-%m-%dT%H:%M:%S%z)" '
        f'>"$dir/{MARKER}.tmp" && mv -f "$dir/{MARKER}.tmp" "$dir/{MARKER}"',
        "}",
        "",
        'case "$SLURM_ARRAY_TASK_ID" in',
    ]
    for point in points:
        cmd = command(program, sweep_dir, point)
        lines.append(f"{point['index']}) run_point {shlex.quote(point_dir(sweep_dir, point))} "
                     f"{shlex.join(cmd)} ;;")
    lines += [
        '*) echo "no point $SLURM_ARRAY_TASK_ID in this sweep" >&2; exit 1 ;;',
        "esac",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Run a wan-training example over a grid of flags (see doc/tools.rst).")
    parser.add_argument("spec", help="sweep spec (JSON)")
    parser.add_argument("--out", metavar="DIR",
                        help="sweep folder: new, empty, or an earlier run of this sweep to "
                             "resume (default: a new results/sweep/<name>/<UTC stamp>)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help="points run in parallel (default: number of CPUs)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true",
                      help="list the points and their command lines; run nothing")
    mode.add_argument("--collect-only", action="store_true",
                      help="only (re)write results.csv from the points already done "
                           "(needs --out)")
    mode.add_argument("--slurm", metavar="FILE",
                      help="write a Slurm job-array script for the sweep; run nothing")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("-j must be at least 1")
    if args.collect_only and not args.out:
        parser.error("--collect-only needs --out DIR, the folder of the sweep to collect")
    return args


def check_sweep_folder(path, spec):
    """Whether an explicit --out resumes (True) or starts (False) a sweep there.

    A folder that exists and is not empty must be this sweep's (its SWEEP_MARKER names the
    spec's name); anything else is refused (results_dir.ResultsError)."""
    if not os.path.lexists(path) or (os.path.isdir(path) and not os.listdir(path)):
        return False
    marker = os.path.join(path, SWEEP_MARKER)
    if not os.path.isfile(marker):
        results_dir.check_explicit_out(path)  # a file, or a folder with other content
        raise results_dir.ResultsError(f"{path}: not a sweep folder (no {SWEEP_MARKER})")
    try:
        with open(marker, encoding="utf-8") as f:
            name = json.load(f)["sweep"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise results_dir.ResultsError(f"{marker}: unreadable: {e}")
    if name != spec["name"]:
        raise results_dir.ResultsError(f"{path} is the folder of the sweep '{name}', not of "
                                       f"'{spec['name']}'; name another folder")
    return True


def make_sweep_folder(args, spec, link):
    """Creates (or reopens, to resume) the sweep folder. A default folder is new, and
    results/latest is linked to it when link is true; an explicit --out never touches
    results/latest (as the examples' --output). Returns (absolute path, resumed)."""
    if args.out:
        sweep_dir = os.path.abspath(args.out)
        resumed = check_sweep_folder(sweep_dir, spec)
        os.makedirs(sweep_dir, exist_ok=True)
    else:
        sweep_dir = results_dir.new_run_dir(f"sweep/{spec['name']}")
        resumed = False
    if not resumed:
        tmp = os.path.join(sweep_dir, SWEEP_MARKER + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"sweep": spec["name"],
                       "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, f)
            f.write("\n")
        os.replace(tmp, os.path.join(sweep_dir, SWEEP_MARKER))
    if link and not args.out:
        results_dir.link_latest(sweep_dir)
    return sweep_dir, resumed


def report_partial(partial):
    if partial:
        print(f"sweep: {len(partial)} point(s) partial (exit {EXAMPLE_PARTIAL}: results "
              f"written, some rounds or peers missing; exit_code {EXAMPLE_PARTIAL} in "
              f"results.csv): {', '.join(str(p['index']) for p in partial)}", file=sys.stderr)


def main(argv=None, link=True):
    """The command; link=False leaves results/latest alone (a caller such as corpus.py that
    runs the sweep inside its own results folder links that instead)."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        spec = load_spec(args.spec)
        program = example_path(spec)
        points = expand(spec)
        if not args.collect_only:
            check_flags(spec, args.spec, example_flags(program))
    except SpecError as e:
        print(f"sweep: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT

    try:
        if args.dry_run or args.collect_only:
            # Nothing is created: an explicit folder must still pass the rule.
            sweep_dir = os.path.abspath(args.out) if args.out else None
            if sweep_dir and not check_sweep_folder(sweep_dir, spec) and args.collect_only:
                raise results_dir.ResultsError(f"{sweep_dir}: no sweep to collect")
        else:
            sweep_dir, resumed = make_sweep_folder(args, spec, link)
    except (results_dir.ResultsError, OSError) as e:
        print(f"sweep: error: {e}", file=sys.stderr)
        return EXIT_FOLDER_REFUSED

    if args.dry_run:
        shown = sweep_dir or os.path.join(results_dir.default_root(), "sweep", spec["name"],
                                          "STAMP")
        for point in points:
            state = "done" if sweep_dir and is_done(sweep_dir, point) else "todo"
            print(f"{point['index']}\t{point['hash']}\t{state}\t"
                  f"{shlex.join(command(program, shown, point))}")
        print(f"sweep: {len(points)} points (dry run, nothing run)", file=sys.stderr)
        return EXIT_OK

    if args.slurm:
        with open(args.slurm, "w", encoding="utf-8") as f:
            f.write(slurm_script(args.spec, spec, program, sweep_dir, points))
        os.chmod(args.slurm, 0o755)
        print(f"sweep: wrote {args.slurm}: {len(points)} array tasks into {sweep_dir}; submit "
              f"with 'bash {args.slurm}' (array + collect job)", file=sys.stderr)
        return EXIT_OK

    if args.collect_only:
        try:
            rows, missing, partial = collect(spec, sweep_dir, points)
        except PointDataError as e:
            print(f"sweep: error: {e}", file=sys.stderr)
            return EXIT_POINT_FAILED
        print(f"sweep: {os.path.join(sweep_dir, 'results.csv')}: {len(rows)} rows from "
              f"{len(points) - len(missing)}/{len(points)} points"
              + (f"; not done: {len(missing)}" if missing else ""), file=sys.stderr)
        report_partial(partial)
        return EXIT_POINT_FAILED if missing else EXIT_OK

    os.makedirs(os.path.join(sweep_dir, "points"), exist_ok=True)
    shutil.copyfile(args.spec, os.path.join(sweep_dir, "spec.json"))
    todo = [p for p in points if not is_done(sweep_dir, p)]
    already = len(points) - len(todo)
    if not args.quiet:
        print(f"sweep: {spec['name']}: {len(points)} points, {already} already done, "
              f"{len(todo)} to run with -j {args.jobs}; folder {sweep_dir}"
              + (" (resumed)" if resumed else ""), file=sys.stderr)

    runner = Runner(program, sweep_dir, spec.get("timeout_s"), args.jobs, args.quiet)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        failed = runner.run(todo, len(points), already)
    except KeyboardInterrupt:
        runner.kill_all()
        resume = ["python3", os.path.abspath(__file__), args.spec, "--out", sweep_dir]
        print(f"sweep: interrupted; finished points are kept, the others run when resumed: "
              f"{shlex.join(resume)}", file=sys.stderr)
        return EXIT_INTERRUPTED

    try:
        rows, missing, partial = collect(spec, sweep_dir, points)
    except PointDataError as e:
        print(f"sweep: error: {e}", file=sys.stderr)
        return EXIT_POINT_FAILED
    print(f"sweep: wrote {os.path.join(sweep_dir, 'results.csv')} ({len(rows)} rows from "
          f"{len(points) - len(missing)} points)", file=sys.stderr)
    report_partial(partial)
    if failed:
        indices = sorted(p['index'] for p in failed)  # completion order varies with -j
        print(f"sweep: {len(failed)} point(s) failed: "
              f"{', '.join(str(i) for i in indices)}", file=sys.stderr)
        return EXIT_POINT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. --dry-run | head
        sys.stderr.close()
        sys.exit(EXIT_OK)
