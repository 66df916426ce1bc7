#!/usr/bin/env python3
"""Figures from wan-training outputs (matplotlib, Agg backend). See doc/tools.rst.

  plot.py experiment DIR [--out DIR] [--topology FILE]
      DIR is an --output folder of examples/nine-city-training. Writes
      round-breakdown.png  per capability set, the mean round time (compute + sync, warm
                           rounds) of the optimiser, the baselines, the best TCP ring and the
                           colocated reference on one log time axis (fits 1600x1000 px)
      consensus.png        consensus distance (log) and loss against simulated time
                           (only when DIR has consensus.csv rows: --payload=real)
      link-utilisation.png WAN link utilisation of the optimiser's schedule, one map per
                           capability set on one page (fits 1600x1000 px)
      link-utilisation-all.png  the same maps for every other schedule (when there are any)
  plot.py sweep RESULTS.csv --x FLAG --y METRIC [--by COLUMN] [--where FLAG=VALUE ...]
                            [--out FILE] [--logx|--linx] [--logy]
      A metric of a sweep's results.csv against one parameter, one line per capability set
      (and per value of every other parameter that varies, so points are never averaged).
  plot.py breakdown RESULTS.csv [--where FLAG=VALUE ...] [--out FILE]
      The round-time breakdown of a sweep: one bar per capability set and schedule.
  plot.py buffer-sensitivity RESULTS.csv [--out FILE]
      The optimiser's gain over the best TCP ring against --queue, one line per capability
      set and model size (a tools/buffer-sensitivity.py sweep; reads its points' summaries).

Exit status 1 with a one-line message for missing or unreadable inputs.
"""

import argparse
import csv
import json
import math
import os
import re
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's python3-matplotlib lives here
REEXEC_ENV = "WAN_TRAINING_PLOT_REEXEC"

DPI = 120
BAR_WIDTH = 0.6
MAX_LINK_WIDTH_PT = 8.0
MIN_LINK_WIDTH_PT = 1.0
LABEL_OFFSET_PT = 9.0
LABEL_NEIGHBOUR_DEG = 20.0  # cities closer than this (in degrees) push labels apart
CAPABILITY_COLOURS = {"none": "#4c72b0", "multicast": "#dd8452", "fpga": "#55a868",
                      "both": "#c44e52"}
LINE_STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
ENG_FORMAT_FROM = 1e4  # x values this large get SI prefixes (4 M, not 4e6)
LOG_AXIS_SPAN = 100.0  # numeric axes spanning at least this ratio are drawn log-scaled

# Units of the contract's summary fields and of the example's flags, for axis labels.
UNITS = {
    "modelBytes": "bytes", "computeTime": "s", "wanBandwidth": "bit/s",
    "accessBandwidth": "bit/s", "lossRate": "probability per packet", "seed": "-",
    "rounds": "rounds", "epsilon": "-", "period": "rounds", "rounds_to_epsilon": "rounds",
    "queue_drops": "packets", "retransmissions": "packets", "lost_peers": "peers",
    "gap_to_colocated": "x colocated", "utilisation": "fraction", "bytes": "bytes",
}
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12, "fs": 1e-15,
              "min": 60.0, "h": 3600.0, "d": 86400.0, "y": 365 * 86400.0}
RATE_UNITS = {"bps": 1.0, "kbps": 1e3, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9, "Tbps": 1e12,
              "b/s": 1.0, "kb/s": 1e3, "Mb/s": 1e6, "Gb/s": 1e9, "B/s": 8.0, "kB/s": 8e3,
              "MB/s": 8e6, "GB/s": 8e9, "KiBps": 8192.0}


class InputError(Exception):
    """A missing or malformed input file: reported in one line, exit 1."""


def unit_of(name):
    name = name[len("result_"):] if name.startswith("result_") else name
    if name in UNITS:
        return UNITS[name]
    if name.endswith("_s"):
        return "s"
    return "-"


def label(name):
    return f"{name} ({unit_of(name)})"


def to_number(text):
    """A float from a CSV cell: plain numbers, ns-3 times (100ms) and rates (10Gbps)."""
    if text is None:
        return None
    text = str(text).strip()
    if text == "":
        return None
    try:
        value = float(text)
        return value if math.isfinite(value) else None  # nan, inf: not a number here
    except ValueError:
        pass
    match = re.fullmatch(r"([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z/]+)", text)
    if match:
        for table in (TIME_UNITS, RATE_UNITS):
            if match.group(2) in table:
                return float(match.group(1)) * table[match.group(2)]
    return None


# ---------------------------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------------------------


def read_csv(path, required_columns=()):
    if not os.path.isfile(path):
        raise InputError(f"{path}: file not found")
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            rows = []
            for row in reader:
                # A row with fewer or more fields than the header is not the program's.
                if None in row or None in row.values():
                    raise InputError(f"{path}:{reader.line_num}: {len(reader.fieldnames)} "
                                     f"columns in the header, not in this row")
                rows.append(row)
            columns = reader.fieldnames or []
    except (OSError, csv.Error, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read CSV: {e}")
    missing = [c for c in required_columns if c not in columns]
    if missing:
        raise InputError(f"{path}: missing column(s) {', '.join(missing)}")
    return rows, columns


def read_json(path):
    if not os.path.isfile(path):
        raise InputError(f"{path}: file not found")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{e.lineno}:{e.colno}: malformed JSON: {e.msg}")
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")


def resolve_topology(flag_value, summary, summary_path):
    """The topology file: --topology, else summary.json config.topology (relative paths are
    tried from the current folder, then from the repository root, where examples run)."""
    path = flag_value
    if not path:
        path = (summary.get("config") or {}).get("topology")
        if not path:
            raise InputError(f"{summary_path}: config.topology is missing; pass --topology")
    for candidate in (path, os.path.join(REPO_ROOT, path)):
        if os.path.isfile(candidate):
            return candidate
    raise InputError(f"topology file {path} not found (from "
                     f"{'--topology' if flag_value else summary_path + ' config.topology'})")


def load_topology(path):
    topo = read_json(path)
    try:
        cities = {c["code"]: (float(c["longitude"]), float(c["latitude"]), c.get("name", ""))
                  for c in topo["cities"]}
        # "links" is optional (doc/topology.rst): a one-city topology has none.
        links = [(link["a"], link["b"]) for link in topo.get("links", [])]
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"{path}: not a topology file (cities need code, latitude, "
                         f"longitude; links need a, b): {e}")
    for a, b in links:
        for code in (a, b):
            if code not in cities:
                raise InputError(f"{path}: link {a}-{b} names unknown city {code}")
    return cities, links


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def group_key(row):
    return (row.get("capabilities", ""), row.get("schedule", ""))


