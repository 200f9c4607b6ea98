"""A study is a plug-in found by name: its module, its settings schema, its engine sources."""
from __future__ import annotations

import re

import nbformat
import papermill
import pytest

from lrev import engine, studies
from lrev.config import REPO


def test_every_study_of_the_checkout_has_each_tier():
    assert "pk" in studies.names()
    for name in studies.names():
        plugin = studies.get(name)
        assert plugin.QUANTITIES and plugin.BASELINE and plugin.AA
        for part in (f"claims/{name}.yaml", f"paper/{name}.typ", f"workflow/rules/{name}.smk",
                     f"notebooks/{name}.ipynb", f"config/schema/{name}.yaml", f"engine/studies/{name}/src/main"):
            assert (REPO / part).exists(), part
        assert list((REPO / "data-recipes").glob(f"{name}_*.py")), f"data-recipes/{name}_*.py"


@pytest.mark.parametrize("name", studies.names())
def test_every_study_folder_holds_the_modules_of_the_contract_with_what_is_reached_in_them(name):
    from importlib import import_module

    for module, (_, names) in studies.MODULES.items():
        assert (REPO / "lrev" / name / module).is_file(), f"lrev/{name}/{module}"
        loaded = import_module(f"lrev.{name}.{module.removesuffix('.py')}")
        assert [n for n in names if not hasattr(loaded, n)] == [], f"lrev/{name}/{module}"
    tasks = import_module(f"lrev.{name}.tasks")
    assert any(callable(v) and getattr(v, "__module__", "") == tasks.__name__ for v in vars(tasks).values())


@pytest.mark.parametrize("name", studies.names())
def test_a_notebooks_parameters_are_ones_papermill_can_set(name):
    # papermill injects a parameter it could not parse as an extra line and warns; the pipeline's
    # values must land on the named parameters, so every one of them has to parse.
    path = REPO / "notebooks" / f"{name}.ipynb"
    cell = next(c for c in nbformat.read(path, as_version=4).cells if "parameters" in c.metadata.get("tags", ()))
    assigned = re.findall(r"^(\w+)\s*=", cell.source, flags=re.M)
    parsed = papermill.inspect_notebook(str(path))
    assert list(parsed) == assigned
    assert {"scale", "outdir", "overrides", "measure"} <= set(parsed)
    assert all(p["help"] for p in parsed.values()), "every parameter says what it is"


def test_an_unknown_study_is_named_with_those_there_are():
    with pytest.raises(KeyError, match="nosuch.*pk"):
        studies.get("nosuch")


@pytest.mark.parametrize("version, shared", [("4.10.4", "shims/lucene4/"), ("9.12.3", "shims/leafreader/")])
def test_a_build_compiles_the_core_its_shims_and_its_own_study_only(version, shared):
    files = engine.sources("pk", version)
    assert "engine/pom.xml" in files
    assert any(f.startswith("engine/src/main/") for f in files)
    assert any(f.startswith("engine/" + shared) for f in files)
    assert any(f.startswith("engine/studies/pk/src/main/") for f in files)
    others = [f for f in files if f.startswith("engine/studies/") and not f.startswith("engine/studies/pk/")]
    assert others == []
    assert not any("/src/test/" in f for f in files)
    if version == "4.10.4":
        assert not any(f.startswith("engine/shims/leafreader/") for f in files)


def test_a_version_without_shim_properties_is_refused():
    with pytest.raises(FileNotFoundError, match="lucene5"):
        engine.shim_properties("5.5.5")


def test_the_figures_command_names_the_studies_it_knows():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "lrev.figures", "nope", "--results", "r", "--settings", "{}",
                           "--out", "o"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 2
    assert "nope" in done.stderr and all(name in done.stderr for name in studies.names())
