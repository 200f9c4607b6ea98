"""Figures of the `pk` study, comparing Lucene versions.

Points and error bars are the estimates and 95% CIs of :mod:`lrev.pk.summary`
(the same numbers the claims and the paper use), not seaborn's own bootstrap,
so a figure can never disagree with the text. Series are Lucene-version-
independent *families* (FST41/FST50 → FST, ...) so a line follows one design
across releases; the A/A contender is drawn only as the noise band.

CLI: ``python -m lrev.figures pk --results RESULTS --settings JSON --out FIGDIR`` writes
``FIGDIR/<name>.pdf`` and ``FIGDIR/<name>.png`` for every name in FIGURES.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from lrev import plots
from lrev.config import version_key
from lrev.pk import layout, summary
from lrev.tables import select

FIGURES = ("pk_lookups", "pk_ratio", "pk_bytes", "pk_reopen", "pk_threads", "pk_mixed", "pk_collector")
"""Figure names; Snakemake declares FIGDIR/<name>.<fmt> for each name and format."""
#: The figures paper/pk.typ prints narrower than the text, by their share of its width (lrev.plots.figure).
WIDTHS = {"pk_threads": 0.85, "pk_mixed": 0.85, "pk_collector": 0.85}

FAMILY_ORDER = ("default", "Pulsing41", "Memory", "FST", "Direct", "BlockTreeOrds", "BloomFilter", "UniformSplit",
                "GlobalPkMap")
#: The seed's setting without the corpus, which the figures facet by.
SEED_SETTING = {k: v for k, v in layout.SEED_SETTING.items() if k != "corpus"}
"""The seed's setting besides the corpus: several segments, all keys present, one thread."""


def _palette(families: Sequence[str]) -> dict[str, tuple]:
    """One fixed colour per family across all figures: each family of FAMILY_ORDER a dark hue of tab20, its seekCeil
    contender the same hue light, so the pair reads as one format; families outside the order last, each a hue of
    its own (tab10 alone has ten colours, and the eleventh family took the first one's)."""
    pairs = sns.color_palette("tab20", 2 * len(FAMILY_ORDER))
    palette = {}
    for i, family in enumerate(FAMILY_ORDER):
        palette[family], palette[family + layout.SEEK_CEIL] = pairs[2 * i], pairs[2 * i + 1]
    rest = sorted(set(families) - set(palette))
    palette.update(zip(rest, sns.color_palette("husl", len(rest))))
    return palette


def _versions(frame: pd.DataFrame) -> list[str]:
    return sorted(frame["version"].unique(), key=version_key)


def _ci_points(ax: plt.Axes, frame: pd.DataFrame, versions: Sequence[str], palette: dict[str, tuple]) -> None:
    """Dodged points with their intervals (as computed, :func:`lrev.plots.interval_rows`): x = version, one series
    per family."""
    families = [f for f in palette if f in set(frame["family"])]
    sns.pointplot(plots.interval_rows(frame), x="version", y="value", hue="family", order=list(versions),
                  hue_order=families, palette=palette, estimator="median", errorbar=plots.span,
                  dodge=plots.dodge(len(families)),
                  linestyle="none", markersize=4, capsize=0.1, err_kws={"linewidth": 1}, ax=ax)


def _grid(name: str, rows: Sequence[str], cols: Sequence[str], sharey: bool = True) -> tuple[plt.Figure, np.ndarray]:
    return plots.figure(len(rows), len(cols), height=2.3, share=WIDTHS.get(name, 1.0), sharey=sharey)


def _legend(fig: plt.Figure, axes: np.ndarray) -> None:
    """One legend for the figure, every panel's series in it (:func:`lrev.plots.legend_above`)."""
    plots.legend_above(fig, plots.entries(axes.flat))


def _no_aa(frame: pd.DataFrame) -> pd.DataFrame:
    """Every contender but the A/A, in the default JVM (the G1 contenders have a figure of their own, the other
    JDK's a table)."""
    default_jvm = ~frame["contender"].map(layout.jvm_variant)
    return frame[(frame["contender"] != layout.AA) & default_jvm]