def key_label(key):
    caps, schedule = key
    return f"{caps} / {schedule}" if schedule else caps


def series_styles(keys):
    """Line style per (capabilities, schedule) key: one colour per capability set, one line
    style and marker per schedule, so that a dozen series stay apart."""
    import matplotlib.pyplot as plt
    palette = plt.get_cmap("tab10").colors
    caps_order, schedule_order = [], []
    for caps, schedule in keys:
        if caps not in caps_order:
            caps_order.append(caps)
        if schedule not in schedule_order:
            schedule_order.append(schedule)
    lines, markers = ["-", "--", ":", "-."], ["o", "s", "^", "D"]
    styles = {}
    for caps, schedule in keys:
        c, k = caps_order.index(caps), schedule_order.index(schedule)
        styles[(caps, schedule)] = dict(color=palette[c % len(palette)],
                                        linestyle=lines[k % len(lines)],
                                        marker=markers[k % len(markers)])
    return styles


PANELS_KEY = "wan-training panels"  # PNG text chunk: the figure's panels, for the tests


def panels_of(fig):
    """The visible panels of a figure with a title: [{"title", "rows", "legend"}], rows the
    y tick labels set on it (the bars of a breakdown), legend its legend's labels. Written
    into the PNG, so the tests can check what was drawn without matplotlib."""
    from matplotlib.ticker import FixedFormatter, FuncFormatter
    found = []
    for ax in fig.get_axes():
        title = ax.get_title("left") or ax.get_title()
        if ax.get_visible() and title:
            # Labels set as a list (matplotlib keeps them in a Fixed- or FuncFormatter), not
            # numbers on a scale.
            fixed = isinstance(ax.yaxis.get_major_formatter(), (FixedFormatter, FuncFormatter))
            legend = ax.get_legend()
            found.append({"title": title,
                          "rows": [t.get_text() for t in ax.get_yticklabels()] if fixed else [],
                          "legend": [t.get_text() for t in legend.get_texts()] if legend
                          else []})
    return found


def save(fig, path):
    fig.savefig(path, dpi=DPI, bbox_inches="tight",
                metadata={PANELS_KEY: json.dumps(panels_of(fig))})
    import matplotlib.pyplot as plt
    plt.close(fig)
    print(f"plot: wrote {path}", file=sys.stderr)


