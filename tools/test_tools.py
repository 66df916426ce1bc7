"""Tests of tools/sweep.py and tools/plot.py, using tools/fake-experiment.py as the example.

Run from the repository root:  python3 -m unittest discover -s tools -p 'test_*.py'
"""

import csv
import hashlib
import glob
import importlib.util
import json
import math
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

TOOLS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TOOLS)
SWEEP = os.path.join(TOOLS, "sweep.py")
PLOT = os.path.join(TOOLS, "plot.py")
FAKE = os.path.join(TOOLS, "fake-experiment.py")
FIDELITY = os.path.join(TOOLS, "fidelity.py")
BUFFER_SENSITIVITY = os.path.join(TOOLS, "buffer-sensitivity.py")
BUFFER_SPEC = os.path.join(REPO, "examples", "sweeps", "buffer-sensitivity.json")
FAKE_RELATIVE = "tools/fake-experiment.py"  # specs name examples relative to the repo root

CAPS = ["none", "multicast", "fpga", "both"]
MODEL_BYTES = [1000000, 4000000]
SCHEDULES = ["global", "optimal", "moshpit"]
POINTS = len(CAPS) * len(MODEL_BYTES) * len(SCHEDULES)  # 24
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_SCREEN_PX = (1600, 1000)  # round-breakdown.png and link-utilisation.png fit one screen
TCP_VARIANTS = ["tcp-ring (TcpCubic x1)", "tcp-ring (TcpCubic x8)", "tcp-ring (TcpBbr x1)",
                "tcp-ring (TcpBbr x8)"]
WAIT_LIMIT_S = 120  # only a guard against a hung sweep; nothing asserts on time


def spec_24(example=None, **extra):
    spec = {"name": "fake24", "example": example or FAKE_RELATIVE,
            "fixed": {"rounds": 2, "payload": "real", "baselines": "false",
                      "colocated": "false"},
            "grid": {"capabilities": CAPS, "modelBytes": MODEL_BYTES, "schedule": SCHEDULES}}
    spec.update(extra)
    return spec


def png_info(path):
    """(width, height, panels) of a PNG written by plot.py: the size from its IHDR chunk, the
    panels from its "wan-training panels" text chunk (a JSON list of {title, rows, legend})."""
    with open(path, "rb") as f:
        data = f.read()
    assert data.startswith(PNG_SIGNATURE), path
    pos, size, panels = len(PNG_SIGNATURE), None, None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"tEXt":
            key, _, text = body.partition(b"\0")
            if key == b"wan-training panels":
                panels = json.loads(text.decode("latin-1"))
        pos += 12 + length
    return size[0], size[1], panels


def best_tcp_of(entries):
    """The fastest TCP ring to epsilon, found here without best_tcp or gain_over."""
    return min((e for e in entries if e["transport"] == "tcp"),
               key=lambda e: e["time_to_epsilon_s"])


