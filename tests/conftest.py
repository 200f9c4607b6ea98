"""Shared pytest set-up: the repository root and the data recipes on the import path."""
from __future__ import annotations

import importlib.util
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
