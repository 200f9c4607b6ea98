"""Where the `pk` study's files live, below a scale's root (``<outdir>/<scale>``).

    corpora/pk/<corpus>/                    docs.tsv, keys-miss<P>.tsv, manifest.json
    indexes/pk/<version>/<corpus>/          <contender>/{multi,merged}/ Lucene indexes + manifest.json
    results/pk/<version>/                   lookups, footprint, reopen .parquet, manifest.json, pk.ipynb
    figures/pk/                             <figure>.pdf / .png
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

#: Contenders that are lookup strategies over another contender's index, not formats of their own.
INDEX_OF = {"GlobalPkMap": "default"}
#: The index without an id field; subtracting it attributes bytes to the id field.
BASELINE = "baseline"
LAYOUTS = ("multi", "merged")
#: The seed's own setting: sequential ids, several segments, every key present, one thread.
SEED_SETTING = {"corpus": "seq", "layout": "multi", "miss_rate": 0.0, "threads": 1}


def corpus_dir(root: Path, corpus: str) -> Path:
    return Path(root) / "corpora" / "pk" / corpus


def keys_file(root: Path, corpus: str, miss_rate: float) -> Path:
    return corpus_dir(root, corpus) / f"keys-miss{int(round(miss_rate * 100))}.tsv"


def index_dir(root: Path, version: str, corpus: str) -> Path:
    return Path(root) / "indexes" / "pk" / version / corpus


def index_path(root: Path, version: str, corpus: str, contender: str, layout: str) -> Path:
    return index_dir(root, version, corpus) / INDEX_OF.get(contender, contender) / layout


def results_dir(root: Path, version: str) -> Path:
    return Path(root) / "results" / "pk" / version


def corpora(pk: dict[str, Any]) -> list[str]:
    return sorted({c["corpus"] for c in pk["conditions"]} | {pk["reopen_corpus"]})


def miss_rates(pk: dict[str, Any], corpus: str) -> list[float]:
    """Every corpus gets the keys files its conditions use, and always the no-miss file."""
    return sorted({0.0} | {float(c["miss_rate"]) for c in pk["conditions"] if c["corpus"] == corpus})


def family(pk: dict[str, Any], contender: str) -> str:
    return pk["families"].get(contender, contender)
