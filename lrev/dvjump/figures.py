"""Figures of the `dvjump` study.

- one box-plot figure per workload, ``dvjump_<workload>``: request latency by hit-count bucket and
  contender, drawn as the seed drew them (box: 25th-75th percentile, line: median, whiskers: minimum and
  95th percentile; no outliers), on the full corpus;
- ``dvjump_positions``: the mechanism, the cost of reading one value with a fresh reader by docID
  position, per field and contender;
- ``dvjump_gain``: each system's latency ÷ the baseline's (no jump tables), paired by round, by
  workload and bucket (95% CI).

CLI: ``python -m lrev.figures dvjump --results RESULTS --settings JSON --out FIGDIR``
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.ticker import FuncFormatter, MaxNLocator

from lrev import plots
from lrev.dvjump import layout, summary
from lrev.dvjump.summary import DvjResults

EXTRA = ("dvjump_positions", "dvjump_gain")


def names(workloads: Sequence[str]) -> list[str]:
    """Every figure drawn for these workloads; Snakemake declares FIGDIR/<name>.<fmt> for each."""
    return [f"dvjump_{w}" for w in workloads] + list(EXTRA)


def _order(frame: pd.DataFrame) -> list[str]:
    return [c for c in layout.CONTENDERS if c in set(frame["contender"])]


def _palette(contenders: Sequence[str]) -> dict[str, tuple]:
    return dict(zip(layout.CONTENDERS, sns.color_palette("tab10", len(layout.CONTENDERS))))


def _bucket_label(bucket: int) -> str:
    """A bucket as the hit count its requests ask for (100, 10,000); the export workload's one query as such."""
    return "export query" if bucket == layout.EXPORT_BUCKET else f"{10 ** bucket:,}"


def _name(contender: str) -> str:
    """A contender as the paper names it: its name and the Lucene version whose JVM reads."""
    return f"{contender} ({layout.contender(contender).version})"


def _hits_axis(buckets: Sequence[int]) -> str:
    return "" if list(buckets) == [layout.EXPORT_BUCKET] else "hits per request"


def workload_figure(data: DvjResults, workload: str) -> plt.Figure:
    """Latency per request by bucket and contender, the seed's box plots (box: quartiles, line: median,
    whiskers: minimum and 95th percentile; :func:`lrev.dvjump.summary.boxes`), log axis, full corpus."""
    table = summary.boxes(data.latency)
    table = table[(table["workload"] == workload) & (table["corpus"] == "full") & (table["threads"] == 1)
                  & (table["contender"] != layout.AA)]
    buckets = sorted(table["bucket"].unique())
    hue = _order(table)
    palette = _palette(hue)
    width = 0.8 / max(1, len(hue))
    fig, axes = plots.figure(height=2.8)
    ax = axes[0][0]
    for i, name in enumerate(hue):
        mine = table[table["contender"] == name].set_index("bucket")
        stats_ = [{"med": r["median"], "q1": r["q25"], "q3": r["q75"], "whislo": r["min"], "whishi": r["p95"],
                   "label": name} for _, r in mine.reindex(buckets).dropna().iterrows()]
        positions = [buckets.index(b) - 0.4 + width * (i + 0.5) for b in mine.reindex(buckets).dropna().index]
        drawn = ax.bxp(stats_, positions=positions, widths=width * 0.9, showfliers=False, patch_artist=True,
                       manage_ticks=False)
        for box in drawn["boxes"]:
            box.set(facecolor=palette[name], linewidth=0.6)
        for line in drawn["medians"]:
            line.set(color="black", linewidth=0.8)
        ax.plot([], [], color=palette[name], lw=6, label=_name(name))
    ax.set_xticks(range(len(buckets)), [_bucket_label(b) for b in buckets])
    plots.log_y(ax)
    ax.set(title=f"{workload}: latency per request", xlabel=_hits_axis(buckets), ylabel="ms")
    plots.legend_above(fig, plots.entries([ax]))
    return fig


