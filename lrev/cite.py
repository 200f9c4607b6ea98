"""The project's citation, from CITATION.cff: validation (cffconvert) and the BibTeX entry that the paper's
"How to cite" block and the README's "Cite" section show.

    python -m lrev.cite validate
    python -m lrev.cite bibtex [--out FILE]

cffconvert's own BibTeX is built from the file's top level (type software) and leaves out
``preferred-citation``, the report people cite; so the entry is written here from ``preferred-citation``. A
paper is the report of one run, and two runs of one version differ in scale, commit and config: the paper's entry
(:func:`bibtex` with a :class:`Run`) carries all three, in its key and its ``note``, so that citations of two runs
never merge. The README's entry, with no run, cites the version.

The entry is a ``@misc``: BibTeX's ``@techreport`` and biblatex's ``@report`` both require an ``institution``,
and this report has none, only a group of contributors, which is its author. Authors that are entities go in
double braces (BibTeX would otherwise take "contributors" for a surname).
"""
from __future__ import annotations

import argparse
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from lrev import tools
from lrev.config import REPO
from lrev.io import atomic_path

CITATION = REPO / "CITATION.cff"
PYPROJECT = REPO / "pyproject.toml"
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def load(path: Path = CITATION) -> dict[str, Any]:
    # The dates stay text: YAML would turn them into date objects.
    return yaml.load(path.read_text(), Loader=yaml.BaseLoader)


def validate(path: Path = CITATION) -> str:
    """cffconvert's verdict on ``path`` against the CFF schema; raises ValueError naming the file if invalid."""
    done = subprocess.run([str(tools.executable("cffconvert")), "--validate", "-i", str(path)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(f"{path} is not valid CFF:\n{(done.stdout + done.stderr)[-2000:]}")
    return done.stdout.strip()


def person(author: dict[str, str]) -> str:
    if "name" in author:
        return "{" + author["name"] + "}"
    return f"{author['family-names']}, {author['given-names']}"


@dataclass(frozen=True)
class Run:
    """What tells one run's paper from another's of the same version (the title page prints the same)."""
    scale: str
    commit: str
    config_digest: str
    dirty: bool = False

    @classmethod
    def of(cls, scale: str, git: dict[str, Any], config_digest: str) -> Run:
        """From :func:`lrev.provenance.git`'s record."""
        return cls(scale, git["sha"], config_digest, git["dirty"])

    def key(self) -> str:
        # Twelve hex digits, as on the title page: unique in a repository of this size; the note has all forty.
        return f"{self.scale}-{self.commit[:12]}"

    def note(self) -> str:
        changes = " with uncommitted changes" if self.dirty else ""
        return f"Commit {self.commit}{changes}, scale {self.scale}, config digest {self.config_digest}"


def bibtex(path: Path = CITATION, run: Run | None = None) -> str:
    """The BibTeX entry of ``preferred-citation``: of ``run``'s paper if given, else of the version."""
    cff = load(path)
    ref = cff["preferred-citation"]
    version = ref.get("version", cff["version"])
    fields = {
        "author": " and ".join(person(a) for a in ref["authors"]),
        "title": "{" + ref["title"] + "}",
        "type": "Report",
        "version": version,
        "year": ref["year"],
        "month": MONTHS[int(ref["month"]) - 1] if "month" in ref else None,
        "url": ref.get("url", cff.get("url")),
        "note": run.note() if run else None,
        "keywords": ", ".join(ref.get("keywords", cff.get("keywords", []))),
    }
    lines = [f"  {key} = {value}," if key == "month" else f"  {key} = {{{value}}},"
             for key, value in fields.items() if value]
    key = f"{cff['title'].split(':')[0]}-{version}".replace(" ", "-") + (f"-{run.key()}" if run else "")
    return "\n".join([f"@misc{{{key},", *lines, "}"]) + "\n"


def version() -> str:
    """The package version (pyproject.toml), which CITATION.cff's ``version`` must equal."""
    with PYPROJECT.open("rb") as f:
        return tomllib.load(f)["project"]["version"]


def identity(run: Run, path: Path = CITATION) -> dict[str, Any]:
    """What ``run``'s paper shows on its title page, in its PDF metadata and in its "How to cite" block."""
    cff = load(path)
    ref = cff["preferred-citation"]
    return {"title": ref["title"], "version": version(), "authors": [a.get("name") or
                                                                     f"{a['given-names']} {a['family-names']}"
                                                                     for a in ref["authors"]],
            "keywords": cff.get("keywords", []), "url": cff["url"], "bibtex": bibtex(path, run)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("validate", help="check CITATION.cff with cffconvert")
    out = sub.add_parser("bibtex", help="print (or write) the BibTeX entry")
    out.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    if a.command == "validate":
        print(validate())
        return
    entry = bibtex()
    if a.out is None:
        print(entry, end="")
        return
    with atomic_path(a.out, ".bib") as tmp:
        tmp.write_text(entry)


if __name__ == "__main__":
    main()
