"""Writing a study's figures: every format the paper and readers use, atomically, byte-stable on rerun.

Every figure is drawn as wide as the paper prints it (:func:`figure`), so its fonts print at the sizes set here:
no text below :data:`MIN_PT` (issue 35), checked by :func:`smallest_pt` in the tests."""
from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Iterable

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.artist import Artist
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.ticker import FuncFormatter

from lrev import io

FORMATS = ("pdf", "png")

#: The paper's text width in inches: an A4 page less its two 2 cm side margins (paper/lucene-revisited.typ).
TEXT_WIDTH = (21.0 - 2 * 2.0) / 2.54
#: Font sizes in points, at print size since a figure is drawn at its print width: labels and titles, then ticks,
#: legends and annotations; nothing smaller.
FONT = 8.0
SMALL = 7.5
MIN_PT = 7.0


def theme() -> None:
    """The one look of every figure, in the pipeline and in the notebooks alike; constrained layout fits every label
    inside the figure, a legend put ``outside`` included."""
    sns.set_theme(context="paper", style="whitegrid", rc={
        "font.size": FONT, "axes.labelsize": FONT, "axes.titlesize": FONT, "figure.labelsize": FONT,
        "figure.titlesize": FONT, "legend.title_fontsize": FONT, "xtick.labelsize": SMALL,
        "ytick.labelsize": SMALL, "legend.fontsize": SMALL, "figure.constrained_layout.use": True})


def width(share: float = 1.0) -> float:
    """The width in inches of a figure printed at ``share`` of the text width."""
    return share * TEXT_WIDTH


def figure(rows: int = 1, cols: int = 1, height: float = 2.4, share: float = 1.0,
           **subplots) -> tuple[plt.Figure, np.ndarray]:
    """A figure as wide as the paper prints it (``share`` of the text width: a study's ``figures.WIDTHS`` names the
    figures it prints narrower, and a test holds paper/<study>.typ to them), ``rows`` × ``cols`` panels each
    ``height`` inches tall (axes always 2-D), in the shared theme whoever calls it."""
    theme()
    return plt.subplots(rows, cols, figsize=(width(share), height * rows), squeeze=False, **subplots)