def expected_hash(params):
    """The documented point hash, computed here independently of sweep.py."""
    text = json.dumps({k: str(v) for k, v in params.items()}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def find_example(name="nine-city-training"):
    """The built example: $WAN_NINE_CITY_TRAINING (ctest passes it), else build/ or build-test/.

    Returns None when none is built (the tests against it are then skipped); a path given in
    the environment that is not a program is returned as is, so the test fails naming it."""
    given = os.environ.get("WAN_NINE_CITY_TRAINING")
    if given:
        return os.path.abspath(given)
    for build in ("build", "build-test"):
        path = os.path.join(REPO, build, "examples", name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def load_tool(name, path):
    """A program of tools/ as a module (it may import the others from tools/)."""
    spec = importlib.util.spec_from_file_location(name, path)
    sys.path.insert(0, TOOLS)
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(TOOLS)
    return module


def module_transports():
    """tools/fidelity.py's TRANSPORTS (the runs its --run makes, in order)."""
    return load_tool("fidelity", FIDELITY).TRANSPORTS


def matplotlib_available():
    for python in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(python) and subprocess.run(
                [python, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            return True
    return False


def nine_city_topology():
    cities = [("NYC", 40.7128, -74.0060), ("LAX", 34.0522, -118.2437), ("LON", 51.5074, -0.1278),
              ("AMS", 52.3676, 4.9041), ("FRA", 50.1109, 8.6821), ("TYO", 35.6762, 139.6503),
              ("SEO", 37.5665, 126.9780), ("SIN", 1.3521, 103.8198),
              ("BUE", -34.6037, -58.3816)]
    links = ["SEO-TYO", "TYO-LAX", "TYO-SIN", "SIN-LAX", "SIN-FRA", "LAX-NYC", "NYC-BUE",
             "NYC-LON", "LON-AMS", "LON-FRA", "AMS-FRA"]
    return {"cities": [{"code": c, "name": c, "latitude": la, "longitude": lo}
                       for c, la, lo in cities],
            "links": [{"a": link.split("-")[0], "b": link.split("-")[1]} for link in links]}


class ToolTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wan-tools-test-")
        self.counter = os.path.join(self.tmp, "runs.txt")
        self.results_root = os.path.join(self.tmp, "results")
        self.env = dict(os.environ, FAKE_EXPERIMENT_SLEEP="0.05",
                        FAKE_EXPERIMENT_COUNTER=self.counter, RESULTS=self.results_root)
        self.env.pop("FAKE_EXPERIMENT_EXIT", None)
        # The fake through this interpreter directly: a pyenv shim on PATH costs seconds per
        # start on a loaded machine. Specs also accept absolute example paths.
        self.example = os.path.join(self.tmp, "fake-example")
        with open(self.example, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n')
        os.chmod(self.example, 0o755)

    def spec(self, **extra):
        """The 24-point spec, run through the fast wrapper."""
        return spec_24(example=self.example, **extra)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write_spec(self, spec, text=None):
        path = os.path.join(self.tmp, "spec.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text if text is not None else json.dumps(spec, indent=1))
        return path

    def sweep(self, spec_path, *args, out=None):
        """Runs the sweep into out (default: tmp/sweep; False: the sweep's default folder)."""
        out = os.path.join(self.tmp, "sweep") if out is None else out
        where = ["--out", out] if out else []
        return subprocess.run([sys.executable, SWEEP, spec_path, *where, *args],
                              capture_output=True, text=True, env=self.env, cwd=self.tmp,
                              timeout=WAIT_LIMIT_S)

    def markers(self, out):
        points = os.path.join(out, "points")
        if not os.path.isdir(points):
            return {}
        found = {}
        for name in os.listdir(points):
            marker = os.path.join(points, name, "sweep-done.json")
            if os.path.isfile(marker):
                found[name] = os.stat(marker).st_mtime_ns
        return found

    def live_examples(self, out):
        """Processes whose command line names the sweep folder (Linux /proc)."""
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if out.encode() + b"/points/" in f.read():
                        found.append(pid)
            except OSError:
                pass  # ended meanwhile
        return found

    def runs(self):
        if not os.path.exists(self.counter):
            return []
        with open(self.counter, encoding="utf-8") as f:
            return f.read().split()

    def results(self, out):
        with open(os.path.join(out, "results.csv"), newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))

    def marker(self, out, point):
        with open(os.path.join(out, "points", point, "sweep-done.json"), encoding="utf-8") as f:
            return json.load(f)


class SweepTest(ToolTestCase):
    def test_full_sweep_one_row_per_point(self):
        out = os.path.join(self.tmp, "sweep")
        proc = self.sweep(self.write_spec(self.spec()), "-j", "2")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = self.results(out)
        self.assertEqual(len(rows), POINTS)
        self.assertEqual(len(self.runs()), POINTS)
        self.assertEqual(len(self.markers(out)), POINTS)
        # Parameter columns first (grid then fixed), then the summary's scalar fields; fields
        # named like a parameter are prefixed result_.
        header = list(rows[0])
        self.assertEqual(header[:9], ["point", "capabilities", "modelBytes", "schedule",
                                      "rounds", "payload", "baselines", "colocated",
                                      "exit_code"])
        for column in ("result_capabilities", "result_schedule", "mean_round_s",
                       "mean_sync_s", "rounds_to_epsilon"):
            self.assertIn(column, header)
        self.assertNotIn("cliques_per_round", header)  # a list, not a scalar
        combos = {(r["capabilities"], r["modelBytes"], r["schedule"]) for r in rows}
        self.assertEqual(combos, {(c, str(m), s) for c in CAPS for m in MODEL_BYTES
                                  for s in SCHEDULES})
        for row in rows:
            self.assertEqual(row["result_capabilities"], row["capabilities"])
            params = {"capabilities": row["capabilities"], "modelBytes": row["modelBytes"],
                      "schedule": row["schedule"], "rounds": 2, "payload": "real",
                      "baselines": "false", "colocated": "false"}
            self.assertEqual(row["point"], expected_hash(params))
            self.assertEqual(row["exit_code"], "0")
            self.assertEqual(self.marker(out, row["point"])["exit_code"], 0)
            self.assertTrue(os.path.isfile(os.path.join(out, "points", row["point"], "output",
                                                        "summary.json")))
        # A second run finds everything done and runs nothing.
        proc = self.sweep(self.write_spec(self.spec()), "-j", "2")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(self.runs()), POINTS)

    def test_capabilities_all_gives_one_row_per_set(self):
        spec = self.spec(grid={"capabilities": ["all"], "modelBytes": MODEL_BYTES})
        out = os.path.join(self.tmp, "sweep")
        proc = self.sweep(self.write_spec(spec), "-j", "2")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = self.results(out)
        self.assertEqual(len(rows), 2 * len(CAPS))
        self.assertEqual(sorted(r["result_capabilities"] for r in rows), sorted(CAPS * 2))
        self.assertEqual({r["capabilities"] for r in rows}, {"all"})

    def test_killed_sweep_resumes_without_rerunning_finished_points(self):
        out = os.path.join(self.tmp, "sweep")
        spec_path = self.write_spec(self.spec())
        self.env["FAKE_EXPERIMENT_SLEEP"] = "0.3"
        cmd = [sys.executable, SWEEP, spec_path, "--out", out, "-j", "2", "--quiet"]

        def check_resumed(done_before, runs_before):
            """Points done before this run kept their marker and did not run again."""
            done_now, runs_now = self.markers(out), self.runs()
            for point, mtime in done_before.items():
                self.assertEqual(done_now[point], mtime, f"point {point} was redone")
                self.assertEqual(runs_now.count(point), runs_before.count(point),
                                 f"point {point} ran again")

        # SIGTERM at about a quarter (the sweep stops its examples, exit 130), then SIGKILL
        # at about half (the examples die with it), then a run to the end.
        done_before, runs_before = {}, []
        for sig, target in ((signal.SIGTERM, POINTS // 4), (signal.SIGKILL, POINTS // 2)):
            proc = subprocess.Popen(cmd, env=self.env, cwd=self.tmp, stderr=subprocess.PIPE,
                                    text=True)
            deadline = time.monotonic() + WAIT_LIMIT_S
            while len(self.markers(out)) < target and proc.poll() is None:
                self.assertLess(time.monotonic(), deadline, "sweep made no progress")
                time.sleep(0.02)
            proc.send_signal(sig)
            _, stderr = proc.communicate(timeout=WAIT_LIMIT_S)
            if sig == signal.SIGTERM:
                self.assertEqual(proc.returncode, 130, stderr)
                self.assertIn("interrupted", stderr)
            else:
                self.assertEqual(proc.returncode, -signal.SIGKILL)
            if os.path.isdir("/proc"):  # a loaded machine may take a moment to end them
                deadline = time.monotonic() + 10
                while self.live_examples(out) and time.monotonic() < deadline:
                    time.sleep(0.05)
                self.assertEqual(self.live_examples(out), [], f"examples outlived {sig!r}")
            check_resumed(done_before, runs_before)
            done_before, runs_before = self.markers(out), self.runs()
            self.assertGreaterEqual(len(done_before), target)
            self.assertLess(len(done_before), POINTS, "the sweep finished before the kill")

        proc = subprocess.run(cmd, env=self.env, cwd=self.tmp, capture_output=True, text=True,
                              timeout=WAIT_LIMIT_S)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        check_resumed(done_before, runs_before)
        self.assertEqual(len(self.markers(out)), POINTS)
        self.assertEqual(set(self.runs()), set(self.markers(out)))
        self.assertEqual(len(self.results(out)), POINTS)

    def test_exit_codes_partial_collected_failures_reported(self):
        # First matching rule wins: multicast ends partial (3), fpga is refused (1), both
        # crashes (SIGABRT) after writing, none with 4 MB writes everything and exits 2.
        self.env["FAKE_EXPERIMENT_EXIT"] = ("capabilities=multicast:3 capabilities=fpga:1 "
                                            "capabilities=both:abort modelBytes=4000000:2")
        out = os.path.join(self.tmp, "sweep")
        spec = self.spec(grid={"capabilities": CAPS, "modelBytes": MODEL_BYTES})
        proc = self.sweep(self.write_spec(spec), "-j", "2")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stderr.count("FAILED: exit code 1\n"), 2)  # fpga
        self.assertEqual(proc.stderr.count(f"FAILED: exit code {-signal.SIGABRT}\n"), 2)
        self.assertEqual(proc.stderr.count("FAILED: exit code 2\n"), 1)  # none, 4 MB
        self.assertIn("fake failure requested by FAKE_EXPERIMENT_EXIT", proc.stderr)
        self.assertIn("5 point(s) failed: 1, 4, 5, 6, 7", proc.stderr)
        # Point indices: capabilities (slow) x modelBytes (fast); multicast is 2 and 3.
        self.assertIn("2 point(s) partial (exit 3", proc.stderr)
        self.assertRegex(proc.stderr, r"partial .*: 2, 3\n")
        rows = self.results(out)
        got = sorted((r["capabilities"], r["modelBytes"], r["exit_code"], r["lost_peers"])
                     for r in rows)
        self.assertEqual(got, [("multicast", "1000000", "3", "1"),
                               ("multicast", "4000000", "3", "1"),
                               ("none", "1000000", "0", "0")])
        self.assertEqual({self.marker(out, p)["exit_code"] for p in self.markers(out)}, {0, 3})
        self.assertEqual(len(self.markers(out)), 3)
        # Resumed: the failed points run again, the done ones (partial included) do not.
        runs_before = self.runs()
        del self.env["FAKE_EXPERIMENT_EXIT"]
        proc = self.sweep(self.write_spec(spec), "-j", "2")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rerun = self.runs()[len(runs_before):]
        done_first = {r["point"] for r in rows}
        self.assertEqual(len(rerun), 5)
        self.assertFalse(done_first & set(rerun), "a done point ran again")
        rows = self.results(out)
        self.assertEqual(len(rows), len(CAPS) * len(MODEL_BYTES))
        self.assertEqual(sorted(r["exit_code"] for r in rows), ["0"] * 6 + ["3"] * 2)

    def test_timeout_fails_the_point(self):
        self.env["FAKE_EXPERIMENT_SLEEP"] = "30"
        spec = self.spec(grid={"seed": [1]}, timeout_s=0.5)
        proc = self.sweep(self.write_spec(spec))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("timed out after 0.5 s", proc.stderr)
        self.assertEqual(self.markers(os.path.join(self.tmp, "sweep")), {})

    def assert_rejected_before_running(self, proc, *needles):
        self.assertEqual(proc.returncode, 2, proc.stderr)
        for needle in needles:
            self.assertIn(needle, proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "sweep")))
        self.assertEqual(self.runs(), [])

    def test_malformed_spec_names_file_and_line(self):
        text = '{"name": "x", "example": "tools/fake-experiment.py",\n' \
               ' "grid": {"seed": [1, 2]}\n' \
               ' "fixed": {}}\n'
        path = self.write_spec(None, text)
        self.assert_rejected_before_running(self.sweep(path), f"{path}:3:", "malformed JSON")

    def test_numbers_json_does_not_have_and_control_characters(self):
        # Python's json reads NaN and Infinity, and 1e400 as infinity; none is a JSON number.
        for text, message in (
                ('{"name": "x", "example": "x", "grid": {"lossRate": [NaN]}}',
                 "NaN is not a JSON number"),
                ('{"name": "x", "example": "x", "grid": {"lossRate": [-Infinity]}}',
                 "-Infinity is not a JSON number"),
                ('{"name": "x", "example": "x", "grid": {"modelBytes": [1e400]}}',
                 "grid.modelBytes: value inf is not a finite number"),
                ('{"name": "x", "example": "x", "grid": {"topology": ["a\\u001bb"]}}',
                 'grid.topology: value "a\\u001bb" holds a control character')):
            self.assert_rejected_before_running(self.sweep(self.write_spec(None, text)), message)

    def test_unknown_top_level_key(self):
        spec = spec_24()
        spec["grids"] = {}
        self.assert_rejected_before_running(self.sweep(self.write_spec(spec)),
                                            "unknown top-level key(s) grids")

    def test_empty_grid_values(self):
        spec = spec_24(grid={"capabilities": CAPS, "schedule": []})
        self.assert_rejected_before_running(self.sweep(self.write_spec(spec)),
                                            "grid.schedule has no values")

    def test_unknown_flag_is_named(self):
        spec = spec_24(grid={"capabilites": CAPS})
        self.assert_rejected_before_running(self.sweep(self.write_spec(spec)),
                                            "--capabilites is not a flag of",
                                            "did you mean --capabilities?")

    def test_output_flag_is_reserved(self):
        spec = spec_24(fixed={"output": "x"})
        self.assert_rejected_before_running(self.sweep(self.write_spec(spec)),
                                            "--output is set by the sweep")

    def test_missing_example(self):
        spec = spec_24(example="build/examples/no-such-example")
        self.assert_rejected_before_running(self.sweep(self.write_spec(spec)),
                                            "does not exist")

    def test_dry_run_lists_points_and_runs_nothing(self):
        proc = self.sweep(self.write_spec(spec_24()), "--dry-run")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(len(lines), POINTS)
        self.assertEqual([line.split("\t")[0] for line in lines],
                         [str(i) for i in range(POINTS)])
        first = {"capabilities": "none", "modelBytes": 1000000, "schedule": "global",
                 "rounds": 2, "payload": "real", "baselines": "false", "colocated": "false"}
        self.assertEqual(lines[0].split("\t")[1], expected_hash(first))
        self.assertIn("--capabilities=none --modelBytes=1000000 --schedule=global", lines[0])
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "sweep")))
        self.assertEqual(self.runs(), [])

    def test_sample_spec_capabilities_has_24_points(self):
        spec = importlib.util.spec_from_file_location("sweep", SWEEP)
        sweep = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sweep)
        sample = sweep.load_spec(os.path.join(REPO, "examples", "sweeps", "capabilities.json"))
        points = sweep.expand(sample)
        self.assertEqual(len(points), 24)
        self.assertEqual(len({p["hash"] for p in points}), 24)
        self.assertEqual({p["params"]["capabilities"] for p in points}, set(CAPS))
        self.assertEqual(sample["fixed"]["rounds"], 2)

    def test_slurm_script(self):
        out = os.path.join(self.tmp, "sweep")
        script = os.path.join(self.tmp, "sweep.slurm")
        spec_path = self.write_spec(self.spec())
        proc = self.sweep(spec_path, "--slurm", script)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(script, encoding="utf-8") as f:
            text = f.read()
        self.assertIn(f"#SBATCH --array=0-{POINTS - 1}\n", text)
        self.assertIn("--collect-only", text)
        self.assertEqual(sum(1 for line in text.splitlines() if " run_point " in line), POINTS)
        self.assertEqual(subprocess.run(["bash", "-n", script]).returncode, 0)
        self.assertEqual(self.runs(), [])
        # Play Slurm for array task 5, twice: the second time the point is already done. It
        # ends partial (exit 3): done, and its exit code collected.
        env = dict(self.env, SLURM_ARRAY_TASK_ID="5", FAKE_EXPERIMENT_EXIT="schedule=moshpit:3")
        for _ in range(2):
            task = subprocess.run(["bash", script], env=env, capture_output=True, text=True,
                                  timeout=WAIT_LIMIT_S)
            self.assertEqual(task.returncode, 0, task.stderr)
        self.assertEqual(len(self.runs()), 1)
        proc = self.sweep(spec_path, "--collect-only")
        self.assertEqual(proc.returncode, 1)  # 23 points are not done yet
        rows = self.results(out)
        self.assertEqual(len(rows), 1)
        # Point 5: capabilities none, modelBytes 4000000 (index 1), schedule moshpit (index 2).
        self.assertEqual((rows[0]["capabilities"], rows[0]["modelBytes"], rows[0]["schedule"],
                          rows[0]["exit_code"]), ("none", "4000000", "moshpit", "3"))
        # A done point whose summary.json is corrupt failed, like a point that failed to run:
        # exit 1, not the bad-spec 2, with the file named.
        summaries = glob.glob(os.path.join(out, "points", "*", "output", "summary.json"))
        self.assertEqual(len(summaries), 1)
        with open(summaries[0], "w", encoding="utf-8") as f:
            f.write("{\"results\": ")
        proc = self.sweep(spec_path, "--collect-only")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn(f"{summaries[0]}: cannot read results", proc.stderr)
        # A task whose example fails leaves no marker and exits with the example's code.
        env = dict(self.env, SLURM_ARRAY_TASK_ID="6", FAKE_EXPERIMENT_EXIT="schedule=global:2")
        task = subprocess.run(["bash", script], env=env, capture_output=True, text=True,
                              timeout=WAIT_LIMIT_S)
        self.assertEqual(task.returncode, 2, task.stderr)
        self.assertIn("fake exit 2 requested", task.stderr)
        self.assertEqual(len(self.markers(out)), 1)


STAMP_RE = r"[0-9]{8}T[0-9]{6}Z(-[0-9]+)?"


