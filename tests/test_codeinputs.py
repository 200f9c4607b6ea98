"""A step's code inputs come from its imports (lrev/codeinputs.py), and lrev/ imports without loops."""
from __future__ import annotations

import ast
import graphlib

import pytest

from lrev import codeinputs, studies
from lrev.config import REPO


def test_a_steps_code_is_its_entry_and_all_the_project_modules_it_imports():
    code = codeinputs.files("lrev/pk/summary.py")
    assert "lrev/pk/summary.py" in code
    # Imported by name at the top (`from lrev.pk.results import TABLES`), and through another module (rounds -> stats).
    assert {"lrev/pk/results.py", "lrev/rounds.py", "lrev/stats.py"} <= set(code)
    # Nothing outside the repository: the standard library and installed packages are not inputs.
    assert all((REPO / path).is_file() for path in code)
    assert not any("site-packages" in path or path.startswith("/") for path in code)


def test_an_import_inside_a_function_counts():
    # lrev/studies.py imports lrev.growth only inside the functions that fit a ladder.
    assert "lrev/growth.py" in codeinputs.files("lrev/studies.py")


def test_a_recipe_finds_the_module_beside_it():
    assert "data-recipes/dvupdate_common.py" in codeinputs.files("data-recipes/dvupdate_synthetic.py")


def test_a_code_file_that_does_not_exist_is_named():
    with pytest.raises(FileNotFoundError, match="lrev/nope.py"):
        codeinputs.files("lrev/pk/summary.py", "lrev/nope.py")


@pytest.mark.parametrize("study", studies.names())
def test_a_forks_code_covers_its_tasks_and_what_writes_its_results(study):
    from importlib import import_module

    code = import_module(f"lrev.{study}.forks").CODE
    assert {f"lrev/{study}/tasks.py", f"lrev/{study}/results.py", "lrev/fork.py"} <= set(code)


def _imports(path) -> set[str]:
    """The lrev modules a file imports, anywhere in it."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return names


def test_lrev_has_no_import_loops():
    modules = {}
    for path in (REPO / "lrev").rglob("*.py"):
        parts = path.relative_to(REPO).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {name: {m for m in _imports(path) if m in modules and m != "lrev"} - {name}
             for name, path in modules.items()}
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as err:
        pytest.fail(f"an import loop in lrev/: {' -> '.join(err.args[1])}")
