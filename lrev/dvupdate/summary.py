"""Tidy summary tables of the `dvupdate` results (configured versions only, reopens after the warm-up only).

Statistical unit: the fork. Each (version, corpus role, method) runs alone in one JVM per round, every cell
of its grid in turn; a fork reports one row per reopen. A fork's value in a cell is the mean over its
reopens, as the seed averaged per reopen; a comparison of two methods is the geometric mean over rounds of
the ratio of their forks' values, its interval resampling rounds, then reopens within forks (:mod:`lrev.rounds`).
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pandas as pd

from lrev import manifest, rounds, stats, steady
from lrev.dvupdate import layout, results
from lrev.tables import by_version, estimate_columns

STUDY = "dvupdate"
CELL = ["role", "rate_role", "interval_role"]
#: A fork's series per cell: its reopens, warm-up and measured in turn, each costing the updates applied since the
#: last reopen plus the reopen itself. The measured window is kept whole: it samples the work the rate asks for.
SERIES = (steady.Series("reopens", tuple(CELL), ("reopen",), "cost_ns", "lower", ("warmup", 0), time="elapsed_ns",
                        cut=False),)
#: The seed's columns per reopen, and what this study adds.
METRICS = ("reopen_ms", "update_ms", "total_ms", "perdoc_ms", "queries_per_s", "achieved_per_s", "behind",
           "heap_mb")
#: Metrics that can be zero (a share of reopens): averaged plainly. Every other metric is a positive time, rate or
#: size, averaged geometrically over forks so that its interval stays above zero.
SHARES = ("behind",)


@dataclass(frozen=True)
class DvuResults(manifest.Results):
    reopens: pd.DataFrame
    perdoc: pd.DataFrame
    latency: pd.DataFrame
    verify: pd.DataFrame
    warmup: pd.DataFrame

    @property
    def worst(self) -> pd.DataFrame:
        """One row per fork and cell: its slowest measured reopen (``reopen_max_ms``), where a flush of a buffer
        or a fold of stacked overlays shows, which a mean over reopens hides."""
        keys = ["version", "contender", "round", "fork", *CELL]
        return self.reopens.groupby(keys, as_index=False, sort=True).agg(reopen_max_ms=("reopen_ms", "max"),
                                                                         stable=("stable", "first"))

    @functools.cached_property
    def sizes(self) -> pd.DataFrame:
        """One row per fork and cell: the sizes the claims' mechanisms need. ``docs_per_update``: the documents of
        the cell's corpus over the mean updates a measured reopen applied, the share of a whole-field rewrite
        each update bears; ``flushes``: how often the RAM buffer wrote its field out (a whole-field rewrite);
        ``docs``: the corpus's documents, the size the size ladder varies."""
        keys = ["version", "contender", "round", "fork", *CELL]
        table = self.reopens.groupby(keys, as_index=False, sort=True).agg(updates=("updates", "mean"),
                                                                         flushes=("flushed", "sum"))
        docs = {(v, role): n for v, m in self.manifests.items() for role, n in documents(m).items()}
        corpus = pd.Series([docs[(v, role)] for v, role in zip(table["version"], table["role"])], dtype=float)
        return table.assign(docs=corpus, docs_per_update=corpus / table["updates"]).drop(columns="updates")


def load(results_root: str | Path, versions: Sequence[str]) -> DvuResults:
    frames, manifests = manifest.load(Path(results_root) / STUDY, versions, results.TABLES)
    behind_s = {v: m["parameters"]["behind_s"] for v, m in manifests.items()}
    reopens = pd.concat([results.derive(g, behind_s[v]) for v, g in frames["reopens"].groupby("version", sort=False)],
                        ignore_index=True)
    marked, series = steady.mark_all({"reopens": reopens.assign(cost_ns=reopens["update_ns"] + reopens["reopen_ns"])},
                                     SERIES, steady.policy(Path(results_root)))
    measured = marked["reopens"].drop(columns="cost_ns")
    return DvuResults(reopens=measured, perdoc=measured[measured["updates"] > 0].reset_index(drop=True),
                      latency=frames["latency"], verify=frames["verify"],
                      warmup=reopens[reopens["warmup"] == 1].reset_index(drop=True), manifests=manifests,
                      series=series)


