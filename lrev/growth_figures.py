"""Figures of the claims judged at the seeds' sizes: one per claim with a ``grows`` part (:mod:`lrev.claims`),
drawn from its study's claims file alone.

A panel per part, a colour per version:

- the measured sizes, each with its interval over rounds (points and bars);
- the mean of the rounds' lines with its interval (:func:`lrev.growth.band`): solid over the measured sizes,
  dashed out to the seed's size;
- the seed's size (a vertical line) and the seed's own number there (a star; for a band, its range);
- a version whose ladder gave no verdict keeps its points, without a line.

Every interval is at the confidence of its part (95%, or more where a budget looked at its rounds again).

CLI: ``python -m lrev.growth_figures --registry claims/<s>.yaml --claims results/<s>/claims.json --claim ID
--out FIGDIR``
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
import yaml

from lrev import growth, plots
from lrev.config import version_key
from lrev.io import read_json


def _parts(claims: dict[str, Any], claim: str) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Each part label of ``claim`` with its (version, part) pairs that carry a ladder, versions in release order."""
    out: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    rows = sorted((r for r in claims["verdicts"] if r["claim"] == claim), key=lambda r: version_key(r["version"]))
    for row in rows:
        for part in row["parts"]:
            if "extrapolated" in part:
                out.setdefault(part["label"], []).append((row["version"], part))
    return out


def figure(claims: dict[str, Any], claim: str) -> plt.Figure:
    parts = _parts(claims, claim)
    if not parts:
        raise ValueError(f"claim {claim} has no part judged at the seed's size in this claims file")
    versions = sorted({v for pairs in parts.values() for v, _ in pairs}, key=version_key)
    palette = dict(zip(versions, sns.color_palette("colorblind", len(versions))))
    fig, axes = plots.panels(len(parts), per_row=2, height=2.6)
    for ax, (label, pairs) in zip(axes, parts.items()):
        for version, part in pairs:
            _draw(ax, part, palette[version], version, part.get("confidence", claims["confidence"]))
        grown = pairs[0][1]["extrapolated"]
        ax.axvline(grown["at"], color="0.4", lw=0.8, ls=":")
        claimed, band = pairs[0][1].get("claimed"), pairs[0][1].get("band")
        if claimed is not None:
            err = None if not band else [[claimed - band[0]], [band[1] - claimed]]
            ax.errorbar([grown["at"]], [claimed], yerr=err, marker="*", ms=11, color="black", capsize=3, ls="none",
                        label="seed")
        ax.set_xscale("log")
        if grown["model"] != "linear":
            plots.log_y(ax)
        shown = [p["value"] for _, part in pairs for p in part["extrapolated"]["points"] if p["value"] is not None]
        shown += [part["extrapolated"]["prediction"]["value"] for _, part in pairs
                  if part["extrapolated"].get("prediction", {}).get("value") is not None]
        # A band that the ladder cannot narrow (two sizes, few rounds) would flatten every point into one line.
        plots.keep_in_view(ax, shown + ([claimed] if claimed is not None else []), fold=100, spans=10)
        ax.set_xlabel(plots.wrap(f"{grown['over']} size; dotted: {grown['why']}", ax))
        ax.set_ylabel("ratio (see the title)" if "b" in pairs[0][1] else pairs[0][1]["quantity"].replace("_", " "))
        ax.set_title(label)
        ax.legend(frameon=False)
    return fig


def _draw(ax: plt.Axes, part: dict[str, Any], color: Any, version: str, confidence: float) -> None:
    grown = part["extrapolated"]
    points = [p for p in grown["points"] if p["value"] is not None]
    if points:
        x = np.array([p["size"] for p in points])
        y = np.array([p["value"] for p in points])
        low = np.array([np.nan if p["low"] is None else p["low"] for p in points])
        high = np.array([np.nan if p["high"] is None else p["high"] for p in points])
        ax.errorbar(x, y, yerr=[y - low, high - y], marker="o", ms=4, ls="none", color=color, capsize=2,
                    label=version)
    if grown["verdict"] is None or not grown.get("lines"):
        return
    lines = np.array(grown["lines"], dtype=float)
    low, high, target = min(grown["sizes"]), max(grown["sizes"]), grown["at"]
    spans = [(low, high, "-")] + ([(high, target, "--")] if target > high else []) + \
        ([(target, low, "--")] if target < low else [])
    for start, stop, style in spans:
        b = growth.band(lines, np.geomspace(start, stop, 32), grown["model"], confidence)
        ax.plot(b["size"], b["value"], ls=style, color=color, lw=1)
        ax.fill_between(b["size"], b["low"], b["high"], color=color, alpha=0.15, lw=0)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registry", type=Path, required=True, help="claims/<study>.yaml")
    parser.add_argument("--claims", type=Path, required=True, help="the study's claims file (lrev.claims)")
    parser.add_argument("--claim", required=True, help="the claim id to draw")
    parser.add_argument("--out", type=Path, required=True, help="the study's figures folder")
    args = parser.parse_args(argv)
    judged = read_json(args.claims)
    if args.claim not in growth.grown(yaml.safe_load(args.registry.read_text()), judged["versions"]):
        raise SystemExit(f"{args.registry}: claim {args.claim} has no part with 'grows' on the versions judged in "
                         f"{args.claims}")
    matplotlib.use("Agg")
    plots.save(figure(judged, args.claim), args.out, growth.figure_name(args.claim))


if __name__ == "__main__":
    main()