def breakdown_figure(bars, title, path, note="", gains=None):
    """bars: list of (label, compute_s, sync_s, estimated_sync_s or None); gains: per bar
    index, a text written above it (the gain over another transport), or none."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(bars) + 2.5), 4.8))
    xs = list(range(len(bars)))
    compute = [b[1] for b in bars]
    sync = [b[2] for b in bars]
    ax.bar(xs, compute, width=BAR_WIDTH, color="#4c72b0", label="compute")
    ax.bar(xs, sync, width=BAR_WIDTH, bottom=compute, color="#dd8452", label="sync (measured)")
    ax.set_xlim(-0.5 - BAR_WIDTH, len(bars) - 0.5 + BAR_WIDTH)  # one bar stays a bar
    est = [(x, b[1] + b[3]) for x, b in zip(xs, bars) if b[3] is not None]
    if est:
        ax.scatter([e[0] for e in est], [e[1] for e in est], marker="_", s=600, linewidths=2.5,
                   color="black", zorder=3, label="compute + sync estimated by the cost model")
    for x, text in (gains or {}).items():
        top = bars[x][1] + max(bars[x][2], bars[x][3] or 0.0)
        ax.annotate(text, (x, top), xytext=(0, 4), textcoords="offset points", ha="center",
                    va="bottom", fontsize=8)
    ax.set_xticks(xs)
    ax.set_xticklabels([b[0] for b in bars], rotation=30 if len(bars) > 4 else 0,
                       ha="right" if len(bars) > 4 else "center")
    ax.set_xlabel("capability set / schedule")
    ax.set_ylabel("mean time per round (s)")
    ax.set_title(title + (f"\n{note}" if note else ""))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="y", alpha=0.3)
    save(fig, path)


KIND_COLOURS = {"optimal": "#c44e52", "baseline": "#4c72b0", "tcp": "#8c8c8c",
                "colocated": "#55a868"}
KIND_LEGEND = {"optimal": "the optimiser's schedule", "baseline": "baseline schedule",
               "tcp": "best TCP ring (warm rounds)", "colocated": "colocated reference"}
BREAKDOWN_BAR_IN = 0.25  # inches per bar of round-breakdown.png (30 px at 120 dpi)
BREAKDOWN_WIDTH_IN = 12.5
MAX_FIGURE_PX = (1600, 1000)  # the one-screen figures: round-breakdown, link-utilisation


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and \
        math.isfinite(value)


def is_tcp(entry):
    return entry.get("transport") == "tcp"


def island_means(rows):
    """Per (capabilities, schedule): {round: [(compute_s, sync_s) per finished island row]}."""
    found = {}
    for row in rows:
        start, sync_start, sync_end = (to_number(row.get(c)) for c in
                                       ("compute_start_s", "sync_start_s", "sync_end_s"))
        rnd = to_number(row.get("round"))
        if None in (start, sync_start, sync_end):
            continue
        found.setdefault(group_key(row), {}).setdefault(int(rnd or 0), []).append(
            (sync_start - start, sync_end - sync_start))
    return found


def best_tcp(entries, caps):
    """The TCP ring a capability set is compared with: among the tcp results of the set (else
    of the passive WAN, none, where --baselineTransports=tcp runs them once), the one marked
    best_tcp, else the fastest to epsilon (else per round)."""
    candidates = [e for e in entries if is_tcp(e) and e.get("capabilities") == caps] or \
        [e for e in entries if is_tcp(e) and e.get("capabilities") == "none"]
    if not candidates:
        return None
    marked = [e for e in candidates if e.get("best_tcp") is True]
    if marked:
        return marked[0]

    def speed(entry):
        tte, mean = entry.get("time_to_epsilon_s"), entry.get("mean_round_s")
        return (0, tte) if is_number(tte) else (1, mean if is_number(mean) else math.inf)
    return min(candidates, key=speed)


def gain_text(entry):
    """'337x' from gain_over.tcp, or ''."""
    gain = (entry.get("gain_over") or {}).get("tcp") if isinstance(
        entry.get("gain_over"), dict) else None
    if not is_number(gain):
        return ""
    return f"{gain:.0f}x" if gain >= 10 else f"{gain:.1f}x"


def breakdown_panels(rows, summary):
    """The panels of round-breakdown.png: [(capability set, [bar, ...])], each bar a dict
    label, kind (optimal, baseline, tcp, colocated), compute_s, sync_s (island means over
    the warm rounds of rounds.csv), estimate_s (compute + estimated_sync_s, or None), cold_s
    (island mean of the warmup rounds, or None), gain (text) and a note.

    One panel per capability set; in each, its schedules (the optimiser's first), then the
    best TCP ring (from the passive WAN when TCP ran once there), then the colocated
    reference."""
    entries = [e for e in summary.get("results") or [] if isinstance(e, dict)]
    if not entries:
        raise InputError("summary.json has no results")
    means = island_means(rows)
    if not means:
        raise InputError("rounds.csv has no rows with compute_start_s, sync_start_s, sync_end_s")
    plain = [e for e in entries if not is_tcp(e) and e.get("capabilities") != "colocated"]
    sets = []
    for entry in plain or [e for e in entries if e.get("capabilities") != "colocated"]:
        if entry.get("capabilities", "") not in sets:
            sets.append(entry.get("capabilities", ""))
    colocated = [e for e in entries if e.get("capabilities") == "colocated"]

    def bar(entry, kind, label):
        key = (entry.get("capabilities", ""), entry.get("schedule", ""))
        per_round = means.get(key, {})
        warmup = entry.get("warmup_rounds") if is_number(entry.get("warmup_rounds")) else 0
        warm = [v for r, vs in per_round.items() if r >= warmup for v in vs]
        cold = [v for r, vs in per_round.items() if r < warmup for v in vs]
        note = ""
        if not warm:  # only cold rounds ran (e.g. --baselineRounds=1): shown, and said so
            warm, cold, note = cold, [], " (cold rounds only)"
        elif is_tcp(entry) and set(per_round) == {0}:  # one round, not marked as warmup
            note = " (one round: cold)"
        if not warm:
            return None
        if entry.get("complete") is False:  # unfinished rounds or lost peers: said on the bar
            note += " (partial)"
        compute = sum(v[0] for v in warm) / len(warm)
        sync = sum(v[1] for v in warm) / len(warm)
        estimate = entry.get("estimated_sync_s")
        return {"label": label + note, "kind": kind, "compute_s": compute, "sync_s": sync,
                "estimate_s": compute + estimate if is_number(estimate) else None,
                "cold_s": sum(a + b for a, b in cold) / len(cold) if cold else None,
                "gain": "" if kind == "tcp" else gain_text(entry)}

    panels = []
    passive = False  # a panel shows a TCP ring that ran on the passive WAN (none)
    for caps in sets:
        own = [e for e in entries if e.get("capabilities") == caps and
               (not is_tcp(e) or not plain)]
        own.sort(key=lambda e: e.get("schedule") != "optimal")  # stable: the optimiser first
        bars = [bar(e, "optimal" if e.get("schedule") == "optimal" else "baseline",
                    e.get("schedule", "")) for e in own]
        tcp = best_tcp(entries, caps) if plain else None
        if tcp is not None:
            variants = sum(1 for e in entries if is_tcp(e) and
                           e.get("capabilities") == tcp.get("capabilities"))
            of = f", best of {variants}" if variants > 1 else ""
            bars.append(bar(tcp, "tcp", f"{tcp.get('schedule', 'tcp')}{of}"))
            passive |= tcp.get("capabilities") != caps
        bars += [bar(e, "colocated", f"colocated / {e.get('schedule', '')}") for e in colocated]
        bars = [b for b in bars if b is not None]
        if bars:
            panels.append((caps, bars))
    if not panels:
        raise InputError("rounds.csv has no finished rows for the results of summary.json")
    return panels, passive


def plot_round_breakdown(rows, summary, path):
    """round-breakdown.png: one panel per capability set, a horizontal bar per schedule (the
    optimiser's, the baselines, the best TCP ring, the colocated reference) on one shared log
    time axis, so that 0.1 s and 50 s rounds are both readable and equal ratios are equal
    distances; see doc/tools.rst."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    panels, passive = breakdown_panels(rows, summary)
    sizes = [len(bars) for _, bars in panels]
    # At most MAX_FIGURE_PX high: many bars get thinner rather than the figure taller.
    height = min(BREAKDOWN_BAR_IN * sum(sizes) + 0.42 * len(panels) + 1.6,
                 MAX_FIGURE_PX[1] / DPI - 0.1)
    fig, axes = plt.subplots(len(panels), 1, sharex=True, squeeze=False,
                             figsize=(BREAKDOWN_WIDTH_IN, height),
                             gridspec_kw={"height_ratios": sizes})
    values = [v for _, bars in panels for b in bars for v in
              (b["compute_s"], b["compute_s"] + b["sync_s"], b["estimate_s"], b["cold_s"])
              if v is not None and v > 0]
    low, high = min(values), max(values)
    has = {"estimate": False, "cold": False}
    kinds = []
    for (caps, bars), ax in zip(panels, axes[:, 0]):
        ys = list(range(len(bars)))[::-1]  # first bar on top
        for y, b in zip(ys, bars):
            total = b["compute_s"] + b["sync_s"]
            ax.barh(y, total, height=0.7, color=KIND_COLOURS[b["kind"]], zorder=2)
            # Where compute ends (the rest of the bar is sync): a white notch in the bar.
            ax.plot([b["compute_s"]] * 2, [y - 0.35, y + 0.35], color="white", linewidth=1.6,
                    zorder=3)
            if b["estimate_s"] is not None:
                has["estimate"] = True
                ax.plot([b["estimate_s"]], [y], marker="|", markersize=15, mew=2.2,
                        color="black", zorder=4, linestyle="None")
            if b["cold_s"] is not None:
                has["cold"] = True
                ax.plot([total, b["cold_s"]], [y, y], color="black", linewidth=0.8,
                        linestyle=":", zorder=3)
                ax.plot([b["cold_s"]], [y], marker="D", markersize=6, markerfacecolor="white",
                        markeredgecolor="black", zorder=4, linestyle="None")
            if b["kind"] not in kinds:
                kinds.append(b["kind"])
            # The numbers, in two columns right of the panel: round time, then the gain (or
            # TCP's cold first round).
            ax.annotate(f"{total:.3g} s", (1.01, y), xycoords=("axes fraction", "data"),
                        va="center", ha="left", fontsize=9)
            extra = b["gain"] or (f"cold: {b['cold_s']:.3g} s" if b["cold_s"] is not None
                                  else "")
            ax.annotate(extra, (1.09, y), xycoords=("axes fraction", "data"), va="center",
                        ha="left", fontsize=9)
        ax.set_yticks(ys)
        ax.set_yticklabels([b["label"] for b in bars], fontsize=9)
        for tick, b in zip(ax.get_yticklabels(), bars):
            if b["kind"] == "optimal":
                tick.set_fontweight("bold")
        ax.set_ylim(-0.6, len(bars) - 0.4)
        ax.set_xscale("log")
        ax.grid(axis="x", which="major", alpha=0.4, zorder=0)
        ax.grid(axis="x", which="minor", alpha=0.12, zorder=0)
        ax.set_title(f"capabilities: {caps}", fontsize=10, loc="left", pad=3)
    gains = any(b["gain"] for _, bars in panels for b in bars)
    headers = [(1.01, "per round")]
    if gains:
        headers.append((1.09, "gain over the best TCP\n(its time to ε / the row's)"))
    elif has["cold"]:
        headers.append((1.09, "TCP's cold round"))
    for x, text in headers:
        axes[0][0].annotate(text, (x, 1.0), xycoords="axes fraction", va="bottom", ha="left",
                            fontsize=8, color="dimgray")
    ax = axes[-1][0]
    ax.set_xlim(low / 1.6, high * 1.6)
    narrow = high / low < 20  # then 1-2-3-5 ticks, else 1-2-5
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 3.0, 5.0) if narrow
                                          else (1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("mean time per island-round, compute + sync, warm rounds (s, log scale)")
    legend = dict(KIND_LEGEND)
    if "optimal" not in kinds:
        legend["baseline"] = "schedule"
    if passive:
        legend["tcp"] = "best TCP ring, warm rounds (it ran once, on the passive WAN)"
    handles = [Patch(color=KIND_COLOURS[k], label=legend[k]) for k in
               ("optimal", "baseline", "tcp", "colocated") if k in kinds]
    handles.append((Patch(color="#bbbbbb"),
                    Line2D([], [], color="white", marker="|", markersize=11, mew=2,
                           linestyle="None")))
    labels = [h.get_label() for h in handles[:-1]] + ["end of compute (the rest is sync)"]
    if has["estimate"]:
        handles.append(Line2D([], [], color="black", marker="|", markersize=12, mew=2.2,
                              linestyle="None"))
        labels.append("cost model: compute + estimated sync")
    if has["cold"]:
        handles.append(Line2D([], [], color="black", marker="D", markersize=6,
                              markerfacecolor="white", linestyle="None"))
        labels.append("TCP's cold first round (not in the bar)")
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=9, frameon=False,
               bbox_to_anchor=(0.5, 0.0))
    config = summary.get("config") or {}
    shown = ["modelBytes", "rounds", "mtu"]
    if config.get("baselineRounds") not in (None, 0, config.get("rounds")):
        shown.insert(2, "baselineRounds")
    shown += [k for k in ("accessBandwidth", "wanBandwidth") if config.get(k)]  # "": the file's
    if config.get("tcpBaselineMtu") not in (None, 0, config.get("mtu")):
        shown.insert(shown.index("mtu") + 1, "tcpBaselineMtu")  # the TCP rings' own frames
    detail = ", ".join(f"{k}={config[k]}" for k in shown if k in config)
    if "queue" in config:
        detail += ", queue=" + (config["queue"] or "the topology file's")
    if "optimal" in kinds:
        title = "Round time per capability set: the optimiser's schedule against the baselines"
    else:
        title = "Round time per capability set and schedule"
    fig.suptitle(f"{title}\n{detail}", fontsize=11)
    bottom = (0.6 + 0.2 * math.ceil(len(labels) / 3)) / height
    fig.subplots_adjust(left=0.2, right=0.8, top=1 - 0.75 / height, bottom=bottom,
                        hspace=0.45 * len(panels) / max(1, sum(sizes)) * 4)
    save(fig, path)


def plot_consensus(rows, path):
    import matplotlib.pyplot as plt
    series = {}
    for row in rows:
        t, d, loss = (to_number(row.get(c)) for c in ("time_s", "consensus_distance", "loss"))
        if t is None:
            continue
        series.setdefault(group_key(row), []).append((t, d, loss))
    has_loss = any(p[2] is not None for pts in series.values() for p in pts)
    fig, axes = plt.subplots(2 if has_loss else 1, 1, sharex=True,
                             figsize=(8.0, 6.5 if has_loss else 4.0), squeeze=False)
    ax_d = axes[0][0]
    positive = [p[1] for pts in series.values() for p in pts if p[1] is not None and p[1] > 0]
    floor = min(positive) / 10.0 if positive else 1e-12
    clipped = False
    styles = series_styles(list(series))
    for key, pts in series.items():
        pts.sort()
        ds = [(t, d) for t, d, _ in pts if d is not None]
        clipped |= any(d <= 0 for _, d in ds)
        ax_d.plot([t for t, _ in ds], [max(d, floor) for _, d in ds], markersize=4,
                  label=key_label(key), **styles[key])
    ax_d.set_yscale("log")
    ax_d.set_ylabel("consensus distance (-, log)")
    ax_d.set_title("Consensus distance" + (" and loss" if has_loss else "") +
                   " against simulated time" +
                   (f"\n(exact consensus, distance 0, drawn at {floor:.1e})" if clipped else ""))
    ax_d.grid(alpha=0.3, which="both")
    # One legend for both panels (same series); identical runs draw on top of each other.
    ax_d.legend(title="capabilities / schedule\n(colour / line; identical\nruns overlap)", loc="upper left",
                bbox_to_anchor=(1.01, 1.0))
    if has_loss:
        ax_l = axes[1][0]
        for key, pts in series.items():
            ls = [(t, loss) for t, _, loss in pts if loss is not None]
            ax_l.plot([t for t, _ in ls], [v for _, v in ls], markersize=4,
                      label=key_label(key), **styles[key])
        ax_l.set_ylabel("training loss (-)")
        ax_l.grid(alpha=0.3)
    axes[-1][0].set_xlabel("simulated time (s)")
    save(fig, path)


def split_at_antimeridian(lon_a, lat_a, lon_b, lat_b):
    """Line segments for a link; a link shorter across the +-180 meridian is drawn that way."""
    if abs(lon_b - lon_a) <= 180.0:
        return [((lon_a, lon_b), (lat_a, lat_b))]
    edge = -180.0 if lon_a < 0 else 180.0
    lon_b_unwrapped = lon_b - 360.0 if lon_a < 0 else lon_b + 360.0
    frac = (edge - lon_a) / (lon_b_unwrapped - lon_a)
    lat_c = lat_a + frac * (lat_b - lat_a)
    return [((lon_a, edge), (lat_a, lat_c)), ((-edge, lon_b), (lat_c, lat_b))]


def label_direction(code, cities):
    """Unit direction for a city's label: away from the cities near it (so the labels of a
    cluster such as LON/AMS/FRA spread out), up-right for an isolated city."""
    lon, lat, _ = cities[code]
    near = [(c[0], c[1]) for other, c in cities.items() if other != code and
            math.hypot(c[0] - lon, c[1] - lat) < LABEL_NEIGHBOUR_DEG]
    if not near:
        return (0.7071, 0.7071)
    dx = lon - sum(p[0] for p in near) / len(near)
    dy = lat - sum(p[1] for p in near) / len(near)
    norm = math.hypot(dx, dy)
    if norm == 0:
        return (0.7071, 0.7071)
    return (dx / norm, dy / norm)


def link_panels(rows):
    """{(capabilities, schedule): {(city, city): utilisation of the busier direction}}."""
    panels = {}
    for row in rows:
        util = to_number(row.get("utilisation"))
        if util is None and (row.get("utilisation") or "").strip():
            raise InputError(f"links.csv: utilisation {row['utilisation']!r} is not a number")
        a, b = row.get("from", ""), row.get("to", "")
        if (not a or not b) and "-" in row.get("link", ""):
            a, b = row["link"].split("-", 1)
        if util is None or not a or not b:
            continue
        pair = tuple(sorted((a, b)))
        panel = panels.setdefault(group_key(row), {})
        panel[pair] = max(panel.get(pair, 0.0), util)  # the busier direction
    if not panels:
        raise InputError("links.csv has no rows with from, to and utilisation")
    return panels


def main_map_keys(panels, summary):
    """The maps of link-utilisation.png: per capability set, the optimiser's schedule (the
    schedule asked for, config.schedule, when it was not optimal; else the set's first).
    Sets whose only runs are TCP rings (the passive WAN of --baselineTransports=tcp when
    --capabilities named another set) and the colocated reference get no map, unless
    nothing else is there."""
    wanted = (summary.get("config") or {}).get("schedule") or "optimal"
    tcp = {(e.get("capabilities", ""), e.get("schedule", "")) for e in
           summary.get("results") or [] if isinstance(e, dict) and is_tcp(e)}
    candidates = [k for k in panels if k[0] != "colocated" and k not in tcp] or \
        [k for k in panels if k[0] != "colocated"] or list(panels)
    chosen = {}
    for caps, schedule in candidates:
        if schedule in ("optimal", wanted) and chosen.get(caps, ("", ""))[1] != "optimal":
            chosen[caps] = (caps, schedule)
    for caps, schedule in candidates:  # a set without either: its first schedule
        chosen.setdefault(caps, (caps, schedule))
    return list(chosen.values())


def plot_link_map(panels, keys, cities, links, topo_path, path, ncols, panel_in, title,
                  max_px=None):
    """One map per key of panels, ncols per row, each panel_in (width, height) inches; the
    colour and width scale is shared by the maps of the figure. max_px: (width, height) the
    saved image must not exceed (the figure is shrunk to fit)."""
    import matplotlib.pyplot as plt
    from matplotlib import cm, colors
    ncols = min(ncols, len(keys))
    nrows = math.ceil(len(keys) / ncols)
    width, height = panel_in[0] * ncols + 1.6, panel_in[1] * nrows + 1.3
    if max_px:
        scale = min(1.0, (max_px[0] / DPI - 0.2) / width, (max_px[1] / DPI - 0.2) / height)
        width, height = width * scale, height * scale
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False)
    vmax = max(1e-9, max(u for k in keys for u in panels[k].values()))
    norm = colors.Normalize(vmin=0.0, vmax=vmax)  # the busiest link gets the widest line
    cmap = plt.get_cmap("plasma_r")
    crosses = False
    for index, key in enumerate(keys):
        ax = axes[index // ncols][index % ncols]
        utils = panels[key]
        for a, b in links:
            pair = tuple(sorted((a, b)))
            (lon_a, lat_a, _), (lon_b, lat_b, _) = cities[a], cities[b]
            segments = split_at_antimeridian(lon_a, lat_a, lon_b, lat_b)
            crosses |= len(segments) > 1
            util = utils.get(pair)
            for xs, ys in segments:
                if util is None:
                    ax.plot(xs, ys, color="lightgray", linestyle="--", linewidth=1.0, zorder=1)
                else:
                    line = MIN_LINK_WIDTH_PT + (MAX_LINK_WIDTH_PT - MIN_LINK_WIDTH_PT) * \
                        min(1.0, util / norm.vmax)
                    ax.plot(xs, ys, color=cmap(norm(util)), linewidth=line,
                            solid_capstyle="round", zorder=2)
        lons = [c[0] for c in cities.values()]
        lats = [c[1] for c in cities.values()]
        ax.scatter(lons, lats, s=30, color="black", zorder=3)
        for code, (lon, lat, _) in cities.items():
            dx, dy = label_direction(code, cities)
            ax.annotate(code, (lon, lat), xytext=(LABEL_OFFSET_PT * dx, LABEL_OFFSET_PT * dy),
                        textcoords="offset points", fontsize=8, fontweight="bold", zorder=4,
                        ha="left" if dx > 0.3 else ("right" if dx < -0.3 else "center"),
                        va="bottom" if dy > 0.3 else ("top" if dy < -0.3 else "center"),
                        bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.8))
        if crosses:
            ax.set_xlim(-180, 180)
        else:
            ax.set_xlim(min(lons) - 15, max(lons) + 15)
        ax.set_ylim(max(-90, min(lats) - 12), min(90, max(lats) + 12))
        # Degrees on the outer panels only: the maps share their extent.
        if index // ncols == nrows - 1 or index + ncols >= len(keys):
            ax.set_xlabel("longitude (°)", fontsize=9)
        if index % ncols == 0:
            ax.set_ylabel("latitude (°)", fontsize=9)
        ax.tick_params(labelsize=8)
        ax.set_title(f"capabilities / schedule: {key_label(key)}", fontsize=10)
        ax.grid(alpha=0.3)
    for index in range(len(keys), nrows * ncols):
        axes[index // ncols][index % ncols].set_visible(False)
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=cmap(norm(f * norm.vmax)),
                      linewidth=MIN_LINK_WIDTH_PT + (MAX_LINK_WIDTH_PT - MIN_LINK_WIDTH_PT) * f,
                      label=f"utilisation {f * norm.vmax:.2g}") for f in (0.25, 0.5, 1.0)]
    handles.append(Line2D([], [], color="lightgray", linestyle="--", label="no traffic recorded"))
    fig.subplots_adjust(left=0.9 / width, right=1 - 1.5 / width, top=1 - 0.75 / height,
                        bottom=0.95 / height, hspace=0.35, wspace=0.12)
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False,
               bbox_to_anchor=(0.5, 0.0), fontsize=9)
    cax = fig.add_axes([1 - 1.2 / width, 0.95 / height + 0.05, 0.15 / width,
                        1 - (0.75 + 0.95) / height - 0.1])
    fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), cax=cax,
                 label="link utilisation, busier direction\n(fraction of rate)")
    fig.suptitle(f"{title} ({os.path.basename(topo_path)})", fontsize=11)
    save(fig, path)


