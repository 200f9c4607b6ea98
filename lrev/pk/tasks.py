"""The `pk` study's fork tasks (run by :mod:`lrev.fork`, one JVM each). Each takes the scale root,
the Lucene version, the fork number and the study's effective settings, and returns one tidy table.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from lrev.pk import engine, layout

#: A contender's warm-up counts as stable once this many consecutive samples agree within stable_cv.
STABLE_WINDOW = 3


def _seed(pk: dict[str, Any], fork: int, salt: int) -> int:
    return int(pk["seed"]) * 1000 + fork * 10 + salt


def _lookup_spec(root: str, version: str, pk: dict[str, Any], cond: dict[str, Any], seed: int) -> engine.LookupSpec:
    contenders = pk["contenders"][version]
    return engine.LookupSpec(
        contenders=contenders,
        index_paths=[str(layout.index_path(Path(root), version, cond["corpus"], c, cond["layout"]))
                     for c in contenders],
        keys_tsv=str(layout.keys_file(Path(root), cond["corpus"], cond["miss_rate"])),
        threads=list(cond["threads"]), batch_size=pk["batch_size"],
        min_warmup_rounds=pk["min_warmup_rounds"], max_warmup_rounds=pk["max_warmup_rounds"],
        stable_window=STABLE_WINDOW, stable_cv=pk["stable_cv"], measure_rounds=pk["measure_rounds"], seed=seed)


def lookups(root: str, version: str, fork: int, pk: dict[str, Any]) -> pd.DataFrame:
    """Every condition, one interleaved run of all contenders at all its thread counts."""
    parts = []
    for i, cond in enumerate(pk["conditions"]):
        part = engine.lookups(_lookup_spec(root, version, pk, cond, _seed(pk, fork, i)))
        part.insert(0, "corpus", cond["corpus"])
        part.insert(1, "layout", cond["layout"])
        part.insert(2, "miss_rate", float(cond["miss_rate"]))
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def footprint(root: str, version: str, fork: int, pk: dict[str, Any]) -> pd.DataFrame:
    """Disk and heap bytes of every contender's index and of the baseline, per corpus and layout."""
    contenders = pk["contenders"][version] + [layout.BASELINE]
    parts = []
    for corpus in layout.corpora(pk):
        for lay in sorted({c["layout"] for c in pk["conditions"] if c["corpus"] == corpus}):
            paths = [str(layout.index_path(Path(root), version, corpus, c, lay)) for c in contenders]
            part = engine.footprint(contenders, paths, str(layout.keys_file(Path(root), corpus, 0.0)))
            part.insert(0, "corpus", corpus)
            part.insert(1, "layout", lay)
            parts.append(part)
    return pd.concat(parts, ignore_index=True)


def reopen(root: str, version: str, fork: int, pk: dict[str, Any]) -> pd.DataFrame:
    """NRT reopen latency of every format contender (strategies over another index are left out)."""
    corpus = pk["reopen_corpus"]
    contenders = [c for c in pk["contenders"][version] if c not in layout.INDEX_OF]
    settings = pk["reopen"]
    results = layout.results_dir(Path(root), version)
    results.mkdir(parents=True, exist_ok=True)
    # The engine updates copies of the indexes here, never the indexes themselves.
    with tempfile.TemporaryDirectory(prefix=".reopen-work-", dir=results) as work:
        spec = engine.ReopenSpec(
            contenders=contenders,
            index_paths=[str(layout.index_path(Path(root), version, corpus, c, "multi")) for c in contenders],
            docs_tsv=str(layout.corpus_dir(Path(root), corpus) / "docs.tsv"), work_dir=work,
            updates_per_reopen=settings["updates_per_reopen"], reopen_interval_ms=settings["interval_ms"],
            warmup_reopens=settings["warmup_reopens"], rounds=settings["rounds"],
            reopens_per_round=settings["reopens_per_round"], seed=_seed(pk, fork, 9))
        part = engine.reopen(spec)
    part.insert(0, "corpus", corpus)
    return part


def crosscheck(root: str, version: str, fork: int, pk: dict[str, Any], contender: str) -> pd.DataFrame:
    """The pipeline's lookup run on the seed's setting (all contenders interleaved, A/A included), with two
    plain-loop passes on ``contender``'s index after every round (the second is compared), in this one JVM."""
    # The pipeline's own run of the seed's setting, every thread count it interleaves included.
    cond = next(c for c in pk["conditions"]
                if all(c[k] == layout.SEED_SETTING[k] for k in ("corpus", "layout", "miss_rate")))
    spec = _lookup_spec(root, version, {**pk, "measure_rounds": pk["crosscheck_rounds"]}, cond, _seed(pk, fork, 50))
    index = layout.index_path(Path(root), version, cond["corpus"], contender, cond["layout"])
    return engine.crosscheck(spec, contender, str(index))
