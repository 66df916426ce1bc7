#!/usr/bin/env python3
"""Time to a target loss of every point of a real-payload sweep (doc/tools.rst, "Recipes").

    recipes.py SWEEP_DIR [--margin FRACTION | --target LOSS] [--table FILE] [--figure FILE]

SWEEP_DIR is a tools/sweep.py folder (results.csv, spec.json, points/<hash>/output/) of an
example run with --payload=real, such as examples/sweeps/recipes.json. For every point and
every (capabilities, schedule) of its consensus.csv, the time to target is the time_s of the
first round (in round order) whose loss is at most the target; a run that never gets there
has none and is listed as not reached. The target is --target, else the smallest loss of any
round of any point times (1 + --margin) (default 0.01: 1% above the best loss reached).

Writes (defaults beside results.csv):
  recipes.csv   one row per point and capability set: innerSteps, updateFormat,
                capabilities, schedule, rounds, final_loss, target_loss, round,
                time_to_target_s (round and time empty when not reached), gain_over_none
                (the time of the point with capabilities none and otherwise the same
                parameters over this one's; empty when either did not reach the target),
                point (the sweep's hash)
  recipes.png   time to target (log) against innerSteps (log), one line per update format
                (colour) and capability set (line style); points that never reach the
                target are drawn as crosses on a line above the others

and prints the table. Exit status 1 with one line "recipes: error: ..." for a missing folder
or file, a malformed CSV or no usable point; also 1 (after writing) when some points of the
spec are not done. Standard library and matplotlib.
"""

import argparse
import csv
import json
import math
import os
import sys

import plot

SYSTEM_PYTHON = plot.SYSTEM_PYTHON
REEXEC_ENV = "WAN_TRAINING_RECIPES_REEXEC"
DEFAULT_MARGIN = 0.01
TABLE = "recipes.csv"
FIGURE = "recipes.png"
CONSENSUS_COLUMNS = ("capabilities", "schedule", "round", "time_s", "loss")
TABLE_COLUMNS = ["innerSteps", "updateFormat", "capabilities", "schedule", "rounds",
                 "final_loss", "target_loss", "round", "time_to_target_s", "gain_over_none",
                 "point"]
# Flags of the example's defaults, for points whose spec does not set them.
DEFAULTS = {"innerSteps": "1", "updateFormat": "int32"}
# Fixed flags named under the figure's title, when the spec sets them.
SHOWN_FLAGS = ("modelBytes", "accessBandwidth", "wanBandwidth", "computeTime", "rounds")
FORMAT_COLOURS = {"int32": "#4c72b0", "bf16": "#8172b3", "int8": "#dd8452", "int4": "#55a868"}
CAPS_STYLES = [("-", "o", True), ("--", "s", True), (":", "^", False), ("-.", "D", False)]


# A missing or malformed input: one line, exit 1 (plot.py's, which its readers raise too).
InputError = plot.InputError