# ---------------------------------------------------------------------------------------------
# Sweep figures
# ---------------------------------------------------------------------------------------------


def sweep_parameters(results_path, columns):
    """Parameter columns of a results.csv: the grid flags of the spec.json beside it, else
    the columns between 'point' and the first result column."""
    spec_path = os.path.join(os.path.dirname(os.path.abspath(results_path)), "spec.json")
    if os.path.isfile(spec_path):
        spec = read_json(spec_path)
        params = list((spec.get("grid") or {})) + list((spec.get("fixed") or {}))
        return [c for c in params if c in columns]
    params = []
    for column in columns[1:]:
        if column.startswith("result_") or column in ("schedule_detail", "period",
                                                      "mean_round_s"):
            break
        params.append(column)
    return params


def apply_where(rows, where, path, columns):
    for clause in where or []:
        if "=" not in clause:
            raise InputError(f"--where {clause}: expected FLAG=VALUE")
        column, value = clause.split("=", 1)
        if column not in columns:
            raise InputError(f"--where {clause}: {path} has no column {column}")
        rows = [r for r in rows if r.get(column) == value]
    if not rows:
        raise InputError(f"{path}: no rows left after --where {' '.join(where)}")
    return rows


def capability_column(columns):
    return "result_capabilities" if "result_capabilities" in columns else "capabilities"


