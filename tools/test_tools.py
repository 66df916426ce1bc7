"""Tests of tools/sweep.py and tools/plot.py, using tools/fake-experiment.py as the example.

Run from the repository root:  python3 -m unittest discover -s tools -p 'test_*.py'
"""

import csv
import hashlib
import importlib.util
import json
import os
import shutil
import signal
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
FAKE_RELATIVE = "tools/fake-experiment.py"  # specs name examples relative to the repo root

CAPS = ["none", "multicast", "fpga", "both"]
MODEL_BYTES = [1000000, 4000000]
SCHEDULES = ["global", "optimal", "moshpit"]
POINTS = len(CAPS) * len(MODEL_BYTES) * len(SCHEDULES)  # 24
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WAIT_LIMIT_S = 120  # only a guard against a hung sweep; nothing asserts on time


def spec_24(example=None, **extra):
    spec = {"name": "fake24", "example": example or FAKE_RELATIVE,
            "fixed": {"rounds": 2, "payload": "real"},
            "grid": {"capabilities": CAPS, "modelBytes": MODEL_BYTES, "schedule": SCHEDULES}}
    spec.update(extra)
    return spec


def expected_hash(params):
    """The documented point hash, computed here independently of sweep.py."""
    text = json.dumps({k: str(v) for k, v in params.items()}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


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
        self.env = dict(os.environ, FAKE_EXPERIMENT_SLEEP="0.05",
                        FAKE_EXPERIMENT_COUNTER=self.counter)
        self.env.pop("FAKE_EXPERIMENT_FAIL", None)
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
        out = out or os.path.join(self.tmp, "sweep")
        return subprocess.run([sys.executable, SWEEP, spec_path, "--out", out, *args],
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
        self.assertEqual(header[:6], ["point", "capabilities", "modelBytes", "schedule",
                                      "rounds", "payload"])
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
                      "schedule": row["schedule"], "rounds": 2, "payload": "real"}
            self.assertEqual(row["point"], expected_hash(params))
            self.assertTrue(os.path.isfile(os.path.join(out, "points", row["point"],
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

    def test_failing_point_is_reported_and_others_finish(self):
        self.env["FAKE_EXPERIMENT_FAIL"] = "modelBytes=4000000"
        out = os.path.join(self.tmp, "sweep")
        spec = self.spec(grid={"capabilities": CAPS, "modelBytes": MODEL_BYTES})
        proc = self.sweep(self.write_spec(spec), "-j", "2")
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(proc.stderr.count("FAILED: exit code 3"), len(CAPS))
        self.assertIn("fake failure requested for --modelBytes=4000000", proc.stderr)
        rows = self.results(out)
        self.assertEqual(len(rows), len(CAPS))
        self.assertEqual({r["modelBytes"] for r in rows}, {"1000000"})
        self.assertEqual(len(self.markers(out)), len(CAPS))

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
                 "rounds": 2, "payload": "real"}
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
        # Play Slurm for array task 5, twice: the second time the point is already done.
        env = dict(self.env, SLURM_ARRAY_TASK_ID="5")
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
        self.assertEqual((rows[0]["capabilities"], rows[0]["modelBytes"], rows[0]["schedule"]),
                         ("none", "4000000", "moshpit"))


@unittest.skipUnless(matplotlib_available(), "matplotlib is not installed")
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
        self.run_fake(out)
        proc = self.plot("experiment", out, "--topology", os.path.join(self.tmp, "none.json"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("none.json not found", proc.stderr)
        proc = self.plot("sweep", os.path.join(self.tmp, "results.csv"), "--x", "a", "--y", "b")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("results.csv: file not found", proc.stderr)

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


if __name__ == "__main__":
    unittest.main()
