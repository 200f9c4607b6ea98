"""The `pk` study's fork tasks (run by :mod:`lrev.fork`, one JVM each). Each takes the scale root, the
Lucene version, the round and the study's effective settings, and returns its tables by name.
"""
from __future__ import annotations

import tempfile
import zlib
from pathlib import Path
from typing import Any

import pandas as pd

from lrev import warmup
from lrev.pk import engine, layout


def _seed(pk: dict[str, Any], round_: int, name: str) -> int:
    return int(pk["seed"]) * 1000 + round_ * 100 + zlib.crc32(name.encode()) % 100


def _spec(root: Path, version: str, pk: dict[str, Any], series: list[tuple[str, dict[str, Any], int]],
          seed: int, min_warmup: int | None = None) -> engine.LookupSpec:
    """``series``: (contender, condition, threads) triples, run interleaved in one JVM; ``min_warmup``
    iterations, when given, instead of the configured minimum (and at least that many as the maximum)."""
    least = pk["min_warmup"] if min_warmup is None else min_warmup
    return engine.LookupSpec(
        contenders=[c for c, _, _ in series],
        index_paths=[str(layout.index_path(root, version, cond["corpus"], c.removesuffix(layout.AA_SUFFIX),
                                           cond["layout"])) for c, cond, _ in series],
        keys_paths=[str(layout.keys_file(root, cond["corpus"], cond["miss_rate"])) for _, cond, _ in series],
        threads=[t for _, _, t in series],
        labels=[layout.condition_label(cond) for _, cond, _ in series],
        batch_size=pk["batch_size"], iteration_millis=pk["iteration_ms"], min_warmup_iterations=least,
        max_warmup_iterations=max(least, pk["max_warmup"]), stable_window=warmup.WINDOW, stable_cv=pk["stable_cv"],
        jit_quiet_share=warmup.JIT_QUIET_SHARE,
        measure_iterations=pk["measure_iterations"], seed=seed)


def measure(root: str, version: str, round: int, contender: str, pk: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Everything one contender is measured on, alone in this JVM: lookups in the seed's setting, then in the
    other conditions (their series interleaved), then NRT reopen and the footprint, which run after the lookups so
    they cannot disturb them. The A/A contender only looks keys up. The size ladder's corpora have JVMs of their own
    (:func:`rung`).

    The seed's setting comes first, warmed up (for at least ``seed_warmup_s``: the JVM is cold) and measured on
    its own: when it is timed, the JVM has run nothing but that workload, the same history as the stand-alone
    loop it is cross-checked against. The other conditions share the JVM afterwards; their profiles then
    include the seed's setting."""
    root_ = Path(root)
    seed_cond = layout.seed_condition(pk)
    # Under G1 the engine runs the same contender; only the JVM (lrev.fork) and the rows' label differ.
    name = layout.engine_name(contender)
    seed_series = (name, seed_cond, layout.SEED_SETTING["threads"])
    rest = [(name, cond, t) for cond in pk["conditions"] for t in cond["threads"] if (name, cond, t) != seed_series]
    # The A/A contender is the default again, and a G1 contender its format: same series order and keys, so that
    # only the JVM differs.
    seed = _seed(pk, round, name.removesuffix(layout.AA_SUFFIX))
    lookups = [engine.lookups(_spec(root_, version, pk, [seed_series], seed, min_warmup=layout.cold_warmup(pk, 1)))]
    if rest:
        lookups.append(engine.lookups(_spec(root_, version, pk, rest, seed)))
    out = {"lookups": pd.concat(lookups, ignore_index=True)}
    if contender.endswith(layout.AA_SUFFIX):
        return _labelled(out, contender)
    if not layout.strategy(contender):
        out["reopen"] = _reopen(root_, version, round, contender, pk)
    parts = []
    for corpus, lay in layout.indexed(pk, ladder=False):
        paths = [str(layout.index_path(root_, version, corpus, c, lay)) for c in (layout.BASELINE, name)]
        part = engine.footprint([layout.BASELINE, name], paths, str(layout.keys_file(root_, corpus, 0.0)))
        part.insert(0, "corpus", corpus)
        part.insert(1, "layout", lay)
        parts.append(part)
    out["footprint"] = pd.concat(parts, ignore_index=True)
    return _labelled(out, contender)


def rung(root: str, version: str, round: int, contender: str, corpus: str, pk: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """The seed's setting on ``corpus``, a rung of the size ladder, alone in this JVM and warmed up as the seed's
    setting is on its own corpus, the ladder's top rung (:func:`measure`): every rung is timed first in a cold JVM.
    Timed in the top rung's JVM after its other conditions, a rung read that JVM's compiled state as well as its
    size."""
    name = layout.engine_name(contender)
    cond = next(c for c in layout.ladder_conditions(pk) if c["corpus"] == corpus)
    series = [(name, cond, layout.SEED_SETTING["threads"])]
    seed = _seed(pk, round, name.removesuffix(layout.AA_SUFFIX))
    spec = _spec(Path(root), version, pk, series, seed, min_warmup=layout.cold_warmup(pk, 1))
    return _labelled({"lookups": engine.lookups(spec)}, contender)


def _labelled(tables: dict[str, pd.DataFrame], contender: str) -> dict[str, pd.DataFrame]:
    """``tables`` with the engine's name of ``contender`` replaced by its own."""
    name = layout.engine_name(contender)
    return {k: t.assign(contender=t["contender"].replace(name, contender)) for k, t in tables.items()}


def mixed(root: str, version: str, round: int, pk: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """The mixed-JVM experiment: every contender of the seed's setting in this one JVM, interleaved, as the
    harness used to measure them. Compared with each contender alone, it shows what sharing a JVM costs. Its
    JVM is as cold as a contender's own, and warms up for at least as long (in wall time). The JVM variants
    (G1, another JDK) are not in it: this JVM runs the parallel collector on the default JDK."""
    cond = layout.seed_condition(pk)
    series = [(c, cond, layout.SEED_SETTING["threads"]) for c in layout.timed_contenders(pk, version)
              if not layout.jvm_variant(c)]
    return {"lookups": engine.lookups(_spec(Path(root), version, pk, series, _seed(pk, round, "mixed"),
                                            min_warmup=layout.cold_warmup(pk, len(series))))}


def _reopen(root: Path, version: str, round_: int, contender: str, pk: dict[str, Any]) -> pd.DataFrame:
    corpus = pk["reopen_corpus"]
    settings = pk["reopen"]
    results = layout.results_dir(root, version)
    results.mkdir(parents=True, exist_ok=True)
    # The engine updates a copy of the index here, never the index itself.
    with tempfile.TemporaryDirectory(prefix=".reopen-work-", dir=results) as work:
        spec = engine.ReopenSpec(
            contenders=[contender], index_paths=[str(layout.index_path(root, version, corpus, contender, "multi"))],
            docs_tsv=str(layout.corpus_dir(root, corpus) / "docs.tsv"), work_dir=work,
            updates_per_reopen=settings["updates_per_reopen"], reopen_interval_ms=settings["interval_ms"],
            warmup_reopens=settings["warmup_reopens"], rounds=settings["rounds"],
            reopens_per_round=settings["reopens_per_round"], seed=_seed(pk, round_, "reopen"))
        part = engine.reopen(spec)
    part.insert(0, "corpus", corpus)
    return part