def read_consensus(path):
    """The rows of a consensus.csv, grouped: {(capabilities, schedule): [(round, time_s text,
    loss text, loss), ...] in round order}. Fails naming the file and row on anything that is
    not the contract's columns with numbers in them."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: file not found (was the sweep run with --payload=real?)")
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            missing = [c for c in CONSENSUS_COLUMNS if c not in columns]
            if missing:
                raise InputError(f"{path}: missing column(s) {', '.join(missing)}")
            groups = {}
            for line, row in enumerate(reader, start=2):
                values = {c: row.get(c) for c in CONSENSUS_COLUMNS}
                empty = [c for c, v in values.items() if v is None or v.strip() == ""]
                if empty:
                    raise InputError(f"{path}:{line}: empty {', '.join(empty)}")
                try:
                    rnd = int(values["round"])
                    time_s = float(values["time_s"])
                    loss = float(values["loss"])
                except ValueError:
                    raise InputError(f"{path}:{line}: round, time_s or loss is not a number: "
                                     f"{values['round']}, {values['time_s']}, "
                                     f"{values['loss']}")
                if rnd < 0 or not math.isfinite(time_s) or time_s < 0:
                    raise InputError(f"{path}:{line}: bad round {rnd} or time_s {time_s}")
                if not math.isfinite(loss) or loss < 0:
                    raise InputError(f"{path}:{line}: loss {values['loss']}: expected a "
                                     f"finite number, at least 0")
                key = (values["capabilities"], values["schedule"])
                groups.setdefault(key, []).append((rnd, values["time_s"].strip(),
                                                   values["loss"].strip(), loss))
    except (OSError, csv.Error, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read CSV: {e}")
    if not groups:
        raise InputError(f"{path}: no rows")
    for key, rows in groups.items():
        rows.sort()
        rounds = [r[0] for r in rows]
        if len(set(rounds)) != len(rounds):
            raise InputError(f"{path}: round listed twice for {key[0]} / {key[1]}")
    return groups


def time_to_target(rows, target):
    """(round, time_s text) of the first row whose loss is at most target, else None. rows are
    (round, time_s text, loss text, loss) in round order, as read_consensus gives them."""
    for rnd, time_text, _, loss in rows:
        if loss <= target:
            return rnd, time_text
    return None


def best_loss(groups_by_point):
    """The smallest finite loss of any round, and where: (loss, point, (caps, schedule))."""
    best = None
    for point, groups in groups_by_point.items():
        for key, rows in groups.items():
            for _, _, _, loss in rows:
                if math.isfinite(loss) and (best is None or loss < best[0]):
                    best = (loss, point, key)
    if best is None:
        raise InputError("no finite loss in any point's consensus.csv")
    return best


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    except ValueError as e:
        raise InputError(f"{path}: malformed JSON: {e}")


def spec_points(spec):
    """How many points the spec has (the product of its grid's list lengths)."""
    grid = spec.get("grid") or {}
    return math.prod(len(v) for v in grid.values() if isinstance(v, list)) if grid else 0


def load_sweep(sweep_dir):
    """(spec, done points): each point a dict of its parameters (flag -> text, the example's
    defaults filled in for innerSteps and updateFormat), its hash and its consensus groups."""
    if not os.path.isdir(sweep_dir):
        raise InputError(f"{sweep_dir}: sweep folder not found")
    spec_path = os.path.join(sweep_dir, "spec.json")
    spec = read_json(spec_path) if os.path.isfile(spec_path) else {}
    if not isinstance(spec, dict) or not isinstance(spec.get("grid", {}), dict) or \
            not isinstance(spec.get("fixed", {}), dict):
        raise InputError(f"{spec_path}: not a sweep spec (an object with grid and fixed)")
    results = os.path.join(sweep_dir, "results.csv")
    rows, _ = plot.read_csv(results, ("point",))
    points, seen = [], set()
    for row in rows:
        point = row.get("point") or ""
        if point in seen:
            continue  # several rows of one point: --capabilities=all
        seen.add(point)
        if not point or os.sep in point or point.startswith("."):
            raise InputError(f"{results}: bad point {point!r}")
        params = {k: v for k, v in row.items() if k is not None}
        for flag, value in DEFAULTS.items():
            if not params.get(flag):
                params[flag] = value
        consensus = os.path.join(sweep_dir, "points", point, "output", "consensus.csv")
        points.append({"hash": point, "params": params, "groups": read_consensus(consensus)})
    if not points:
        raise InputError(f"{results}: no rows (did the sweep finish any point?)")
    return spec, points


def order_key(spec, flag, value):
    """Sort key of a table value: innerSteps by number, other flags in the order of the
    spec's grid, values it does not list after those, alphabetically."""
    values = [plot.flag_text(v) for v in (spec.get("grid") or {}).get(flag) or []]
    if flag == "innerSteps":
        try:
            return (0, float(value), "")
        except ValueError:
            pass
    if value in values:
        return (0, values.index(value), "")
    return (1, 0, value)


def table_rows(spec, points, target):
    """The rows of recipes.csv (dicts of TABLE_COLUMNS), in the spec's order. A row's
    gain_over_none compares it with the none row of the same schedule, innerSteps, format and
    other spec flags."""
    listed = {"innerSteps", "updateFormat", "capabilities", "schedule"}
    others = sorted(set(spec.get("grid") or {}).union(spec.get("fixed") or {}) - listed)
    rows = []
    for point in points:
        for (caps, schedule), group in point["groups"].items():
            reached = time_to_target(group, target)
            rows.append({"innerSteps": point["params"]["innerSteps"],
                         "updateFormat": point["params"]["updateFormat"],
                         "capabilities": caps, "schedule": schedule,
                         "rounds": str(len(group)), "final_loss": group[-1][2],
                         "target_loss": repr(target),
                         "round": str(reached[0]) if reached else "",
                         "time_to_target_s": reached[1] if reached else "",
                         "gain_over_none": "", "point": point["hash"],
                         "_others": tuple(point["params"].get(f) for f in others)})
    for row in rows:
        if not row["time_to_target_s"] or row["capabilities"] == "none":
            continue
        none = [r for r in rows if r["capabilities"] == "none" and
                all(r[k] == row[k] for k in ("innerSteps", "updateFormat", "schedule",
                                             "_others"))]
        if len(none) == 1 and none[0]["time_to_target_s"]:
            gain = float(none[0]["time_to_target_s"]) / float(row["time_to_target_s"])
            row["gain_over_none"] = f"{gain:.2f}"
    rows.sort(key=lambda r: tuple(order_key(spec, f, r[f]) for f in
                                  ("innerSteps", "updateFormat", "capabilities", "schedule")))
    return rows


def write_table(rows, path):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(TABLE_COLUMNS)
        for row in rows:
            writer.writerow([row[c] for c in TABLE_COLUMNS])


def text_table(rows):
    shown = ["innerSteps", "updateFormat", "capabilities", "schedule", "final_loss", "round",
             "time_to_target_s", "gain_over_none"]
    cells = [[r[c] if c != "time_to_target_s" or r[c] else "not reached" for c in shown]
             for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(shown)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(shown, widths)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines) + "\n"


def figure_subtitle(spec, points):
    fixed = spec.get("fixed") or {}
    topology = fixed.get("topology") or points[0]["params"].get("topology") or ""
    parts = [os.path.splitext(os.path.basename(topology))[0]] if topology else []
    parts += [f"--{k}={plot.flag_text(fixed[k])}" for k in SHOWN_FLAGS if k in fixed]
    return ", ".join(parts)


def draw(rows, target, how, subtitle, path):
    """The figure: time to target against innerSteps, one line per format and capability
    set (schedule too when there are several)."""
    import matplotlib.pyplot as plt
    schedules = list(dict.fromkeys(r["schedule"] for r in rows))
    keys = list(dict.fromkeys((r["updateFormat"], r["capabilities"], r["schedule"])
                              for r in rows))
    formats = list(dict.fromkeys(k[0] for k in keys))
    caps = list(dict.fromkeys(k[1] for k in keys))
    palette = plt.get_cmap("tab10").colors
    reached = [float(r["time_to_target_s"]) for r in rows if r["time_to_target_s"]]
    never = [r for r in rows if not r["time_to_target_s"]]
    top = max(reached) if reached else 1.0
    bottom = min(reached) if reached else 1.0
    never_y = top * 2.5
    fig, ax = plt.subplots(figsize=(8.4, 5.4))
    for fmt, cap, schedule in keys:
        colour = FORMAT_COLOURS.get(fmt) or palette[formats.index(fmt) % len(palette)]
        style, marker, filled = CAPS_STYLES[caps.index(cap) % len(CAPS_STYLES)]
        mine = sorted((r for r in rows if (r["updateFormat"], r["capabilities"],
                                           r["schedule"]) == (fmt, cap, schedule)),
                      key=lambda r: float(r["innerSteps"]))
        xs = [float(r["innerSteps"]) for r in mine]
        ys = [float(r["time_to_target_s"]) if r["time_to_target_s"] else math.nan
              for r in mine]
        name = f"{fmt}, {cap}" + (f", {schedule}" if len(schedules) > 1 else "")
        ax.plot(xs, ys, linestyle=style, marker=marker, color=colour, label=name,
                markerfacecolor=colour if filled else "white", markersize=6, linewidth=1.4)
        missing = [x for x, y in zip(xs, ys) if math.isnan(y)]
        if missing:
            # Spread the crosses of the series a little, so that each stays visible.
            spread = 10 ** (0.012 * (keys.index((fmt, cap, schedule)) - (len(keys) - 1) / 2))
            ax.plot([x * spread for x in missing], [never_y] * len(missing), linestyle="none",
                    marker="x", color=colour, markersize=7)
    if never:
        ax.axhline(never_y, color="0.6", linewidth=0.8, linestyle=":")
        rounds = sorted({int(r["rounds"]) for r in never})
        ax.text(0.01, never_y * 1.08, "not reached in "
                f"{'/'.join(str(n) for n in rounds)} rounds",
                transform=ax.get_yaxis_transform(), fontsize=8, color="0.35")
    ax.set_xscale("log")
    ax.set_yscale("log")
    hs = sorted({float(r["innerSteps"]) for r in rows})
    ax.set_xticks(hs)
    ax.set_xticklabels([f"{h:g}" for h in hs])
    ax.minorticks_off()
    low, high = bottom / 1.6, (never_y if never else top) * 1.6
    ax.set_ylim(low, high)
    ticks = [m * 10.0 ** e for e in range(math.floor(math.log10(low)),
                                          math.ceil(math.log10(high)) + 1) for m in (1, 2, 5)]
    ax.set_yticks([t for t in ticks if low <= t <= high])
    ax.set_yticklabels([f"{t:g}" for t in ticks if low <= t <= high])
    ax.set_xlabel("inner steps per round, H (-)")
    ax.set_ylabel("simulated time to target loss (s)")
    ax.set_title(f"Time to a loss of {target:.6g} ({how})" +
                 (f"\n{subtitle}" if subtitle else ""), fontsize=10)
    ax.grid(True, which="major", color="0.9")
    ax.legend(fontsize=8, ncol=len(formats), loc="upper center", bbox_to_anchor=(0.5, -0.13),
              frameon=False)
    plot.save(fig, path)


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Time to a target loss of every point of a "
                                                 "real-payload sweep (see doc/tools.rst).")
    parser.add_argument("sweep", help="a tools/sweep.py folder, e.g. results/latest")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--margin", type=float, default=DEFAULT_MARGIN, metavar="FRACTION",
                        help="target = best loss of any point x (1 + FRACTION) "
                             "(default: %(default)s)")
    target.add_argument("--target", type=float, metavar="LOSS", help="the target loss itself")
    parser.add_argument("--table", metavar="FILE",
                        help=f"CSV to write (default: {TABLE} in the sweep folder)")
    parser.add_argument("--figure", metavar="FILE",
                        help=f"PNG to write (default: {FIGURE} in the sweep folder)")
    args = parser.parse_args(argv)
    if not (math.isfinite(args.margin) and args.margin >= 0):
        parser.error("--margin must be a number >= 0")
    if args.target is not None and not math.isfinite(args.target):
        parser.error("--target must be a finite number")
    return args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    try:
        plot.import_matplotlib(argv, __file__, REEXEC_ENV)
        sweep_dir = os.path.abspath(args.sweep)
        spec, points = load_sweep(sweep_dir)
        best, where, (best_caps, best_schedule) = best_loss(
            {p["hash"]: p["groups"] for p in points})
        if args.target is not None:
            target = args.target
            how = "given"
        else:
            target = best * (1 + args.margin)
            how = f"best {best:.6g} + {args.margin * 100:g}%"
        rows = table_rows(spec, points, target)
        table = os.path.abspath(args.table or os.path.join(sweep_dir, TABLE))
        figure = os.path.abspath(args.figure or os.path.join(sweep_dir, FIGURE))
        write_table(rows, table)
        sys.stdout.write(f"target loss {target!r} ({how}); best loss {best!r} at point "
                         f"{where} ({best_caps} / {best_schedule})\n")
        sys.stdout.write(text_table(rows))
        done = [r for r in rows if r["time_to_target_s"]]
        if done:
            fastest = min(done, key=lambda r: float(r["time_to_target_s"]))
            sys.stdout.write(f"fastest: innerSteps {fastest['innerSteps']}, "
                             f"{fastest['updateFormat']}, {fastest['capabilities']}, "
                             f"{fastest['time_to_target_s']} s\n")
        sys.stdout.write(f"not reached: {len(rows) - len(done)} of {len(rows)}\n")
        print(f"recipes: wrote {table}", file=sys.stderr)
        draw(rows, target, how, figure_subtitle(spec, points), figure)
    except InputError as e:
        print(f"recipes: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:  # the inputs are read above with their own messages: an output
        print(f"recipes: error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    expected = spec_points(spec)
    if expected and len(points) < expected:
        print(f"recipes: {expected - len(points)} of the spec's {expected} points are not "
              f"done (no row in results.csv) and are not in the table", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
