"""Shorter forks or more of them? Kalibera and Jones's repetition question ("Rigorous Benchmarking in Reasonable
Time", ISMM 2013), answered from one finished run:

    PYTHONPATH=. python docs/noise/kalibera.py runs/default

A cell's value per round is the mean of k measured iterations of one fork. Its variance is sf² + sw²/k: sf² between
forks (each JVM's own compilation, layout and heap), sw² between one fork's iterations. A fork costs F, everything
that is not a measured iteration (JVM start, index open, warm-up, the other measurements), plus k·c. At a fixed
budget of fork-minutes the variance of a cell's mean over rounds is proportional to (sf² + sw²/k)·(F + k·c), least at
k* = sqrt((F/c)·(sw²/sf²)) (Kalibera and Jones's optimal repetition count at one level). Shorter forks (fewer
measured iterations) buy more rounds only where k* is below the k the run used.

Per study, over the series of repeated iterations its steady-state reading names (each study's ``summary.SERIES``;
a held load's window is left out, and a study with no other series is named and left out), this prints: the
fork-minutes (every fork's ``timing.json``), the measured share of them, sw and sf pooled over the cells (method of
moments: sf² = var of the forks' means − sw²/k, pooled over cells before the subtraction), k and k*, and each
option's variance per fork-minute against the run's k. The iterations are those each study's loader keeps (a series'
steady segment): the measured ones before it count as fixed cost, which favours fewer iterations a little.
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from lrev import steady, studies
from lrev.io import read_json

STUDIES = ("pk", "dvjump", "dvupdate", "join")
UNIT = ["round", "fork"]


def components(frame: pd.DataFrame, series) -> pd.DataFrame:
    """Of ``frame``'s measured rows (a study's loaded table), one row per cell (version, contender and the series'
    keys) with two forks or more: the pooled within-fork variance of the log values, the variance of the forks' mean
    logs, the mean iterations per fork; and the measured seconds of all its forks."""
    # The series' value per row as the steady-state reading takes it (a column, or a ratio of two).
    rows = frame.assign(_log=np.log(steady._values(frame, series.value)))
    cell = ["version", "contender", *series.keys]
    forks = rows.groupby(cell + UNIT, dropna=False).agg(mean=("_log", "mean"), var=("_log", "var"), k=("_log", "size"),
                                                         seconds=(series.time, lambda s: s.sum() / 1e9))
    out = forks.groupby(cell, dropna=False).agg(within=("var", "mean"), between=("mean", "var"), k=("k", "mean"),
                                                forks=("mean", "size"), seconds=("seconds", "sum"))
    return out[out["forks"] >= 2]


def study_row(run: Path, study: str) -> dict:
    versions = read_json(run / "results" / study / "claims.json")["versions"]
    # A held load's window (``cut`` false) is a sample of the work its rate asks for, reopens with updates and without:
    # its rows vary by design, not as repeated iterations do, so it is no case of this model.
    series = [s for s in importlib.import_module(f"lrev.{study}.summary").SERIES if s.cut]
    if not series:
        return {"study": study}
    results = studies.get(study).load(run / "results", versions)
    frames = {s.table: getattr(results, s.table) for s in series}
    cells = pd.concat([components(frames[s.table], s) for s in series if not frames[s.table].empty])
    fork_seconds = sum(json.loads(p.read_text())["seconds"] for p in (run / "results" / study).rglob("timing.json"))
    measured = float(cells["seconds"].sum())
    k = float(np.average(cells["k"], weights=cells["forks"]))
    sw2 = float(cells["within"].mean())
    sf2 = max(float(cells["between"].mean()) - sw2 / k, 0.0)
    fixed, per_iteration = fork_seconds - measured, measured / k
    best = math.inf if sf2 == 0 else math.sqrt(fixed / per_iteration * sw2 / sf2)

    def cost(kk: float) -> float:
        """Variance per fork-minute at kk iterations a fork, against the run's k."""
        return ((sf2 + sw2 / kk) * (fixed + kk * per_iteration)) / ((sf2 + sw2 / k) * (fixed + k * per_iteration))

    return {"study": study, "fork-min": fork_seconds / 60, "measured": measured / fork_seconds, "cells": len(cells),
            "sw": math.sqrt(sw2), "sf": math.sqrt(sf2), "k": k, "k*": best,
            "k=1": cost(1), "k/2": cost(max(k / 2, 1)), "2k": cost(2 * k), "at k*": cost(min(best, 100))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a run folder, e.g. runs/default")
    args = parser.parse_args()
    rows = [study_row(args.run, s) for s in STUDIES if (args.run / "results" / s / "claims.json").is_file()]
    print("variance per fork-minute against the run's k (below 1: better); sw, sf: sd of log values")
    print(pd.DataFrame([r for r in rows if len(r) > 1]).to_markdown(index=False, floatfmt=".3g"))
    for r in rows:
        if len(r) == 1:
            print(f"{r['study']}: no series of repeated iterations (a held load's window), not modelled")


if __name__ == "__main__":
    main()
