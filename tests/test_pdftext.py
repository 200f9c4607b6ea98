"""The paper's text check (lrev.pdftext): it finds Typst source on the page and counts that do not add up, and
passes a clean page."""
from __future__ import annotations

import pytest
import typst

from lrev import pdftext

ABSTRACT = ("Abstract. We re-run things. Of the {n} applicable claim × release {cells} (Figure 1; 3 more do not "
            "apply), {holds} {hold}, 1 fails, 0 answer an open question, 2 are inconclusive and 4 are withheld (1 "
            "untestable at this scale, 0 underpowered, 0 fell behind, 3 biased, 0 unconverged): {decided} of "
            "{n} (29%) are decided. This is the default scale.")


def _abstract(n=8, cells="cells", holds=1, hold="holds", decided=2):
    return ABSTRACT.format(n=n, cells=cells, holds=holds, hold=hold, decided=decided)


def test_a_consistent_abstract_passes():
    assert pdftext.count_problems(_abstract()) == []


@pytest.mark.parametrize("changed, why", [
    ({"n": 9}, "do not add up to the 9 applicable"),
    ({"decided": 3}, "do not add up to the 3 decided"),
    ({"hold": "hold"}, "“1 hold” does not agree in number"),
    ({"cells": "cell"}, "does not agree in number"),
])
def test_counts_that_do_not_add_up_or_agree_are_found(changed, why):
    found = pdftext.count_problems(_abstract(**changed))
    assert any(why in p for p in found), found


def test_a_count_left_out_is_found():
    assert any("no count of inconclusive" in p for p in
               pdftext.count_problems(_abstract().replace("2 are inconclusive and", "")))


@pytest.mark.parametrize("leaked", ["runs/#meta.scale/gallery/", "the grid else [...] shows", "#if x [y]",
                                    "numbers.#(s)"])
def test_typst_source_on_the_page_is_found(leaked):
    assert pdftext.leaks(f"Some text, {leaked}, more text.")


@pytest.mark.parametrize("clean", ["GITHUB#16418 shipped", "IndexWriterConfig#setMaxDocValuesOverlays",
                                   "# optional: JUnit", "interval [1.12, 1.53] (n=5)"])
def test_text_that_only_looks_like_code_passes(clean):
    assert pdftext.leaks(clean) == []


def test_the_check_reads_what_typst_printed(tmp_path):
    """Through a real PDF: an escaped `#` prints the code it should have run, and the check finds it there."""
    source = tmp_path / "page.typ"
    source.write_text("#set page(width: 12cm)\n" + _abstract() + "\n\nThe gallery is in `runs/#meta.scale/gallery/`;"
                      " GITHUB\\#16418 shipped.\n")
    typst.compile(str(source), output=str(tmp_path / "page.pdf"))
    found = pdftext.problems(tmp_path / "page.pdf")
    assert len(found) == 1 and "#meta.scale" in found[0], found


@pytest.mark.parametrize("text, found", [("Of these, 1 cells are also judged", True), ("and 1 are inconclusive", True),
                                         ("1 cell is", False), ("Lucene 10.6.1 hold", False), ("pk-1 hold", False),
                                         ("2 cells are", False)])
def test_a_count_of_one_with_a_plural_is_found_anywhere(text, found):
    assert bool(pdftext.disagreements(text)) is found