def without_ladder(data: DvuResults) -> DvuResults:
    """``data`` on the configured corpus roles only: the size ladder's corpora (``big-<n>``) feed the claims fitted on
    them, not the seed's tables and figures."""
    def keep(table: pd.DataFrame) -> pd.DataFrame:
        if "role" not in table:
            return table
        return table[~table["role"].map(lambda r: bool(layout.LADDER_ROLE.fullmatch(r)))].reset_index(drop=True)

    return dataclasses.replace(data, reopens=keep(data.reopens), perdoc=keep(data.perdoc), latency=keep(data.latency),
                               verify=keep(data.verify), warmup=keep(data.warmup))


def samples(data: DvuResults, metric: str) -> pd.DataFrame:
    """The rows a metric is computed from: per-document cost only where a reopen applied updates."""
    return data.perdoc if metric == "perdoc_ms" else data.reopens


def warmups(data: DvuResults) -> pd.DataFrame:
    """One row per fork and cell: when its warm-up ended (ms into the cell), whether its reopens reached a steady
    state (``stable``, :data:`SERIES`), and how many reopens were measured."""
    keys = ["version", "contender", "round", "fork", *CELL]
    return data.reopens.groupby(keys, as_index=False, sort=True).agg(warmup_ms=("warmup_ms", "first"),
                                                                     stable=("stable", "first"),
                                                                     reopens=("reopen", "size"))


def cell_table(data: DvuResults) -> pd.DataFrame:
    """The seed's table: per version, method, corpus role and cell, each metric's mean over forks (the mean of
    a fork's reopens; geometric, but for :data:`SHARES`) with its interval, the cell's rate and interval, and the
    updates per reopen."""
    rows = []
    keys = ["version", "contender", *CELL]
    for key, group in data.reopens.groupby(keys, sort=True):
        row = {**dict(zip(keys, key)), "rate": int(group["rate"].iloc[0]),
               "interval_ms": int(group["interval_ms"].iloc[0]), "reopens": len(group),
               "updates_per_reopen": float(group["updates"].mean())}
        for metric in METRICS:
            rows_m = samples(data, metric)
            cell = rows_m[(rows_m[keys] == pd.Series(dict(zip(keys, key)))).all(axis=1)]
            if cell.empty:
                row.update({metric: float("nan"), f"{metric}_low": float("nan"), f"{metric}_high": float("nan")})
                continue
            est = rounds.location(cell, metric, log=metric not in SHARES)
            est = stats.share(est) if metric in SHARES else est
            row.update({metric: est.value, f"{metric}_low": est.low, f"{metric}_high": est.high})
        rows.append(row)
    return by_version(pd.DataFrame(rows))


def ratio(data: DvuResults, metric: str, a: str, b: str) -> pd.DataFrame:
    """``metric`` of method a ÷ method b, per version, corpus role and cell, paired by round."""
    rows_m = samples(data, metric)
    out = []
    for key, group in rows_m.groupby(["version", *CELL], sort=True):
        where = dict(zip(["version", *CELL], key))
        sa, sb = group[group["contender"] == a], group[group["contender"] == b]
        if sa.empty or sb.empty or set(sa["round"]) != set(sb["round"]):
            continue
        try:
            est = rounds.ratio(sa, sb, metric)
        except ValueError:  # a fork with a zero mean (no query, nothing behind) has no ratio
            continue
        out.append({**where, "a": a, "b": b, "metric": metric, **estimate_columns(est)})
    return by_version(pd.DataFrame(out))


def crossover(data: DvuResults, method: str = "numeric") -> pd.DataFrame:
    """Where a DocValues update beats reindexing: total time per reopen of ``method`` ÷ reindex's, per version,
    corpus (its documents) and update rate; below 1, the DocValues update is cheaper."""
    table = ratio(data, "total_ms", method, layout.BASELINE)
    if table.empty:
        return table
    docs = {(v, role): int(m) for v in data.manifests for role, m in documents(data.manifests[v]).items()}
    rates = data.reopens.groupby(CELL)["rate"].first()
    table["docs"] = [docs[(v, role)] for v, role in zip(table["version"], table["role"])]
    table["rate"] = [int(rates[tuple(k)]) for k in table[CELL].itertuples(index=False)]
    return table


def documents(result_manifest: dict) -> dict[str, int]:
    """Documents of each corpus role's corpus, from a result manifest's provenance."""
    corpora = result_manifest["corpora"]
    return {role: corpora[name]["docs"] for role, name in layout.corpora(result_manifest["parameters"]).items()}


def verified(data: DvuResults) -> pd.DataFrame:
    """Per version, method and corpus role: how many correctness checks ran (all of them matched, or the run
    would have stopped)."""
    return by_version(data.verify.groupby(["version", "contender", "role"], as_index=False).agg(
        checks=("match", "size"), matched=("match", "sum")))
