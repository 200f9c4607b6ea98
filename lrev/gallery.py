"""The gallery: the pipeline's executed notebooks rendered to HTML with nbconvert, and an index page.

    python -m lrev.gallery --scale SCALE --page STUDY NAME NOTEBOOK [--page …] --out <gallery>/index.html

One page per executed notebook (``<NAME>.html`` beside the index): a study whose notebook runs once per
version (``pk``) has a page per version, the others one page for all their versions. Pages and index are
written atomically; the index links each page and says when and from which commit the gallery was built.
"""
from __future__ import annotations

import argparse
import html
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter

from lrev import provenance
from lrev.io import atomic_path


def render(notebook: Path, out: Path) -> None:
    """``notebook`` (executed: outputs kept, code shown) as one self-contained HTML page."""
    body, _ = HTMLExporter(embed_images=True).from_notebook_node(nbformat.read(notebook, as_version=4))
    with atomic_path(out, ".html") as tmp:
        tmp.write_text(body)


def index(scale: str, pages: list[tuple[str, str, Path]]) -> str:
    git = provenance.git()
    rows = "\n".join(f'<li><a href="{html.escape(name)}.html">{html.escape(name)}</a> '
                     f'<small>(study <code>{html.escape(study)}</code>, from <code>{html.escape(str(nb))}</code>)'
                     f"</small></li>" for study, name, nb in pages)
    return (f"<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>lucene-revisited: executed notebooks, "
            f"{html.escape(scale)} scale</title></head>\n<body>\n<h1>lucene-revisited: executed notebooks</h1>\n"
            f"<p>Scale <b>{html.escape(scale)}</b>; built {provenance.now()} from git <code>{git['sha'][:12]}</code>"
            f"{' (uncommitted changes)' if git['dirty'] else ''}. Each page is a notebook as the pipeline ran it "
            f"(papermill), with its outputs.</p>\n<ul>\n{rows}\n</ul>\n</body></html>\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", required=True)
    ap.add_argument("--page", nargs=3, action="append", required=True, metavar=("STUDY", "NAME", "NOTEBOOK"))
    ap.add_argument("--out", type=Path, required=True, help="the index page; pages go beside it")
    a = ap.parse_args(argv)
    pages = [(study, name, Path(nb)) for study, name, nb in a.page]
    for i, (_, name, nb) in enumerate(pages, 1):
        print(f"gallery: {i}/{len(pages)} {name}")
        render(nb, a.out.with_name(f"{name}.html"))
    with atomic_path(a.out, ".html") as tmp:
        tmp.write_text(index(a.scale, pages))


if __name__ == "__main__":
    main()