def positions_figure(data: DvjResults) -> plt.Figure:
    """Cost of one read with a fresh reader by docID position, a panel per field, two to a row (log axis)."""
    rows = data.positions.groupby(["field", "contender", "doc"], as_index=False, sort=False)["nanos"].median()
    hue = _order(rows)
    fields = list(dict.fromkeys(rows["field"]))
    fig, axes = plots.panels(len(fields), per_row=2, height=2.0)
    for ax, field in zip(axes, fields):
        mine = rows[rows["field"] == field]
        sns.lineplot(mine.assign(system=mine["contender"].map(_name)), x="doc", y="nanos", hue="system",
                     hue_order=[_name(c) for c in hue], palette={_name(c): color for c, color in _palette(hue).items()},
                     errorbar=None, ax=ax)
        plots.log_y(ax)
        # Three plain docIDs (0, 10,000,000, 20,000,000): more would run into each other at this width.
        ax.xaxis.set_major_locator(MaxNLocator(3))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: plots.plain(x)))
        ax.set(title=field, xlabel="", ylabel="")
    fig.supxlabel("docID")
    fig.supylabel("ns per read (median)")
    plots.legend_above(fig, plots.entries(axes))
    return fig


def gain_figure(data: DvjResults) -> plt.Figure:
    """Baseline latency ÷ each system's, per workload and bucket, paired by round (95% CI, log axis), a panel per
    workload, two to a row."""
    base = (layout.contender(layout.BASELINE).version, layout.BASELINE)
    parts = []
    for name in _order(data.latency):
        if name in (layout.BASELINE, layout.AA):
            continue
        ratio = summary.ratio(data.latency, base, (layout.CONTENDERS[name].version, name))
        parts.append(ratio[(ratio["corpus"] == "full") & (ratio["threads"] == 1)].assign(contender=name))
    table = pd.concat(parts, ignore_index=True).sort_values("bucket", kind="stable")
    hue = [c for c in layout.CONTENDERS if c in set(table["contender"])]
    rows = plots.interval_rows(table.assign(hits=table["bucket"].map(_bucket_label),
                                            system=table["contender"].map(_name)))
    workloads = list(dict.fromkeys(table["workload"]))
    fig, axes = plots.panels(len(workloads), per_row=2, height=1.8)
    for ax, workload in zip(axes, workloads):
        mine = rows[rows["workload"] == workload]
        # Each panel shows its own buckets, in hit-count order.
        sns.pointplot(mine, x="hits", y="value", hue="system", order=list(dict.fromkeys(mine["hits"])),
                      hue_order=[_name(c) for c in hue],
                      palette={_name(c): color for c, color in _palette(hue).items()},
                      estimator="median", errorbar=plots.span, dodge=plots.dodge(len(hue)), linestyle="none",
                      markersize=4, capsize=0.1, err_kws={"linewidth": 1}, ax=ax)
        plots.log_y(ax)
        ax.axhline(1.0, color="0.4", linestyle="-", linewidth=0.8)
        ax.set(title=workload, xlabel="", ylabel="")
    fig.supxlabel("hits per request")
    fig.supylabel(f"{layout.BASELINE} ÷ system")
    plots.legend_above(fig, plots.entries(axes))
    return fig


def build(data: DvjResults, name: str) -> plt.Figure:
    if name == "dvjump_positions":
        return positions_figure(data)
    if name == "dvjump_gain":
        return gain_figure(data)
    return workload_figure(data, name.removeprefix("dvjump_"))


def write_all(results: Path, settings: dict[str, Any], out: Path) -> list[Path]:
    """Every figure of the configured workloads, from the results of the configured versions (:mod:`lrev.figures`)."""
    data = summary.load(results, settings["versions"])
    return [path for name in names(settings["workloads"]) for path in plots.save(build(data, name), out, name)]
