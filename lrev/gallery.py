"""The gallery: the pipeline's executed notebooks rendered to HTML with nbconvert, and an index page.

    python -m lrev.gallery --scale SCALE --page STUDY NAME NOTEBOOK [--page …] [--claims STUDY CLAIMS.json …]
                           --out <gallery>/index.html

One page per executed notebook (``<NAME>.html`` beside the index): a study whose notebook runs once per
version (``pk``) has a page per version, the others one page for all their versions. A page is for reading the
results: it opens with the study's verdicts (claims × versions, from its claims.json) and the notebook's first
figure, hides the code (it is in ``notebooks/``) and folds each cell's stream output (progress bars, JVM
warnings) into a closed ``<details>``, keeping only the last state of each redrawn line. Pages and index are
written atomically; the index describes and links each page, the paper and the run's archive, and says when and
from which commit the gallery was built.
"""
from __future__ import annotations

import argparse
import html
from collections import Counter
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter

from lrev import artifact, provenance
from lrev.config import REPO, version_key
from lrev.io import atomic_path, read_json

#: Output types that draw: what a page keeps in view.
FIGURE = "image/png"


def last_states(text: str) -> str:
    """Terminal text as it last showed: of each line redrawn with carriage returns, its final state."""
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))


def folded(cell: nbformat.NotebookNode) -> None:
    """``cell``'s stream outputs as one closed ``<details>`` with their line count."""
    streams = [o for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
    if not streams:
        return
    text = last_states("".join(o["text"] for o in streams)).strip("\n")
    lines = [line for line in text.split("\n") if line.strip()]
    shown = nbformat.v4.new_output("display_data", data={"text/html": (
        f"<details><summary>{len(lines)} lines of output (progress, JVM messages)</summary>"
        f"<pre>{html.escape(chr(10).join(lines))}</pre></details>")})
    cell["outputs"] = [shown] + [o for o in cell["outputs"] if o.get("output_type") != "stream"]


def first_figure(nb: nbformat.NotebookNode) -> str | None:
    return next((o["data"][FIGURE] for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                 if FIGURE in o.get("data", {})), None)


def verdict_table(claims: dict) -> str:
    """Claims × versions, each cell its verdict, and the counts."""
    versions = sorted(claims["versions"], key=version_key)
    cells = {(v["claim"], v["version"]): v["verdict"] for v in claims["verdicts"]}
    ids = list(dict.fromkeys(v["claim"] for v in claims["verdicts"]))
    counts = Counter(cells.values())
    head = "".join(f"<th>{html.escape(v)}</th>" for v in versions)
    rows = "".join(f"<tr><th>{html.escape(c)}</th>" + "".join(
        f"<td>{html.escape(cells.get((c, v), ''))}</td>" for v in versions) + "</tr>" for c in ids)
    return (f"<p>Verdicts: " + ", ".join(f"{n} {html.escape(k)}" for k, n in counts.most_common()) + "</p>"
            f"<table><tr><th>claim</th>{head}</tr>{rows}</table>")


def summary(study: str, claims: dict | None, nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The page's opening cell: the study's verdicts and the notebook's first figure."""
    parts = [f"<h2>Study <code>{html.escape(study)}</code>: summary</h2>"]
    if claims is not None:
        parts.append(verdict_table(claims))
    figure = first_figure(nb)
    if figure is not None:
        parts.append(f'<p>Its first figure (all of them are below):</p><img src="data:{FIGURE};base64,{figure}" '
                     'style="max-width:100%">')
    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": "".join(parts)})]
    return cell


def render(notebook: Path, out: Path, study: str = "", claims: dict | None = None) -> None:
    """``notebook`` (executed) as one self-contained HTML page: summary first, code hidden, streams folded, and
    the run's and the repository's folders named ``<run>`` and ``<repo>`` (pages are archived; build paths are
    not theirs to keep). The run's folder is the gallery's parent."""
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        folded(cell)
    nb.cells.insert(0, summary(study, claims, nb))
    body, _ = HTMLExporter(embed_images=True, exclude_input=True).from_notebook_node(nb)
    for folder, alias in ((out.resolve().parent.parent, "&lt;run&gt;"), (REPO, "&lt;repo&gt;")):
        body = body.replace(str(folder), alias)
    with atomic_path(out, ".html") as tmp:
        tmp.write_text(body)


def title(notebook: Path) -> str:
    """The notebook's first heading, as its page's description."""
    nb = nbformat.read(notebook, as_version=4)
    first = next((c.source for c in nb.cells if c.cell_type == "markdown"), "")
    return first.split("\n", 1)[0].lstrip("# ").replace("`", "")


def index(scale: str, pages: list[tuple[str, str, Path]]) -> str:
    git = provenance.git()
    rows = "\n".join(f'<li><a href="{html.escape(name)}.html">{html.escape(name)}</a>: {html.escape(title(nb))} '
                     f'<small>(study <code>{html.escape(study)}</code>, from <code>{html.escape(nb.name)}</code>)'
                     f"</small></li>" for study, name, nb in pages)
    archive = f"{artifact.name(scale)}.tar.gz"
    return (f"<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>lucene-revisited: executed notebooks, "
            f"{html.escape(scale)} scale</title></head>\n<body>\n<h1>lucene-revisited: executed notebooks</h1>\n"
            f"<p>Scale <b>{html.escape(scale)}</b>; built {provenance.now()} from git <code>{git['sha'][:12]}</code>"
            f"{' (uncommitted changes)' if git['dirty'] else ''}. Each page is a notebook as the pipeline ran it "
            f"(papermill): its verdicts and first figure, then its outputs, code hidden. The report: "
            f'<a href="../{artifact.PAPER.as_posix()}">{artifact.PAPER.name}</a>; the run\'s archive, once '
            f'<code>./run artifact --config scale={html.escape(scale)}</code> made it: '
            f'<a href="../{html.escape(archive)}">{html.escape(archive)}</a>.</p>\n<ul>\n{rows}\n</ul>\n'
            f"</body></html>\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", required=True)
    ap.add_argument("--page", nargs=3, action="append", required=True, metavar=("STUDY", "NAME", "NOTEBOOK"))
    ap.add_argument("--claims", nargs=2, action="append", default=[], metavar=("STUDY", "CLAIMS"),
                    help="a study's verdicts (results/<study>/claims.json), for its pages' summaries")
    ap.add_argument("--out", type=Path, required=True, help="the index page; pages go beside it")
    a = ap.parse_args(argv)
    pages = [(study, name, Path(nb)) for study, name, nb in a.page]
    claims = {study: read_json(path) for study, path in a.claims}
    for i, (study, name, nb) in enumerate(pages, 1):
        print(f"gallery: {i}/{len(pages)} {name}")
        render(nb, a.out.with_name(f"{name}.html"), study, claims.get(study))
    with atomic_path(a.out, ".html") as tmp:
        tmp.write_text(index(a.scale, pages))


if __name__ == "__main__":
    main()
