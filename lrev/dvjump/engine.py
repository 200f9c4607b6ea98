"""Typed Python calls into the `dvjump` engine classes (org.lucenerevisited.dvjump). Needs a started JVM
(:func:`lrev.bridge.start` for study ``dvjump``); each call returns a DataFrame built column by column."""
from __future__ import annotations

from dataclasses import dataclass

import jpype
import pandas as pd

from lrev import bridge, warmup


def _dvj(name: str):
    return jpype.JClass(f"org.lucenerevisited.dvjump.{name}")


def build_index(docs_tsv: str, out: str, docvalues_format: str) -> pd.DataFrame:
    """The corpus in one segment; ``docvalues_format``: SPI name for every field, or "" for the default."""
    with bridge.progress("index") as progress:
        return bridge.frame(_dvj("DvjIndexer").build(docs_tsv, out, docvalues_format, progress))


def upgrade_index(out: str) -> pd.DataFrame:
    """Rewrites the index in ``out`` with this version's codec (IndexUpgrader)."""
    return bridge.frame(_dvj("DvjIndexer").upgrade(out))


@dataclass
class Spec(warmup.Iterated):
    """One index read one way (``access``), its workloads on ``terms`` (their buckets alongside)."""

    index_path: str
    access: str
    workloads: list[str]
    concurrent_workloads: list[str]
    terms: list[str]
    buckets: list[int]
    export_term: str
    export_bucket: int
    variation_bucket: int
    rows: int
    facets: int
    groups: int
    seed: int


class Bench(bridge.JavaHandle):
    """One contender's index, opened once (``DvjBench``): its tables come back as DataFrames."""

    def __init__(self, spec: Spec):
        super().__init__(_dvj("DvjBench")(bridge.java_spec(_dvj("DvjSpec")(), spec)))

    def latencies(self) -> pd.DataFrame:
        with bridge.progress("requests") as progress:
            return bridge.frame(self._java.latencies(progress))

    def answers(self) -> pd.DataFrame:
        return bridge.frame(self._java.answers())

    def source_cost(self) -> pd.DataFrame:
        return bridge.frame(self._java.sourceCost())

    def positions(self, field: str, points: int, repeats: int) -> pd.DataFrame:
        return bridge.frame(self._java.positions(field, points, repeats))

    def reads(self, workload: str, points: int, repeats: int) -> pd.DataFrame:
        return bridge.frame(self._java.reads(workload, points, repeats))

    def export_runs(self, term: str, runs: int) -> pd.DataFrame:
        return bridge.frame(self._java.exportRuns(term, runs))
