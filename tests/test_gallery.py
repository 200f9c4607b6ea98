"""The gallery's pages are for reading results: the study's verdicts and first figure open the page, the code is
hidden, and stream output (progress bars, JVM messages) is folded, each redrawn line at its last state."""
from __future__ import annotations

import base64
import re

import nbformat

from lrev import gallery

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()


def executed(path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# `alpha`: a made-up study\n\nText."),
                nbformat.v4.new_code_cell("secret_code = 1", outputs=[
                    nbformat.v4.new_output("stream", name="stderr", text="forks: 1/3\rforks: 2/3\rforks: 3/3\n"),
                    nbformat.v4.new_output("stream", name="stderr", text="WARNING: Unsafe\n")]),
                nbformat.v4.new_code_cell("plot()", outputs=[
                    nbformat.v4.new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"})])]
    nbformat.write(nb, path)
    return path


CLAIMS = {"versions": ["10.6.0", "9.12.3"], "verdicts": [
    {"claim": "alpha-1", "version": "9.12.3", "verdict": "holds"},
    {"claim": "alpha-1", "version": "10.6.0", "verdict": "fails"}]}


def test_a_page_opens_with_verdicts_and_first_figure_hides_code_and_folds_streams(tmp_path):
    out = tmp_path / "alpha.html"
    gallery.render(executed(tmp_path / "alpha.ipynb"), out, "alpha", CLAIMS)
    page = out.read_text()
    assert "secret_code" not in page
    summary = page.index("Study <code>alpha</code>: summary")
    assert summary < page.index(f"data:image/png;base64,{PNG}") < page.index("a made-up study")
    assert re.search(r"<th>claim</th><th>9\.12\.3</th><th>10\.6\.0</th>", page)  # version order
    assert "1 holds, 1 fails" in page
    folded = re.search(r"<details><summary>2 lines of output[^<]*</summary><pre>(.*?)</pre></details>", page, re.S)
    assert folded and folded[1] == "forks: 3/3\nWARNING: Unsafe"


def test_a_page_names_no_build_path(tmp_path):
    nb = executed(tmp_path / "alpha.ipynb")
    node = nbformat.read(nb, as_version=4)
    node.cells[1].outputs.append(nbformat.v4.new_output("stream", name="stdout",
                                                        text=f"results in {tmp_path}/results/alpha\n"))
    nbformat.write(node, nb)
    gallery.render(nb, tmp_path / "gallery" / "alpha.html", "alpha", CLAIMS)
    page = (tmp_path / "gallery" / "alpha.html").read_text()
    assert str(tmp_path) not in page and "&lt;run&gt;/results/alpha" in page


def test_the_index_describes_each_page_and_links_the_paper_and_archive(tmp_path):
    page = gallery.index("smoke", [("alpha", "alpha", executed(tmp_path / "alpha.ipynb"))])
    assert '<a href="alpha.html">alpha</a>: alpha: a made-up study' in page
    assert '<a href="../paper/lucene-revisited.pdf">' in page and re.search(r'href="\.\./lucene-revisited-[^"]+-smoke'
                                                                           r'\.tar\.gz"', page)
    assert str(tmp_path) not in page  # no build path