def plot_sweep(args):
    rows, columns = read_csv(args.results)
    if not rows:
        raise InputError(f"{args.results}: no rows (did the sweep finish any point?)")
    for column, flag in ((args.x, "--x"), (args.y, "--y")):
        if column not in columns:
            raise InputError(f"{flag} {column}: {args.results} has no such column; columns: "
                             f"{', '.join(columns)}")
    by = args.by or capability_column(columns)
    if by not in columns:
        raise InputError(f"--by {by}: {args.results} has no such column")
    rows = apply_where(rows, args.where, args.results, columns)
    params = sweep_parameters(args.results, columns)
    # Every other parameter that varies splits the lines: points are never averaged.
    by_param = by[len("result_"):] if by.startswith("result_") else by
    others = [p for p in params if p not in (args.x, by, by_param) and
              len({r.get(p) for r in rows}) > 1]
    if by.startswith("result_") and by_param in params and args.x != by_param:
        others = [p for p in others if p != by_param]
    xs_numeric = all(to_number(r[args.x]) is not None for r in rows)
    categories = []
    if not xs_numeric:
        for r in rows:
            if r[args.x] not in categories:
                categories.append(r[args.x])
    lines = {}
    for r in rows:
        y = to_number(r[args.y])
        if y is None:
            continue
        x = to_number(r[args.x]) if xs_numeric else categories.index(r[args.x])
        key = (r[by],) + tuple(f"{p}={r[p]}" for p in others)
        lines.setdefault(key, []).append((x, y))
    if not lines:
        raise InputError(f"--y {args.y}: no numeric values in {args.results} (null for this "
                         f"mode?)")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8.0, 5.0))
    # Colour: the --by value (capability set); line style and marker: the other parameters.
    by_values = sorted({k[0] for k in lines}, key=lambda v: (v not in CAPABILITY_COLOURS,
                                                             list(CAPABILITY_COLOURS).index(v)
                                                             if v in CAPABILITY_COLOURS else 0,
                                                             v))
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colour = {v: CAPABILITY_COLOURS.get(v, cycle[i % len(cycle)])
              for i, v in enumerate(by_values)}
    rest = sorted({k[1:] for k in lines})
    for key in sorted(lines, key=lambda k: (by_values.index(k[0]), rest.index(k[1:]))):
        pts = sorted(lines[key])
        style = rest.index(key[1:])
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour[key[0]],
                linestyle=LINE_STYLES[style % len(LINE_STYLES)],
                marker=MARKERS[style % len(MARKERS)], markersize=5, label=", ".join(key))
    xvals = [p[0] for pts in lines.values() for p in pts]
    logx = args.logx if args.logx is not None else (
        xs_numeric and min(xvals) > 0 and max(xvals) / min(xvals) >= LOG_AXIS_SPAN)
    if logx and xs_numeric:
        ax.set_xscale("log")
    if args.logy:
        ax.set_yscale("log")
    if xs_numeric and max(abs(x) for x in xvals) >= ENG_FORMAT_FROM:
        from matplotlib.ticker import EngFormatter
        ax.xaxis.set_major_formatter(EngFormatter())
    if not xs_numeric:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels(categories)
    ax.set_xlabel(label(args.x) if xs_numeric else args.x)
    ax.set_ylabel(label(args.y))
    sweep_name = os.path.basename(os.path.dirname(os.path.abspath(args.results)))
    where = f" [{', '.join(args.where)}]" if args.where else ""
    ax.set_title(f"{args.y} against {args.x} (sweep {sweep_name}){where}")
    ax.grid(alpha=0.3, which="both")
    legend_title = by_param + (" / " + ", ".join(others) if others else "")
    ax.legend(title=legend_title, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    out = args.out or os.path.join(os.path.dirname(os.path.abspath(args.results)),
                                   f"sweep-{args.y}-vs-{args.x}.png")
    save(fig, out)


def plot_sweep_breakdown(args):
    rows, columns = read_csv(args.results, ("mean_compute_s", "mean_sync_s"))
    if not rows:
        raise InputError(f"{args.results}: no rows")
    rows = apply_where(rows, args.where, args.results, columns)
    caps_col = capability_column(columns)
    sched_col = "result_schedule" if "result_schedule" in columns else "schedule"
    groups = {}
    for r in rows:
        c, s = to_number(r["mean_compute_s"]), to_number(r["mean_sync_s"])
        if c is None or s is None:
            continue
        e = to_number(r.get("estimated_sync_s"))
        acc = groups.setdefault((r.get(caps_col, ""), r.get(sched_col, "")), [0, 0, 0, 0, 0])
        acc[0] += c
        acc[1] += s
        acc[2] += 1
        if e is not None:
            acc[3] += e
            acc[4] += 1
    if not groups:
        raise InputError(f"{args.results}: no rows with mean_compute_s and mean_sync_s")
    bars = [(key_label(k), c / n, s / n, (e / ne) if ne == n else None)
            for k, (c, s, n, e, ne) in groups.items()]
    counts = sorted({v[2] for v in groups.values()})
    note = "" if counts == [1] else (f"mean over {'/'.join(map(str, counts))} sweep points per "
                                     f"bar; use --where to fix the other parameters")
    if args.where:
        note = (note + "\n" if note else "") + ", ".join(args.where)
    out = args.out or os.path.join(os.path.dirname(os.path.abspath(args.results)),
                                   "sweep-round-breakdown.png")
    breakdown_figure(bars, "Round time breakdown per capability set and schedule", out, note)


# ---------------------------------------------------------------------------------------------
# Buffer sensitivity (tools/buffer-sensitivity.py)
# ---------------------------------------------------------------------------------------------

SENSITIVITY_COLUMNS = ["capabilities", "modelBytes", "queue", "optimal_s", "best_tcp",
                       "tcp_s", "tcp_cold_s", "gain"]


def sweep_grid(results_path):
    """The spec.json beside a sweep's results.csv (its grid gives the order of the values)."""
    spec_path = os.path.join(os.path.dirname(os.path.abspath(results_path)), "spec.json")
    return read_json(spec_path) if os.path.isfile(spec_path) else {}


def sensitivity_rows(results_path):
    """One dict per done point of a buffer-sensitivity sweep (keys SENSITIVITY_COLUMNS):
    the point's queue, capability set and model size; the optimiser's mean round time; the
    best TCP ring (best_tcp) with its warm mean round time and cold first round; and the
    optimiser's gain over it (gain_over.tcp: the best TCP's time to epsilon over the
    optimiser's). Read from each point's output/summary.json (results.csv has no objects).
    Rows in the spec's grid order: capability set, model size, then queue."""
    rows, columns = read_csv(results_path, ("point", "queue", "capabilities", "modelBytes"))
    if not rows:
        raise InputError(f"{results_path}: no rows (did the sweep finish any point?)")
    folder = os.path.dirname(os.path.abspath(results_path))
    grid = (sweep_grid(results_path).get("grid") or {})
    caps_col = capability_column(columns)
    sched_col = "result_schedule" if "result_schedule" in columns else "schedule"
    out, summaries = [], {}
    for row in rows:
        if row.get(sched_col) != "optimal" or row.get("transport") == "tcp":
            continue
        point, caps = row["point"], row.get(caps_col, "")
        path = os.path.join(folder, "points", point, "output", "summary.json")
        if point not in summaries:
            summaries[point] = [e for e in read_json(path).get("results") or []
                                if isinstance(e, dict)]
        entries = summaries[point]
        optimal = [e for e in entries if e.get("schedule") == "optimal" and not is_tcp(e) and
                   e.get("capabilities") == caps]
        if not optimal:
            raise InputError(f"{path}: no optimal result for capabilities {caps}")
        entry = optimal[0]
        gain = (entry.get("gain_over") or {}).get("tcp")
        label = (entry.get("gain_over_label") or {}).get("tcp")
        tcp = [e for e in entries if is_tcp(e) and (label is None or e.get("schedule") == label)]
        best = ([e for e in tcp if e.get("best_tcp") is True] or tcp or [None])[0]
        if not is_number(gain) or best is None:
            raise InputError(f"{path}: the optimal result has no gain_over.tcp (was the point "
                             f"run with --baselineTransports=tcp?)")
        out.append({"capabilities": caps, "modelBytes": row["modelBytes"],
                    "queue": row["queue"], "optimal_s": entry.get("mean_round_s"),
                    "best_tcp": best.get("schedule", label), "tcp_s": best.get("mean_round_s"),
                    "tcp_cold_s": best.get("first_round_s"), "gain": gain})
    if not out:
        raise InputError(f"{results_path}: no rows of the optimal schedule")

    def order(name, value):
        values = [flag_text(v) for v in grid.get(name) or []]
        return (values.index(value), "") if value in values else (len(values), value)
    out.sort(key=lambda r: (order("capabilities", r["capabilities"]),
                            order("modelBytes", r["modelBytes"]), order("queue", r["queue"])))
    return out


def flag_text(value):
    """A spec value as the command line has it (as sweep.py writes it): 1e9 -> 1000000000."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def plot_buffer_sensitivity(args):
    """The optimiser's gain over the best TCP ring against --queue, one line per capability
    set and model size."""
    rows = sensitivity_rows(args.results)
    grid = sweep_grid(args.results).get("grid") or {}
    queues = [flag_text(v) for v in grid.get("queue") or []]
    queues += [q for q in dict.fromkeys(r["queue"] for r in rows) if q not in queues]
    queues = [q for q in queues if any(r["queue"] == q for r in rows)]
    lines = {}
    for r in rows:
        lines.setdefault((r["capabilities"], r["modelBytes"]), []).append(
            (queues.index(r["queue"]), r["gain"]))
    import matplotlib.pyplot as plt
    from matplotlib.ticker import EngFormatter
    fig, ax = plt.subplots(figsize=(8.5, 5.0))
    sizes = list(dict.fromkeys(k[1] for k in lines))
    for (caps, size), pts in lines.items():
        pts.sort()
        style = sizes.index(size)
        bytes_text = EngFormatter(unit="B", sep=" ")(to_number(size)) \
            if to_number(size) is not None else size
        ax.plot([p[0] for p in pts], [p[1] for p in pts],
                color=CAPABILITY_COLOURS.get(caps, "black"),
                linestyle=LINE_STYLES[style % len(LINE_STYLES)],
                marker=MARKERS[style % len(MARKERS)], markersize=6,
                label=f"{caps}, model {bytes_text}")
    gains = [r["gain"] for r in rows]
    if min(gains) > 0 and max(gains) / min(gains) >= 10:
        ax.set_yscale("log")
        from matplotlib.ticker import FuncFormatter
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.axhline(1.0, color="gray", linewidth=1, linestyle=":", zorder=0)
    ax.set_xticks(range(len(queues)))
    ax.set_xticklabels([q + (" (one bandwidth-delay\nproduct per link)" if q == "bdp" else "")
                        for q in queues])
    ax.set_xlabel("router and link queue buffer, --queue (time at line rate, or bdp)")
    ax.set_ylabel("gain over the best TCP ring (x, time to ε)")
    sweep_name = os.path.basename(os.path.dirname(os.path.abspath(args.results)))
    ax.set_title(f"The optimiser's gain over the best TCP ring against router buffers\n"
                 f"(sweep {sweep_name}; dotted: as fast as TCP)", fontsize=11)
    ax.grid(alpha=0.3, which="both")
    ax.legend(title="capabilities, model size", loc="upper left", bbox_to_anchor=(1.01, 1.0),
              fontsize=9)
    out = args.out or os.path.join(os.path.dirname(os.path.abspath(args.results)),
                                   "buffer-sensitivity.png")
    save(fig, out)


def plot_experiment(args):
    folder = args.dir
    if not os.path.isdir(folder):
        raise InputError(f"{folder}: experiment output folder not found")
    summary_path = os.path.join(folder, "summary.json")
    summary = read_json(summary_path)
    if not isinstance(summary, dict):
        raise InputError(f"{summary_path}: expected a JSON object with config and results")
    rounds, _ = read_csv(os.path.join(folder, "rounds.csv"),
                         ("compute_start_s", "sync_start_s", "sync_end_s"))
    links, _ = read_csv(os.path.join(folder, "links.csv"), ("utilisation",))
    topo_path = resolve_topology(args.topology, summary, summary_path)
    cities, topo_links = load_topology(topo_path)
    out = args.out or folder
    os.makedirs(out, exist_ok=True)
    plot_round_breakdown(rounds, summary, os.path.join(out, "round-breakdown.png"))
    consensus_path = os.path.join(folder, "consensus.csv")
    if os.path.isfile(consensus_path):
        consensus, _ = read_csv(consensus_path, ("time_s", "consensus_distance"))
        if consensus:
            plot_consensus(consensus, os.path.join(out, "consensus.png"))
        else:
            print(f"plot: {consensus_path} has no rows: no consensus.png", file=sys.stderr)
    else:
        print(f"plot: no {consensus_path} (virtual payload mode): no consensus.png",
              file=sys.stderr)
    if not links and not topo_links:
        # A topology without WAN links (one city): nothing to map.
        print("plot: the topology has no WAN links: no link-utilisation.png", file=sys.stderr)
        return
    panels = link_panels(links)
    keys = main_map_keys(panels, summary)
    schedules = sorted({k[1] for k in keys})
    what = "the optimiser's schedule" if schedules == ["optimal"] else \
        "schedule " + ", ".join(schedules)
    plot_link_map(panels, keys, cities, topo_links, topo_path,
                  os.path.join(out, "link-utilisation.png"), 2, (6.2, 3.4),
                  f"WAN link utilisation of {what}, per capability set", MAX_FIGURE_PX)
    # Every other schedule's map (baselines, TCP rings), for a closer look; not the
    # colocated reference, which has no WAN.
    others = [k for k in panels if k not in keys and k[0] != "colocated"]
    if others:
        plot_link_map(panels, others, cities, topo_links, topo_path,
                      os.path.join(out, "link-utilisation-all.png"), 4, (4.6, 2.6),
                      "WAN link utilisation of the other schedules", (1920, 4000))


def import_matplotlib(argv, script=__file__, reexec_env=REEXEC_ENV):
    """Imports matplotlib with the Agg backend; if this interpreter lacks it (e.g. a pyenv
    python3 first on PATH), re-runs \p script once with Debian's python3 (marked by the
    environment variable \p reexec_env, so it happens once)."""
    try:
        import matplotlib
    except ImportError:
        me = os.path.realpath(sys.executable)
        if (not os.environ.get(reexec_env) and os.path.exists(SYSTEM_PYTHON) and
                os.path.realpath(SYSTEM_PYTHON) != me):
            os.environ[reexec_env] = "1"
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(script)] + argv)
        raise InputError("matplotlib is not installed for this python3 "
                         "(Debian: apt-get install python3-matplotlib)")
    matplotlib.use("Agg")


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Figures from wan-training outputs "
                                                 "(see doc/tools.rst).")
    sub = parser.add_subparsers(dest="command", required=True)
    exp = sub.add_parser("experiment", help="figures of one experiment output folder")
    exp.add_argument("dir", help="the example's --output folder")
    exp.add_argument("--out", metavar="DIR", help="where to write the PNGs (default: DIR)")
    exp.add_argument("--topology", metavar="FILE",
                     help="topology JSON (default: summary.json config.topology)")
    swp = sub.add_parser("sweep", help="a metric against a parameter of a sweep")
    swp.add_argument("results", help="a sweep's results.csv")
    swp.add_argument("--x", required=True, metavar="FLAG", help="parameter on the x axis")
    swp.add_argument("--y", required=True, metavar="METRIC", help="results column on y")
    swp.add_argument("--by", metavar="COLUMN",
                     help="one line per value of this column (default: the capability set)")
    swp.add_argument("--where", action="append", metavar="FLAG=VALUE",
                     help="keep only rows with this value (repeatable)")
    swp.add_argument("--out", metavar="FILE", help="PNG to write "
                     "(default: sweep-<y>-vs-<x>.png beside results.csv)")
    scale = swp.add_mutually_exclusive_group()
    scale.add_argument("--logx", dest="logx", action="store_true", default=None,
                       help="log-scaled x axis (default: when x spans 100x or more)")
    scale.add_argument("--linx", dest="logx", action="store_false", help="linear x axis")
    swp.add_argument("--logy", action="store_true", help="log-scaled y axis")
    brk = sub.add_parser("breakdown", help="round-time breakdown of a sweep")
    brk.add_argument("results", help="a sweep's results.csv")
    brk.add_argument("--where", action="append", metavar="FLAG=VALUE",
                     help="keep only rows with this value (repeatable)")
    brk.add_argument("--out", metavar="FILE",
                     help="PNG to write (default: sweep-round-breakdown.png beside results.csv)")
    buf = sub.add_parser("buffer-sensitivity", help="gain over the best TCP against --queue "
                         "(a tools/buffer-sensitivity.py sweep)")
    buf.add_argument("results", help="the sweep's results.csv")
    buf.add_argument("--out", metavar="FILE",
                     help="PNG to write (default: buffer-sensitivity.png beside results.csv)")
    return parser.parse_args(argv)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    try:
        import_matplotlib(argv)
        if args.command == "experiment":
            plot_experiment(args)
        elif args.command == "sweep":
            plot_sweep(args)
        elif args.command == "buffer-sensitivity":
            plot_buffer_sensitivity(args)
        else:
            plot_sweep_breakdown(args)
    except InputError as e:
        print(f"plot: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:  # inputs are read with their own messages: this is an output
        print(f"plot: error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