class ResultsRuleTest(ToolTestCase):
    """The results folder rule (doc/tools.rst, "Where results go"), with RESULTS=tmp/results."""

    def small_spec(self):
        return self.spec(grid={"capabilities": ["none", "both"]})

    def latest(self):
        return os.path.join(self.results_root, "latest")

    def assert_latest(self, folder):
        """results/latest is a relative link whose target is folder."""
        self.assertTrue(os.path.islink(self.latest()), "results/latest is not a link")
        target = os.readlink(self.latest())
        self.assertFalse(os.path.isabs(target), target)
        self.assertEqual(os.path.realpath(os.path.join(self.results_root, target)),
                         os.path.realpath(folder))
        self.assertFalse(os.path.lexists(self.latest() + ".tmp"))

    def test_default_folder_is_stamped_and_linked(self):
        spec_path = self.write_spec(self.small_spec())
        parent = os.path.join(self.results_root, "sweep", "fake24")
        folders = []
        for _ in range(2):
            proc = self.sweep(spec_path, "-j", "2", out=False)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            new = sorted(set(os.listdir(parent)) - set(folders))
            self.assertEqual(len(new), 1, new)
            folders += new
            self.assertRegex(new[0], "^" + STAMP_RE + "$")
            self.assertEqual(len(self.results(os.path.join(parent, new[0]))), 2)
            self.assert_latest(os.path.join(parent, new[0]))
            self.assertEqual(os.readlink(self.latest()), f"sweep/fake24/{new[0]}")
        self.assertEqual(len(self.runs()), 4)  # a new default folder is a new sweep
        # Resumed through the link itself: latest still names the folder, not itself.
        proc = self.sweep(spec_path, out=self.latest())
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("(resumed)", proc.stderr)
        self.assert_latest(os.path.join(parent, folders[-1]))
        self.assertEqual(len(self.runs()), 4)

    def test_latest_as_a_folder_is_refused_and_kept(self):
        os.makedirs(self.latest())
        with open(os.path.join(self.latest(), "rounds.csv"), "w", encoding="utf-8") as f:
            f.write("old\n")
        proc = self.sweep(self.write_spec(self.small_spec()), out=False)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn(f"{self.latest()} is a folder, not a link", proc.stderr)
        self.assertEqual(os.listdir(self.latest()), ["rounds.csv"])
        self.assertFalse(os.path.exists(os.path.join(self.results_root, "sweep")))
        self.assertEqual(self.runs(), [])

    def test_explicit_folder_must_be_new_empty_or_this_sweeps(self):
        spec_path = self.write_spec(self.small_spec())
        used = os.path.join(self.tmp, "used")
        os.makedirs(used)
        with open(os.path.join(used, "notes.txt"), "w", encoding="utf-8") as f:
            f.write("mine\n")
        proc = self.sweep(spec_path, out=used)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn(f"{used} exists and is not empty", proc.stderr)
        self.assertEqual(os.listdir(used), ["notes.txt"])
        # An empty folder is taken; a folder of another sweep is refused, even to resume.
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        proc = self.sweep(spec_path, out=empty)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.isfile(os.path.join(empty, "sweep-folder.json")))
        other = self.small_spec()
        other["name"] = "other"
        proc = self.sweep(self.write_spec(other), out=empty)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("is the folder of the sweep 'fake24', not of 'other'", proc.stderr)
        self.assertEqual(len(self.runs()), 2)
        # An explicit folder leaves results/latest alone, even inside the results root.
        inside = os.path.join(self.results_root, "mine")
        proc = self.sweep(spec_path, out=inside)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(self.results(inside)), 2)
        self.assertFalse(os.path.lexists(self.latest()))

    def test_points_get_fresh_output_folders(self):
        # The fake refuses a used --output, as the examples do: a point whose output folder
        # held files from an interrupted run still runs, because the sweep empties it.
        out = os.path.join(self.tmp, "sweep")
        spec_path = self.write_spec(self.small_spec())
        self.assertEqual(self.sweep(spec_path, "--dry-run").returncode, 0)
        proc = self.sweep(spec_path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        point = sorted(self.markers(out))[0]
        os.remove(os.path.join(out, "points", point, "sweep-done.json"))  # as if killed
        proc = self.sweep(spec_path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.runs().count(point), 2)
        self.assertEqual(len(self.runs()), 3)

    def test_results_dir_helper(self):
        env = dict(self.env)
        new = [sys.executable, os.path.join(TOOLS, "results_dir.py"), "new", "main"]
        made = []
        for _ in range(3):
            proc = subprocess.run(new, capture_output=True, text=True, env=env)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            made.append(proc.stdout.strip())
        for folder in made:
            self.assertEqual(os.path.dirname(folder), os.path.join(self.results_root, "main"))
            self.assertTrue(os.path.isdir(folder))
        self.assertEqual(len(set(made)), 3)
        self.assert_latest(made[-1])
        # Three runs within a few seconds: if two share a second, the later gets -2.
        stamps = [os.path.basename(f) for f in made]
        for stamp in stamps:
            self.assertRegex(stamp, "^" + STAMP_RE + "$")
            if "-" in stamp:
                self.assertIn(stamp.rsplit("-", 1)[0], stamps)
        # A stale latest.tmp (a run killed between link and rename) does not block the next.
        os.symlink("main/nowhere", self.latest() + ".tmp")
        proc = subprocess.run(new, capture_output=True, text=True, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assert_latest(proc.stdout.strip())
        # check-out: a missing or empty folder passes, a used one is refused.
        check = [sys.executable, os.path.join(TOOLS, "results_dir.py"), "check-out"]
        self.assertEqual(subprocess.run(check + [os.path.join(self.tmp, "nope")]).returncode, 0)
        proc = subprocess.run(check + [made[0]], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)  # made, still empty
        proc = subprocess.run(check + [self.results_root], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("exists and is not empty", proc.stderr)

    def run_main_tree(self):
        """A copy of the repository's shape in which run-main.sh runs the fake example and
        stub install, build and plot steps."""
        tree = os.path.join(self.tmp, "repo")
        os.makedirs(os.path.join(tree, "tools"))
        os.makedirs(os.path.join(tree, "build", "examples"))
        for name in ("run-main.sh", "results_dir.py"):
            shutil.copy(os.path.join(TOOLS, name), os.path.join(tree, "tools", name))
        stubs = {"tools/install-deps.sh": "#!/bin/sh\nexit 0\n",
                 "tools/build.sh": "#!/bin/sh\nexit 0\n",
                 "tools/plot.py": "import sys\nopen(sys.argv[2] + '/plotted', 'w').close()\n",
                 "build/examples/nine-city-training":
                     f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n'}
        for name, text in stubs.items():
            with open(os.path.join(tree, name), "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(os.path.join(tree, name), 0o755)
        return tree

    def test_run_main_writes_main_stamp_and_links_latest(self):
        tree = self.run_main_tree()
        env = dict(self.env, MODEL_BYTES="1000000", JOBS="1", FAKE_EXPERIMENT_SLEEP="0")
        del env["RESULTS"]  # the default: results/ in the repository
        main = os.path.join(tree, "results", "main")
        latest = os.path.join(tree, "results", "latest")
        stamps = []
        for rule, status in (("", 0), ("payload=virtual:3", 3)):
            env["FAKE_EXPERIMENT_EXIT"] = rule
            proc = subprocess.run(["bash", os.path.join(tree, "tools", "run-main.sh")],
                                  capture_output=True, text=True, env=env, cwd=self.tmp,
                                  timeout=WAIT_LIMIT_S)
            self.assertEqual(proc.returncode, status, proc.stderr)
            new = sorted(set(os.listdir(main)) - set(stamps))
            self.assertEqual(len(new), 1, new)
            newest = new[0]
            stamps.append(newest)
            self.assertRegex(newest, "^" + STAMP_RE + "$")
            for run in ("virtual", "real"):  # a partial run does not stop the other
                folder = os.path.join(main, newest, run)
                self.assertTrue(os.path.isfile(os.path.join(folder, "summary.json")), folder)
                self.assertTrue(os.path.isfile(os.path.join(folder, "plotted")), folder)
            self.assertEqual(os.readlink(latest), f"main/{newest}")
        self.assertIn("the virtual run exited 3", proc.stderr)
        # The old layout's results/latest folder stops the command before anything runs.
        os.remove(latest)
        os.makedirs(latest)
        proc = subprocess.run(["bash", os.path.join(tree, "tools", "run-main.sh")],
                              capture_output=True, text=True, env=env, timeout=WAIT_LIMIT_S)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("latest is a folder, not a link", proc.stderr)
        self.assertEqual(len(os.listdir(main)), 2)
        self.assertEqual(os.listdir(latest), [])

    def test_same_second_gets_a_suffix(self):
        spec = importlib.util.spec_from_file_location("results_dir",
                                                      os.path.join(TOOLS, "results_dir.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        now = 1700000000  # 2023-11-14 22:13:20 UTC
        first = module.new_run_dir("x", self.results_root, now)
        second = module.new_run_dir("x", self.results_root, now)
        self.assertEqual(os.path.basename(first), "20231114T221320Z")
        self.assertEqual(os.path.basename(second), "20231114T221320Z-2")

    def test_fake_default_output_follows_the_rule(self):
        proc = subprocess.run([sys.executable, FAKE, "--rounds=1"], capture_output=True,
                              text=True, env=self.env, cwd=self.tmp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        runs = os.listdir(os.path.join(self.tmp, "results", "nine-city-training"))
        self.assertEqual(len(runs), 1)
        self.assert_latest(os.path.join(self.results_root, "nine-city-training", runs[0]))


class FidelityTest(ToolTestCase):
    """tools/fidelity.py's table, against rows the test computes from rounds.csv itself."""

    HEADER = ("transport", "capabilities", "schedule", "sim_s", "est_s", "exch_s", "bound_s",
              "sim/est-1", "exch/bound", "resends")

    def make_run(self, *flags, env=None, name="run"):
        out = os.path.join(self.tmp, name)
        proc = subprocess.run([sys.executable, FAKE, f"--output={out}", "--capabilities=all",
                               "--schedule=moshpit", "--rounds=3", *flags], capture_output=True,
                              text=True, env=env or self.env, cwd=REPO)
        self.assertIn(proc.returncode, (0, 3), proc.stderr)
        # An island name that needs RFC 4180 quoting, as the examples write it.
        path = os.path.join(out, "rounds.csv")
        with open(path, newline="", encoding="utf-8") as f:
            table = list(csv.reader(f))
        island = table[0].index("island")
        for row in table[1:]:
            if row[island] == "NYC":
                row[island] = 'New York, "NYC"'
        with open(path, "w", newline="", encoding="utf-8") as f:
            csv.writer(f, lineterminator="\n").writerows(table)
        return out

    def expected(self, out):
        """One row of HEADER per set: the simulated figures from rounds.csv (the exchange of
        a clique-round: its last sync end - its first sync start, over the clique-rounds every
        member finished), the estimate and the bound from summary.json; a run's warm-up rounds
        (summary.json's warmup_rounds) left out."""
        with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
            summary = json.load(f)["results"]
        warmups = {entry["capabilities"]: entry["warmup_rounds"] for entry in summary}
        with open(os.path.join(out, "rounds.csv"), newline="", encoding="utf-8") as f:
            table = list(csv.reader(f))
        col = {name: i for i, name in enumerate(table[0])}
        syncs, resends, windows = {}, {}, {}
        for row in table[1:]:
            self.assertEqual(len(row), len(table[0]))
            key = row[col["capabilities"]]
            if int(row[col["round"]]) < warmups[key]:
                continue
            resends[key] = resends.get(key, 0) + int(row[col["retransmissions"]])
            window = windows.setdefault((key, row[col["round"]], row[col["clique"]]),
                                        [len(row[col["members"]].split()), []])
            if row[col["sync_end_s"]]:
                start, end = float(row[col["sync_start_s"]]), float(row[col["sync_end_s"]])
                syncs.setdefault(key, []).append(end - start)
                window[1].append((start, end))
        exchanges = {}
        for (key, _, _), (members, times) in windows.items():
            if members > 1 and len(times) == members:
                exchanges.setdefault(key, []).append(max(e for _, e in times) -
                                                     min(b for b, _ in times))
        rows = []
        for entry in summary:
            key = entry["capabilities"]
            sync = sum(syncs[key]) / len(syncs[key])
            est = entry["estimated_sync_s"]
            exch = sum(exchanges[key]) / len(exchanges[key])
            bound = entry["exchange_bound_s"]
            rows.append((entry["transport"], key, entry["schedule_detail"], f"{sync:.4f}",
                         f"{est:.4f}", f"{exch:.4f}", f"{bound:.4f}",
                         f"{100 * (sync - est) / est:+.3f}%", f"{exch / bound:.3f}",
                         str(resends[key])))
        return rows

    def worst_line(self, rows):
        """The script's line for one transport's rows, computed from them."""
        worst = max(rows, key=lambda r: abs(float(r[7][:-1])))
        ratios = [float(r[8]) for r in rows]
        return (f"{rows[0][0]}: largest |sim/est-1| {abs(float(worst[7][:-1])):.3f}% "
                f"({worst[1]}, {worst[2]}); exch/bound {min(ratios):.3f} to {max(ratios):.3f}.")

    def table(self, stdout):
        """The cells of the printed RST table, read by the columns its rules mark."""
        lines = stdout.splitlines()
        rule = lines[0]
        self.assertRegex(rule, r"^=+(  =+)*$")
        spans = [(m.start(), m.end()) for m in re.finditer("=+", rule)]
        self.assertEqual([lines[0], lines[2]], [rule, rule])
        end = lines.index(rule, 3)
        cells = []
        for line in lines[1:2] + lines[3:end]:
            for (_, stop), (start, _) in zip(spans, spans[1:]):
                self.assertEqual(line[stop:start].strip(), "", f"text between columns: {line}")
            self.assertLessEqual(len(line), spans[-1][1], f"text past the last column: {line}")
            cells.append(tuple(line[a:b].strip() for a, b in spans))
        return cells, lines[end + 1:]

    def fidelity(self, *args):
        return subprocess.run([sys.executable, FIDELITY, *args], capture_output=True, text=True,
                              env=self.env, cwd=self.tmp, timeout=WAIT_LIMIT_S)

    def test_table_rows_from_the_csv(self):
        out = self.make_run("--lossRate=0.01")
        expected = self.expected(out)
        self.assertEqual(len(expected), len(CAPS))
        self.assertNotEqual({r[5] for r in expected}, {"0"})  # resends are summed, not 0
        proc = self.fidelity(out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        cells, after = self.table(proc.stdout)
        self.assertEqual(cells[0], self.HEADER)
        self.assertEqual(cells[1:], expected)
        self.assertEqual(after, ["", self.worst_line(expected)])

    def test_one_row_per_transport_and_set_with_a_line_per_transport(self):
        planned = self.make_run("--transport=planned", name="planned")
        tcp = self.make_run("--transport=tcp", name="tcp")
        expected_planned, expected_tcp = self.expected(planned), self.expected(tcp)
        self.assertEqual({r[0] for r in expected_planned}, {"planned"})
        self.assertEqual({r[0] for r in expected_tcp}, {"tcp"})
        proc = self.fidelity(planned, tcp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        cells, after = self.table(proc.stdout)
        self.assertEqual(cells[1:], expected_planned + expected_tcp)
        self.assertEqual(after, ["", self.worst_line(expected_planned),
                                 self.worst_line(expected_tcp)])

    def set_in_summary(self, out, key, value):
        """Set key of summary.json's first results entry in the run folder out."""
        path = os.path.join(out, "summary.json")
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
        summary["results"][0][key] = value
        with open(path, "w", encoding="utf-8") as f:
            json.dump(summary, f)

    def test_an_entry_without_a_bound_shows_dashes(self):
        out = self.make_run()
        self.set_in_summary(out, "exchange_bound_s", None)
        proc = self.fidelity(out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        cells, _ = self.table(proc.stdout)
        self.assertEqual(cells[1][6:9], ("-", cells[1][7], "-"))
        self.set_in_summary(out, "exchange_bound_s", "fast")
        proc = self.fidelity(out)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("malformed exchange_bound_s: 'fast'", proc.stderr)

    def test_partial_run_counts_finished_rows_and_exits_3(self):
        env = dict(self.env, FAKE_EXPERIMENT_EXIT="capabilities=all:3")
        out = self.make_run(env=env)
        proc = self.fidelity(out)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("partial", proc.stderr)
        cells, _ = self.table(proc.stdout)
        self.assertEqual(cells[1:], self.expected(out))

    def test_lost_peers_make_a_run_partial(self):
        # Every round finished, but an entry says it lost a peer (complete false): partial.
        out = self.make_run()
        self.set_in_summary(out, "complete", False)
        proc = self.fidelity(out)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("partial", proc.stderr)

    def test_a_sync_time_that_is_not_a_number_is_an_error(self):
        out = self.make_run()
        path = os.path.join(out, "rounds.csv")
        with open(path, newline="", encoding="utf-8") as f:
            table = list(csv.reader(f))
        table[1][table[0].index("sync_end_s")] = "nan"
        with open(path, "w", newline="", encoding="utf-8") as f:
            csv.writer(f, lineterminator="\n").writerows(table)
        proc = self.fidelity(out)
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn("rounds.csv:2: malformed row", proc.stderr)
        self.assertIn("not a finite time", proc.stderr)

    def test_summary_disagreeing_with_the_csv_is_an_error(self):
        out = self.make_run()
        path = os.path.join(out, "summary.json")
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
        summary["results"][1]["mean_sync_s"] += 1e-6
        with open(path, "w", encoding="utf-8") as f:
            json.dump(summary, f)
        proc = self.fidelity(out)
        self.assertEqual(proc.returncode, 1)
        self.assertIn(f"{out}: multicast / moshpit: mean sync", proc.stderr)
        self.assertEqual(proc.stdout, "")
        proc = self.fidelity(os.path.join(self.tmp, "nowhere"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("nowhere/summary.json: No such file", proc.stderr)

    def test_run_follows_the_results_rule(self):
        proc = self.fidelity("--run", "--example", self.example)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        runs = os.listdir(os.path.join(self.results_root, "fidelity"))
        self.assertEqual(len(runs), 1)
        folder = os.path.join(self.results_root, "fidelity", runs[0])
        self.assertEqual(os.readlink(os.path.join(self.results_root, "latest")),
                         f"fidelity/{runs[0]}")
        cells, _ = self.table(proc.stdout)
        self.assertEqual(sorted(os.listdir(folder)), sorted(module_transports()))
        self.assertEqual(cells[1:], [row for transport in module_transports()
                                     for row in self.expected(os.path.join(folder, transport))])
        proc = self.fidelity("--run", "--example", self.example, "--out", folder)
        self.assertEqual(proc.returncode, 1)
        self.assertIn(f"{folder} exists and is not empty", proc.stderr)
        self.assertEqual(len(self.runs()), len(module_transports()))  # one run per transport

    def test_doc_shows_the_scripts_command_and_output(self):
        module = load_tool("fidelity", FIDELITY)
        with open(os.path.join(REPO, "doc", "wan-training.rst"), encoding="utf-8") as f:
            doc = f.read()
        section = doc[doc.index("\nFidelity\n========\n"):doc.index("\nSpeed\n=====\n")]
        command = re.search(r"build/examples/nine-city-training ((?:.|\\\n)*?)--transport",
                            section)
        self.assertIsNotNone(command, "the doc's command")
        self.assertEqual(command.group(1).replace("\\\n", " ").split(), module.FLAGS)
        self.assertIn("tools/fidelity.py", section)
        # The pasted table is well-formed output of the script: its header and rules.
        cells, after = self.table(section[re.search(r"^=+  =+", section, re.M).start():])
        self.assertEqual(cells[0], self.HEADER)
        self.assertEqual([c[0] for c in cells[1:]],
                         [t for t in module.TRANSPORTS for _ in CAPS])  # 4 sets per transport
        for transport, line in zip(module.TRANSPORTS, after[1:]):
            self.assertTrue(line.startswith(f"{transport}: largest |sim/est-1| "), after)


class FakeExperimentTest(ToolTestCase):
    """The stand-in writes the lead's format: TCP rings once on the passive WAN, warm rounds,
    gains over the best TCP ring, --queue."""

    def run_fake(self, *flags, name="exp"):
        out = os.path.join(self.tmp, name)
        proc = subprocess.run([sys.executable, FAKE, f"--output={out}", *flags],
                              capture_output=True, text=True, env=self.env, cwd=REPO)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
            summary = json.load(f)
        with open(os.path.join(out, "rounds.csv"), newline="", encoding="utf-8") as f:
            rounds = list(csv.DictReader(f))
        return summary, rounds

    def test_tcp_once_on_the_passive_wan_with_warm_rounds_and_gains(self):
        summary, rounds = self.run_fake("--capabilities=both", "--baselineTransports=tcp",
                                        "--rounds=3", "--baselineRounds=3")
        entries = summary["results"]
        self.assertEqual([(e["capabilities"], e["schedule"], e["transport"]) for e in entries],
                         [("both", s, "planned") for s in ("optimal", "global", "ring")] +
                         [("none", v, "tcp") for v in TCP_VARIANTS] +
                         [("colocated", "ring", "planned")])
        self.assertEqual(summary["config"]["queue"], "50ms")
        best = best_tcp_of(entries)
        self.assertEqual([e["schedule"] for e in entries if e.get("best_tcp") is True],
                         [best["schedule"]])
        for entry in entries:
            # Round times from rounds.csv: last sync end - first compute start of each round.
            times = {}
            for row in rounds:
                if (row["capabilities"], row["schedule"]) == (entry["capabilities"],
                                                              entry["schedule"]):
                    span = times.setdefault(int(row["round"]), [math.inf, 0.0])
                    span[0] = min(span[0], float(row["compute_start_s"]))
                    span[1] = max(span[1], float(row["sync_end_s"]))
            times = [end - start for _, (start, end) in sorted(times.items())]
            # TCP runs its warm-up round in addition to the rounds asked for.
            self.assertEqual(len(times), 3 + (entry["transport"] == "tcp"))
            if entry["transport"] == "tcp":
                self.assertIn("best_tcp", entry)
                self.assertEqual(entry["warmup_rounds"], 1)
                self.assertAlmostEqual(entry["first_round_s"], times[0], places=6)
                self.assertGreater(times[0], max(times[1:]))  # the cold round is the slowest
                self.assertAlmostEqual(entry["mean_round_s"], sum(times[1:]) / 3, places=6)
                self.assertEqual(entry["gain_over"], {})
            else:
                self.assertNotIn("best_tcp", entry)
                self.assertEqual((entry["warmup_rounds"], entry["first_round_s"]), (0, None))
                self.assertAlmostEqual(entry["mean_round_s"], sum(times) / 3, places=6)
                self.assertEqual(entry["gain_over"], {
                    "tcp": best["time_to_epsilon_s"] / entry["time_to_epsilon_s"]})
                self.assertEqual(entry["gain_over_label"], {"tcp": best["schedule"]})
            self.assertAlmostEqual(entry["time_to_epsilon_s"],
                                   entry["rounds_to_epsilon"] * entry["mean_round_s"])

    def test_queue_slows_tcp_and_is_checked(self):
        tcp = {}
        for queue in ("1ms", "bdp", "100p", "12MB", ""):
            summary, _ = self.run_fake("--capabilities=none", "--baselineTransports=tcp",
                                       f"--queue={queue}", name=f"q{queue}")
            self.assertEqual(summary["config"]["queue"], queue)
            tcp[queue] = {e["schedule"]: e["mean_round_s"] for e in summary["results"]
                          if e["transport"] == "tcp"}
        for variant in TCP_VARIANTS:
            self.assertGreater(tcp["1ms"][variant], tcp["bdp"][variant], variant)
        proc = subprocess.run([sys.executable, FAKE, f"--output={self.tmp}/bad", "--queue=lots"],
                              capture_output=True, text=True, env=self.env, cwd=REPO)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("--queue=lots: expected", proc.stderr)


@unittest.skipUnless(matplotlib_available(), "matplotlib is not installed")
class BufferSensitivityTest(ToolTestCase):
    """tools/buffer-sensitivity.py: the shipped spec through sweep.py with the fake example,
    its Markdown table against numbers this test reads from each point's summary.json."""

    def run_script(self, *args):
        return subprocess.run([sys.executable, BUFFER_SENSITIVITY, *args], capture_output=True,
                              text=True, env=self.env, cwd=self.tmp, timeout=WAIT_LIMIT_S)

    def expected_rows(self, out):
        """The table's rows, from the points' parameters and summary.json: the optimal entry
        of the point's set; the TCP ring with the smallest time to epsilon; the ratio."""
        with open(BUFFER_SPEC, encoding="utf-8") as f:
            grid = json.load(f)["grid"]
        rows = []
        for point in os.listdir(os.path.join(out, "points")):
            folder = os.path.join(out, "points", point)
            with open(os.path.join(folder, "sweep-params.json"), encoding="utf-8") as f:
                params = json.load(f)
            with open(os.path.join(folder, "output", "summary.json"), encoding="utf-8") as f:
                entries = json.load(f)["results"]
            optimal, = [e for e in entries if e["schedule"] == "optimal" and
                        e["capabilities"] == params["capabilities"]]
            best = best_tcp_of(entries)
            gain = best["time_to_epsilon_s"] / optimal["time_to_epsilon_s"]
            rows.append([params["capabilities"], params["modelBytes"], params["queue"],
                         f"{optimal['mean_round_s']:.3f}", best["schedule"],
                         f"{best['mean_round_s']:.3f}", f"{best['first_round_s']:.3f}",
                         f"{gain:.1f}x"])
        rows.sort(key=lambda r: (grid["capabilities"].index(r[0]),
                                 [str(m) for m in grid["modelBytes"]].index(r[1]),
                                 grid["queue"].index(r[2])))
        return rows

    def table(self, text):
        lines = [line for line in text.splitlines() if line.startswith("|")]
        self.assertRegex(lines[1], r"^\|[-:|]+\|$")
        return [[c.strip() for c in line.strip("|").split("|")] for line in lines[:1] + lines[2:]]

    def test_spec_is_the_documented_grid(self):
        sweep = load_tool("sweep", SWEEP)  # sweep.py imports results_dir
        sample = sweep.load_spec(BUFFER_SPEC)
        self.assertEqual(sample["grid"], {"queue": ["1ms", "10ms", "50ms", "bdp"],
                                          "capabilities": ["none", "both"],
                                          "modelBytes": [100000000, 1000000000]})
        fixed = {k: sweep.flag_value(v) for k, v in sample["fixed"].items()}
        for flag, value in (("schedule", "optimal"), ("baselineTransports", "tcp"),
                            ("mtu", "64000"), ("rounds", "2"), ("baselineRounds", "2")):
            self.assertEqual(fixed[flag], value, flag)
        self.assertEqual(len(sweep.expand(sample)), 16)

    def test_table_and_figure_from_the_fake(self):
        out = os.path.join(self.tmp, "bs")
        proc = self.run_script("--example", self.example, "--out", out, "-j", "2")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out, "buffer-sensitivity.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(proc.stdout, text)  # printed and written
        cells = self.table(text)
        self.assertEqual(cells[0], ["capabilities", "model (bytes)", "queue",
                                    "optimal (s/round)", "best TCP ring", "TCP (s/round, warm)",
                                    "TCP cold round (s)", "gain over best TCP"])
        expected = self.expected_rows(out)
        self.assertEqual(len(expected), 16)
        self.assertEqual(cells[1:], expected)
        # The fake's TCP suffers from small buffers: the gain falls from 1ms to bdp.
        for caps in ("none", "both"):
            for size in ("100000000", "1000000000"):
                gains = [float(r[7][:-1]) for r in expected if r[:2] == [caps, size]]
                self.assertGreater(gains[0], gains[-1], (caps, size))
        width, height, panels = png_info(os.path.join(out, "buffer-sensitivity.png"))
        self.assertLessEqual(width, MAX_SCREEN_PX[0])
        self.assertLessEqual(height, MAX_SCREEN_PX[1])
        self.assertEqual(len(panels), 1)
        self.assertEqual(panels[0]["legend"], ["none, model 100 MB", "none, model 1 GB",
                                               "both, model 100 MB", "both, model 1 GB"])
        # Again from the folder alone: the same table, nothing run.
        runs = len(self.runs())
        os.remove(os.path.join(out, "buffer-sensitivity.png"))
        proc = self.run_script("--table-only", "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, text)
        self.assertTrue(os.path.isfile(os.path.join(out, "buffer-sensitivity.png")))
        self.assertEqual(len(self.runs()), runs)

    def test_bad_spec_makes_no_folder(self):
        spec = os.path.join(self.tmp, "spec.json")
        with open(BUFFER_SPEC, encoding="utf-8") as f:
            data = json.load(f)
        data["grid"]["queu"] = data["grid"].pop("queue")
        with open(spec, "w", encoding="utf-8") as f:
            json.dump(data, f)
        proc = self.run_script("--spec", spec, "--example", self.example)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("--queu is not a flag", proc.stderr)
        self.assertFalse(os.path.exists(self.results_root))


REAL_EXAMPLE = find_example()


@unittest.skipUnless(REAL_EXAMPLE, "nine-city-training is not built (tools/build.sh release or "
                                   "test), and WAN_NINE_CITY_TRAINING is not set")
class RealExampleSweepTest(ToolTestCase):
    """The shipped spec against the real nine-city-training, with small models: killed
    mid-way (SIGKILL), resumed, then compared with an uninterrupted run."""

    KILL_AFTER = 6  # done points before the kill (of 24)

    def shipped_spec(self):
        with open(os.path.join(REPO, "examples", "sweeps", "capabilities.json"),
                  encoding="utf-8") as f:
            spec = json.load(f)
        spec["example"] = REAL_EXAMPLE
        spec["grid"]["modelBytes"] = [100000, 200000]  # tiny: each point is a fraction of 1 s
        return spec

    def point_files(self, out):
        """Per done point: (inode, mtime) of its marker, stdout log and summary.json."""
        found = {}
        for point in self.markers(out):
            folder = os.path.join(out, "points", point)
            found[point] = [(os.stat(p).st_ino, os.stat(p).st_mtime_ns) for p in (
                os.path.join(folder, "sweep-done.json"), os.path.join(folder, "sweep-stdout.log"),
                os.path.join(folder, "output", "summary.json"))]
        return found

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()

    def test_shipped_spec_killed_and_resumed_equals_uninterrupted(self):
        self.assertTrue(os.access(REAL_EXAMPLE, os.X_OK), f"{REAL_EXAMPLE} is not a program")
        spec_path = self.write_spec(self.shipped_spec())
        reference = os.path.join(self.tmp, "reference")
        proc = self.sweep(spec_path, "-j", "2", "--quiet", out=reference)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        expected = self.results(reference)
        self.assertEqual(len(expected), 24)
        self.assertEqual({r["exit_code"] for r in expected}, {"0"})
        self.assertEqual({r["result_capabilities"] for r in expected}, set(CAPS))

        out = os.path.join(self.tmp, "resumed")
        cmd = [sys.executable, SWEEP, spec_path, "--out", out, "-j", "2", "--quiet"]
        proc = subprocess.Popen(cmd, env=self.env, cwd=self.tmp, stderr=subprocess.PIPE)
        deadline = time.monotonic() + WAIT_LIMIT_S
        while len(self.markers(out)) < self.KILL_AFTER and proc.poll() is None:
            self.assertLess(time.monotonic(), deadline, "sweep made no progress")
            time.sleep(0.01)
        proc.kill()
        proc.communicate(timeout=WAIT_LIMIT_S)
        self.assertEqual(proc.returncode, -signal.SIGKILL)
        deadline = time.monotonic() + 10  # the examples die with the sweep (parent-death signal)
        while self.live_examples(out) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(self.live_examples(out), [], "examples outlived the killed sweep")
        done_before = self.point_files(out)
        self.assertGreaterEqual(len(done_before), self.KILL_AFTER)
        self.assertLess(len(done_before), 24, "the sweep finished before the kill")

        proc = self.sweep(spec_path, "-j", "2", out=out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(f"{len(done_before)} already done", proc.stderr)
        self.assertIn("(resumed)", proc.stderr)
        done_after = self.point_files(out)
        for point, files in done_before.items():
            self.assertEqual(done_after[point], files, f"point {point} ran again after it was done")
        self.assertEqual(len(done_after), 24)
        # Same seed, same flags: the collected table and every point's files are identical.
        self.assertEqual(self.read(os.path.join(out, "results.csv")),
                         self.read(os.path.join(reference, "results.csv")))
        for row in expected:
            for name in ("rounds.csv", "links.csv"):
                self.assertEqual(
                    self.read(os.path.join(out, "points", row["point"], "output", name)),
                    self.read(os.path.join(reference, "points", row["point"], "output", name)),
                    f"{name} of point {row['point']}")

    def test_real_exit_codes_are_recorded(self):
        # 0: a complete run; 3: stopped by --maxSimTime (results written, partial); 1: a bad
        # flag value, refused before anything runs.
        spec = {"name": "codes", "example": REAL_EXAMPLE,
                "fixed": {"capabilities": "both", "schedule": "global", "modelBytes": 100000,
                          "computeTime": "10ms", "baselines": "false", "colocated": "false"},
                "grid": {"rounds": [0, 1], "maxSimTime": ["15ms", "1000s"]}}
        out = os.path.join(self.tmp, "sweep")
        proc = self.sweep(self.write_spec(spec), "-j", "2")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stderr.count("FAILED: exit code 1\n"), 2, proc.stderr)
        self.assertIn("--rounds=0: must be in", proc.stderr)
        self.assertIn("2 point(s) failed: 0, 1", proc.stderr)
        self.assertIn("1 point(s) partial (exit 3", proc.stderr)
        rows = self.results(out)
        got = sorted((r["maxSimTime"], r["exit_code"], r["complete"]) for r in rows)
        self.assertEqual(got, [("1000s", "0", "true"), ("15ms", "3", "false")])


@unittest.skipUnless(matplotlib_available(), "matplotlib is not installed")
@unittest.skipUnless(REAL_EXAMPLE, "nine-city-training is not built (tools/build.sh release or "
                                   "test), and WAN_NINE_CITY_TRAINING is not set")
class RealExampleCorpusTest(unittest.TestCase):
    """tools/corpus.py against the real programs: one 3-city ring, its three schedules, each
    over every capability set --capabilities=all runs (six: it once counted four and failed
    every corpus), and its arguments checked before any folder is made."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wan-corpus-test-")
        self.build = os.path.dirname(os.path.dirname(REAL_EXAMPLE))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def corpus(self, out, *flags):
        return subprocess.run([sys.executable, os.path.join(TOOLS, "corpus.py"), "--build",
                               self.build, "--out", out, "--families", "ring", *flags],
                              capture_output=True, text=True, check=False)

    def test_every_run_counted_and_passing(self):
        run = self.corpus(os.path.join(self.tmp, "c"), "--sizes", "3", "--seeds", "1",
                          "--model-bytes", "100000", "-j", "2")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        # 1 topology x 3 schedules x 6 capability sets.
        self.assertEqual(run.stdout.strip().splitlines()[-1], "corpus: 18 passed, 0 failed")

    def test_arguments_checked_first(self):
        for flags, message in ((["--sizes", "1"], "--sizes: each must be 2 to 1024 cities"),
                               (["--seeds", "0"], "--seeds: each must be 1 to 4294944442"),
                               (["--mtu", "100"], "--mtu: must be 1280 to 65535"),
                               (["--model-bytes", "0"], "--model-bytes: must be at least 1"),
                               (["-j", "0"], "--jobs: must be at least 1")):
            out = os.path.join(self.tmp, "bad")
            run = self.corpus(out, *flags)
            self.assertEqual(run.returncode, 2, flags)
            self.assertIn(message, run.stderr)
            self.assertNotIn("Traceback", run.stderr)
            self.assertFalse(os.path.exists(out), flags)


class PlotTest(ToolTestCase):
    def run_fake(self, out, *flags):
        topology = os.path.join(self.tmp, "topology.json")
        with open(topology, "w", encoding="utf-8") as f:
            json.dump(nine_city_topology(), f)
        proc = subprocess.run([sys.executable, FAKE, f"--output={out}",
                               f"--topology={topology}", "--rounds=4", *flags],
                              capture_output=True, text=True, env=self.env, cwd=REPO)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def plot(self, *args):
        return subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True,
                              cwd=self.tmp, timeout=WAIT_LIMIT_S)

    def assert_png(self, path):
        self.assertTrue(os.path.isfile(path), path)
        with open(path, "rb") as f:
            data = f.read()
        self.assertTrue(data.startswith(PNG_SIGNATURE), path)
        self.assertGreater(len(data), 1000, path)

    def test_experiment_figures(self):
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out, "--capabilities=all", "--payload=real", "--schedule=moshpit")
        figures = os.path.join(self.tmp, "figures")
        proc = self.plot("experiment", out, "--out", figures)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for name in ("round-breakdown.png", "consensus.png", "link-utilisation.png"):
            self.assert_png(os.path.join(figures, name))

    def test_virtual_mode_has_no_consensus_figure(self):
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out, "--capabilities=both")
        proc = self.plot("experiment", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assert_png(os.path.join(out, "round-breakdown.png"))
        self.assert_png(os.path.join(out, "link-utilisation.png"))
        self.assertFalse(os.path.exists(os.path.join(out, "consensus.png")))
        self.assertIn("virtual payload mode", proc.stderr)

    def test_malformed_rows_are_errors(self):
        # A row of other width than the header, and a utilisation that is not a number, once
        # passed (the figures drawn, exit 0).
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out, "--capabilities=both")
        rounds = os.path.join(out, "rounds.csv")
        with open(rounds, encoding="utf-8") as f:
            good = f.read()
        with open(rounds, "a", encoding="utf-8") as f:
            f.write("garbage,row\n")
        proc = self.plot("experiment", out)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        lines = good.count("\n") + 1
        self.assertIn(f"rounds.csv:{lines}: ", proc.stderr)
        self.assertIn("columns in the header, not in this row", proc.stderr)
        with open(rounds, "w", encoding="utf-8") as f:
            f.write(good)
        links = os.path.join(out, "links.csv")
        with open(links, encoding="utf-8") as f:
            table = f.read().splitlines()
        cells = table[1].split(",")
        cells[-1] = "nan"
        table[1] = ",".join(cells)
        with open(links, "w", encoding="utf-8") as f:
            f.write("\n".join(table) + "\n")
        proc = self.plot("experiment", out)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("links.csv: utilisation 'nan' is not a number", proc.stderr)

    def test_a_partial_result_is_marked_on_its_bar(self):
        # An entry whose rounds did not all finish (complete false) was drawn like any other.
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out, "--capabilities=both")
        plot = load_tool("plot", PLOT)
        rows, _ = plot.read_csv(os.path.join(out, "rounds.csv"))
        summary = plot.read_json(os.path.join(out, "summary.json"))
        summary["results"][0]["complete"] = False
        cut = (summary["results"][0]["capabilities"], summary["results"][0]["schedule"])
        panels, _ = plot.breakdown_panels(rows, summary)
        labels = {(caps, bar["label"]) for caps, bars in panels for bar in bars}
        partial = {label for label in labels if label[1].endswith(" (partial)")}
        self.assertEqual(partial, {(cut[0], f"{cut[1]} (partial)")})

    def test_a_topology_without_links(self):
        # "links" is optional in a topology file: one city with two islands has none.
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out, "--capabilities=both")
        topology = os.path.join(self.tmp, "one-city.json")
        with open(topology, "w", encoding="utf-8") as f:
            json.dump({"cities": [{"code": "NYC", "latitude": 40.7, "longitude": -74.0}]}, f)
        with open(os.path.join(out, "links.csv"), "w", encoding="utf-8") as f:
            f.write("capabilities,schedule,link,from,to,bytes,utilisation\n")
        proc = self.plot("experiment", out, "--topology", topology)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assert_png(os.path.join(out, "round-breakdown.png"))
        self.assertIn("no WAN links: no link-utilisation.png", proc.stderr)

    def test_an_output_that_cannot_be_written_is_an_error(self):
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out, "--capabilities=both")
        afile = os.path.join(self.tmp, "afile")
        with open(afile, "w", encoding="utf-8") as f:
            f.write("x")
        for where in (afile, os.path.join(afile, "below")):
            proc = self.plot("experiment", out, "--out", where)
            self.assertEqual(proc.returncode, 1, where)
            self.assertIn("plot: error: cannot write", proc.stderr)
            self.assertNotIn("Traceback", proc.stderr)

    def test_missing_inputs_are_clear_errors(self):
        proc = self.plot("experiment", os.path.join(self.tmp, "nowhere"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("experiment output folder not found", proc.stderr)
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out)
        os.remove(os.path.join(out, "links.csv"))
        proc = self.plot("experiment", out)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("links.csv: file not found", proc.stderr)
        out = os.path.join(self.tmp, "exp2")  # the fake, as the examples, refuses a used folder
        self.run_fake(out)
        proc = self.plot("experiment", out, "--topology", os.path.join(self.tmp, "none.json"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("none.json not found", proc.stderr)
        proc = self.plot("sweep", os.path.join(self.tmp, "results.csv"), "--x", "a", "--y", "b")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("results.csv: file not found", proc.stderr)

    def test_main_command_figures_fit_one_screen(self):
        # The main command's shape: all four sets, the optimiser with the global and ring
        # baselines, the TCP ring once on the passive WAN as four variants, colocated.
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out, "--capabilities=all", "--baselineTransports=tcp",
                      "--baselineRounds=2", "--modelBytes=1000000000", "--mtu=64000")
        with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
            entries = json.load(f)["results"]
        best = best_tcp_of(entries)["schedule"]
        figures = os.path.join(self.tmp, "figures")
        proc = self.plot("experiment", out, "--out", figures)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # round-breakdown.png: one panel per set, each with the optimiser, the two baselines,
        # the best TCP ring only (named by its variant) and the colocated reference.
        width, height, panels = png_info(os.path.join(figures, "round-breakdown.png"))
        self.assertLessEqual(width, MAX_SCREEN_PX[0], "round-breakdown.png")
        self.assertLessEqual(height, MAX_SCREEN_PX[1], "round-breakdown.png")
        self.assertEqual([p["title"] for p in panels], [f"capabilities: {c}" for c in CAPS])
        for panel in panels:
            self.assertEqual(panel["rows"], ["optimal", "global", "ring", f"{best}, best of 4",
                                             "colocated / ring"], panel["title"])
        # link-utilisation.png: the optimiser's map of each set, on one page.
        width, height, panels = png_info(os.path.join(figures, "link-utilisation.png"))
        self.assertLessEqual(width, MAX_SCREEN_PX[0], "link-utilisation.png")
        self.assertLessEqual(height, MAX_SCREEN_PX[1], "link-utilisation.png")
        self.assertEqual([p["title"] for p in panels],
                         [f"capabilities / schedule: {c} / optimal" for c in CAPS])
        # link-utilisation-all.png: every other WAN run (not the colocated reference).
        _, _, panels = png_info(os.path.join(figures, "link-utilisation-all.png"))
        self.assertEqual(sorted(p["title"] for p in panels),
                         sorted([f"capabilities / schedule: {c} / {s}" for c in CAPS
                                 for s in ("global", "ring")] +
                                [f"capabilities / schedule: none / {v}" for v in TCP_VARIANTS]))

    def test_one_set_with_tcp_on_the_passive_wan(self):
        # --capabilities=both: the TCP rings still run on none, which gets no panel or map of
        # its own; the best one is compared in the both panel.
        out = os.path.join(self.tmp, "exp")
        self.run_fake(out, "--capabilities=both", "--baselineTransports=tcp", "--queue=1ms")
        with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
            best = best_tcp_of(json.load(f)["results"])["schedule"]
        proc = self.plot("experiment", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        _, _, panels = png_info(os.path.join(out, "round-breakdown.png"))
        self.assertEqual([(p["title"], p["rows"]) for p in panels],
                         [("capabilities: both", ["optimal", "global", "ring",
                                                  f"{best}, best of 4", "colocated / ring"])])
        _, _, panels = png_info(os.path.join(out, "link-utilisation.png"))
        self.assertEqual([p["title"] for p in panels],
                         ["capabilities / schedule: both / optimal"])

    def test_sweep_figures(self):
        out = os.path.join(self.tmp, "sweep")
        spec = self.spec(grid={"capabilities": CAPS, "modelBytes": MODEL_BYTES})
        proc = self.sweep(self.write_spec(spec), "-j", "2")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        results = os.path.join(out, "results.csv")
        proc = self.plot("sweep", results, "--x", "modelBytes", "--y", "mean_round_s")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assert_png(os.path.join(out, "sweep-mean_round_s-vs-modelBytes.png"))
        target = os.path.join(self.tmp, "b.png")
        proc = self.plot("breakdown", results, "--where", "modelBytes=1000000", "--out", target)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assert_png(target)
        proc = self.plot("sweep", results, "--x", "modelBytes", "--y", "no_such_metric")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("--y no_such_metric", proc.stderr)


RECIPES = os.path.join(TOOLS, "recipes.py")
RECIPES_SPEC = os.path.join(REPO, "examples", "sweeps", "recipes.json")
CONSENSUS_HEADER = "capabilities,schedule,round,time_s,consensus_distance,loss\n"


class RecipesTimeToTargetTest(unittest.TestCase):
    """recipes.py's time to target on consensus.csv files written here by hand."""

    def setUp(self):
        self.recipes = load_tool("recipes", RECIPES)
        self.tmp = tempfile.mkdtemp(prefix="wan-recipes-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def consensus(self, lines, header=CONSENSUS_HEADER):
        path = os.path.join(self.tmp, "consensus.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write(header + "".join(line + "\n" for line in lines))
        return path

    def test_first_round_at_or_below_the_target(self):
        # Rows out of order in the file: the first in round order counts. Two groups.
        groups = self.recipes.read_consensus(self.consensus([
            "both,global,2,1.500000000,0,0.55",
            "both,global,0,0.500000000,0,0.9",
            "both,global,1,1.000000000,0,0.62",
            "none,global,0,1.250000000,0,0.63",
            "none,global,1,2.500000000,0,0.63"]))
        self.assertEqual(sorted(groups), [("both", "global"), ("none", "global")])
        both, none = groups[("both", "global")], groups[("none", "global")]
        tt = self.recipes.time_to_target
        self.assertEqual(tt(both, 0.9), (0, "0.500000000"))
        self.assertEqual(tt(both, 0.62), (1, "1.000000000"))  # equal to the target: reached
        self.assertEqual(tt(both, 0.6), (2, "1.500000000"))
        self.assertEqual(tt(both, 0.55), (2, "1.500000000"))
        self.assertIsNone(tt(both, 0.549))
        self.assertIsNone(tt(none, 0.62))  # never reached
        best = self.recipes.best_loss({"p": groups})
        self.assertEqual(best, (0.55, "p", ("both", "global")))

    def test_malformed_csv_names_file_and_line(self):
        read = self.recipes.read_consensus
        cases = [
            (["both,global,0,0.5,0,0.9", "both,global,1,1.0,0,abc"], CONSENSUS_HEADER,
             r"consensus\.csv:3: round, time_s or loss is not a number: 1, 1\.0, abc"),
            (["both,global,0,0.5,0,"], CONSENSUS_HEADER, r"consensus\.csv:2: empty loss"),
            (["both,global,0,0.5,0"], "capabilities,schedule,round,time_s,consensus_distance\n",
             r"missing column\(s\) loss"),
            ([], CONSENSUS_HEADER, r"consensus\.csv: no rows"),
            (["both,global,0,0.5,0,0.9", "both,global,0,0.6,0,0.8"], CONSENSUS_HEADER,
             r"round listed twice for both / global"),
        ]
        for lines, header, message in cases:
            with self.assertRaisesRegex(self.recipes.InputError, message):
                read(self.consensus(lines, header))
        with self.assertRaisesRegex(self.recipes.InputError, r"nowhere\.csv: file not found"):
            read(os.path.join(self.tmp, "nowhere.csv"))

    def test_spec_is_the_documented_grid(self):
        sweep = load_tool("sweep", SWEEP)  # sweep.py imports results_dir
        sample = sweep.load_spec(RECIPES_SPEC)
        self.assertEqual(sample["example"], "build/examples/nine-city-training")
        self.assertEqual(sample["grid"], {"innerSteps": [500, 100, 10, 1],
                                          "updateFormat": ["int32", "int8", "int4"],
                                          "capabilities": ["none", "both", "both+transit"]})
        fixed = {k: sweep.flag_value(v) for k, v in sample["fixed"].items()}
        # Real payloads (consensus.csv has the loss); int8 and int4 need no ring anywhere.
        for flag, value in (("payload", "real"), ("schedule", "global"),
                            ("baselines", "false"), ("colocated", "false"),
                            ("topology", "data/topologies/doublezero-9.json")):
            self.assertEqual(fixed[flag], value, flag)
        self.assertEqual(len({p["hash"] for p in sweep.expand(sample)}), 36)


@unittest.skipUnless(matplotlib_available(), "matplotlib is not installed")
class RecipesScriptTest(unittest.TestCase):
    """recipes.py on a sweep folder made here by hand: four points (H 1 and 10, capabilities
    none and both, int8), whose times to target are worked out below."""

    # point -> (innerSteps, capabilities, [(time_s, loss)] for rounds 0, 1, 2)
    POINTS = {
        "a000000000000001": ("1", "none", [("1.000000000", 0.9), ("2.000000000", 0.62),
                                           ("3.000000000", 0.55)]),
        "a000000000000002": ("1", "both", [("0.500000000", 0.9), ("1.000000000", 0.62),
                                           ("1.500000000", 0.55)]),
        "a000000000000003": ("10", "none", [("1.250000000", 0.63), ("2.500000000", 0.63),
                                            ("3.750000000", 0.63)]),
        "a000000000000004": ("10", "both", [("1.100000000", 0.61), ("2.200000000", 0.6),
                                            ("3.300000000", 0.6)]),
    }

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wan-recipes-test-")
        self.sweep = os.path.join(self.tmp, "sweep")
        spec = {"name": "hand", "example": "x",
                "fixed": {"payload": "real", "rounds": 3, "computeTime": "10ms"},
                "grid": {"innerSteps": [1, 10], "updateFormat": ["int8"],
                         "capabilities": ["none", "both"]}}
        os.makedirs(self.sweep)
        with open(os.path.join(self.sweep, "spec.json"), "w", encoding="utf-8") as f:
            json.dump(spec, f)
        # results.csv as sweep.py writes it, points in an order other than the spec's.
        with open(os.path.join(self.sweep, "results.csv"), "w", encoding="utf-8") as f:
            f.write("point,innerSteps,updateFormat,capabilities,payload,rounds,computeTime,"
                    "exit_code,mean_round_s\n")
            for point in sorted(self.POINTS, reverse=True):
                h, caps, _ = self.POINTS[point]
                f.write(f"{point},{h},int8,{caps},real,3,10ms,0,1.0\n")
        for point, (_, caps, rows) in self.POINTS.items():
            out = os.path.join(self.sweep, "points", point, "output")
            os.makedirs(out)
            with open(os.path.join(out, "consensus.csv"), "w", encoding="utf-8") as f:
                f.write(CONSENSUS_HEADER)
                for rnd, (time_s, loss) in enumerate(rows):
                    f.write(f"{caps},global,{rnd},{time_s},0,{loss}\n")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_script(self, *args):
        return subprocess.run([sys.executable, RECIPES, *args], capture_output=True, text=True,
                              cwd=self.tmp, timeout=WAIT_LIMIT_S)

    def table(self, path=None):
        with open(path or os.path.join(self.sweep, "recipes.csv"), newline="",
                  encoding="utf-8") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0], ["innerSteps", "updateFormat", "capabilities", "schedule",
                                   "rounds", "final_loss", "target_loss", "round",
                                   "time_to_target_s", "gain_over_none", "point"])
        return rows[1:]

    def set_loss(self, point, rnd, text):
        """Rewrite one consensus.csv loss cell of a point as text."""
        path = os.path.join(self.sweep, "points", point, "output", "consensus.csv")
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        cells = lines[1 + rnd].split(",")
        cells[-1] = text
        lines[1 + rnd] = ",".join(cells)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

    def test_a_loss_that_is_not_a_finite_number_at_least_0_is_an_error(self):
        # float() reads nan, inf and 1e999; a loss of -1 set a target of -1.01.
        for text in ("nan", "inf", "1e999", "-1"):
            self.set_loss("a000000000000003", 1, text)
            proc = self.run_script(self.sweep)
            self.assertEqual(proc.returncode, 1, text)
            self.assertIn(f"consensus.csv:3: loss {text}: expected a finite number, at least 0",
                          proc.stderr)

    def test_an_output_that_cannot_be_written_is_an_error(self):
        proc = self.run_script(self.sweep, "--table", os.path.join(self.tmp, "no", "x.csv"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("recipes: error: cannot write", proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)

    def test_default_target_one_percent_above_the_best(self):
        proc = self.run_script(self.sweep)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # Best loss 0.55, target 0.5555: only H=1 gets there, in round 2 (3.0 s without,
        # 1.5 s with multicast and FPGAs: 2x); H=10 stays at 0.63 and 0.6.
        target = repr(0.55 * 1.01)
        self.assertEqual(self.table(), [
            ["1", "int8", "none", "global", "3", "0.55", target, "2", "3.000000000", "",
             "a000000000000001"],
            ["1", "int8", "both", "global", "3", "0.55", target, "2", "1.500000000", "2.00",
             "a000000000000002"],
            ["10", "int8", "none", "global", "3", "0.63", target, "", "", "",
             "a000000000000003"],
            ["10", "int8", "both", "global", "3", "0.6", target, "", "", "",
             "a000000000000004"]])
        self.assertIn("fastest: innerSteps 1, int8, both, 1.500000000 s", proc.stdout)
        self.assertIn("not reached: 2 of 4", proc.stdout)
        self.assertEqual(proc.stdout.count("not reached\n"), 2)
        _, _, panels = png_info(os.path.join(self.sweep, "recipes.png"))
        self.assertEqual(len(panels), 1)
        self.assertTrue(panels[0]["title"].startswith("Time to a loss of 0.5555 (best 0.55 + "
                                                      "1%)"), panels[0]["title"])
        self.assertEqual(panels[0]["legend"], ["int8, none", "int8, both"])

    def test_given_target(self):
        table = os.path.join(self.tmp, "t.csv")
        figure = os.path.join(self.tmp, "t.png")
        proc = self.run_script(self.sweep, "--target", "0.62", "--table", table,
                               "--figure", figure)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # 0.62: H=1 in round 1 (2.0 and 1.0 s), H=10 both in round 0 (1.1 s; no gain over
        # none, which never gets there).
        self.assertEqual([r[:10] for r in self.table(table)], [
            ["1", "int8", "none", "global", "3", "0.55", "0.62", "1", "2.000000000", ""],
            ["1", "int8", "both", "global", "3", "0.55", "0.62", "1", "1.000000000", "2.00"],
            ["10", "int8", "none", "global", "3", "0.63", "0.62", "", "", ""],
            ["10", "int8", "both", "global", "3", "0.6", "0.62", "0", "1.100000000", ""]])
        self.assertTrue(os.path.isfile(figure))
        self.assertFalse(os.path.exists(os.path.join(self.sweep, "recipes.csv")))

    def test_errors_exit_1_naming_the_culprit(self):
        proc = self.run_script(os.path.join(self.tmp, "nowhere"))
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(proc.stderr.strip(),
                         f"recipes: error: {os.path.join(self.tmp, 'nowhere')}: sweep folder "
                         f"not found")
        bad = os.path.join(self.sweep, "points", "a000000000000003", "output", "consensus.csv")
        with open(bad, "a", encoding="utf-8") as f:
            f.write("none,global,3,5.0,0,nan?\n")
        proc = self.run_script(self.sweep)
        self.assertEqual(proc.returncode, 1)
        self.assertIn(f"recipes: error: {bad}:5: round, time_s or loss is not a number",
                      proc.stderr)
        os.remove(bad)
        proc = self.run_script(self.sweep)
        self.assertEqual(proc.returncode, 1)
        self.assertIn(f"{bad}: file not found (was the sweep run with --payload=real?)",
                      proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.sweep, "recipes.csv")))

    def test_points_not_done_are_named_and_exit_1(self):
        results = os.path.join(self.sweep, "results.csv")
        with open(results, encoding="utf-8") as f:
            lines = f.readlines()
        with open(results, "w", encoding="utf-8") as f:
            f.writelines(line for line in lines if not line.startswith("a000000000000004"))
        proc = self.run_script(self.sweep)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("recipes: 1 of the spec's 4 points are not done", proc.stderr)
        self.assertEqual(len(self.table()), 3)  # the table of the points done is written


LAYERING = os.path.join(TOOLS, "check-layering.py")


def layering_function(name, length):
    """The lines of a clang-formatted top-level function, exactly `length` lines long from the
    first line of its signature to its closing brace."""
    body = [f"    x += {i};" for i in range(length - 5)]
    return ["int", f"{name}(int x)", "{", *body, "    return x;", "}"]


class FakeTreeMixin:
    """A temporary module tree (self.tmp, made by setUp) that write() fills and tearDown()
    removes."""

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, path, lines):
        full = os.path.join(self.tmp, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
        return full


class LayeringCheckTest(FakeTreeMixin, unittest.TestCase):
    """tools/check-layering.py on small fake trees."""

    OK = ("layering: 0 two-way pairs (0 allowed), 0 functions over 100 lines (0 allowed), "
          "0 stale: ok")

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wan-layering-test-")
        os.makedirs(os.path.join(self.tmp, "model"))

    def check(self, *args):
        return subprocess.run([sys.executable, LAYERING, "--root", self.tmp, *args],
                              capture_output=True, text=True, timeout=WAIT_LIMIT_S)

    def two_way_tree(self):
        """model/a <-> model/b (a.h line 3, b.cc line 4) and model/b -> helper/c one way."""
        self.write("model/a.h", ["// a", "", '#include "b.h"'])
        self.write("model/a.cc", ['#include "a.h"', '#include "ns3/log.h"'])
        self.write("model/b.h", ['#include "c.h"'])
        self.write("model/b.cc", ['#include "b.h"', "", "#include <vector>", '#include "a.h"'])
        self.write("helper/c.h", ["#pragma once"])

    def test_two_way_pair_with_its_files(self):
        self.two_way_tree()
        proc = self.check()
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            "two-way pair a <-> b: FAILED",
            "  a -> b: model/a.h:3",
            "  b -> a: model/b.cc:4",
            "layering: 1 two-way pair (0 allowed), 0 functions over 100 lines (0 allowed), "
            "0 stale: FAILED"])

    def test_one_way_and_commented_out_includes_are_not_pairs(self):
        self.write("model/a.cc", ['#include "a.h"', '#include "b.h"'])
        self.write("model/b.cc", ['// #include "a.h"', "/*", '#include "ns3/a.h"', "*/",
                                  '/* #include "a.h" */ #include "b.h"'])
        proc = self.check()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [self.OK])

    def test_ns3_includes_count(self):
        # ns3/log.h is a component here (model/log.h exists); ns3/node.h is not.
        self.write("model/a.cc", ['#include "ns3/b.h"', '#include "ns3/node.h"'])
        self.write("helper/b.h", ['#include "ns3/a.h"', '#include "ns3/log.h"'])
        self.write("model/log.h", ['#include "ns3/b.h"'])
        proc = self.check()
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[:6], [
            "two-way pair a <-> b: FAILED",
            "  a -> b: model/a.cc:1",
            "  b -> a: helper/b.h:1",
            "two-way pair b <-> log: FAILED",
            "  b -> log: helper/b.h:2",
            "  log -> b: model/log.h:1"])
        self.assertIn("layering: 2 two-way pairs (0 allowed),", proc.stdout)

    def long_function_tree(self):
        """Functions of 100 and 101 lines in model/, examples/ and an examples/ subfolder, and
        an indented class-member one (not counted); returns {name: (path, first line)}."""
        found, files = {}, {"model/long.cc": ["Long100", "Long101"],
                            "examples/x.cc": ["Example101"], "examples/sub/y.cc": ["Sub101"]}
        for path, names in files.items():
            lines = ["// fake", "", "namespace ns3", "{", ""]
            for name in names:
                lines += ["/**", f" * \\brief {name}", " */"]
                found[name] = (path, len(lines) + 1)
                lines += layering_function(name, int(name[-3:])) + [""]
            lines += ["class Inline", "{"]
            lines += ["  " + line for line in layering_function("Member", 150)] + ["};", ""]
            lines += ["} // namespace ns3"]
            self.write(path, lines)
        return found

    def test_long_functions_at_the_default_limit(self):
        self.assertEqual([len(layering_function("F", n)) for n in (100, 101)], [100, 101])
        found = self.long_function_tree()
        proc = self.check()
        self.assertEqual(proc.returncode, 1, proc.stderr)
        expected = [f"long function {found[name][0]}:{found[name][1]} {name}: 101 lines: FAILED"
                    for name in ("Long101", "Example101", "Sub101")]
        expected.append("layering: 0 two-way pairs (0 allowed), 3 functions over 100 lines "
                        "(0 allowed), 0 stale: FAILED")
        self.assertEqual(sorted(proc.stdout.splitlines()), sorted(expected))
        proc = self.check("--max-lines", "101")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [self.OK.replace("100", "101")])

    def test_allowed_pair_and_function_pass(self):
        self.two_way_tree()
        self.write("model/long.cc", layering_function("Ns::Long", 101))
        allow = self.write("tools/layering-allow.txt", [
            "# header", "", "pair b a  # they belong together",
            "function model/long.cc:Ns::Long  # a table"])
        expected = [
            "two-way pair a <-> b: allowed (they belong together)",
            "  a -> b: model/a.h:3",
            "  b -> a: model/b.cc:4",
            "long function model/long.cc:1 Ns::Long: 101 lines: allowed (a table)",
            "layering: 1 two-way pair (1 allowed), 1 function over 100 lines (1 allowed), "
            "0 stale: ok"]
        for args in ([], ["--allow", allow]):
            proc = self.check(*args)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(proc.stdout.splitlines(), expected)

    def test_stale_entry_fails(self):
        self.write("model/a.cc", ['#include "b.h"'])
        allow = self.write("allow.txt", ["pair a b  # gone", "function model/a.cc:F  # gone"])
        proc = self.check("--allow", allow)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            f"stale allow-list entry {allow}:1: pair a b (matches nothing)",
            f"stale allow-list entry {allow}:2: function model/a.cc:F (matches nothing)",
            "layering: 0 two-way pairs (0 allowed), 0 functions over 100 lines (0 allowed), "
            "2 stale: FAILED"])

    def test_entry_without_reason_exits_2_naming_the_line(self):
        allow = self.write("allow.txt", ["# header", "pair a b  # fine", "pair a c", "pair x"])
        proc = self.check("--allow", allow)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stdout, "")
        self.assertIn(f"{allow}:3: entry without a reason", proc.stderr)
        self.write("allow.txt", ["pair x  # one component"])
        proc = self.check("--allow", allow)
        self.assertEqual(proc.returncode, 2)
        self.assertIn(f"{allow}:1: expected 'pair A B  # reason'", proc.stderr)

    def test_max_pairs(self):
        # a <-> b, a <-> c, b <-> c: three two-way pairs, all allowed.
        for name, others in (("a", "bc"), ("b", "ac"), ("c", "ab")):
            self.write(f"model/{name}.cc", [f'#include "{other}.h"' for other in others])
        allow = self.write("allow.txt", ["pair a b  # r", "pair a c  # r", "pair b c  # r"])
        self.assertEqual(self.check("--allow", allow).returncode, 0)
        self.assertEqual(self.check("--allow", allow, "--max-pairs", "3").returncode, 0)
        proc = self.check("--allow", allow, "--max-pairs", "2")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[-2:], [
            "too many two-way pairs: 3 > --max-pairs 2",
            "layering: 3 two-way pairs (3 allowed), 0 functions over 100 lines (0 allowed), "
            "0 stale: FAILED"])


DOC_NAMES = os.path.join(TOOLS, "check-doc-names.py")


class DocNamesCheckTest(FakeTreeMixin, unittest.TestCase):
    """tools/check-doc-names.py on a small fake tree, and on the real one."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wan-doc-names-test-")
        self.write("model/a.h", ["#pragma once", "namespace ns3", "{",
                                 "class Alpha { void Run(); };",
                                 "// Walk() is only a comment here",
                                 "} // namespace ns3"])
        self.write("model/a.cc", ['#include "a.h"', "namespace ns3", "{",
                                  "void Alpha::Run() {}", "} // namespace ns3"])

    def doc(self, *body):
        """doc/t.rst: section "Walk" (its first body line is line 7) holding `body`, between
        sections whose names are not checked."""
        self.write("doc/t.rst", ["Top", "===", "", "Walk", "----", ""] + list(body) +
                   ["", "Other", "-----", "", "``Gamma::Nothing`` is not in the section."])

    def check(self, *targets, root=None):
        return subprocess.run([sys.executable, DOC_NAMES, "--root", root or self.tmp, *targets],
                              capture_output=True, text=True, timeout=WAIT_LIMIT_S)

    def test_existing_names_pass(self):
        self.doc("``Alpha::Run`` runs (``model/a.h``, ``model/a``, ``Alpha``); ``42``, ``FLAG_X``",
                 "and ``--flag=1`` are not names.")
        proc = self.check("doc/t.rst:Walk")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines(),
                         ["doc names: 4 checked, 0 missing, 3 other literals skipped: ok"])

    def test_missing_member_class_and_file_fail_with_their_lines(self):
        self.doc("``Alpha::Run`` is fine,", "``Alpha::Walk`` is not defined,",
                 "``Beta`` is no class, ``Beta::Run`` neither,",
                 "``model/a`` exists and ``model/zzz.cc`` does not.")
        proc = self.check("doc/t.rst:Walk")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            "doc/t.rst:8: Alpha::Walk: missing (Walk is not in the sources)",
            "doc/t.rst:9: Beta: missing (not in the sources)",
            "doc/t.rst:9: Beta::Run: missing (Beta is not in the sources)",
            "doc/t.rst:10: model/zzz.cc: missing (no such file)",
            "doc names: 6 checked, 4 missing, 0 other literals skipped: FAILED"])

    def test_member_of_another_class_fails(self):
        self.write("model/b.h", ["class Other { void Walk(); };"])
        self.doc("``Other::Walk`` exists, ``Alpha::Walk`` does not.")
        proc = self.check("doc/t.rst:Walk")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[0],
                         "doc/t.rst:7: Alpha::Walk: missing (Walk is not a member of Alpha)")

    def test_missing_section_or_file_exits_2_naming_it(self):
        self.doc("``Alpha::Run``")
        proc = self.check("doc/t.rst:Nowhere")
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stdout, "")
        self.assertIn('doc/t.rst: no section "Nowhere"', proc.stderr)
        proc = self.check("doc/none.rst:Walk")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("doc/none.rst: no such file", proc.stderr)
        proc = self.check()  # the default section's file is not in the fake tree
        self.assertEqual(proc.returncode, 2)
        self.assertIn("doc/wan-training.rst: no such file", proc.stderr)

    def test_header_table_must_cite_every_header(self):
        self.write("helper/h.h", ["#pragma once"])
        self.doc("``Alpha`` lives in ``model/a.h``; ``helper/h`` helps.")
        proc = self.check("--header-table", "doc/t.rst:Walk", "doc/t.rst:Walk")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[-1],
                         "headers: 2 of 2 listed in doc/t.rst:Walk: ok")
        # A header cited only outside the section, or not at all, fails by name.
        self.write("model/z.h", ["#pragma once"])
        self.doc("``Alpha`` lives in ``model/a.h``; helper/h is no literal.")
        proc = self.check("--header-table", "doc/t.rst:Walk", "doc/t.rst:Walk")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[1:], [
            "doc/t.rst: Walk: model/z.h not listed",
            "doc/t.rst: Walk: helper/h.h not listed",
            "headers: 1 of 3 listed in doc/t.rst:Walk: FAILED"])

    def test_real_tree_passes(self):
        proc = self.check(root=REPO)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertRegex(proc.stdout, r"doc names: [1-9][0-9]* checked, 0 missing, ")
        self.assertRegex(proc.stdout, r"headers: ([1-9][0-9]*) of \1 listed in "
                                      r"doc/wan-training.rst:Architecture: ok")


if __name__ == "__main__":
    unittest.main()