def _configured(lookups: pd.DataFrame) -> pd.DataFrame:
    """The configured conditions' lookups: the size ladder's corpora have a figure per claim fitted on them
    (lrev/growth_figures.py)."""
    return lookups[~lookups["corpus"].str.startswith(layout.LADDER_PREFIX)]


def lookups_figure(data: summary.PkResults) -> plt.Figure:
    """Mean lookups/s per family and version (95% CI), seed setting, per corpus."""
    table = summary.lookups_table(_no_aa(select(_configured(data.lookups), **SEED_SETTING)))
    corpora = sorted(table["corpus"].unique())
    fig, axes = _grid("pk_lookups", ["all"], corpora)
    palette = _palette(table["family"])
    for ax, corpus in zip(axes[0], corpora):
        _ci_points(ax, table[table["corpus"] == corpus], _versions(table), palette)
        plots.log_y(ax)
        ax.set(title=f"{corpus} ids", xlabel="Lucene version", ylabel="lookups/s (geo. mean, 95% CI)")
    _legend(fig, axes)
    return fig


def ratio_figure(data: summary.PkResults) -> plt.Figure:
    """Paired lookups/s ratio vs default (log axis) by corpus and layout; grey band = A/A noise."""
    lookups = select(_configured(data.lookups), miss_rate=0.0, threads=1)
    ratios = summary.ratio_table(lookups)
    noise = summary.noise_table(ratios)
    corpora, layouts = sorted(ratios["corpus"].unique()), sorted(ratios["layout"].unique(), reverse=True)
    versions = _versions(ratios)
    palette = _palette(ratios["family"])
    fig, axes = _grid("pk_ratio", layouts, corpora)
    for r, lay in enumerate(layouts):
        for c, corpus in enumerate(corpora):
            ax = axes[r][c]
            band = noise[(noise["corpus"] == corpus) & (noise["layout"] == lay)].set_index("version")
            for i, version in enumerate(versions):
                if version in band.index and np.isfinite(band.at[version, "floor"]):
                    floor = band.at[version, "floor"]
                    ax.fill_between([i - 0.45, i + 0.45], 1 / floor, floor, color="0.8", lw=0,
                                    label="A/A noise band")
            ax.axhline(1.0, color="0.4", lw=0.8)
            cell = _no_aa(ratios[(ratios["corpus"] == corpus) & (ratios["layout"] == lay)])
            _ci_points(ax, cell, versions, palette)
            plots.log_y(ax)
            ax.set(title=f"{corpus} ids, {lay} segments", xlabel="Lucene version", ylabel="lookups/s ÷ default")
    _legend(fig, axes)
    return fig


BYTES_METRICS = {"heap": "heap", "ram": "RAM (heap + mapped)", "disk": "disk"}


def bytes_figure(data: summary.PkResults) -> plt.Figure:
    """Heap, RAM and disk bytes/doc of the id field (mean over forks, 95% CI), per id kind."""
    table = _no_aa(summary.footprint_table(select(data.footprint, layout="multi")))
    table = table[table["metric"].isin(list(BYTES_METRICS))]
    corpora = sorted(table["corpus"].unique())
    palette = _palette(table["family"])
    versions = _versions(table)
    fig, axes = _grid("pk_bytes", list(BYTES_METRICS), corpora, sharey=False)
    for r, metric in enumerate(BYTES_METRICS):
        for c, corpus in enumerate(corpora):
            ax = axes[r][c]
            _ci_points(ax, table[(table["metric"] == metric) & (table["corpus"] == corpus)], versions, palette)
            plots.log_y(ax)
            ax.set(title=f"{BYTES_METRICS[metric]},\n{corpus} ids", xlabel="Lucene version",
                   ylabel=f"{metric} bytes/doc")
    _legend(fig, axes)
    return fig


