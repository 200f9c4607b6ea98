"""Exploring a study notebook in JupyterLab, as `./run lab` serves them (notebooks/ itself), reruns nothing: running
every cell in a real kernel and saving through the lab's contents API, with the outputs and metadata running writes,
the empty code cell Shift+Enter appends at the end and a typo fixed in its markdown, leaves the smoke run with nothing
more to do and the provenance as clean as it was; an edited line of code does rerun that study."""
from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from urllib.parse import urlencode

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import jupyter_lab
from lrev import config, provenance
from lrev.config import REPO

STUDIES = list(config.load({"scale": "smoke"}).studies)


@pytest.fixture(scope="module")
def repo_lab(tmp_path_factory):
    """JupyterLab on the repository's notebooks/, as `./run lab` starts it; yields a function calling its
    contents API."""
    folder = tmp_path_factory.mktemp("lab")
    with jupyter_lab(REPO / "notebooks", folder / "workspaces", folder / "lab.log") as (base, token):
        def api(method: str, name: str, body: dict | None = None, **query: str) -> dict:
            req = urllib.request.Request(f"{base}/api/contents/{name}?{urlencode({'token': token, **query})}",
                                         method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=30) as answer:
                return json.loads(answer.read())
        yield api


def dry_run_rules(outdir) -> set[str]:
    done = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--cores", "2", "--config",
                           "scale=smoke", f"outdir={outdir}"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.split()[-1].rstrip(":") for line in done.stdout.splitlines()
            if line.startswith(("rule ", "localrule "))}


def save(api, name: str, edit) -> None:
    """Open notebook ``name`` in the lab, change it with ``edit`` (returning the changed notebook) and save it."""
    nb = api("GET", name, content="1")["content"]
    api("PUT", name, {"type": "notebook", "format": "json", "content": edit(nb)})


def explored(nb: dict) -> dict:
    """``nb`` as JupyterLab holds it after someone explored it: every code cell run in the notebook's own kernel,
    started in notebooks/ as the lab starts it (the explore path: ``measure = False``, on the results below
    ``$LREV_OUTDIR``), then an empty code cell appended, as Shift+Enter on the last cell does, and a typo fixed in
    the first markdown cell."""
    ran = nbformat.from_dict(nb)
    NotebookClient(ran, kernel_name=ran.metadata.kernelspec.name, timeout=900,
                   resources={"metadata": {"path": str(REPO / "notebooks")}}).execute()
    ran.cells.append(nbformat.v4.new_code_cell())
    prose = next(c for c in ran.cells if c.cell_type == "markdown")
    prose.source += " A typo fixed."
    return ran


def edited(nb: dict) -> dict:
    """A changed line of code."""
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    cell["source"] += "\n# edited"
    return nb


@pytest.mark.parametrize("study", STUDIES)
def test_saving_an_explored_notebook_reruns_nothing_and_an_edited_line_of_code_reruns_its_study(
        repo_lab, smoke_run, study, monkeypatch):
    root, _, _ = smoke_run
    monkeypatch.setenv("LREV_OUTDIR", str(root.parent))  # the kernel's: the notebook explores the smoke run
    path = REPO / "notebooks" / f"{study}.ipynb"
    original = path.read_bytes()
    pending = dry_run_rules(root.parent)
    assert f"{study}_run" not in pending
    dirty = provenance.git()["dirty"]
    try:
        save(repo_lab, path.name, explored)
        assert path.read_bytes() != original
        assert dry_run_rules(root.parent) == pending
        assert provenance.git()["dirty"] == dirty
        save(repo_lab, path.name, edited)
        assert f"{study}_run" in dry_run_rules(root.parent)
        assert provenance.git()["dirty"]
    finally:
        path.write_bytes(original)
