"""Tidy summary tables of the `join` results (configured versions only).

Statistical unit: the fork. Each (version, contender) runs alone in one JVM per round: a closed-loop warm-up,
then the saturation search, whose outcome is one row per fork. A comparison of two contenders is the geometric
mean over rounds of the ratio of their forks' values, its interval resampling rounds (:mod:`lrev.rounds`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from lrev import growth, manifest, rounds, stats, steady
from lrev.join import layout, results
from lrev.load import failed_steps
from lrev.tables import by_version, estimate_columns

STUDY = "join"
#: The series whose steady state is read: each closed-loop fork's warm-up, then its measured iterations (they
#: place a load fork's saturation search, and are a sweep or ladder fork's service time), and each update fork's
#: probes.
SERIES = (*(steady.Series(table, (), ("iteration",), "ops/nanos", "higher", ("phase", "measure"))
            for table in ("closed", "sweep_closed", "ladder_closed")),
          *(steady.Series(table, (), ("probe",), "ops/nanos", "higher", ("phase", "measure"))
            for table in ("update_probes", "ladder_update_probes")))
#: The tables whose forks take ``stable`` from a series: the table, and the series' table.
STEADY = {"saturation": "closed", "sweep": "sweep_closed", "ladder": "ladder_closed", "updates": "update_probes",
          "ladder_updates": "ladder_update_probes"}
#: What one fork's saturation search yields.
METRICS = ("saturation_rps", "low_p50_ms", "low_p99_ms", "cpu_at_saturation", "server_cpu_at_saturation",
           "service_ms", "terms_share", "docfreq_share", "cpu_per_request_ms")


@dataclass(frozen=True)
class JoinResults(manifest.Results):
    gate: pd.DataFrame
    closed: pd.DataFrame
    steps: pd.DataFrame
    intervals: pd.DataFrame
    saturation: pd.DataFrame
    frames: pd.DataFrame
    cold: pd.DataFrame
    cold_intervals: pd.DataFrame
    residency: pd.DataFrame
    sweep_gate: pd.DataFrame
    sweep: pd.DataFrame
    sweep_closed: pd.DataFrame
    update_gate: pd.DataFrame
    update_probes: pd.DataFrame
    updates: pd.DataFrame
    ladder_gate: pd.DataFrame
    ladder: pd.DataFrame
    ladder_closed: pd.DataFrame
    ladder_update_gate: pd.DataFrame
    ladder_update_probes: pd.DataFrame
    ladder_updates: pd.DataFrame
    #: Derived (:func:`service_table`): the closed loop's service time on every corpus of the size ladder.
    service: pd.DataFrame


def load(results_root: str | Path, versions: Sequence[str]) -> JoinResults:
    frames, manifests = manifest.load(Path(results_root) / STUDY, versions, results.TABLES, series=SERIES,
                                      optional=results.SINCE_SERIES)
    for table, series in STEADY.items():
        frames[table] = with_steady(frames[table], frames[series])
    frames["saturation"] = with_cpu_per_request(frames["saturation"], frames["steps"])
    frames["cold"] = with_cold_windows(frames["cold"], frames["residency"])
    frames["service"] = service_table(frames["saturation"], frames["closed"], frames["ladder"], manifests)
    return JoinResults(**frames, manifests=manifests)


def with_steady(table: pd.DataFrame, series: pd.DataFrame) -> pd.DataFrame:
    """``table`` with each fork's ``stable`` taken from its series (:data:`STEADY`): whether that series reached a
    steady state, its class (``steady``) and the JIT's share of its steady segment (``steady_jit``)."""
    keys = ["version", "round", "fork", "contender"]
    if series.empty:  # results from before the series were kept: the harness's own flag stands
        return table
    found = series.groupby(keys, as_index=False)[["stable", "steady", "steady_jit"]].first()
    return table.drop(columns=[c for c in ("stable", "steady", "steady_jit") if c in table]).merge(found, on=keys,
                                                                                                   how="left")


