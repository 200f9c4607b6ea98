"""Figures of the `dvjump` study.

- one box-plot figure per workload, ``dvjump_<workload>``: request latency by hit-count bucket and
  contender, drawn as the seed drew them (box: 25th-75th percentile, line: median, whiskers: minimum and
  95th percentile; no outliers), on the full corpus;
- ``dvjump_positions``: the mechanism, the cost of reading one value with a fresh reader by docID
  position, per field and contender;
- ``dvjump_gain``: each system's latency ÷ the baseline's (no jump tables), paired by round, by
  workload and bucket (95% CI).

CLI: ``python -m lrev.dvjump.figures --results RESULTS --versions V … --workloads W … --out FIGDIR``
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

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
    return "export query" if bucket == layout.EXPORT_BUCKET else f"10^{bucket}"


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
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(buckets) * max(1, len(hue)) / 3), 3.6))
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
        ax.plot([], [], color=palette[name], lw=6, label=name)
    ax.set_xticks(range(len(buckets)), [_bucket_label(b) for b in buckets])
    ax.set_yscale("log")
    ax.set(title=f"{workload}: latency per request", xlabel="hits (bucket)", ylabel="ms")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=min(len(hue), 5), frameon=False, fontsize=7)
    fig.tight_layout()
    return fig


def positions_figure(data: DvjResults) -> plt.Figure:
    """Cost of one read with a fresh reader by docID position, per field (log axis)."""
    rows = data.positions
    fields = list(dict.fromkeys(rows["field"]))
    hue = _order(rows)
    fig, axes = plt.subplots(1, len(fields), figsize=(3.4 * len(fields), 3.2), squeeze=False, sharey=True)
    for ax, field in zip(axes[0], fields):
        mine = rows[rows["field"] == field].groupby(["contender", "doc"], as_index=False)["nanos"].median()
        sns.lineplot(data=mine, x="doc", y="nanos", hue="contender", hue_order=hue, palette=_palette(hue),
                     ax=ax, legend=ax is axes[0][0])
        ax.set_yscale("log")
        ax.set(title=field, xlabel="docID", ylabel="ns per read (median)")
    if axes[0][0].get_legend():
        axes[0][0].get_legend().remove()
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 5), frameon=False, fontsize=7)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    return fig


def gain_figure(data: DvjResults) -> plt.Figure:
    """Baseline latency ÷ each system's, per workload and bucket, paired by round (95% CI, log axis)."""
    base = (layout.contender(layout.BASELINE).version, layout.BASELINE)
    parts = []
    for name in _order(data.latency):
        if name in (layout.BASELINE, layout.AA):
            continue
        ratio = summary.ratio(data.latency, base, (layout.CONTENDERS[name].version, name))
        parts.append(ratio[(ratio["corpus"] == "full") & (ratio["threads"] == 1)].assign(contender=name))
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    workloads = list(dict.fromkeys(table["workload"])) if len(table) else []
    fig, axes = plt.subplots(1, max(1, len(workloads)), figsize=(2.6 * max(1, len(workloads)), 3.2),
                             squeeze=False, sharey=True)
    palette = _palette(_order(table) if len(table) else [])
    for ax, workload in zip(axes[0], workloads):
        mine = table[table["workload"] == workload]
        buckets = sorted(mine["bucket"].unique())
        names_ = [c for c in layout.CONTENDERS if c in set(mine["contender"])]
        width = 0.8 / max(1, len(names_))
        for i, name in enumerate(names_):
            rows = mine[mine["contender"] == name].set_index("bucket").reindex(buckets)
            x = np.arange(len(buckets)) - 0.4 + width * (i + 0.5)
            err = np.vstack([rows["value"] - rows["low"], rows["high"] - rows["value"]])
            ax.errorbar(x, rows["value"], yerr=np.nan_to_num(err), fmt="o", ms=3, capsize=2, color=palette[name],
                        label=name)
        ax.axhline(1.0, color="0.4", lw=0.8)
        ax.set_xticks(range(len(buckets)), [_bucket_label(b) for b in buckets], rotation=45, fontsize=7)
        ax.set_yscale("log")
        ax.set(title=workload, xlabel="hits", ylabel=f"{layout.BASELINE} ÷ system (latency)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(dict(zip(labels, handles)).values(), dict(zip(labels, handles)).keys(), loc="lower center",
               ncol=5, frameon=False, fontsize=7)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig


def build(data: DvjResults, name: str) -> plt.Figure:
    if name == "dvjump_positions":
        return positions_figure(data)
    if name == "dvjump_gain":
        return gain_figure(data)
    return workload_figure(data, name.removeprefix("dvjump_"))


def write_all(results: Path, versions: Sequence[str], workloads: Sequence[str], out: Path) -> list[Path]:
    data = summary.load(results, versions)
    plots.theme()
    return [path for name in names(workloads) for path in plots.save(build(data, name), out, name)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True)
    parser.add_argument("--versions", nargs="+", required=True)
    parser.add_argument("--workloads", nargs="+", required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    matplotlib.use("Agg")
    write_all(args.results, args.versions, args.workloads, args.out)


if __name__ == "__main__":
    main()
