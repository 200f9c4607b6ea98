"""Figures and the paper, built from the smoke run's real results."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import assert_legible
from lrev import claims, config, growth, growth_figures, paper
from lrev.config import REPO
from lrev.io import write_json
from lrev.pk import figures, layout, numbers as pk_numbers, results as pk_results, summary

VERSIONS = config.load({"scale": "smoke"}).study("pk")["versions"]


@pytest.fixture(scope="module")
def built(smoke_run, tmp_path_factory):
    results = smoke_run[0] / "results"
    root = tmp_path_factory.mktemp("paper")
    written = figures.write_all(results, {"versions": VERSIONS}, root / "figures" / "pk")
    verdicts = claims.evaluate(claims.load_registry(REPO / "claims" / "pk.yaml"), summary.load(results, VERSIONS))
    write_json(root / "claims.json", verdicts)
    # The claims fitted on the size ladder have a figure each, as the pipeline draws them (rule growth_figure).
    for claim in growth.grown(claims.load_registry(REPO / "claims" / "pk.yaml"), VERSIONS):
        growth_figures.main(["--registry", str(REPO / "claims" / "pk.yaml"), "--claims", str(root / "claims.json"),
                             "--claim", claim, "--out", str(root / "figures" / "pk")])
    numbers = paper.study_numbers("pk", results, VERSIONS, root / "figures" / "pk", root / "claims.json")
    return root, written, numbers


def test_every_declared_figure_is_written(built):
    root, written, _ = built
    for name in figures.FIGURES:
        for ext in ("pdf", "png"):
            path = root / "figures" / "pk" / f"{name}.{ext}"
            assert path in written and path.stat().st_size > 1000


def test_every_figure_prints_legibly(smoke_run):
    data = summary.load(smoke_run[0] / "results", VERSIONS)
    for name, build in figures.BUILDERS.items():
        assert_legible(build(data), name)


def test_numbers_cover_every_version_and_claim(built, smoke_run):
    _, _, numbers = built
    assert list(numbers["lookups"]) == list(VERSIONS)
    registered = len(claims.load_registry(REPO / "claims" / "pk.yaml")["claims"])
    assert len(numbers["claim_rows"]) == registered * len(VERSIONS) and numbers["versions"] == list(VERSIONS)
    # Named below the run's folder (results' parent), never by an absolute path.
    run = smoke_run[0]
    assert all(not Path(f).is_absolute() and (run / f).is_file() for f in numbers["figures"].values())
    assert {p["version"] for p in numbers["provenance"]} == set(VERSIONS)
    # Every plain-loop contender of every version is cross-checked, the A/A included.
    assert {(c["version"], c["contender"]) for c in numbers["crosscheck"]} >= {(v, "default-aa") for v in VERSIONS}
    smoke_rounds = config.load({"scale": "smoke"}).study("pk")["rounds"]
    assert numbers["crosscheck_power"]["rounds"] == smoke_rounds
    json.dumps(numbers)  # the Typst side reads it as JSON


def test_only_configured_versions_are_read(smoke_run):
    results = smoke_run[0] / "results"
    data = summary.load(results, VERSIONS[:2])
    assert data.versions == tuple(VERSIONS[:2]) and set(data.lookups["version"]) == set(VERSIONS[:2])
    with pytest.raises(FileNotFoundError, match="1.2.3"):
        summary.load(results, ["1.2.3"])


def test_a_changed_result_file_is_refused(smoke_run, tmp_path):
    import shutil

    results = tmp_path / "results"
    shutil.copytree(smoke_run[0] / "results" / "pk" / VERSIONS[0], results / "pk" / VERSIONS[0])
    table = results / "pk" / VERSIONS[0] / "plain.parquet"
    table.write_bytes(table.read_bytes() + b"x")
    with pytest.raises(ValueError, match="plain.parquet"):
        summary.load(results, VERSIONS[:1])


def test_numbers_refuse_another_studys_claims(built, tmp_path):
    root, _, _ = built
    other = json.loads((root / "claims.json").read_text())
    write_json(tmp_path / "claims.json", {**other, "study": "another"})
    with pytest.raises(ValueError, match="another"):
        paper.study_numbers("pk", root, VERSIONS, root / "figures" / "pk", tmp_path / "claims.json")


def test_cross_check_power_follows_the_spread_and_the_rounds():
    # Two sides of 10% each over 2 rounds: the agreement's log spreads by 10%, log(1.1) is 0.95 of that,
    # so 66% of rows land within 10% by chance; (1.96 x 0.141 / 0.0953)^2 = 8.5 -> 9 rounds for 95%.
    power = summary.agreement_power(0.1, 0.1, 2, 0.10)
    assert power.agreement_sd == pytest.approx(0.1)
    assert power.expected_within == pytest.approx(0.6594, abs=1e-3)
    assert power.rounds_for_95 == 9
    more = summary.agreement_power(0.1, 0.1, 9, 0.10)
    assert more.expected_within >= 0.95 > summary.agreement_power(0.1, 0.1, 8, 0.10).expected_within


def test_formatting_helpers():
    assert pk_numbers.rate(509_000) == "509 K" and pk_numbers.rate(1_190_000) == "1.19 M"
    assert paper.fmt(float("nan")) == "n/a" and paper.interval(1.0, 2.5) == "[1.00, 2.50]"


def test_the_ladders_contenders_measure_its_corpora_and_pk_1_is_fitted_through_every_size(smoke_run):
    root = smoke_run[0]
    pk = config.load({"scale": "smoke"}).study("pk")
    lookups = summary.load(root / "results", VERSIONS).lookups
    ladder = lookups[lookups["corpus"].str.startswith(layout.LADDER_PREFIX)]
    assert set(ladder["corpus"]) == {f"{layout.LADDER_PREFIX}{n}" for n in pk["ladder"]["docs"]}
    assert set(ladder["contender"]) == set(pk["ladder"]["contenders"])
    # Every rung in JVMs of its own, none in the top rung's.
    assert all(f == pk_results.rung_fork(c, corpus) for f, c, corpus in ladder[["fork", "contender", "corpus"]].values)
    assert not lookups.loc[~lookups["corpus"].str.startswith(layout.LADDER_PREFIX), "fork"].str.startswith(
        pk_results.RUNG).any()
    # Each corpus's size as its recipe recorded it, not as the config asked for it.
    recorded = {c: json.loads((layout.corpus_dir(root, c) / "manifest.json").read_text())["docs"]
                for c in set(lookups["corpus"])}
    assert all(set(group["docs"]) == {recorded[corpus]} for corpus, group in lookups.groupby("corpus"))
    verdicts = json.loads((root / "results" / "pk" / "claims.json").read_text())["verdicts"]
    grown = [p["extrapolated"] for v in verdicts if v["claim"] == "pk-1" for p in v["parts"] if "extrapolated" in p]
    sizes = sorted([*pk["ladder"]["docs"], pk["docs"]])
    assert grown and all(g["sizes"] == sizes and g["rungs"][-1] == "seq" for g in grown)
    assert (root / "figures" / "pk" / "growth-pk-1.png").is_file()


def test_every_family_and_its_seek_ceil_contender_have_colours_of_their_own():
    families = [*figures.FAMILY_ORDER, *(f + layout.SEEK_CEIL for f in figures.FAMILY_ORDER), "Other", "Another"]
    palette = figures._palette(families)
    assert len({palette[f] for f in families}) == len(families)
