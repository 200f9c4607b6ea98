"""Tidy summary tables of the `dvjump` results (configured versions only, measured requests only).

Statistical unit: the fork. Each contender runs alone in one JVM per round; a fork reports, per series
(workload and bucket) and measured iteration, its requests' latency distribution. A comparison of two
contenders (of any versions: one run covers them all) is the geometric mean over rounds of the ratio of
the two forks' median latencies (the median over a fork's iterations of each iteration's median), its
interval resampling rounds, then iterations within forks (:mod:`lrev.rounds`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd
import scipy.stats

from lrev import manifest, rounds, stats, steady
from lrev.dvjump import layout
from lrev.dvjump.results import TABLES
from lrev.tables import by_version, estimate_columns

STUDY = "dvjump"
#: The box plots' statistics, as the seed drew them: quartiles, minimum and 95th percentile.
BOX = ("min", "q25", "median", "q75", "p95")
#: A fork's series per workload, bucket, thread count and corpus: its iterations' median latency.
SERIES = (steady.Series("latency", ("corpus", "workload", "bucket", "threads"), ("iteration",), "median_nanos",
                        "lower", ("phase", "measure")),)


@dataclass(frozen=True)
class DvjResults(manifest.Results):
    latency: pd.DataFrame
    warmup: pd.DataFrame
    answers: pd.DataFrame
    export: pd.DataFrame
    positions: pd.DataFrame
    reads: pd.DataFrame
    cost: pd.DataFrame
    #: Per fork and series of a workload that reads its hits one by one: :func:`walk`.
    walk: pd.DataFrame


def load(results: str | Path, versions: Sequence[str]) -> DvjResults:
    """The results of ``versions``; of each series' measured iterations, those in its final steady segment, read
    from its warm-up and measured iterations in turn (:data:`SERIES`)."""
    # reads.parquet: results from before the study kept it read as empty (no walk to extrapolate by).
    frames, manifests = manifest.load(Path(results) / STUDY, versions, TABLES, optional=("reads",))
    both = pd.concat([frames["warmup"].assign(phase="warmup"), frames["latency"].assign(phase="measure")],
                     ignore_index=True)
    marked, series = steady.mark_all({"latency": both}, SERIES, steady.policy(Path(results)))
    latency = marked["latency"].drop(columns="phase")[[*frames["latency"].columns, "steady", "steady_jit"]]
    rows = {v: m["parameters"]["limits"]["rows"] for v, m in manifests.items()}
    return DvjResults(**{**frames, "latency": latency}, walk=walk(frames["reads"], latency, rows), manifests=manifests,
                      series=series)


#: The documents a request of each workload in reads.parquet reads, from its mean hits and the run's limits.rows.
READ_DOCS = {"export": lambda hits, rows: hits, "retrieve": lambda hits, rows: np.minimum(hits, rows)}
WALK_KEYS = ["version", "round", "fork", "contender", "corpus", "workload", "bucket", "threads"]


def walk(reads: pd.DataFrame, latency: pd.DataFrame, rows: dict[str, int]) -> pd.DataFrame:
    """How much a request's latency grows per document added to the segment (``walk_ms_per_doc``, ms), per fork and
    series of a workload whose reads reads.parquet measured on that fork's corpus (``rows``: each version's
    ``limits.rows``). A fresh column reads a document at a fixed cost plus one per docID before it (Lucene 7 walks
    its blocks from the segment's first): the Theil-Sen slope of the fork's read costs against the docID, robust to
    a stray slow read. A request reads its hits' documents (export every hit, retrieve its top rows), which the
    corpus recipe spreads over the docIDs at random, so a document added to the segment moves their mean docID by
    half a document: the slope × documents read ÷ 2. Empty for results without reads.parquet."""
    if reads.empty:
        return pd.DataFrame(columns=[*WALK_KEYS, "walk_ms_per_doc"])
    slopes = {key: scipy.stats.theilslopes(g["nanos"].to_numpy(float), g["doc"].to_numpy(float))[0]
              for key, g in reads.groupby(["version", "round", "fork", "workload"], sort=True)}
    series = latency[latency["workload"].isin(reads["workload"].unique())]
    series = series.groupby(WALK_KEYS, as_index=False, sort=True)["hits"].mean()
    out = []
    for row in series.itertuples(index=False):
        slope = slopes.get((row.version, row.round, row.fork, row.workload))
        if slope is None:
            continue  # a ladder rung's fork, or an A/A: no reads measured there
        docs = READ_DOCS[row.workload](row.hits, rows[row.version])
        out.append({**row._asdict(), "walk_ms_per_doc": slope * docs / 2 / 1e6})
    return pd.DataFrame(out, columns=[*WALK_KEYS, "hits", "walk_ms_per_doc"]).drop(columns="hits")


def converged_share(latency: pd.DataFrame) -> float:
    """Share of measured samples (series × iteration, as in every study) whose series' warm-up converged. Not
    weighted by requests: a series of fast requests runs thousands per iteration and would hide the slow
    series, whose warm-up is the one that fails."""
    return float((latency["stable"] == 1).mean()) if len(latency) else math.nan


def unconverged(warmup: pd.DataFrame, latency: pd.DataFrame, window: int, stable_cv: float,
                jit_quiet_share: float) -> pd.DataFrame:
    """Why each series (per fork) that never converged did not, judged on its last warm-up window as the
    harness judged it: ``spread`` (the iterations' mean latencies varied by more than ``stable_cv``) and
    ``compiling`` (the JIT compiled for more than ``jit_quiet_share`` of the window). One row per such
    series: contender, version, round, corpus, workload, bucket, threads, cv, jit_share, spread, compiling."""
    keys = ["version", "round", "contender", "corpus", "workload", "bucket", "threads"]
    failed = latency.loc[latency["stable"] == 0, keys].drop_duplicates()
    tail = (warmup.merge(failed, on=keys).sort_values("iteration").groupby(keys, sort=True).tail(window))
    # ns per request, as the harness's ns/op; an iteration's time is its requests' total latency.
    tail = tail.assign(ns_per_op=tail["mean_nanos"], nanos=tail["mean_nanos"] * tail["requests"])
    out = tail.groupby(keys, as_index=False).agg(
        cv=("ns_per_op", lambda x: float(x.std(ddof=1) / x.mean()) if len(x) > 1 else math.nan),
        jit_ms=("jit_ms", "sum"), nanos=("nanos", "sum"))
    out["jit_share"] = out["jit_ms"] * 1e6 / out["nanos"]
    out["spread"] = out["cv"] > stable_cv
    out["compiling"] = out["jit_share"] > jit_quiet_share
    return out.drop(columns=["jit_ms", "nanos"])


def boxes(latency: pd.DataFrame) -> pd.DataFrame:
    """Per contender × corpus × workload × bucket, the box statistics of request latency (ms): each the
    median over the contender's forks and iterations of that statistic of an iteration's requests; and
    the number of requests they summarise."""
    keys = ["version", "contender", "corpus", "workload", "bucket", "threads"]
    table = latency.groupby(keys, as_index=False).agg(**{k: (f"{k}_ms", "median") for k in BOX},
                                                      requests=("requests", "sum"))
    return by_version(table)


def ratio(latency: pd.DataFrame, a: tuple[str, str], b: tuple[str, str], statistic: str = "median") -> pd.DataFrame:
    """Latency of contender a ÷ contender b ((version, contender) each), per corpus × workload × bucket ×
    request threads, paired by round: above 1, a is slower."""
    rows = []
    keys = ["corpus", "workload", "bucket", "threads"]
    mine = latency[(latency["version"] == a[0]) & (latency["contender"] == a[1])]
    theirs = latency[(latency["version"] == b[0]) & (latency["contender"] == b[1])]
    for key, group in mine.groupby(keys, sort=True):
        other = theirs[(theirs[keys] == pd.Series(dict(zip(keys, key)))).all(axis=1)]
        if other.empty:
            continue
        est = rounds.ratio(group, other, "latency_ms", statistic)
        rows.append({**dict(zip(keys, key)), "a": a[1], "b": b[1], **estimate_columns(est),
                     "stable": bool(group["stable"].all() and other["stable"].all())})
    return pd.DataFrame(rows)


def cocktail(latency: pd.DataFrame, base: tuple[str, str], other: tuple[str, str], whole: str,
             parts: Sequence[str]) -> pd.DataFrame:
    """The seed's "cocktail effect": the time ``other`` saves against ``base`` ((version, contender) each) on
    the request ``whole``, against the sum of what it saves on each of ``parts`` run alone, per bucket (full
    corpus, one thread). Each fork's statistic is its median latency. ``whole_ms`` and ``parts_ms`` are the
    mean savings over rounds; ``value``, ``low`` and ``high`` the ratio of savings with its 95% interval
    (:func:`lrev.rounds.saving_ratio`, as claim dvjump-6 judges it; above 1: more than the sum of its parts),
    ``failed`` the rounds in which the whole or the parts saved nothing."""
    cells = latency[(latency["corpus"] == "full") & (latency["threads"] == 1)]
    rows = []
    for bucket, cell in cells.groupby("bucket", sort=True):
        pairs = {}
        for workload in (whole, *parts):
            sides = tuple(cell[(cell["version"] == v) & (cell["contender"] == c) & (cell["workload"] == workload)]
                          for v, c in (base, other))
            if any(side.empty for side in sides):
                break
            pairs[workload] = sides
        else:
            _, saved = rounds.savings([pairs[w] for w in (whole, *parts)], "latency_ms", "median")
            est, failed = rounds.saving_ratio(pairs[whole], [pairs[p] for p in parts], "latency_ms", "median")
            rows.append({"bucket": int(bucket), "a": base[1], "b": other[1], "whole_ms": float(saved[0].mean()),
                         "parts_ms": float(saved[1:].sum(axis=0).mean()), **estimate_columns(est),
                         "failed": len(failed)})
    return pd.DataFrame(rows)


def concurrency(latency: pd.DataFrame) -> pd.DataFrame:
    """Per contender, corpus, workload and bucket run on two request threads: the median latency at two
    threads ÷ at one, paired by round (both ran in the same forks)."""
    rows = []
    keys = ["version", "contender", "corpus", "workload", "bucket"]
    for key, group in latency.groupby(keys, sort=True):
        if {1, 2} <= set(group["threads"]):
            est = rounds.ratio(group[group["threads"] == 2], group[group["threads"] == 1], "latency_ms", "median")
            rows.append({**dict(zip(keys, key)), **estimate_columns(est)})
    return by_version(pd.DataFrame(rows))


def export_table(export: pd.DataFrame) -> pd.DataFrame:
    """The seed's export table: per contender, each run's latency (geometric mean over forks, 95% CI on the log
    scale: a latency's interval stays above zero), and the page cache held before run 1 (mean resident share of
    the index)."""
    rows = []
    for (version, contender), group in export.groupby(["version", "contender"], sort=True):
        row = {"version": version, "contender": contender,
               "resident_share": float((group["resident_before"] / group["index_bytes"]).mean())}
        for run, runs in group.groupby("run"):
            est = rounds.location(runs, "latency_ms", log=True)
            row[f"run{run}"], row[f"run{run}_low"], row[f"run{run}_high"] = est.value, est.low, est.high
        rows.append(row)
    return by_version(pd.DataFrame(rows))


def cost_table(cost: pd.DataFrame) -> pd.DataFrame:
    """What readers built on first access, mean over forks: build ms and heap bytes, per contender."""
    built = cost[cost["build_nanos"] > 0]
    return by_version(built.groupby(["version", "contender", "corpus"], as_index=False).agg(
        build_ms=("build_nanos", lambda s: s.mean() / 1e6), heap_bytes=("heap_bytes", "mean")))


def noise(latency: pd.DataFrame) -> pd.DataFrame:
    """The A/A ratio (the baseline's twin ÷ the baseline) per cell, with its noise factor ``floor``."""
    base = layout.contender(layout.BASELINE).version
    aa = ratio(latency, (base, layout.AA), (base, layout.BASELINE))
    aa["floor"] = [stats.noise_floor(lo, hi) for lo, hi in zip(aa["low"], aa["high"])]
    return aa
