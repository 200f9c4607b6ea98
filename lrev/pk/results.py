"""Turn the forks of one Lucene version into the `pk` study's tidy result files.

    lookups.parquet    one row per timed iteration of a contender alone in its JVM (warm-up rows
                       kept, ``phase`` says which), with its corpus's ``docs``; ``round`` is the round of forks,
                       the unit of pairing;
                       ``fork`` names the JVM (its job: alone-<contender>, plain-<contender>, mixed,
                       rung-<contender>_<corpus>)
    mixed.parquet      the same for the mixed-JVM experiment (every contender in one JVM per round)
    plain.parquet      one row per plain-loop JVM (contender, round)
    footprint.parquet  one row per fork, corpus, layout and contender: bytes attributed to the id field
                       by subtracting the baseline index (same docs, no id field) measured in that fork
    reopen.parquet     one row per NRT reopen
    manifest.json      provenance, and the sha256 of every table above
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lrev import fork, manifest
from lrev.io import read_json
from lrev.pk import layout

TABLES = ("lookups", "mixed", "plain", "footprint", "reopen")
#: Footprint metrics the engine reports as -1 where it cannot measure them.
UNAVAILABLE_AS_MINUS_ONE = ("mapped", "accounted")
FILES = (*(f"{t}.parquet" for t in TABLES), "manifest.json")
ALONE, PLAIN, MIXED, RUNG = "alone-", "plain-", "mixed", "rung-"


def rung_fork(contender: str, corpus: str) -> str:
    """The fork that times ``contender`` on ``corpus``, a rung of the size ladder (no contender's name holds ``_``)."""
    return f"{RUNG}{contender}_{corpus}"


def _label(frame: pd.DataFrame, version: str, round_: int, fork_name: str, pk: dict[str, Any]) -> pd.DataFrame:
    frame = frame.copy()
    frame.insert(0, "version", version)
    frame.insert(1, "round", round_)
    frame.insert(2, "fork", fork_name)
    frame["family"] = [layout.family(pk, c.removesuffix(layout.AA_SUFFIX)) for c in frame["contender"]]
    return frame


def _conditions(frame: pd.DataFrame, pk: dict[str, Any]) -> pd.DataFrame:
    """Series labels back to corpus, layout and miss rate, with the corpus's documents (the size ladder's
    ``docs``)."""
    conds = {label: layout.condition_of(pk, label) for label in frame["series"].unique()}
    for key in ("corpus", "layout", "miss_rate"):
        frame[key] = frame["series"].map(lambda label: conds[label][key])
    frame["miss_rate"] = frame["miss_rate"].astype(float)
    frame["docs"] = frame["corpus"].map(lambda corpus: layout.corpus_docs(pk, corpus))
    frame["lookups_per_s"] = frame["ops"] / (frame["nanos"] / 1e9)
    return frame.drop(columns="series")


def collect(forks_dir: Path, version: str, pk: dict[str, Any]) -> tuple[dict[str, pd.DataFrame], dict[str, Any]]:
    """Every table of the version from its forks' folders, plus one fork's JVM report."""
    parts: dict[str, list[pd.DataFrame]] = {t: [] for t in TABLES}
    jvm = None
    for r, job in fork.round_jobs(forks_dir):
        if job.name.startswith(PLAIN):
            plain = pd.read_parquet(job / "plain.parquet").assign(contender=job.name.removeprefix(PLAIN))
            parts["plain"].append(_label(plain, version, r, job.name, pk))
            continue
        tables = fork.tables(job)
        # The manifest's JDK is the one every contender but the JVM variants ran on.
        if jvm is None and job.name.startswith(ALONE) and not layout.jvm_variant(job.name.removeprefix(ALONE)):
            jvm = fork.jvm_report(job)
        if job.name == MIXED:
            parts["mixed"].append(_label(tables["lookups"], version, r, job.name, pk))
        else:
            for name, table in tables.items():
                # The reopen bench's own rounds lie within the fork.
                parts[name].append(_label(table.rename(columns={"round": "reopen_round"}), version, r, job.name,
                                         pk))
    if jvm is None:
        raise FileNotFoundError(f"no finished forks under {forks_dir}")
    out = {name: pd.concat(p, ignore_index=True) for name, p in parts.items() if p}
    for name in ("lookups", "mixed"):
        out[name] = _conditions(out[name], pk)
    out["plain"]["lookups_per_s"] = out["plain"]["ops"] / (out["plain"]["nanos"] / 1e9)
    out["footprint"] = footprint(out["footprint"], pk)
    out["reopen"]["reopen_ms"] = out["reopen"]["reopen_nanos"] / 1e6
    return out, jvm


def footprint(frame: pd.DataFrame, pk: dict[str, Any]) -> pd.DataFrame:
    """Id-field bytes per doc: each contender minus the baseline measured in the same fork.

    ``ram_bytes`` is what holding the id field takes: heap plus resident mapped pages for an index format;
    heap alone for a strategy over another index (GlobalPkMap reads the whole id field once to build its
    map, then needs none of those pages)."""
    keys = ["round", "fork", "corpus", "layout"]
    base = frame[frame["contender"] == layout.BASELINE].set_index(keys)
    frame = frame[frame["contender"] != layout.BASELINE].copy()
    if base.index.duplicated().any():
        raise ValueError("two baseline footprints of one corpus and layout in one fork")
    frame["docs"] = [layout.corpus_docs(pk, c) for c in frame["corpus"]]
    for kind in ("disk", "heap", "mapped", "accounted"):
        col = f"{kind}_bytes"
        baseline = base[col].reindex(pd.MultiIndex.from_frame(frame[keys])).to_numpy()
        raw = frame[col].to_numpy()
        frame[f"{kind}_bytes_total"] = raw
        available = (raw >= 0) & (baseline >= 0) if kind in UNAVAILABLE_AS_MINUS_ONE else True
        # -1 from the engine: it could not measure this here (no accounting API, no smaps), so NaN.
        # A difference may come out slightly negative where the id field adds almost nothing (FST50's
        # heap on 9+): that is noise around zero, averaged rather than dropped.
        frame[col] = np.where(available, raw - baseline, np.nan)
        frame[f"{kind}_bytes_per_doc"] = frame[col] / frame["docs"]
    strategy = frame["contender"].isin(list(layout.INDEX_OF))
    mapped = frame["mapped_bytes_per_doc"].where(~strategy, 0.0)
    frame["ram_bytes_per_doc"] = frame["heap_bytes_per_doc"] + mapped
    return frame.drop(columns="path", errors="ignore").reset_index(drop=True)


def write(root: Path, version: str, scale: str, pk: dict[str, Any], tables: dict[str, pd.DataFrame],
          jvm: dict[str, Any], started: str) -> Path:
    """Write the tables, then the manifest last: a complete manifest means a complete result."""
    corpora = {c: read_json(layout.corpus_dir(root, c) / "manifest.json") for c in layout.corpora(pk)}
    return manifest.write(layout.results_dir(root, version), study="pk", scale=scale, version=version, tables=tables,
                          jvm=jvm, corpora=corpora, parameters=pk, started=started)