def panels(n: int, per_row: int, height: float = 2.4, share: float = 1.0,
           **subplots) -> tuple[plt.Figure, list[plt.Axes]]:
    """:func:`figure` with ``n`` panels, ``per_row`` to a row (fewer if ``n`` is): a grid that stays legible however
    many facets a run has. Returns the ``n`` panels in reading order; the grid's unused cells are hidden."""
    cols = max(1, min(n, per_row))
    fig, axes = figure(-(-max(n, 1) // cols), cols, height, share, **subplots)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def legend_above(fig: plt.Figure, entries: Iterable[tuple[Artist, str]], **legend) -> None:
    """One legend for the figure, above its panels so it never covers data (below them it would collide with a
    shared x label: constrained layout gives both the same margin), in as many columns as fit its width with some
    room to spare (text is a little wider at some resolutions; a legend wider than the figure is cut off).
    ``entries``: (handle, label) pairs, the first of each label kept."""
    unique: dict[str, Artist] = {}
    for handle, label in entries:
        unique.setdefault(label, handle)
    for ncol in range(len(unique), 0, -1):
        drawn = fig.legend(list(unique.values()), list(unique), loc="outside upper center", ncol=ncol,
                           frameon=False, **legend)
        if ncol == 1 or drawn.get_window_extent().width <= 0.95 * fig.bbox.width:
            return
        drawn.remove()


def entries(axes: Iterable[plt.Axes]) -> list[tuple[Artist, str]]:
    """Every panel's legend entries, (handle, label), each panel's own legend removed: :func:`legend_above` draws
    one for the figure."""
    out: list[tuple[Artist, str]] = []
    for ax in axes:
        out += zip(*ax.get_legend_handles_labels())
        if ax.get_legend():
            ax.get_legend().remove()
    return out


def wrap(text: str, ax: plt.Axes) -> str:
    """``text`` in lines about as wide as ``ax`` (an average glyph is about 0.6 em): a long axis label would run into
    the next panel or past the figure's edge, where it is cut off."""
    inches = ax.get_position().width * ax.get_figure().get_figwidth()
    return textwrap.fill(text, max(12, int(inches * 72 / (0.6 * FONT))))


def texts(fig: plt.Figure) -> list[Text]:
    """Every text the figure shows: ticks, axis labels, titles, legends, annotations, colour bars."""
    fig.canvas.draw()  # tick labels exist once drawn
    shown = [ax for ax in fig.axes if ax.get_visible()]  # a hidden panel's texts are not shown
    found = [t for owner in [*shown, *fig.texts, *fig.legends] for t in owner.findobj(Text)]
    return [t for t in found if t.get_visible() and t.get_text().strip()]


def smallest_pt(fig: plt.Figure, print_width: float) -> float:
    """The smallest font of ``fig``, in points, when printed ``print_width`` inches wide."""
    return min(t.get_fontsize() for t in texts(fig)) * print_width / fig.get_figwidth()


def cut_off(fig: plt.Figure) -> bool:
    """Whether any text or panel reaches beyond the figure's edges, where the saved file cuts it."""
    fig.canvas.draw()
    box = fig.get_tightbbox()
    slack = 1 / fig.dpi  # a pixel of rounding
    return box.x0 < -slack or box.y0 < -slack or box.x1 > fig.get_figwidth() + slack or \
        box.y1 > fig.get_figheight() + slack


def overlapping(fig: plt.Figure) -> list[str]:
    """Pairs of texts drawn over each other, unreadable where printed: one axis' tick labels, level ones within its
    view (a rotated label's box is wider than its text, so rotated labels are left out), and a title, the figure's or
    a panel's, over a legend (a title placed by hand, as ``suptitle(..., y=1.02)``, escapes the layout's margins)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    clashes = []
    shown = [a for a in fig.axes if a.get_visible()]
    for ax in shown:
        for axis, lim, coord in ((ax.xaxis, ax.get_xlim(), 0), (ax.yaxis, ax.get_ylim(), 1)):
            low, high = sorted(lim)
            boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in axis.get_ticklabels(which="both")
                     if t.get_visible() and t.get_text().strip() and t.get_rotation() == 0
                     and low <= t.get_position()[coord] <= high]
            clashes += [f"{a} / {b}" for i, (a, box) in enumerate(boxes) for b, other in boxes[i + 1:]
                        if box.overlaps(other)]
    # matplotlib keeps the title texts in private attributes only (get_suptitle and get_title return strings).
    titles = [t for t in [fig._suptitle, *(t for ax in shown for t in (ax.title, ax._left_title, ax._right_title))]
              if t is not None and t.get_visible() and t.get_text().strip()]
    legends = [lg for lg in [*fig.legends, *(ax.get_legend() for ax in shown)] if lg is not None and lg.get_visible()]
    clashes += [f"{t.get_text()} / legend" for t in titles for lg in legends
                if t.get_window_extent(renderer).overlaps(lg.get_window_extent(renderer))]
    return clashes


def _legend_colour(handle: Artist) -> str | None:
    """A legend handle's fill colour as hex (a marker's face, a patch's or a collection's first), None if it draws
    nothing (unfilled, or a section title such as seaborn's: a line of no width without a marker)."""
    if isinstance(handle, Line2D) and handle.get_marker() in ("", " ", "None", None) and handle.get_linewidth() == 0:
        return None
    for name in ("get_markerfacecolor", "get_facecolor", "get_color"):
        getter = getattr(handle, name, None)
        if callable(getter):
            colour = getter()
            if isinstance(colour, str):
                return None if colour == "none" else to_hex(colour)
            rows = np.atleast_2d(np.asarray(colour, dtype=float))
            return to_hex(rows[0], keep_alpha=False) if rows.size else None
    return None


def same_colour(fig: plt.Figure) -> list[str]:
    """Pairs of one legend's entries drawn in one colour (and one marker): a reader cannot tell them apart."""
    clashes = []
    for legend in [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend())]:
        keys = []
        for text, handle in zip(legend.get_texts(), legend.legend_handles):
            marker = handle.get_marker() if hasattr(handle, "get_marker") else None
            keys.append((text.get_text(), _legend_colour(handle), marker))
        clashes += [f"{a} / {b}" for i, (a, ca, ma) in enumerate(keys) for b, cb, mb in keys[i + 1:]
                    if ca is not None and (ca, ma) == (cb, mb)]
    return clashes


def log_y(ax: plt.Axes) -> None:
    """Log y axis labelled with plain numbers (1, 2, 5, 10), not 10^0 notation."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: plain(y)))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda y, _: minor_label(ax.get_ylim(), y)))


def log_x(ax: plt.Axes) -> None:
    """Log x axis labelled with compact numbers (20k, 1M), its minor ticks as :func:`minor_label` picks them.
    matplotlib's own labels (3×10^0 beside 4×10^0 under a decade) print over one another in a narrow panel."""
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: compact(x)))
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: minor_label(ax.get_xlim(), x, compact)))


def keep_in_view(ax: plt.Axes, values, fold: float, spans: float) -> None:
    """Bound the y axis to the values drawn on it: at most ``fold`` times beyond them on a log axis, ``spans`` times
    their span beyond them on a linear one. An interval that runs further (one from two rounds can span decades, a
    band a short ladder cannot narrow further still) is cut at the axis' edge, instead of flattening every value
    into a few pixels."""
    log = ax.get_yscale() == "log"
    values = [float(v) for v in values if v is not None and np.isfinite(v) and (v > 0 or not log)]
    if not values:
        return
    lo, hi = min(values), max(values)
    if log:
        bounds = (lo / fold, hi * fold)
    else:
        span = (hi - lo) or abs(hi) or 1.0
        bounds = (lo - spans * span, hi + spans * span)
    now = ax.get_ylim()
    ax.set_ylim(max(now[0], bounds[0]), min(now[1], bounds[1]))


def minor_label(limits: tuple[float, float], v: float, show=None) -> str:
    """A log axis' minor tick label, as few as still read: over two decades none (the decades' own labels read,
    more would collide in a small panel); over one, 2× and 5× the decade; under a decade 2×, 3× and 5×, or every
    minor tick where fewer than two such ticks or decades are in view (one number alone does not give the scale)."""
    show = show or plain
    low, high = sorted(limits)
    if v <= 0 or low <= 0 or high / low > 100:
        return ""
    lead = round(v / 10 ** math.floor(math.log10(v)))
    if high / low >= 10:
        return show(v) if lead in (2, 5) else ""
    anchors = [k * 10.0 ** e for e in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
               for k in (1, 2, 3, 5)]
    return show(v) if lead in (2, 3, 5) or sum(low <= a <= high for a in anchors) < 2 else ""


def plain(y: float) -> str:
    return f"{y:,.0f}" if y >= 1000 else f"{y:g}"


def compact(x: float) -> str:
    """A count in few characters: 20k, 1M, 1.5M."""
    for size, unit in ((1e6, "M"), (1e3, "k")):
        if abs(x) >= size:
            return f"{x / size:g}{unit}"
    return plain(x)


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
