"""Figures and the paper, built from fixture results."""
from __future__ import annotations

import json

import pytest

from lrev import claims, paper
from lrev.config import REPO
from lrev.io import write_json
from lrev.pk import figures, summary
from tests.fixtures_pk import VERSIONS, write_pk_results


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("run")
    results = write_pk_results(root / "results")
    written = figures.write_all(results, root / "figures" / "pk")
    verdicts = claims.evaluate(claims.load_registry(REPO / "claims" / "pk.yaml"), summary.load(results))
    write_json(root / "claims.json", verdicts)
    numbers = paper.numbers(results, root / "figures", root / "claims.json")
    write_json(root / "numbers.json", numbers)
    paper.compile_pdf(root / "numbers.json", root / "paper.pdf")
    return root, written, numbers


def test_every_declared_figure_is_written(built):
    root, written, _ = built
    for name in figures.FIGURES:
        for ext in ("pdf", "png"):
            path = root / "figures" / "pk" / f"{name}.{ext}"
            assert path in written and path.stat().st_size > 1000


def test_paper_compiles_to_pdf(built):
    root, _, _ = built
    assert (root / "paper.pdf").read_bytes()[:5] == b"%PDF-"


def test_numbers_cover_every_version_and_claim(built):
    _, _, numbers = built
    assert list(numbers["lookups"]) == list(VERSIONS)
    assert len(numbers["claim_rows"]) == 7 * len(VERSIONS)
    assert {p["version"] for p in numbers["provenance"]} == set(VERSIONS)
    json.dumps(numbers)  # the Typst side reads it as JSON


def test_formatting_helpers():
    assert paper.rate(509_000) == "509 K" and paper.rate(1_190_000) == "1.19 M"
    assert paper.fmt(float("nan")) == "n/a" and paper.interval(1.0, 2.5) == "[1.00, 2.50]"
