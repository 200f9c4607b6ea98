"""The gallery's pages are for reading results: the study's verdicts (with each claim's statement, each withheld
cell's reason and what the verdict words mean) and first figure open the page, the code is hidden, and stream output
(progress bars, JVM messages) is folded, each redrawn line at its last state. Pages are titled, load nothing from
the network, and link nothing that is not there."""
from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import nbformat

from lrev import claims, gallery

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
    {"claim": "alpha-1", "version": "9.12.3", "verdict": "holds", "reason": None},
    {"claim": "alpha-1", "version": "10.6.0", "verdict": "fails", "reason": None}],
    "claims": [{"id": "alpha-1", "statement": "Alpha is faster than <beta>."}]}
SMALL = "docs 1,000 in this run, under 10,000"
WITHHELD = {"versions": ["9.12.3", "10.6.0"], "verdicts": [
    {"claim": "alpha-2", "version": "9.12.3", "verdict": "untestable", "reason": SMALL},
    {"claim": "alpha-2", "version": "10.6.0", "verdict": "untestable", "reason": SMALL},
    {"claim": "alpha-3", "version": "9.12.3", "verdict": "n/a", "reason": "removed in 9.0"},
    {"claim": "alpha-3", "version": "10.6.0", "verdict": "holds", "reason": None}],
    "claims": [{"id": "alpha-2", "statement": "Big."}, {"id": "alpha-3", "statement": "Old."}]}


def test_a_page_opens_with_verdicts_and_first_figure_hides_code_and_folds_streams(tmp_path):
    out = tmp_path / "alpha.html"
    gallery.render(executed(tmp_path / "alpha.ipynb"), out, "alpha", CLAIMS)
    page = out.read_text()
    assert "secret_code" not in page
    summary = page.index("Study <code>alpha</code>: summary")
    figure = page.index(f"data:image/png;base64,{PNG}")
    # The figure in the first screen, the claim-by-claim table (taller with its statements) after it.
    assert summary < page.index("1 holds, 1 fails") < figure < page.index("<th>claim</th>")
    assert figure < page.index("a made-up study", summary)
    assert re.search(r'<th>claim</th><th class="statement">statement</th><th>9\.12\.3</th><th>10\.6\.0</th>',
                     page)  # version order
    assert ('<tr><th>alpha-1</th><td class="statement">Alpha is faster than &lt;beta&gt;.</td><td>holds</td>'
            "<td>fails</td></tr>") in page
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


def test_the_index_describes_each_page_links_the_paper_and_names_the_archive(tmp_path):
    page = gallery.index("smoke", [("alpha", "alpha", executed(tmp_path / "alpha.ipynb"))])
    assert '<a href="alpha.html">alpha</a>: alpha: a made-up study' in page
    assert '<a href="../paper/lucene-revisited.pdf">' in page
    # ./run artifact packs the gallery, so the archive does not exist when the gallery is built: named, not linked.
    assert re.search(r"<code>lucene-revisited-[^<]+-smoke\.tar\.gz</code>", page) and ".tar.gz\"" not in page
    assert str(tmp_path) not in page  # no build path


def test_every_verdict_word_has_one_line_of_legend_from_the_claims_module():
    lines = gallery.legend()
    assert list(lines) == list(claims.VERDICTS)
    assert all(line.startswith(word) and "\n" not in line and len(line) > len(word) + 10
               for word, line in lines.items())
    assert lines["underpowered"].startswith(f"underpowered: fewer than {claims.MIN_ROUNDS} rounds")


def test_a_withheld_cell_shows_its_reason_and_the_page_says_what_its_verdicts_mean(tmp_path):
    out = tmp_path / "alpha.html"
    gallery.render(executed(tmp_path / "alpha.ipynb"), out, "alpha", WITHHELD)
    page = out.read_text()
    # Both untestable cells share one reason, numbered once; the n/a cell has its own.
    assert ('<tr><th>alpha-2</th><td class="statement">Big.</td><td>untestable<sup>1</sup></td>'
            "<td>untestable<sup>1</sup></td></tr>") in page
    assert "<td>n/a<sup>2</sup></td><td>holds</td>" in page
    assert f"<ol><li>{SMALL}</li><li>removed in 9.0</li></ol>" in page
    legend = re.search(r"<p>What the verdicts mean:</p><ul>(.*?)</ul>", page)[1]
    assert re.findall(r"<li><b>([^<]+)</b>", legend) == ["holds", "untestable", "n/a"]  # those on the page
    assert f"<li><b>untestable</b>{gallery.legend()['untestable'].removeprefix('untestable')}</li>" in legend


def test_a_page_is_titled_by_its_name_and_notebook_and_loads_nothing_from_the_network(tmp_path):
    out = tmp_path / "alpha-9.12.3.html"
    gallery.render(executed(tmp_path / "alpha.ipynb"), out, "alpha", CLAIMS)
    page = out.read_text()
    assert "<title>alpha-9.12.3: a made-up study · lucene-revisited</title>" in page
    assert re.findall(r"""(?:src|href)=["']?(?:https?:)?//""", page) == []
    assert "<script src=" not in page


class Links(HTMLParser):
    """Every href and src of a page."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        self.urls += [v for k, v in attrs if k in ("href", "src") and v]


def test_every_relative_link_of_the_smoke_gallery_resolves(smoke_run):
    root, _, _ = smoke_run
    pages = sorted((root / "gallery").glob("*.html"))
    assert root / "gallery" / "index.html" in pages and len(pages) > 1
    dead = []
    for page in pages:
        links = Links()
        links.feed(page.read_text())
        for url in links.urls:
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or not parts.path:  # data:, the web, or within the page
                continue
            if not (page.parent / unquote(parts.path)).exists():
                dead.append(f"{page.name}: {url}")
    assert dead == []
