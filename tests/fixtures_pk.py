"""Synthetic but realistic `pk` study results, for tests only.

Mimics what the benchmark notebooks write under RESULTS/pk/<version>/: the
same files, columns and dtypes, interleaved rounds that share a per-round
machine-state factor (so pairing matters), warm-up rounds, a few unstable
rounds, accounted_bytes = -1 where a contender cannot account its memory,
and a manifest with provenance. Effect sizes are plausible, not real.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

VERSIONS = ("4.10.4", "7.7.3", "8.11.4", "9.12.3", "10.5.1")

CONTENDERS = {
    "4.10.4": ("default", "Memory", "Pulsing41", "FST41", "Direct", "OrdsLucene41", "BloomFilter", "GlobalPkMap", "default-aa"),
    "7.7.3": ("default", "Memory", "FST50", "Direct", "BlockTreeOrds", "BloomFilter", "GlobalPkMap", "default-aa"),
}
for _v in ("8.11.4", "9.12.3", "10.5.1"):
    CONTENDERS[_v] = ("default", "FST50", "Direct", "BlockTreeOrds", "BloomFilter", "UniformSplit", "GlobalPkMap", "default-aa")

FAMILY = {"FST41": "FST", "FST50": "FST", "OrdsLucene41": "BlockTreeOrds"}

# Lookup speed relative to `default` (seq ids), and heap bytes/doc (seq, uuid).
SPEEDUP = {"default": 1.0, "default-aa": 1.0, "Memory": 1.6, "Pulsing41": 1.05, "FST": 1.3, "Direct": 1.9,
           "BlockTreeOrds": 0.95, "BloomFilter": 0.9, "UniformSplit": 1.1, "GlobalPkMap": 4.0}
HEAP = {"default": (0.4, 0.9), "default-aa": (0.4, 0.9), "Memory": (7.4, 15.0), "Pulsing41": (0.5, 1.0),
        "FST": (3.0, 9.0), "Direct": (40.0, 44.0), "BlockTreeOrds": (0.6, 1.2), "BloomFilter": (1.6, 1.6),
        "UniformSplit": (0.3, 0.5), "GlobalPkMap": (4.0, 4.0)}
BASE_LPS = {"4.10.4": 300e3, "7.7.3": 340e3, "8.11.4": 390e3, "9.12.3": 410e3, "10.5.1": 420e3}
DOCS = {"seq": 20_000, "uuid": 20_000}

LOOKUP_COLUMNS = ("version", "fork", "corpus", "layout", "miss_rate", "threads", "contender", "family", "phase",
                  "round", "ops", "nanos", "stable", "lookups_per_s")


def family(contender: str) -> str:
    return FAMILY.get(contender, contender)


def _lookups(version: str, contenders: tuple[str, ...], rng: np.random.Generator, forks: int, rounds: int,
             warmup: int) -> pd.DataFrame:
    rows = []
    for fork in range(forks):
        fork_factor = rng.lognormal(0, 0.03)
        for corpus in ("seq", "uuid"):
            for layout in ("multi", "merged"):
                for miss_rate in (0.0, 0.1):
                    for threads in (1, 2):
                        for rnd in range(warmup + rounds):
                            phase = "warmup" if rnd < warmup else "measure"
                            shared = rng.lognormal(0, 0.04) * (0.7 if phase == "warmup" else 1.0)
                            for contender in contenders:
                                fam = family(contender)
                                speed = SPEEDUP[fam] * (0.7 if corpus == "uuid" and fam != "GlobalPkMap" else 1.0)
                                lps = (BASE_LPS[version] * speed * fork_factor * shared
                                       * (1.4 if layout == "merged" else 1.0) * (1.05 if miss_rate else 1.0)
                                       * (1.85 if threads == 2 else 1.0) * rng.lognormal(0, 0.015))
                                ops = 4000 * 50
                                nanos = int(ops / lps * 1e9)
                                rows.append((version, fork, corpus, layout, miss_rate, threads, contender, fam, phase,
                                             rnd, ops, nanos, int(rng.random() > 0.05), ops / nanos * 1e9))
    frame = pd.DataFrame(rows, columns=list(LOOKUP_COLUMNS))
    return frame.astype({"fork": "int64", "threads": "int64", "round": "int64", "ops": "int64", "nanos": "int64",
                         "stable": "int64"})


def _footprint(version: str, contenders: tuple[str, ...], rng: np.random.Generator, forks: int) -> pd.DataFrame:
    rows = []
    for fork in range(forks):
        for corpus in ("seq", "uuid"):
            for layout in ("multi", "merged"):
                docs = DOCS[corpus]
                for contender in contenders:
                    fam = family(contender)
                    heap_pd = HEAP[fam][corpus == "uuid"] * rng.normal(1, 0.01)
                    disk_pd = (9.0 if corpus == "seq" else 21.0) * (0.9 if fam == "Memory" else 1.0)
                    accounted_pd = -1.0 if fam == "GlobalPkMap" else heap_pd * 0.97
                    rows.append({"version": version, "fork": fork, "corpus": corpus, "layout": layout,
                                 "contender": contender, "family": fam, "docs": docs,
                                 "disk_bytes": int(disk_pd * docs), "heap_bytes": int(heap_pd * docs),
                                 "accounted_bytes": -1 if accounted_pd < 0 else int(accounted_pd * docs),
                                 "disk_bytes_per_doc": disk_pd, "heap_bytes_per_doc": heap_pd,
                                 "accounted_bytes_per_doc": accounted_pd})
    return pd.DataFrame(rows).astype({"fork": "int64", "docs": "int64", "disk_bytes": "int64",
                                      "heap_bytes": "int64", "accounted_bytes": "int64"})


def _reopen(version: str, contenders: tuple[str, ...], rng: np.random.Generator, forks: int,
            rounds: int) -> pd.DataFrame:
    rows = []
    for fork in range(forks):
        for corpus in ("seq", "uuid"):
            for contender in contenders:
                if contender == "default-aa":
                    continue
                fam = family(contender)
                median, sigma = (44.0, 0.08) if fam in ("Memory", "GlobalPkMap") else (52.0, 0.2)
                for rnd in range(rounds + 5):
                    ms = median * rng.lognormal(0, sigma) * (1.1 if corpus == "uuid" else 1.0)
                    rows.append({"version": version, "fork": fork, "corpus": corpus, "contender": contender,
                                 "family": fam, "phase": "warmup" if rnd < 5 else "measure", "round": rnd,
                                 "updates": 1000, "reopen_nanos": int(ms * 1e6), "reopen_ms": ms})
    return pd.DataFrame(rows).astype({"fork": "int64", "round": "int64", "updates": "int64",
                                      "reopen_nanos": "int64"})


def _manifest(version: str, forks: int) -> dict:
    from lrev import config

    parameters = {**config.load({"scale": "smoke"}).study("pk"), "forks": forks}
    return {
        "study": "pk", "scale": "tiny", "lucene_version": version, "lucene_version_reported": version,
        "jdk": {"home": "/opt/jdk-21", "version": "21.0.5" if version != "4.10.4" else "11.0.25",
                "vendor": "Eclipse Adoptium", "flags": ["-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"]},
        "host": {"cpu_model": "AMD EPYC 7B13", "cores": 2, "ram_bytes": 8 * 1024**3, "kernel": "6.8.0-45-generic"},
        "git": {"sha": "0123456789abcdef0123456789abcdef01234567", "dirty": False},
        "corpora": {c: {"sha256": {"docs.tsv": f"{i}" * 64}, "docs": DOCS[c], "synthetic": True}
                    for i, c in enumerate(DOCS)},
        "parameters": parameters,
        "started": "2025-11-20T10:00:00Z", "finished": "2025-11-20T11:00:00Z",
    }


def write_pk_results(root: Path, *, versions: tuple[str, ...] = VERSIONS, drop: dict[str, str] | None = None,
                     forks: int = 2, rounds: int = 6, seed: int = 7) -> Path:
    """Write fake RESULTS/pk/<version>/ trees under ``root``; return ``root``.

    ``drop`` maps a version to a contender to leave out of all its files (to
    exercise missing-result errors).
    """
    rng = np.random.default_rng(seed)
    for version in versions:
        contenders = tuple(c for c in CONTENDERS[version] if (drop or {}).get(version) != c)
        out = root / "pk" / version
        out.mkdir(parents=True, exist_ok=True)
        _lookups(version, contenders, rng, forks, rounds, warmup=2).to_parquet(out / "lookups.parquet", index=False)
        _footprint(version, contenders, rng, forks).to_parquet(out / "footprint.parquet", index=False)
        _reopen(version, contenders, rng, forks, rounds * 3).to_parquet(out / "reopen.parquet", index=False)
        (out / "manifest.json").write_text(json.dumps(_manifest(version, forks), indent=2))
    return root
