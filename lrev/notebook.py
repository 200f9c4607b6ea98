"""A study notebook's code, apart from what running or viewing it writes (outputs, execution counts, metadata).

The pipeline takes a notebook's code digest as a parameter of its run rule, not the file as an input: JupyterLab's
autosave rewrites outputs and metadata whenever someone explores a notebook, and that must neither rerun a
measurement nor stamp the next paper as built from uncommitted changes (:mod:`lrev.provenance`). An edited cell
changes the digest, and the run reruns.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path


def code(text: str) -> str:
    """The notebook JSON ``text`` reduced to its cells' kinds and sources, as canonical JSON."""
    cells = json.loads(text)["cells"]
    return json.dumps([[c["cell_type"], "".join(c["source"]) if isinstance(c["source"], list) else c["source"]]
                       for c in cells], separators=(",", ":"))


def code_digest(path: str | Path) -> str:
    """sha256 of :func:`code` of the notebook at ``path``."""
    return hashlib.sha256(code(Path(path).read_text()).encode()).hexdigest()
