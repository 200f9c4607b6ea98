"""The frame every study's index builder (``python -m lrev.<s>.index``) shares: its corpus checked against the sha256
its manifest recorded, a JVM of the Lucene version, the index written atomically (:func:`lrev.io.atomic_dir`) with a
``manifest.json`` of its provenance beside it. The study's builder adds what it built and its checksums."""
from __future__ import annotations

import argparse
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from lrev import bridge, provenance
from lrev.io import atomic_dir, read_json, verify, write_json


def arguments(description: str) -> argparse.ArgumentParser:
    """A builder's command line: ``--version``, ``--corpus`` (its folder) and ``--out``; the study adds its own."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--version", required=True)
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    return ap


class Build:
    """The folder an index is being written to (``dir``) and what its manifest will say of it (:meth:`record`)."""

    def __init__(self, folder: Path):
        self.dir = folder
        self.fields: dict[str, Any] = {}

    def record(self, **fields: Any) -> None:
        self.fields.update(fields)


@contextmanager
def building(study: str, version: str, corpus_dir: Path, out: Path) -> Iterator[Build]:
    """Checks the corpus, starts the JVM of ``version`` for ``study``'s engine, and yields the build; on a clean
    exit, writes its manifest and moves the folder to ``out``."""
    corpus = read_json(corpus_dir / "manifest.json")
    verify(corpus_dir / "manifest.json", corpus["sha256"])
    flags = bridge.start(version, study)
    started = provenance.now()
    with atomic_dir(out) as tmp:
        build = Build(tmp)
        yield build
        write_json(tmp / "manifest.json", {
            "study": study, "lucene_version": version, **build.fields,
            "engine": bridge.engine_info(), "jvm_flags": flags,
            # The path below the run's root (corpora/<study>/<corpus>): where the run lies is the building machine's.
            "corpus": {"path": "/".join(corpus_dir.resolve().parts[-3:]), "sha256": corpus["sha256"],
                       "docs": corpus["docs"],
                       **({"parameters": corpus["parameters"]} if "parameters" in corpus else {})},
            "host": provenance.host(), "git": provenance.git(), "started": started, "finished": provenance.now(),
        })
