"""Writing a study's figures: every format the paper and readers use, atomically, byte-stable on rerun."""
from __future__ import annotations

import math
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.ticker import FuncFormatter

from lrev import io

FORMATS = ("pdf", "png")


def theme() -> None:
    """The one look of every figure, in the pipeline and in the notebooks alike."""
    sns.set_theme(context="paper", style="whitegrid")


def log_y(ax: plt.Axes) -> None:
    """Log y axis labelled with plain numbers (1, 2, 5, 10), not 10^0 notation."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: plain(y)))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda y, _: minor_label(ax, y)))


def minor_label(ax: plt.Axes, y: float) -> str:
    """Label every minor tick on an axis spanning under a decade (else it may show no label at all);
    on wider axes only 2× and 5× the decade, so labels never collide."""
    low, high = ax.get_ylim()
    if y <= 0:
        return ""
    if high / low < 10 or round(y / 10 ** math.floor(math.log10(y))) in (2, 5):
        return plain(y)
    return ""


def plain(y: float) -> str:
    return f"{y:,.0f}" if y >= 1000 else f"{y:g}"


def save(fig: plt.Figure, out: Path, name: str) -> list[Path]:
    """Write ``out/<name>.<fmt>`` for every format; PDFs without a creation date. Closes the figure."""
    written = []
    for fmt in FORMATS:
        target = Path(out) / f"{name}.{fmt}"
        with io.atomic_path(target, suffix=f".{fmt}") as tmp:
            fig.savefig(tmp, format=fmt, dpi=200, metadata={"CreationDate": None} if fmt == "pdf" else None)
        written.append(target)
    plt.close(fig)
    return written


def interval_rows(table: pd.DataFrame, value: str = "value", low: str = "low", high: str = "high") -> pd.DataFrame:
    """Each estimate as three rows, its low, value and high, in column ``value``. Seaborn's point and bar plots then
    draw the value as the median of the three and the interval as their span (``estimator="median",
    errorbar=span``): the interval drawn is the one the study computed (paired by round), not one seaborn
    recomputes from the rows."""
    return pd.concat([table.assign(**{value: table[c]}) for c in (low, value, high)], ignore_index=True)


def span(values: pd.Series) -> tuple[float, float]:
    """The error bar of :func:`interval_rows`: from the low to the high of one estimate."""
    return float(np.min(values)), float(np.max(values))


def dodge(levels: int) -> float | bool:
    """Seaborn's point-plot dodge for ``levels`` hue levels: none for one (seaborn divides by the levels less one)."""
    return 0.6 if levels > 1 else False