def service_table(saturation: pd.DataFrame, closed: pd.DataFrame, ladder: pd.DataFrame,
                  manifests: dict[str, dict]) -> pd.DataFrame:
    """One row per fork that ran the closed loop (:func:`lrev.join.tasks.gate_and_warm_up`) on a corpus of the size
    ladder: the load forks' on the main corpus and the ladder's forks on theirs. Columns: version, round, fork,
    contender, corpus, docs, service_ms, stable (the closed loop's warm-up converged, on every rung alike)."""
    columns = ["version", "round", "fork", "contender", "corpus", "docs", "service_ms", "stable"]
    keys = ["version", "round", "fork", "contender"]
    docs = {v: layout.docs(m["parameters"], layout.CORPUS) for v, m in manifests.items()}
    loops = closed.groupby(keys, as_index=False)["stable"].first()
    main = saturation.drop(columns="stable").merge(loops, on=keys, how="left")
    main = main.assign(corpus=layout.CORPUS, docs=main["version"].map(docs))
    return pd.concat([main.reindex(columns=columns), ladder.reindex(columns=columns)], ignore_index=True)


def with_cold_windows(cold: pd.DataFrame, residency: pd.DataFrame) -> pd.DataFrame:
    """``cold`` with ``cold_windows``: the bytes of terms and postings that opening the evicted index left on disk,
    in read-ahead windows (at least a 4 KB page each). A query faults in one window at a time, so this bounds the
    disk reads a cold run's queries could wait on; 0 where opening the index read them whole."""
    keys = ["version", "round", "fork", "contender", "directory", "workers"]
    if cold.empty:
        return cold.assign(cold_windows=pd.Series(dtype=float))
    hot = residency[residency["extension"].isin(layout.TERMS_AND_POSTINGS)]
    left = (hot["bytes"] - hot["resident_at_open"]).clip(lower=0)
    on_disk = hot.assign(left=left).groupby(keys, as_index=False)["left"].sum()
    out = cold.merge(on_disk, on=keys, how="left").fillna({"left": 0})
    window = (out["read_ahead_kb"] * 1024).clip(lower=4096)
    return out.assign(cold_windows=out["left"] / window).drop(columns="left")


def with_cpu_per_request(saturation: pd.DataFrame, steps: pd.DataFrame) -> pd.DataFrame:
    """``saturation`` with ``cpu_per_request_ms``: the CPU time per completed request at the first step past
    saturation (the step ``cpu_at_saturation`` reads), all threads of the process: the request's own work plus
    what the load costs around it (dispatch, hand-off, recording) and any compilation. Set beside the closed
    loop's one-thread service time, it shows where the saturation rate falls short of the capacity estimate."""
    keys = ["version", "round", "contender"]
    first = failed_steps(steps, "offered_rps").groupby(keys, as_index=False).first()
    first["cpu_per_request_ms"] = first["cpu_share"] * first["cores"] / first["completion_rate"] * 1e3
    return saturation.merge(first[keys + ["cpu_per_request_ms"]], on=keys, how="left")


def measured_time(data: JoinResults) -> pd.DataFrame:
    """Every measured window of the forks, one row each, with its version, wall time (``nanos``) and the JIT's
    and collectors' time in it (``jit_ms``, ``gc_ms``): the closed loop's measured iterations and the
    saturation search's load steps."""
    columns = ["version", "nanos", "jit_ms", "gc_ms"]
    steps = data.steps.rename(columns={"duration_ns": "nanos"})
    return pd.concat([data.closed[columns], steps[columns]], ignore_index=True)


def contender_table(data: JoinResults) -> pd.DataFrame:
    """Per version and contender: each metric's mean over forks, with its interval (the saturation rate's geometric
    mean, with the t interval of its logs), and how the saturation searches ended."""
    rows = []
    for (version, contender), group in data.saturation.groupby(["version", "contender"], sort=True):
        row = {"version": version, "contender": contender, "system": group["system"].iloc[0],
               "kind": layout.KIND[layout.contender(contender)], "forks": len(group),
               "stable": int(group["stable"].all()), "outcomes": ", ".join(sorted(set(group["outcome"])))}
        for metric in METRICS:
            # A rate is positive (a search that never saturated has none), yet a plain t interval over three widely
            # spread forks reaches below zero; on the log scale, as for any positive quantity, it cannot.
            est = rounds.location(group, metric, log=metric == "saturation_rps")
            row.update({metric: est.value, f"{metric}_low": est.low, f"{metric}_high": est.high})
        rows.append(row)
    return by_version(pd.DataFrame(rows))


