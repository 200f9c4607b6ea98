"""The gallery: the pipeline's executed notebooks rendered to HTML with nbconvert, and an index page.

    python -m lrev.gallery --scale SCALE --page STUDY NAME NOTEBOOK [--page …] [--claims STUDY CLAIMS.json …]
                           --out <gallery>/index.html

One page per executed notebook (``<NAME>.html`` beside the index): a study whose notebook runs once per version
(``pk``) has a page per version, the others one page for all their versions. A page is for reading the results: it
opens with the study's verdict counts (from its claims.json), the notebook's first figure and then the verdicts
claim by claim (claims × versions), hides the code (it is in ``notebooks/``) and folds each cell's stream output
(progress bars, JVM warnings) into a closed ``<details>``, keeping only the last state of each redrawn line. The
verdicts table puts each claim's statement beside its id, numbers each cell that has a reason (why a verdict is
withheld, why a claim does not apply) to that reason below, and says what each verdict word means, in the words of
:mod:`lrev.claims`. Pages render offline: they load no script (require.js, MathJax, widgets) from a CDN; the
notebooks print no mathematics and draw no widgets. Pages and index are written atomically; the index describes and
links each page and the paper (the rule waits for it, so the link resolves), names the run's archive (``./run
artifact`` makes it after the gallery, so it is named, not linked), and says when and from which commit the gallery
was built.
"""
from __future__ import annotations

import argparse
import html
import re
from collections import Counter
from pathlib import Path

import nbformat
from jinja2 import DictLoader
from nbconvert import HTMLExporter

from lrev import artifact, claims as claims_module, provenance
from lrev.config import REPO, version_key
from lrev.io import atomic_path, read_json

#: Output types that draw: what a page keeps in view.
FIGURE = "image/png"
#: nbconvert's lab template without the scripts it loads from a CDN (require.js, MathJax, Mermaid, the widgets'
#: manager), which fail offline and which no page needs.
#: The verdicts table's layout: ids and verdicts on one line each, the statements as text (nbconvert's tables align
#: every cell right).
STYLE = ("<style>table.verdicts th, table.verdicts td { white-space: nowrap; } "
         "table.verdicts .statement { white-space: normal; text-align: left; }</style>")
OFFLINE = "\n".join(["{%- extends 'lab/index.html.j2' -%}",
                     *(f"{{% block {b} %}}{{% endblock {b} %}}" for b in (
                         "html_head_js", "html_head_js_mathjax", "html_head_js_mermaidjs", "jupyter_widgets"))])


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


def legend() -> dict[str, str]:
    """Each verdict word's line of the legend, ``word (note): meaning``, as :mod:`lrev.claims`' docstring defines
    it (a bullet ``- ``word`` (note): meaning``, or ``word`` (meaning) in its text): the one definition, not a
    copy to drift."""
    doc, out = claims_module.__doc__, {}
    for verdict in claims_module.VERDICTS:
        word = re.escape(verdict)
        bullet = re.search(rf"^- ``{word}``(?: \(([^)]*)\))?: (.*?)(?=^- |^$)", doc, re.M | re.S)
        inline = re.search(rf"``{word}`` \(([^)]*)\)", doc)
        if bullet is None and inline is None:
            raise ValueError(f"lrev/claims.py's docstring does not define the verdict {verdict!r}")
        note, meaning = bullet.groups() if bullet else (None, inline[1])
        # The docstring names its constant where a reader wants its value.
        meaning = " ".join(meaning.split()).replace("``", "").replace("MIN_ROUNDS", str(claims_module.MIN_ROUNDS))
        out[verdict] = f"{verdict}{f' ({note})' if note else ''}: {meaning.rstrip(';.')}"
    return out


def verdict_counts(claims: dict) -> str:
    counts = Counter(v["verdict"] for v in claims["verdicts"])
    return "<p>Verdicts: " + ", ".join(f"{n} {html.escape(k)}" for k, n in counts.most_common()) + "</p>"


