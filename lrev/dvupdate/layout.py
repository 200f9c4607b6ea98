"""Where the `dvupdate` study's files live, below a scale's root (``<outdir>/<scale>``), and what it runs.

    corpora/dvupdate/<text>-<role>/           docs.tsv, queries.tsv, manifest.json (text: real, synthetic;
                                              role: big = whole articles, medium = 1K-character chunks,
                                              big-<n> = the size ladder's n whole articles)
    indexes/dvupdate/<version>/<corpus>/      one Lucene index of the corpus + manifest.json
    results/dvupdate/<version>/               reopens, latency, verify .parquet, manifest.json
    results/dvupdate/forks/round-<r>/<job>/   each fork's own output (one run covers every version)
    scratch/dvupdate/<job>/                   the copy of an index a fork updates, removed after it
    figures/dvupdate/                         <figure>.pdf / .png

The seed ran two datasets, WIKIBIG (whole articles) and WIKIMEDIUM (1K chunks, five times the documents);
the config gives each *role* (``big``, ``medium``) a corpus: real Wikipedia text or a synthetic corpus fitted
on it. Its grid of update rates and reopen intervals is named by role too (``rate_role`` low/high,
``interval_role`` short/long), so that the claims name the same cells at every scale, whatever their values.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lrev import studies

#: Update methods: the seed's three, ``two-fields`` (numeric and binary of one document: the seed expected the reopen's
#: cost to multiply with the fields updated), soft updates (7.4+) and the seed's in-memory hybrid (``ram-buffer``,
#: 7+). Beside them, ``overlays-<n>``: numeric updates with Lucene's own DocValues overlays, at most n per field
#: (``IndexWriterConfig#setMaxDocValuesOverlays(n)``, 10.6.0+, GITHUB#16418).
METHODS = ("reindex", "numeric", "binary", "two-fields", "soft", "ram-buffer")
OVERLAYS = re.compile(r"overlays-([1-9][0-9]*)")
#: The first release each kind of method runs on (the engine refuses it on older ones), and why.
SINCE = {"soft": ("7.4.0", "soft updates came in 7.4"), "ram-buffer": ("7.0.0", "the RAM buffer is built on 7+"),
         "overlays": ("10.6.0", "max_doc_values_overlays (IndexWriterConfig#setMaxDocValuesOverlays) came in 10.6.0")}
#: The DocValues field each kind of method changes (reindex and soft rewrite the whole document: both).
UPDATES = {"reindex": ("lastmod", "title_dv"), "numeric": ("lastmod",), "binary": ("title_dv",),
           "two-fields": ("lastmod", "title_dv"), "soft": ("lastmod", "title_dv"), "ram-buffer": ("lastmod",),
           "overlays": ("lastmod",)}
BASELINE = "reindex"
AA_SUFFIX = "-aa"
AA = BASELINE + AA_SUFFIX
#: The methods run a second time, in JVMs of their own, as A/A: a ratio between two DocValues methods carries
#: their JVM-to-JVM noise, not reindexing's (whose reopens follow its merges), so it is gated by numeric's A/A.
AA_BASES = (BASELINE, "numeric")
#: The methods whose A/A is reindex's: they rewrite whole documents.
REINDEXING = (BASELINE, "soft")


def method(contender: str) -> str:
    return contender.removesuffix(AA_SUFFIX)


def is_aa(contender: str) -> bool:
    return contender.endswith(AA_SUFFIX)


def aa_of(contender: str) -> tuple[str, str]:
    """(the A/A contender, the method it repeats) whose noise a ratio involving ``contender`` carries."""
    base = BASELINE if method(contender) in REINDEXING else "numeric"
    return base + AA_SUFFIX, base


def first_warmup_s(settings: dict[str, Any], contender: str) -> float:
    """The first cell's shortest warm-up, which is the fork's: ``fork_warmup_s`` for a DocValues method, whose
    compilers are winding down by then (docs/jit.md). A reindexing method's keep compiling for longer than a scale
    can afford to wait, so its fork is not held back, and its cells read unconverged instead."""
    if method(contender) in REINDEXING:
        return settings["warmup_s"]
    return max(settings["warmup_s"], settings["fork_warmup_s"])


def kind(method_name: str) -> str:
    """``overlays`` for every ``overlays-<n>``, else the method itself."""
    return "overlays" if OVERLAYS.fullmatch(method_name) else method_name


def ordered(names) -> list[str]:
    """``names`` in the report's order: the methods as listed above, Lucene's overlays by n, then the A/As."""
    def key(name: str) -> tuple[int, int]:
        m = OVERLAYS.fullmatch(name)
        if m:
            return len(METHODS), int(m.group(1))
        if is_aa(name):
            return len(METHODS) + 1, AA_BASES.index(method(name))
        return METHODS.index(name), 0
    return sorted(set(names), key=key)


#: The size ladder's roles repeat the big role's synthetic recipe (whole articles) at fewer documents.
LADDER_SHAPE = "big"
LADDER_ROLE = re.compile(rf"{LADDER_SHAPE}-([1-9][0-9]*)")


def corpus_name(spec: dict[str, Any], role: str) -> str:
    return f"{spec['text']}-{role}"


def ladder_role(docs: int) -> str:
    """The role of the size ladder's corpus of ``docs`` documents (``big-20000``)."""
    return f"{LADDER_SHAPE}-{docs}"