def ratio(data: JoinResults, metric: str, a: str, b: str) -> pd.DataFrame:
    """``metric`` of contender a ÷ contender b per version, paired by round."""
    out = []
    for version, group in data.saturation.groupby("version", sort=True):
        sa, sb = group[group["contender"] == a], group[group["contender"] == b]
        if sa.empty or sb.empty or set(sa["round"]) != set(sb["round"]):
            continue
        try:
            est = rounds.ratio(sa, sb, metric)
        except ValueError:  # a fork whose search never saturated has no rate
            continue
        out.append({"version": version, "a": a, "b": b, "metric": metric, **estimate_columns(est)})
    return by_version(pd.DataFrame(out))


def gated(data: JoinResults) -> pd.DataFrame:
    """Per version and contender: the queries its gate checked (every answer agreed, or the run would have
    stopped) and the hits they matched."""
    return by_version(data.gate.groupby(["version", "contender"], as_index=False).agg(
        queries=("query", "nunique"), rounds=("round", "nunique"), hits=("hits", "sum")))


#: What the cold runs yield, per run.
COLD_METRICS = ("p99_ms", "recovery_s", "read_kb_per_query", "syscall_kb_per_query", "kb_per_transaction",
                "hot_share", "hot_share_ceiling", "cold_windows")


def cold_table(data: JoinResults) -> pd.DataFrame:
    """Per version, contender, directory and workers: each cold metric's mean over forks, and how many runs
    started evicted and ended recovered."""
    rows = []
    for (version, contender, directory, workers), group in data.cold.groupby(
            ["version", "contender", "directory", "workers"], sort=True):
        row = {"version": version, "contender": contender, "directory": directory, "workers": int(workers),
               "runs": len(group), "evicted": int(group["evicted"].sum()), "recovered": int(group["recovered"].sum()),
               "offered_rps": group["offered_rps"].mean()}
        row.update({m: group[m].mean() for m in COLD_METRICS})
        rows.append(row)
    return by_version(pd.DataFrame(rows))


def residency_table(data: JoinResults, directory: str = "mmap", workers: int = 4) -> pd.DataFrame:
    """Per version, contender and index file extension, after the cold run on ``directory`` with ``workers``:
    the file's bytes, the mean resident bytes, and the extension's share of what was resident."""
    rows = data.residency[(data.residency["directory"] == directory) & (data.residency["workers"] == workers)]
    table = rows.groupby(["version", "contender", "extension"], as_index=False).agg(
        bytes=("bytes", "first"), resident_bytes=("resident_bytes", "mean"))
    totals = table.groupby(["version", "contender"])["resident_bytes"].transform("sum")
    table["resident_share"] = table["resident_bytes"] / totals
    table["terms_or_postings"] = table["extension"].isin(layout.TERMS_AND_POSTINGS)
    return by_version(table)


def index_table(data: JoinResults) -> pd.DataFrame:
    """Per version and system (Lucene's or Solr's index): its bytes and those of its terms and postings files, as
    listed by the first cold run on it (versions without a cold run on a system have no row for it)."""
    rows = data.residency.drop_duplicates(["version", "system", "extension"])
    rows = rows.assign(terms_and_postings=rows["bytes"].where(rows["extension"].isin(layout.TERMS_AND_POSTINGS), 0))
    table = rows.groupby(["version", "system"], as_index=False)[["bytes", "terms_and_postings"]].sum()
    return by_version(table)


def hot_frames(data: JoinResults, kind: str = "self", top: int = 5) -> pd.DataFrame:
    """Per version and contender: the ``top`` frames by ``kind`` samples summed over forks, with their share."""
    rows = data.frames[data.frames["kind"] == kind]
    totals = data.frames[data.frames["kind"] == "mark"].drop_duplicates(["fork", "round"]).groupby(
        ["version", "contender"])["total"].sum()
    table = rows.groupby(["version", "contender", "name"], as_index=False)["samples"].sum()
    table["share"] = table["samples"] / [totals.get((v, c), 0) or float("nan")
                                         for v, c in zip(table["version"], table["contender"])]
    table = table.sort_values(["version", "contender", "samples", "name"], ascending=[True, True, False, True])
    return by_version(table.groupby(["version", "contender"]).head(top).reset_index(drop=True))


