"""Typed Python calls into the `dvupdate` engine classes (org.lucenerevisited.dvupdate). Needs a started JVM
(:func:`lrev.bridge.start` for study ``dvupdate``); each call returns a DataFrame built column by column."""
from __future__ import annotations

from dataclasses import dataclass

import jpype
import pandas as pd

from lrev import bridge


def _dvu(name: str):
    return jpype.JClass(f"org.lucenerevisited.dvupdate.{name}")


def build_index(docs_tsv: str, out: str, id_format: str, flush_docs: int) -> pd.DataFrame:
    """The corpus in segments of ``flush_docs`` documents (LogDocMergePolicy: the same layout on every
    version), the id field in postings format ``id_format``; one row: docs, segments, bytes, millis."""
    with bridge.progress("index") as progress:
        return bridge.frame(_dvu("DvuIndexer").build(docs_tsv, out, id_format, flush_docs, progress))


@dataclass
class Spec:
    """One method updating one index copy, cell after cell (``rates[i]`` at ``intervals_millis[i]``)."""

    index_path: str
    docs_tsv: str
    method: str
    id_format: str
    rates: list[int]
    intervals_millis: list[int]
    warmup_millis: int
    max_warmup_millis: int
    first_warmup_millis: int
    measure_millis: int
    min_reopens: int
    max_measure_millis: int
    probe_millis: int
    quiet_probes: int
    jit_quiet_share: float
    jit_settled_drop: float
    index_threads: int
    search_threads: int
    queries: list[str]
    top_n: int
    ram_buffer_budget_bytes: int
    seed: int
    verify_updates: int
    verify_reopens: int


class Bench(bridge.JavaHandle):
    """``DvuBench``: the timed cells (one row per reopen), their latency histograms, the correctness pass."""

    def __init__(self, spec: Spec):
        super().__init__(_dvu("DvuBench")(bridge.java_spec(_dvu("DvuSpec")(), spec)))

    def run(self) -> pd.DataFrame:
        with bridge.progress("update") as progress:
            return bridge.frame(self._java.run(progress))

    def latencies(self) -> pd.DataFrame:
        return bridge.frame(self._java.latencies())

    def verify(self) -> pd.DataFrame:
        return bridge.frame(self._java.verify())
