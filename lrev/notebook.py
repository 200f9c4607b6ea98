"""A study notebook's code: its code cells' sources, apart from everything else a notebook holds.

The pipeline takes a notebook's code digest as a parameter of its run rule, not the file as an input: exploring a
notebook in JupyterLab rewrites more than code, and that must neither rerun a measurement nor stamp the next paper
as built from uncommitted changes (:mod:`lrev.provenance`). Running cells writes outputs, execution counts and
metadata (autosave saves them); Shift+Enter on the last cell appends an empty code cell; and markdown is prose,
which no run executes. An edited line of code changes the digest, and the run reruns.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path


def code(text: str) -> str:
    """The notebook JSON ``text`` reduced to the sources of its code cells that hold more than whitespace, as
    canonical JSON."""
    sources = ("".join(c["source"]) if isinstance(c["source"], list) else c["source"]
               for c in json.loads(text)["cells"] if c["cell_type"] == "code")
    return json.dumps([s for s in sources if s.strip()], separators=(",", ":"))


def code_digest(path: str | Path) -> str:
    """sha256 of :func:`code` of the notebook at ``path``."""
    return hashlib.sha256(code(Path(path).read_text()).encode()).hexdigest()
