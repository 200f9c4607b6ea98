"""Shared pytest set-up: the repository root, the data recipes, and one real smoke run of the pipeline
whose result files the analysis tests read (fixtures come from the real code path, never hand-built)."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def load_recipe(name: str):
    """Import a data-recipes/ script as a module (the folder name is not a Python identifier)."""
    path = REPO / "data-recipes" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"recipe_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def pk_corpus_recipe():
    return load_recipe("pk_corpus")


@pytest.fixture(scope="session")
def smoke_run(tmp_path_factory):
    """The whole pipeline at smoke scale in a temporary output folder, run once per session; then a dry
    run of the same command. Returns (scale root, first run, dry run)."""
    outdir = tmp_path_factory.mktemp("runs")
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--config", "scale=smoke", f"outdir={outdir}"]
    first = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr[-4000:]
    second = subprocess.run(cmd + ["--dry-run"], cwd=REPO, capture_output=True, text=True)
    return outdir / "smoke", first, second
