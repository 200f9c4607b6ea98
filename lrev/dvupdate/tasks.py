"""The `dvupdate` fork task (run by :mod:`lrev.fork`, one JVM each): one update method on one corpus, alone
in its JVM. It updates a copy of the version's index, never the index itself, so that every fork starts from
the same committed index; within the fork, each cell ends with ``IndexWriter.rollback``."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pandas as pd

from lrev import warmup
from lrev.dvupdate import engine, layout

KIB = 1 << 10


def queries(corpus_dir: Path) -> list[str]:
    return list(pd.read_csv(corpus_dir / "queries.tsv", sep="\t", names=["term", "df"], dtype={"term": str})["term"])


def measure(root: str, version: str, round: int, role: str, contender: str, job: str,
            dvupdate: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Every cell of ``role``'s grid, timed; then the correctness pass. Tables: ``reopens`` (one row per
    reopen), ``latency`` (HdrHistogram summaries per cell and metric), ``verify``."""
    root_ = Path(root)
    corpus = layout.corpora(dvupdate)[role]
    cells = layout.cells(dvupdate, role)
    scratch = layout.scratch_dir(root_, job)
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(layout.index_dir(root_, version, corpus) / "index", scratch)
    spec = engine.Spec(
        index_path=str(scratch), docs_tsv=str(layout.corpus_dir(root_, corpus) / "docs.tsv"),
        method=layout.method(contender), id_format=dvupdate["id_formats"][version],
        rates=[c["rate"] for c in cells], intervals_millis=[c["interval_ms"] for c in cells],
        warmup_millis=round_ms(dvupdate["warmup_s"]), max_warmup_millis=round_ms(dvupdate["max_warmup_s"]),
        first_warmup_millis=round_ms(layout.first_warmup_s(dvupdate, contender)),
        measure_millis=round_ms(dvupdate["measure_s"]), min_reopens=dvupdate["min_reopens"],
        max_measure_millis=round_ms(dvupdate["max_measure_s"]), probe_millis=warmup.PROBE_MS,
        # A cell is a held load (lrev/warmup.py): the settled test ends a reindexing cell's warm-up early, as its
        # compile rate falls for about 100 s (docs/jit.md), so the measured window that follows reads unconverged.
        quiet_probes=warmup.WINDOW, jit_quiet_share=warmup.JIT_QUIET_SHARE, jit_settled_drop=warmup.JIT_SETTLED_DROP,
        index_threads=dvupdate["index_threads"], search_threads=dvupdate["search_threads"],
        queries=queries(layout.corpus_dir(root_, corpus)), top_n=dvupdate["top_n"],
        ram_buffer_budget_bytes=int(dvupdate["ram_buffer_kb"] * KIB),
        # The same updates for every method and version of a round: the workload is the same, and so are
        # the values the correctness pass must find.
        seed=int(dvupdate["seed"]) * 1000 + round,
        verify_updates=dvupdate["verify"]["updates"], verify_reopens=dvupdate["verify"]["reopens"])
    try:
        with engine.Bench(spec) as bench:
            reopens, latency = bench.run(), bench.latencies()
            verified = bench.verify()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    labels = pd.DataFrame(cells).drop(columns=["rate", "interval_ms"]).assign(combo=range(len(cells)))
    label = {"role": role, "corpus": corpus}
    return {"reopens": reopens.merge(labels, on="combo", how="left").assign(**label),
            "latency": latency.merge(labels, on="combo", how="left").assign(**label),
            "verify": verified.assign(**label)}


def round_ms(seconds: float) -> int:
    return int(round(seconds * 1000))