def shape(role: str) -> str:
    """``big`` (whole articles) or ``medium`` (1K-character chunks): a ladder role's is the big role's."""
    return LADDER_SHAPE if LADDER_ROLE.fullmatch(role) else role


def ladder(settings: dict[str, Any]) -> dict[str, Any]:
    """The size ladder's settings: none in the parameters of results from before it."""
    return settings.get("ladder", {"docs": [], "methods": [], "cells": []})


def roles(settings: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Role -> its corpus's spec: the configured roles, then the size ladder's, smallest first (the big role's
    synthetic recipe at each of ``ladder.docs``, timing the ladder's methods in its cells, on its versions)."""
    rungs = ladder(settings)
    spec = {"text": "synthetic", "methods": rungs["methods"], "cells": rungs["cells"],
            **({"versions": rungs["versions"]} if "versions" in rungs else {})}
    return {**settings["corpora"], **{ladder_role(n): {**spec, "docs": n} for n in rungs["docs"]}}


def real_settings(settings: dict[str, Any], shape_: str) -> dict[str, Any]:
    """The settings data-recipes/dvupdate_wikipedia.py builds the real corpus of ``shape_`` with (lrev/recipe.py):
    the configured dump, or null for the fragment gensim's wheel ships."""
    return {"shape": shape_, "chunk_chars": settings["chunk_chars"], "dump": settings.get("dump")}


def synthetic_settings(settings: dict[str, Any], role: str) -> dict[str, Any]:
    """The settings data-recipes/dvupdate_synthetic.py builds the synthetic corpus of ``role`` with."""
    return {"docs": roles(settings)[role]["docs"], "shape": shape(role), "seed": settings["seed"],
            "chunk_chars": settings["chunk_chars"]}


def flush_docs(settings: dict[str, Any], role: str) -> int:
    """Documents per flushed segment of ``role``'s index: a ladder corpus is flushed as one segment, so that a reopen
    after any update rewrites all its documents. The big corpus's flushes merge into one segment where there are at
    most ten of them (LogDocMergePolicy's merge factor), as at the default and paper scales."""
    return int(LADDER_ROLE.fullmatch(role).group(1)) if LADDER_ROLE.fullmatch(role) else settings["flush_docs"]


def corpora(settings: dict[str, Any]) -> dict[str, str]:
    """Role -> corpus folder name, for the roles this scale runs."""
    return {role: corpus_name(spec, role) for role, spec in roles(settings).items()}


def contenders(settings: dict[str, Any], version: str, role: str) -> list[str]:
    """The methods timed on ``version`` for corpus ``role``, plus, on the big corpus, the A/A of each of
    :data:`AA_BASES` that it times."""
    listed, spec = settings["methods"][version], roles(settings)[role]
    if version not in spec.get("versions", [version]):
        return []
    if role != "big":
        return [m for m in listed if m in spec.get("methods", listed)]
    return [*listed, *(base + AA_SUFFIX for base in AA_BASES if base in listed)]


def jobs(settings: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(version, role, contender) of every fork of a round."""
    return [(v, role, c) for v in settings["versions"] for role in roles(settings)
            for c in contenders(settings, v, role)]


def job_name(version: str, role: str, contender: str) -> str:
    return f"{version}_{role}_{contender}"


def parse_job(name: str) -> tuple[str, str, str]:
    version, role, contender = name.split("_", 2)
    return version, role, contender


def cells(settings: dict[str, Any], role: str) -> list[dict[str, Any]]:
    """The grid cells run on corpus ``role``: each with its rate and interval roles and values."""
    grid = settings["grid"]
    wanted = roles(settings)[role].get("cells")
    out = []
    for cell in grid["cells"]:
        name = f"{cell['rate']}-{cell['interval']}"
        if wanted is None or name in wanted:
            out.append({"cell": name, "rate_role": cell["rate"], "interval_role": cell["interval"],
                        "rate": grid["rates"][cell["rate"]], "interval_ms": grid["intervals_ms"][cell["interval"]]})
    return out


def corpus_dir(root: Path, corpus: str) -> Path:
    return Path(root) / "corpora" / "dvupdate" / corpus


def index_dir(root: Path, version: str, corpus: str) -> Path:
    return Path(root) / "indexes" / "dvupdate" / version / corpus


def indexes(settings: dict[str, Any]) -> list[tuple[str, str]]:
    """(version, corpus) of every index a fork of the run reads."""
    return sorted({(v, corpus_name(roles(settings)[role], role)) for v, role, _ in jobs(settings)})


def results_dir(root: Path, version: str) -> Path:
    return studies.results_dir(root, "dvupdate", version)


def forks_dir(root: Path) -> Path:
    return Path(root) / "results" / "dvupdate" / "forks"


def scratch_dir(root: Path, job: str) -> Path:
    return Path(root) / "scratch" / "dvupdate" / job
