"""What a study's notebook shows when someone opens it (JupyterLab, ``./run lab``) rather than the pipeline
running it: the results of the latest run of that study, at whatever scale, and how to get some when there are none.

The notebooks' ``scale`` parameter is ``"latest"`` by default (:func:`scale`); ``outdir`` defaults to
``$LREV_OUTDIR``, else ``runs``. The pipeline always passes an explicit scale, ``measure = True`` and a run folder
whose indexes it built. Exploring never starts a measurement: with no results it says what would make them
(:func:`first_look`). What the notebooks print names paths below the repository or ``<outdir>`` (:func:`where`),
never the building machine's, and their tables print numbers as the paper does (:func:`table`).
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterable

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display
from pandas.io.formats.style import Styler

from lrev import config, paper, plots, studies
from lrev.config import REPO, version_key

LATEST = "latest"
SMOKE = "smoke"


class NoResults(RuntimeError):
    """No results of the study at the chosen scale; the message says what would measure them."""


def result_manifests(study: str, outdir: str | Path, scale_: str) -> list[Path]:
    return sorted((REPO / outdir / scale_ / "results" / study).glob("**/manifest.json"))


def scale(study: str, requested: str, outdir: str | Path) -> str:
    """``requested``, unless it is ``"latest"``: then the scale under ``outdir`` whose results of ``study`` were
    written last, or ``"smoke"`` when there are none."""
    if requested != LATEST:
        return requested
    runs = [(max(m.stat().st_mtime for m in found), folder.name) for folder in sorted((REPO / outdir).glob("*"))
            if folder.is_dir() and (found := result_manifests(study, outdir, folder.name))]
    return max(runs)[1] if runs else SMOKE


def where(path: str | Path, outdir: str | Path) -> str:
    """``path`` as a notebook prints it: relative to the repository, or below ``<outdir>`` when the run folder is
    elsewhere, so that an executed notebook names no folder of the machine that ran it."""
    path = REPO / path
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str("<outdir>" / path.relative_to(REPO / outdir))


def done(cfg: config.Config, study: str) -> list[str]:
    """The configured versions of ``study`` with results at ``cfg``'s scale, in the configured order."""
    return [v for v in cfg.study(study)["versions"]
            if (studies.results_dir(REPO / cfg.root, study, v) / "manifest.json").is_file()]


def version(cfg: config.Config, study: str, requested: str | None) -> str:
    """``requested``, or (None) the newest version of ``study`` with results at ``cfg``'s scale, else the newest
    configured one: a version the run has."""
    return requested or max(done(cfg, study) or cfg.study(study)["versions"], key=version_key)


