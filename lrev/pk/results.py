"""Turn the fork tables of one Lucene version into the `pk` study's tidy result files.

    lookups.parquet    one row per timed sample (warm-up rows kept, phase says which)
    footprint.parquet  one row per fork, corpus, layout and contender; bytes attributed to the id
                       field by subtracting the baseline index (same docs, no id field)
    reopen.parquet     one row per NRT reopen
    manifest.json      provenance
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from lrev import provenance
from lrev.io import read_json, write_json, write_parquet
from lrev.pk import layout

FILES = ("lookups.parquet", "footprint.parquet", "reopen.parquet", "manifest.json")


def _label(frame: pd.DataFrame, version: str, fork: int, pk: dict[str, Any]) -> pd.DataFrame:
    frame = frame.copy()
    frame.insert(0, "version", version)
    frame.insert(1, "fork", fork)
    frame["family"] = [layout.family(pk, c.removesuffix("-aa")) for c in frame["contender"]]
    return frame


def lookups(parts: list[pd.DataFrame], version: str, pk: dict[str, Any]) -> pd.DataFrame:
    frame = pd.concat([_label(p, version, f, pk) for f, p in enumerate(parts)], ignore_index=True)
    frame["lookups_per_s"] = frame["ops"] / (frame["nanos"] / 1e9)
    return frame


def footprint(parts: list[pd.DataFrame], version: str, pk: dict[str, Any], docs: dict[str, int]) -> pd.DataFrame:
    """Id-field bytes per doc: each contender minus the baseline of the same fork, corpus and layout."""
    frame = pd.concat([_label(p, version, f, pk) for f, p in enumerate(parts)], ignore_index=True)
    keys = ["fork", "corpus", "layout"]
    base = frame[frame["contender"] == layout.BASELINE].set_index(keys)
    frame = frame[frame["contender"] != layout.BASELINE].copy()
    frame["docs"] = frame["corpus"].map(docs).astype("int64")
    for kind in ("disk", "heap", "accounted"):
        col = f"{kind}_bytes"
        baseline = base[col].reindex(pd.MultiIndex.from_frame(frame[keys])).to_numpy()
        raw = frame[col].to_numpy()
        # -1 marks a version without the accounting API: keep it unavailable rather than subtract it.
        frame[f"{kind}_bytes_total"] = raw
        frame[col] = [r - b if r >= 0 and b >= 0 else -1 for r, b in zip(raw, baseline)]
        frame[f"{kind}_bytes_per_doc"] = [v / d if v >= 0 else float("nan") for v, d in zip(frame[col], frame["docs"])]
    return frame.reset_index(drop=True)


def reopen(parts: list[pd.DataFrame], version: str, pk: dict[str, Any]) -> pd.DataFrame:
    frame = pd.concat([_label(p, version, f, pk) for f, p in enumerate(parts)], ignore_index=True)
    frame["reopen_ms"] = frame["reopen_nanos"] / 1e6
    return frame


def write(root: Path, version: str, scale: str, pk: dict[str, Any], tables: dict[str, pd.DataFrame],
          jvm: dict[str, Any], started: str) -> Path:
    """Write the three tables, then the manifest last: a complete manifest means a complete result."""
    out = layout.results_dir(root, version)
    corpora = {c: read_json(layout.corpus_dir(root, c) / "manifest.json") for c in layout.corpora(pk)}
    for name, table in tables.items():
        write_parquet(out / f"{name}.parquet", table)
    write_json(out / "manifest.json", {
        "study": "pk", "scale": scale, "lucene_version": version,
        "lucene_version_reported": jvm["lucene_version"],
        "jdk": {"home": jvm["java_home"], "version": jvm["java_version"], "vendor": jvm["java_vendor"],
                "flags": jvm["flags"], "jvm_arguments": jvm["jvm_arguments"]},
        "host": provenance.host(), "git": provenance.git(),
        "corpora": {c: {"sha256": m["sha256"], "docs": m["docs"], "synthetic": m["synthetic"],
                        "recipe": m["recipe"], "parameters": m["parameters"]} for c, m in corpora.items()},
        "parameters": pk, "started": started, "finished": provenance.now(),
    })
    return out
