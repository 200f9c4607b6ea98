"""Turn the `dvjump` forks into the study's tidy result files, one folder per Lucene version.

    latency.parquet    one row per series (workload, bucket) and measured iteration of a fork: requests,
                       mean hits, the requests' latency mean/min/q25/median/q75/p95/max (ns, and in ms
                       as <stat>_ms; latency_ms is the median), stable (the series converged); ``round``
                       pairs forks, ``fork`` names the JVM (its contender)
    warmup.parquet     the same for each warm-up iteration: why a series that never converged did not
                       (its iterations spread, or the JIT was still compiling)
    answers.parquet    each request's answer checksum (the correctness gate: identical across contenders)
    export.parquet     the seed's export test: runs 1..n, the first on evicted files (resident_before)
    positions.parquet  the cost of one read by docID position, per field
    reads.parquet      the cost of reading one document as export or retrieve reads each hit, by docID position
    cost.parquet       what a contender's reader built on first access (search-time jump tables)
    manifest.json      provenance, and the sha256 of every table above
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from lrev import fork, manifest
from lrev.dvjump import layout
from lrev.io import read_json

TABLES = ("latency", "warmup", "answers", "export", "positions", "reads", "cost")
#: What the engine reports of each series' requests in an iteration.
LATENCY_STATS = ("mean", "min", "q25", "median", "q75", "p95", "max")
FILES = (*(f"{t}.parquet" for t in TABLES), "manifest.json")


class AnswerMismatch(ValueError):
    """Contenders answered a request differently: none of their timings count."""


def collect(forks_dir: Path) -> tuple[dict[str, pd.DataFrame], dict[str, dict[str, Any]]]:
    """Every table from the forks' folders, each row labelled with its contender's version, round and fork;
    and one fork's JVM report per version."""
    out, jvms = fork.collect_tables(forks_dir, _labels)
    for stat in LATENCY_STATS:
        out["latency"][f"{stat}_ms"] = out["latency"][f"{stat}_nanos"] / 1e6
    out["latency"]["latency_ms"] = out["latency"]["median_ms"]
    out["export"]["latency_ms"] = out["export"]["nanos"] / 1e6
    check_answers(out["answers"], out["export"])
    return out, jvms


def _labels(job: str) -> dict[str, str]:
    contender, _ = layout.fork_parts(job)
    return {"version": layout.contender(contender).version, "contender": contender}


def check_answers(answers: pd.DataFrame, export: pd.DataFrame) -> None:
    """Every contender answers every request of every round alike: one checksum and one hit count per
    (corpus, workload, term), and the export test's runs too. Raises naming the first disagreement."""
    keys = ["corpus", "workload", "term"]
    for key, group in answers.groupby(keys, sort=True):
        if group["checksum"].nunique() > 1 or group["hits"].nunique() > 1:
            by = group.groupby("contender")["checksum"].first().to_dict()
            raise AnswerMismatch(f"contenders answer {dict(zip(keys, key))} differently: {by}")
    if export["checksum"].nunique() > 1:
        raise AnswerMismatch(f"export runs differ: {export.groupby('contender')['checksum'].unique().to_dict()}")


def write(root: Path, scale: str, dvjump: dict[str, Any], tables: dict[str, pd.DataFrame],
          jvms: dict[str, dict[str, Any]], started: str) -> list[Path]:
    """One result folder per version, each written tables first and manifest last."""
    corpora = {c: read_json(layout.corpus_dir(root, c) / "manifest.json") for c in layout.corpora(dvjump)}
    # Each latency beside its segment's documents: the size a claim's mechanism needs and its ladder is fitted on.
    latency = tables["latency"].assign(docs=tables["latency"]["corpus"].map({c: m["docs"] for c, m in corpora.items()}))
    tables = {**tables, "latency": latency}
    return manifest.write_each(lambda v: layout.results_dir(root, v), dvjump["versions"], study="dvjump", scale=scale,
                               tables=tables, jvms=jvms, corpora=corpora, parameters=dvjump, started=started)