def sweep_table(data: JoinResults) -> pd.DataFrame:
    """Per version, contender and sweep corpus: join keys and the service time (mean over forks, 95% CI)."""
    rows = []
    for (version, contender, share), group in data.sweep.groupby(["version", "contender", "share"], sort=True):
        est = rounds.location(group, "service_ms")
        rows.append({"version": version, "contender": contender, "share": int(share),
                     "join_keys": int(group["join_keys"].iloc[0]), "forks": len(group),
                     "stable": int(group["stable"].all()), "service_ms": est.value, "service_ms_low": est.low,
                     "service_ms_high": est.high})
    return by_version(pd.DataFrame(rows))


def update_costs(updates: pd.DataFrame, loops: pd.DataFrame, version: str,
                 corpus: str | None = None) -> pd.DataFrame:
    """Per round of ``version`` (and ``corpus``, for the ladder's tables): ``extra``, block join's time per child
    update minus the child alone's, and ``saved``, the query-time join's closed-loop service time minus block
    join's; NaN where a round lacks a side."""
    def per_round(table: pd.DataFrame, contender: str, column: str) -> pd.Series:
        rows = table[(table["version"] == version) & (table["contender"] == contender)]
        if corpus is not None:
            rows = rows[rows["corpus"] == corpus]
        return rows.groupby("round")[column].mean()

    block, child = (per_round(updates, d, "update_ms") for d in layout.UPDATE_DESIGNS)
    saved = per_round(loops, layout.QUERY_TIME, "service_ms") - per_round(loops, layout.BASELINE, "service_ms")
    return pd.DataFrame({"extra": block - child, "saved": saved})


def geometric(values: pd.Series) -> stats.Estimate:
    """The geometric mean of positive per-round values, with the t interval of their logs."""
    logs = stats.location([[v] for v in np.log(values.to_numpy(dtype=float))])
    return stats.Estimate(*(math.exp(x) for x in (logs.value, logs.low, logs.high)), logs.n)


def ladder_sides(data: JoinResults, p: dict[str, Any], version: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`update_costs`' ``extra`` and ``saved``, each per round (rows) and index size in documents (columns):
    the two costs whose ratio is the break-even. The main corpus's forks give its size (load forks' closed loops,
    update forks), the ladder's forks the others."""
    columns = {layout.docs(p, layout.CORPUS): update_costs(data.updates, data.saturation, version)}
    for corpus in sorted(set(data.ladder.loc[data.ladder["version"] == version, "corpus"]),
                         key=lambda c: layout.parents(p, c)):
        columns[layout.docs(p, corpus)] = update_costs(data.ladder_updates, data.ladder, version, corpus)
    return tuple(pd.DataFrame({n: costs[side] for n, costs in columns.items()}).sort_index(axis=1)
                 for side in ("extra", "saved"))


def break_even(extra: pd.DataFrame, saved: pd.DataFrame) -> pd.DataFrame:
    """Per round (rows) and index size in documents (columns): :func:`ladder_sides`' extra over saved, the
    break-even queries per update at that size; NaN where either difference was not positive."""
    return (extra / saved).where((extra > 0) & (saved > 0))


#: Why :func:`ladder_fit` gives no lines.
NOT_POSITIVE = ("(in some round and size a side is missing, or block join's queries were not cheaper or its updates "
                "not dearer)")
BENDS = "(a side's line bends over the measured sizes)"


def ladder_fit(extra: pd.DataFrame, saved: pd.DataFrame) -> growth.Fit | str:
    """The break-even's two sides (:func:`ladder_sides`) fitted per round, each a line in the documents
    (:func:`lrev.growth.fit_ratio`, its target the largest size), or why not. Both are walks with a fixed part:
    block join's update rewrites one block and the terms it holds, the query-time join's saving walks every join key,
    so their ratio bends from the fixed parts' towards the slopes', which no line in logarithms follows."""
    if not ((extra > 0) & (saved > 0)).all().all():
        return NOT_POSITIVE
    fit = growth.fit_ratio(extra, saved, float(extra.columns.max()))
    return BENDS if fit.describes is False else fit

