"""Exploring a study notebook in JupyterLab, as `./run lab` serves them (notebooks/ itself), reruns nothing: a save
through the lab's contents API, with outputs and metadata as running and autosaving write them, leaves the smoke
run with nothing to do and the provenance as clean as it was; an edited cell does rerun that study."""
from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from urllib.parse import urlencode

import pytest

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
    model = api("GET", name, content="1")
    nb = model["content"]
    edit(nb)
    api("PUT", name, {"type": "notebook", "format": "json", "content": nb})


def as_explored(nb: dict) -> None:
    """What running every cell and autosaving writes: outputs, execution counts, metadata."""
    for i, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = i + 1
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "explored\n"}]
        cell["metadata"]["scrolled"] = True
    nb["metadata"]["toc-autonumbering"] = True


def edited(nb: dict) -> None:
    """A changed line of code."""
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    cell["source"] += "\n# edited"


@pytest.mark.parametrize("study", STUDIES)
def test_saving_an_explored_notebook_reruns_nothing_and_an_edited_cell_reruns_its_study(repo_lab, smoke_run,
                                                                                          study):
    root, _, _ = smoke_run
    path = REPO / "notebooks" / f"{study}.ipynb"
    original = path.read_bytes()
    assert f"{study}_run" not in dry_run_rules(root.parent)
    dirty = provenance.git()["dirty"]
    try:
        save(repo_lab, path.name, as_explored)
        assert path.read_bytes() != original
        assert f"{study}_run" not in dry_run_rules(root.parent)
        assert provenance.git()["dirty"] == dirty
        save(repo_lab, path.name, edited)
        assert f"{study}_run" in dry_run_rules(root.parent)
        assert provenance.git()["dirty"]
    finally:
        path.write_bytes(original)
