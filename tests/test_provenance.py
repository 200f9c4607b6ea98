"""Provenance's git state: a notebook whose outputs or metadata alone changed (JupyterLab's autosave) leaves the
work tree clean; a changed cell or any other changed file makes it dirty."""
from __future__ import annotations

import json
import subprocess

from lrev import provenance


def git(repo, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                   capture_output=True)


def notebook(path, source="x = 1", outputs=(), metadata=None):
    path.write_text(json.dumps({"cells": [{"cell_type": "code", "source": source, "metadata": {},
                                           "outputs": list(outputs), "execution_count": None}],
                                "metadata": metadata or {}, "nbformat": 4, "nbformat_minor": 5}, indent=1))


def test_only_a_notebooks_outputs_changed_is_clean_and_anything_else_is_dirty(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    notebook(repo / "notebooks" / "a.ipynb")
    (repo / "code.py").write_text("print(1)\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "first")
    monkeypatch.setattr(provenance, "REPO", repo)
    assert provenance.git()["dirty"] is False
    notebook(repo / "notebooks" / "a.ipynb", outputs=[{"output_type": "stream", "name": "stdout", "text": "1\n"}],
             metadata={"toc-autonumbering": True})
    assert provenance.git()["dirty"] is False  # a change in the work tree only: porcelain's " M" line
    notebook(repo / "notebooks" / "a.ipynb", source="x = 2")
    assert provenance.git()["dirty"] is True
    notebook(repo / "notebooks" / "a.ipynb")
    (repo / "code.py").write_text("print(2)\n")
    assert provenance.git()["dirty"] is True
