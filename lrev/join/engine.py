"""Typed Python calls into the `join` engine classes (org.lucenerevisited.join) and the harness's loads. Needs a
started JVM (:func:`lrev.bridge.start` for study ``join``); each call returns a DataFrame built column by column."""
from __future__ import annotations

from pathlib import Path

import jpype
import pandas as pd

from lrev import bridge
from lrev.load import Pinning


def _join(name: str):
    return jpype.JClass(f"org.lucenerevisited.join.{name}")


def _harness(name: str):
    return jpype.JClass(f"org.lucenerevisited.engine.harness.{name}")


def _path(path: Path):
    return jpype.JClass("java.nio.file.Paths").get(str(path))


def build_lucene_index(corpus_dir: Path, out: Path) -> pd.DataFrame:
    """The corpus in blocks, force-merged to one segment; one row: docs, parents, segments, bytes, millis."""
    with bridge.progress("index") as progress:
        return bridge.frame(_join("JoinIndexer").build(str(corpus_dir), str(out), progress))


def build_solr_index(docs_tsv: Path, home: Path, batch: int) -> None:
    """The corpus as nested documents through real Solr, merged to one segment, in a new Solr home."""
    jpype.JClass("org.lucenerevisited.join.solr.SolrContenders").index(_path(docs_tsv), _path(home), batch)


class Bench(bridge.JavaHandle):
    """``JoinBench``: one contender on an index, the correctness gate, the closed loop and the open-loop load, the
    load's generator and workers on the CPUs ``pin`` gives (None: wherever the OS puts them)."""

    def __init__(self, index: Path, directory: str, contender: str, queries_tsv: Path, solr_caches: str,
                 pin: Pinning | None):
        super().__init__(_join("JoinBench")(str(index), directory, contender, str(queries_tsv), solr_caches))
        self.queries = int(self._java.queryCount())
        self.pin = pin

    def gate(self, top_n: int) -> pd.DataFrame:
        return bridge.frame(self._java.gate(top_n))

    def ordinal_map_ms(self) -> int:
        return int(self._java.ordinalMapMillis())

    def closed_loop(self, top_n: int, iteration_ms: int, min_warmup: int, max_warmup: int, stable_cv: float,
                    jit_quiet_share: float, measure_iterations: int, seed: int) -> pd.DataFrame:
        """One thread running the query stream back to back, warmed up until steady, then measured
        (``InterleavedRunner``'s columns: phase, iteration, ops, nanos, jit_ms, gc_ms, stable)."""
        return _closed_loop(self._java.request(top_n), self.queries, iteration_ms, min_warmup, max_warmup,
                            stable_cv, jit_quiet_share, measure_iterations, seed)

    def closed_throughput(self, top_n: int, workers: int, seconds: float) -> dict:
        """``workers`` threads running the query stream back to back for ``seconds``, on the server's CPUs
        (``ClosedThroughput``): workers, ops, nanos, throughput_rps, jit_ms, gc_ms."""
        load = _harness("ClosedThroughput")(self._java.request(top_n), self.queries, workers, int(seconds * 1e9))
        return bridge.frame(load.run(self.pin.server if self.pin else None)).iloc[0].to_dict()

    def open_loop(self, top_n: int, rate: float, workers: int, seconds: float, seed: int,
                  log: Path | None, interval_s: float = 1.0) -> tuple[pd.DataFrame, dict]:
        """An open-loop Poisson load at ``rate`` requests/s on ``workers`` threads: its per-interval rows and its
        summary (``OpenLoop``), the HdrHistogram interval log written to ``log``."""
        harness = _harness("OpenLoop")
        load = harness(self._java.request(top_n), self.queries, float(rate), workers, int(seconds * 1e9),
                       int(interval_s * 1e9), harness.DEFAULT_DRAIN_NANOS, seed)
        if self.pin:
            load = load.withPinning(self.pin.generator, self.pin.server)
        result = load.run(None if log is None else _path(log))
        summary = bridge.frame(result.summary()).iloc[0].to_dict()
        return bridge.frame(result.intervals()), summary


class ChildUpdates(bridge.JavaHandle):
    """``ChildUpdates``: one way of changing a child's acl (``block``: its whole block again; ``child``: the child
    alone) on a copy of the Lucene index, an NRT reopen after every ``per_reopen`` updates."""

    def __init__(self, index: Path, corpus_dir: Path, design: str, blocks: int, acl_domain: int, per_reopen: int):
        super().__init__(_join("ChildUpdates")(str(index), str(corpus_dir), design, blocks, acl_domain, per_reopen))

    def held_loop(self, probe_ms: int, min_warmup_s: float, max_warmup_s: float, window: int,
                  jit_quiet_share: float, jit_settled_drop: float, measure_s: float) -> pd.DataFrame:
        """One thread updating back to back until the JIT is quiet or settled, then for ``measure_s`` (``HeldLoop``'s
        columns: phase, probe, ops, nanos, jit_ms, gc_ms, stable)."""
        loop = _harness("HeldLoop")(probe_ms * 1_000_000, int(min_warmup_s * 1e9), int(max_warmup_s * 1e9), window,
                                    jit_quiet_share, jit_settled_drop, int(measure_s * 1e9))
        with bridge.progress("updates") as progress:
            return bridge.frame(loop.run(_harness("ClosedLoop")("updates", self._java.request(), _STREAM), progress))

    def verify(self) -> pd.DataFrame:
        """After a reopen, per updated block: children, ids found once, acls as last written, and adjacency."""
        return bridge.frame(self._java.verify())


#: An update stream never wraps: update i changes block i % blocks, so every position differs.
_STREAM = 2**31 - 1


def _closed_loop(request, stream: int, iteration_ms: int, min_warmup: int, max_warmup: int, stable_cv: float,
                 jit_quiet_share: float, measure_iterations: int, seed: int) -> pd.DataFrame:
    """``request`` run back to back on one thread (``InterleavedRunner``'s columns: phase, iteration, ops, nanos,
    jit_ms, gc_ms, stable)."""
    series = _harness("ClosedLoop")("closed", request, stream)
    runner = _harness("InterleavedRunner")(iteration_ms * 1_000_000, min_warmup, max_warmup, 3, stable_cv,
                                           jit_quiet_share, measure_iterations, seed)
    with bridge.progress("closed loop") as progress:
        return bridge.frame(runner.run("closed", jpype.JClass("java.util.List").of(series), progress))


class HotFrames(bridge.JavaHandle):
    """``HotFrames``: JFR's execution samples from now until :meth:`stop`."""

    def __init__(self, period_ms: int):
        super().__init__(_harness("HotFrames")(period_ms))

    def stop(self, jfr: Path, top: int, marks: list[str]) -> pd.DataFrame:
        """The ``top`` frames by self and by inclusive samples, and each mark's samples (kind, name, samples,
        total); the recording is kept in ``jfr``."""
        names = jpype.JClass("java.util.ArrayList")()
        for mark in marks:
            names.add(mark)
        return bridge.frame(self._java.stop(_path(jfr), top, names))


def release_mappings() -> None:
    """Collect garbage, so that a closed MMapDirectory's buffers are unmapped (Lucene before 9 cannot unmap
    them itself on JDK 9+, and the kernel keeps mapped pages in the page cache whatever it is advised)."""
    jpype.JClass("java.lang.System").gc()