def first_look(cfg: config.Config, study: str, measure: bool, indexes: Iterable[Path], narrow: dict,
               minutes: float) -> bool:
    """Whether the notebook measures in its next cells: ``measure`` when ``study`` has results at ``cfg``'s scale,
    or its ``indexes`` are built (the pipeline's own run). Otherwise there is nothing to explore: while exploring
    (``measure`` False) stop, saying what a first look would run and how long it takes, and asking for
    ``measure = True``; with it, run that first look, the pipeline for ``study`` at smoke scale with its settings
    narrowed by ``narrow`` (one round, or the notebook's version: about ``minutes`` on 2 cores once the engines are
    built, since every contender still runs alone in its JVM), printing Snakemake's progress, and return False: the
    pipeline measured. A later full smoke run keeps the first look's forks where only the number of rounds differed
    (:func:`lrev.fork.fingerprint`).

    A scale other than smoke is not measured from a notebook: the error names the pipeline's command for it."""
    outdir = cfg.raw["outdir"]
    if done(cfg, study) or (measure and all(Path(p).is_file() for p in indexes)):
        return measure
    if cfg.scale != SMOKE:
        raise NoResults(f"no {study} results at scale {cfg.scale} in {where(cfg.root, outdir)}: "
                        f"`./run paper --config scale={cfg.scale} studies='[{study}]'` measures them (`./run plan` "
                        "with the same options says how long it takes); or explore another scale, e.g. "
                        f'scale = "{LATEST}"')
    target = Path(outdir) / SMOKE / "results" / study / "claims.json"
    args = [str(target), "--cores", "2", "--config", f"scale={SMOKE}", f"outdir={outdir}", f"studies=[{study}]",
            f"{study}={json.dumps(narrow)}"]
    plan = (f"a first look at {study}'s smoke scale, about {minutes:g} min on 2 cores once the engines are built "
            f"(a new clone builds engines, corpora and indexes first):\n  ./run snakemake {shlex.join(args)}")
    if not measure:
        raise NoResults(f"no {study} results to explore in {where(cfg.root, outdir)}. This would run {plan}\n"
                        "Set `measure = True` in the parameters cell and run the notebook again to run it; "
                        f"`./run paper --config scale={SMOKE}` runs all of the smoke scale.")
    print(f"no {study} results yet: running {plan}", flush=True)
    with subprocess.Popen([sys.executable, "-m", "snakemake", *args], cwd=REPO, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as proc:
        for line in proc.stdout:
            print(line, end="", flush=True)
    if proc.returncode != 0:
        raise RuntimeError(f"the first look at {study} failed (exit {proc.returncode}); its log is above")
    return False


def indexes_built(cfg: config.Config, study: str, indexes: Iterable[Path]) -> None:
    """Stop, naming the command that builds them, unless all of ``indexes`` (their manifests) are built: a notebook
    measures on the pipeline's indexes and never builds one."""
    missing = [str(m) for m in indexes if not Path(m).is_file()]
    if missing:
        raise FileNotFoundError("indexes not built; build them with\n  ./run snakemake --cores 2 --config "
                                f"scale={cfg.scale} outdir={cfg.raw['outdir']} studies='[{study}]' "
                                + " ".join(missing))


def table(frame: pd.DataFrame, columns: Iterable | None = None, unit: str | dict[str, str] | None = None) -> Styler:
    """``frame``'s ``columns`` (by default all but intervals' bounds) for reading, numbers as the paper prints them
    (:func:`lrev.paper.fmt`: 3 significant digits, no exponent): an estimate whose interval the frame holds (columns
    ``<c>_low`` and ``<c>_high``, or ``low`` and ``high`` for ``value``) as ``value [low, high]``. ``unit``: the unit
    of every number, as a header over all columns (a pivot's), or of some columns, each headed ``column (unit)``."""
    def bounds(column) -> tuple[str, str]:
        return ("low", "high") if column == "value" else (f"{column}_low", f"{column}_high")

    intervals = {c: bounds(c) for c in frame.columns if set(bounds(c)) <= set(frame.columns)}
    shown = frame[[c for c in frame.columns if c not in {b for pair in intervals.values() for b in pair}]
                  if columns is None else list(columns)]
    shown = shown.assign(**{c: [paper.fmt(v) if pd.isna(v) else f"{paper.fmt(v)} {paper.interval(lo, hi)}"
                                for v, lo, hi in zip(frame[c], frame[lo], frame[hi])]
                            for c, (lo, hi) in intervals.items() if c in shown.columns})
    if isinstance(unit, str):
        shown = pd.concat({unit: shown}, axis=1)
    else:
        shown = shown.rename(columns={c: f"{c} ({u})" for c, u in (unit or {}).items()})
    styled = shown.style.format(paper.fmt, subset=list(shown.select_dtypes("number").columns))
    # A long table's row numbers say nothing.
    return styled.hide(axis="index") if isinstance(shown.index, pd.RangeIndex) else styled


def show_figures(names: Iterable[str], build: Callable[[str], plt.Figure]) -> None:
    """Each figure of ``names`` (``build(name)``: the paper's own, drawn as wide as the paper prints it) in the
    notebook's output under its name, and closed. The name is not drawn in the figure: a title above the panels
    shares the top margin with the legend there (constrained layout gives them one), and one placed higher by hand
    is drawn over the legend inline."""
    plots.theme()
    for name in names:
        fig = build(name)
        display(Markdown(f"**`{name}`**"))
        display(fig)
        plt.close(fig)