def verdict_table(claims: dict) -> str:
    """Claims × versions, each claim's statement beside its id, each cell its verdict, numbered to its reason
    where it has one; and what the verdicts shown mean."""
    versions = sorted(claims["versions"], key=version_key)
    cells = {(v["claim"], v["version"]): v for v in claims["verdicts"]}
    statements = {c["id"]: c["statement"] for c in claims["claims"]}
    ids = list(dict.fromkeys(v["claim"] for v in claims["verdicts"]))
    # One number per distinct reason: the many cells one size or one removal withholds share theirs.
    reasons = list(dict.fromkeys(v["reason"] for v in cells.values() if v.get("reason")))

    def cell(row: dict | None) -> str:
        if row is None:
            return "<td></td>"
        mark = f"<sup>{reasons.index(row['reason']) + 1}</sup>" if row.get("reason") else ""
        return f"<td>{html.escape(row['verdict'])}{mark}</td>"

    head = "".join(f"<th>{html.escape(v)}</th>" for v in versions)
    rows = "".join(f'<tr><th>{html.escape(c)}</th><td class="statement">{html.escape(statements[c])}</td>'
                   + "".join(cell(cells.get((c, v))) for v in versions) + "</tr>" for c in ids)
    notes = "".join(f"<li>{html.escape(r)}</li>" for r in reasons)
    lines = legend()
    shown = {v["verdict"] for v in cells.values()}
    meanings = "".join(f"<li><b>{html.escape(k)}</b>{html.escape(lines[k].removeprefix(k))}</li>"
                       for k in claims_module.VERDICTS if k in shown)
    return (STYLE + f'<table class="verdicts"><tr><th>claim</th><th class="statement">statement</th>{head}</tr>'
            f"{rows}</table>"
            + (f"<p>Why, for each numbered cell:</p><ol>{notes}</ol>" if reasons else "")
            + f"<p>What the verdicts mean:</p><ul>{meanings}</ul>")


def summary(study: str, claims: dict | None, nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The page's opening cell: the study's verdict counts, the notebook's first figure (in the first screen), then
    the verdicts claim by claim."""
    parts = [f"<h2>Study <code>{html.escape(study)}</code>: summary</h2>"]
    if claims is not None:
        parts.append(verdict_counts(claims))
    figure = first_figure(nb)
    if figure is not None:
        parts.append(f'<p>Its first figure (all of them are below):</p><img src="data:{FIGURE};base64,{figure}" '
                     'alt="the notebook\'s first figure" style="max-width:100%">')
    if claims is not None:
        parts.append(f"<p>The verdicts, claim by claim:</p>{verdict_table(claims)}")
    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": "".join(parts)})]
    return cell


def render(notebook: Path, out: Path, study: str = "", claims: dict | None = None) -> None:
    """``notebook`` (executed) as one self-contained HTML page: summary first, code hidden, streams folded, and
    the run's and the repository's folders named ``<run>`` and ``<repo>`` (pages are archived; build paths are
    not theirs to keep). The run's folder is the gallery's parent."""
    nb = nbformat.read(notebook, as_version=4)
    # The browser tab's title (nbconvert's default is "Notebook"): the page, then what its notebook is about.
    nb.metadata["title"] = f"{out.stem}: {heading(nb).removeprefix(f'{study}: ')} · lucene-revisited"
    for cell in nb.cells:
        folded(cell)
    nb.cells.insert(0, summary(study, claims, nb))
    body, _ = HTMLExporter(embed_images=True, exclude_input=True, extra_loaders=[DictLoader({"offline": OFFLINE})],
                           template_file="offline").from_notebook_node(nb)
    for folder, alias in ((out.resolve().parent.parent, "&lt;run&gt;"), (REPO, "&lt;repo&gt;")):
        body = body.replace(str(folder), alias)
    with atomic_path(out, ".html") as tmp:
        tmp.write_text(body)


def heading(nb: nbformat.NotebookNode) -> str:
    """The notebook's first heading, as its page's description."""
    first = next((c.source for c in nb.cells if c.cell_type == "markdown"), "")
    return first.split("\n", 1)[0].lstrip("# ").replace("`", "")


def index(scale: str, pages: list[tuple[str, str, Path]]) -> str:
    git = provenance.git()
    rows = "\n".join(f'<li><a href="{html.escape(name)}.html">{html.escape(name)}</a>: '
                     f"{html.escape(heading(nbformat.read(nb, as_version=4)))} "
                     f'<small>(study <code>{html.escape(study)}</code>, from <code>{html.escape(nb.name)}</code>)'
                     f"</small></li>" for study, name, nb in pages)
    archive = f"{artifact.name(scale)}.tar.gz"
    return (f"<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>lucene-revisited: executed notebooks, "
            f"{html.escape(scale)} scale</title></head>\n<body>\n<h1>lucene-revisited: executed notebooks</h1>\n"
            f"<p>Scale <b>{html.escape(scale)}</b>; built {provenance.now()} from git <code>{git['sha'][:12]}</code>"
            f"{' (uncommitted changes)' if git['dirty'] else ''}. Each page is a notebook as the pipeline ran it "
            f"(papermill): its verdicts and first figure, then its outputs, code hidden. The report: "
            f'<a href="../{artifact.PAPER.as_posix()}">{artifact.PAPER.name}</a>. '
            f"<code>./run artifact --config scale={html.escape(scale)}</code> packs the run, this gallery included, "
            f"into <code>{html.escape(archive)}</code> beside this folder.</p>\n<ul>\n{rows}\n</ul>\n"
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