def reopen_figure(data: summary.PkResults) -> plt.Figure:
    """Distribution of NRT reopen latency per family and version (box: quartiles; whiskers 1.5 IQR; log axis)."""
    reopen = _no_aa(data.reopen)
    corpora = sorted(reopen["corpus"].unique())
    palette = _palette(reopen["family"])
    hue_order = [f for f in palette if f in set(reopen["family"])]
    fig, axes = _grid("pk_reopen", ["all"], corpora)
    for ax, corpus in zip(axes[0], corpora):
        sns.boxplot(data=reopen[reopen["corpus"] == corpus], x="version", y="reopen_ms", hue="family",
                    order=_versions(reopen), hue_order=hue_order, palette=palette, fliersize=1.5, linewidth=0.7,
                    ax=ax)
        # Log scale: a reopen that waits on I/O or a merge takes tens of times the median.
        plots.log_y(ax)
        ax.set(title=f"{corpus} ids", xlabel="Lucene version", ylabel="NRT reopen latency (ms)")
    _legend(fig, axes)
    return fig


def threads_figure(data: summary.PkResults) -> plt.Figure:
    """Throughput at 2 threads ÷ 1 thread, paired by round (95% CI); dashed line: linear scaling (2×)."""
    lookups = _no_aa(select(_configured(data.lookups), layout="multi", miss_rate=0.0))
    table = summary.scaling_table(lookups)
    corpora = sorted(table["corpus"].unique())
    palette = _palette(table["family"])
    fig, axes = _grid("pk_threads", ["all"], corpora)
    for ax, corpus in zip(axes[0], corpora):
        ax.axhline(2.0, color="0.3", ls="--", lw=0.8, label="linear (2×)")
        ax.axhline(1.0, color="0.6", lw=0.8)
        _ci_points(ax, table[table["corpus"] == corpus], _versions(table), palette)
        ax.set(title=f"{corpus} ids", xlabel="Lucene version", ylabel="2 threads ÷ 1 thread")
    _legend(fig, axes)
    return fig


def mixed_figure(data: summary.PkResults) -> plt.Figure:
    """Each contender timed in one JVM with all the others ÷ the same contender alone in its JVM, seed setting,
    paired by round (95% CI): what sharing a JVM's JIT profiles costs a contender."""
    table = _no_aa(summary.mixed_table(data.lookups, data.mixed))
    palette = _palette(table["family"])
    fig, axes = _grid("pk_mixed", ["all"], ["mixed"])
    ax = axes[0][0]
    ax.axhline(1.0, color="0.4", lw=0.8)
    _ci_points(ax, table, _versions(table), palette)
    plots.log_y(ax)
    ax.set(title="same contender: mixed JVM ÷ alone", xlabel="Lucene version", ylabel="mixed ÷ alone")
    _legend(fig, axes)
    return fig


def collector_figure(data: summary.PkResults) -> plt.Figure:
    """Each contender's lookups/s in JVMs running G1 ÷ in JVMs running the parallel collector, seed setting, paired
    by round (95% CI); 1 = the collector does not matter."""
    table = summary.collector_table(data.lookups)
    fig, axes = _grid("pk_collector", ["all"], ["collector"])
    ax = axes[0][0]
    ax.axhline(1.0, color="0.4", lw=0.8)
    if len(table):
        _ci_points(ax, table, _versions(table), _palette(table["family"]))
    plots.log_y(ax)
    ax.set(title="same contender: G1 ÷ parallel collector", xlabel="Lucene version",
           ylabel="lookups/s, G1 ÷ parallel")
    _legend(fig, axes)
    return fig


BUILDERS: dict[str, Callable[[summary.PkResults], plt.Figure]] = {
    "pk_lookups": lookups_figure,
    "pk_ratio": ratio_figure,
    "pk_bytes": bytes_figure,
    "pk_reopen": reopen_figure,
    "pk_threads": threads_figure,
    "pk_mixed": mixed_figure,
    "pk_collector": collector_figure,
}
assert tuple(BUILDERS) == FIGURES


def write_all(results: Path, settings: dict[str, Any], out: Path) -> list[Path]:
    """Every figure, from the results of the configured versions (:mod:`lrev.figures`)."""
    data = summary.load(results, settings["versions"])
    return [path for name in FIGURES for path in plots.save(BUILDERS[name](data), out, name)]
