"""Turn the `dvupdate` forks into the study's tidy result files, one folder per Lucene version.

    reopens.parquet   one row per reopen of a fork, as the seed reported them: reopen_ms, update_ms (the
                      update calls completed since the previous reopen, summed over threads), total_ms,
                      perdoc_ms (total ÷ updates), queries_per_s, behind (the reopen thread missed its
                      schedule, or updates due for longer than ``behind_s`` were not done), heap_mb;
                      ``warmup`` rows (reopens that started during the cell's warm-up) are kept but no
                      statistic reads them; ``stable`` is 0 on a cell whose warm-up ended at its maximum
                      with the JIT still winding down, and ``warmup_ms`` is when the warm-up ended
    latency.parquet   HdrHistogram summaries per cell and metric (update_ns, lag_ns, reopen_ns, query_ns)
    verify.parquet    the correctness pass: expected and actual top hits at every reopen, final values
    manifest.json     provenance, and the sha256 of every table above

Rows carry ``version``, ``round``, ``fork`` (the job) and ``contender`` (the method, or the A/A contender).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lrev import fork, manifest
from lrev.dvupdate import layout
from lrev.io import read_json

TABLES = ("reopens", "latency", "verify")
FILES = (*(f"{t}.parquet" for t in TABLES), "manifest.json")
NS_PER_MS = 1e6


class AnswerMismatch(ValueError):
    """A method left other values, or found other hits, than the updates it applied should give."""


def labels(job: str) -> dict[str, str]:
    """A fork's version and contender."""
    version, _, contender = layout.parse_job(job)
    return {"version": version, "contender": contender}


def collect(forks_dir: Path, behind_s: float | None = None) -> tuple[dict[str, pd.DataFrame], dict[str, dict]]:
    """Every table from the forks' folders, each row labelled with its version, round, fork and contender;
    and one fork's JVM report per version. Raises :class:`AnswerMismatch` when a correctness check fails."""
    out, jvms = fork.collect_tables(forks_dir, labels)
    check_answers(out["verify"])
    if behind_s is not None:
        out["reopens"] = derive(out["reopens"], behind_s)
    return out, jvms


def derive(reopens: pd.DataFrame, behind_s: float) -> pd.DataFrame:
    """The seed's per-reopen columns, in ms, and whether the run was behind at that reopen."""
    r = reopens.copy()
    r["reopen_ms"] = r["reopen_ns"] / NS_PER_MS
    r["update_ms"] = r["update_ns"] / NS_PER_MS
    r["total_ms"] = r["reopen_ms"] + r["update_ms"]
    # A reopen that applied no update has no per-document cost.
    r["perdoc_ms"] = np.where(r["updates"] > 0, r["total_ms"] / r["updates"].clip(lower=1), np.nan)
    r["queries_per_s"] = r["queries"] / (r["elapsed_ns"] / 1e9)
    # The rate reached, not the rate asked for: a method that cannot keep up applies fewer updates per second.
    r["achieved_per_s"] = r["updates"] / (r["elapsed_ns"] / 1e9)
    backlog_s = (r["due"] - r["done"]) / r["rate"]
    r["backlog_s"] = backlog_s
    r["behind"] = ((r["fell_behind"] == 1) | (backlog_s > behind_s)).astype(int)
    r["heap_mb"] = r["heap_bytes"] / (1 << 20)
    return r


def check_answers(verify: pd.DataFrame) -> None:
    """Every method found, at every reopen of its correctness pass, the top hits its updates should give, and
    left the values they should leave; and methods that set the same field left the same values, on every
    version, round by round. Raises naming the first disagreement."""
    wrong = verify[verify["match"] != 1]
    if len(wrong):
        row = wrong.iloc[0]
        raise AnswerMismatch(f"{row['contender']} on Lucene {row['version']} ({row['role']}, round {row['round']}): "
                             f"{row['step']} {row['item']}: expected {row['expected']}, found {row['actual']} "
                             f"({len(wrong)} wrong rows in all)")
    final = verify[verify["step"] == "final"].copy()
    final["method"] = final["contender"].map(layout.method)
    for (role, r, field), group in final.groupby(["role", "round", "item"]):
        setters = group[group["method"].map(lambda m: field in layout.UPDATES[layout.kind(m)])]
        if setters["actual"].nunique() > 1:
            by = setters.groupby(["version", "contender"])["actual"].first().to_dict()
            raise AnswerMismatch(f"methods that update {field} left different values ({role}, round {r}): {by}")


def write(root: Path, scale: str, dvupdate: dict[str, Any], tables: dict[str, pd.DataFrame],
          jvms: dict[str, dict[str, Any]], started: str) -> list[Path]:
    """One result folder per version, each written tables first and manifest last."""
    corpora = {c: read_json(layout.corpus_dir(root, c) / "manifest.json")
               for c in sorted(set(layout.corpora(dvupdate).values()))}
    return manifest.write_each(lambda v: layout.results_dir(root, v), dvupdate["versions"], study="dvupdate",
                               scale=scale, tables=tables, jvms=jvms, corpora=corpora, parameters=dvupdate,
                               started=started)
