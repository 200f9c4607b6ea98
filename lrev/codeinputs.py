"""The project's Python a step runs, found from its imports: a rule's ``code`` inputs, and the code a fork's
fingerprint covers (:func:`lrev.fork.study_fingerprint`).

A rule lists its entry points, the files it runs; everything of this repository they import, directly or not, at
the top of a module or inside a function, is an input too. So an edit to any module a step imports reruns that step,
and no list kept by hand can fall behind the imports. Only a module loaded by name at run time is invisible to an
import scan: the study plug-in (``lrev.<study>.study``, :func:`lrev.studies.get`) and a fork's tasks
(``lrev.<study>.tasks``, :mod:`lrev.fork`); a rule that runs them names them as entry points.
"""
from __future__ import annotations

from functools import cache
from modulefinder import ModuleFinder
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@cache
def _closure(entry: str) -> frozenset[str]:
    # Searched where Python looks when it runs the entry from the repository (its root, and a script's own folder),
    # and there only: the standard library and installed packages are not the project's code, and are left unread.
    finder = ModuleFinder(path=[str(REPO), str((REPO / entry).parent)])
    finder.run_script(str(REPO / entry))
    found = {entry}
    for module in finder.modules.values():
        if module.__file__ and module.__name__ != "__main__":
            found.add(Path(module.__file__).resolve().relative_to(REPO).as_posix())
    return frozenset(found)


def files(*entries: str) -> list[str]:
    """Repository-relative paths, sorted, of ``entries`` (repository-relative ``.py`` files) and of every module of
    this repository they import."""
    missing = [e for e in entries if not (REPO / e).is_file()]
    if missing:
        raise FileNotFoundError(f"no such code file: {', '.join(missing)}")
    return sorted(set().union(*(_closure(e) for e in entries)))
