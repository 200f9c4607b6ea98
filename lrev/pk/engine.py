"""Typed Python calls into the `pk` engine classes (org.lucenerevisited.pk). Needs a started JVM
(:func:`lrev.bridge.start`); each call returns a DataFrame built column by column from a Java Table.
"""
from __future__ import annotations

from dataclasses import dataclass

import jpype
import pandas as pd

from lrev import bridge, warmup


def _pk(name: str):
    return jpype.JClass(f"org.lucenerevisited.pk.{name}")


def build_indexes(docs_tsv: str, out_dir: str, contenders: list[str], segment_docs: int, merged: bool) -> pd.DataFrame:
    """One index per contender in ``out_dir/<contender>/multi`` (and ``merged`` when asked), plus ``baseline``
    (no id field); GlobalPkMap reads the ``default`` index."""
    with bridge.progress("index") as progress:
        table = _pk("PkIndexer").build(docs_tsv, out_dir, bridge.java_strings(contenders), segment_docs, merged,
                                       progress)
    return bridge.frame(table)


@dataclass
class LookupSpec(warmup.Iterated):
    """One JVM's lookup run: series i looks up ``keys_paths[i]`` in ``index_paths[i]`` with ``contenders[i]`` on
    ``threads[i]`` threads, reported as ``labels[i]``; all series interleave in time-based iterations."""

    contenders: list[str]
    index_paths: list[str]
    keys_paths: list[str]
    threads: list[int]
    labels: list[str]
    batch_size: int
    seed: int


def lookups(spec: LookupSpec) -> pd.DataFrame:
    with bridge.progress("lookups") as progress:
        return bridge.frame(_pk("PkLookupBench").run(bridge.java_spec(_pk("PkLookupSpec")(), spec), progress))


def footprint(contenders: list[str], index_paths: list[str], keys_tsv: str) -> pd.DataFrame:
    table = _pk("PkFootprint").measure(bridge.java_strings(contenders), bridge.java_strings(index_paths), keys_tsv)
    return bridge.frame(table).drop(columns="path")


@dataclass
class ReopenSpec:
    """NRT reopen latency while ``updates_per_reopen`` docs are updated by id every ``reopen_interval_ms``."""

    contenders: list[str]
    index_paths: list[str]
    docs_tsv: str
    work_dir: str
    updates_per_reopen: int
    reopen_interval_ms: int
    warmup_reopens: int
    rounds: int
    reopens_per_round: int
    seed: int


def reopen(spec: ReopenSpec) -> pd.DataFrame:
    with bridge.progress("reopen") as progress:
        return bridge.frame(_pk("PkReopenBench").run(bridge.java_spec(_pk("PkReopenSpec")(), spec), progress))
