"""Claim verdicts from the registry and results."""
from __future__ import annotations

import copy
import math

import pytest
import yaml

from lrev import claims, stats
from lrev.config import REPO
from lrev.pk import summary
from tests.fixtures_pk import VERSIONS, write_pk_results

REGISTRY = REPO / "claims" / "pk.yaml"


def est(low, high):
    return stats.Estimate((low + high) / 2, low, high, 10)


@pytest.mark.parametrize("low, high, direction, expected", [
    (1.2, 1.5, "greater", "holds"),
    (0.7, 0.9, "greater", "fails"),
    (0.9, 1.2, "greater", "inconclusive"),
    (0.7, 0.9, "less", "holds"),
    (1.1, 1.3, "less", "fails"),
    (math.nan, math.nan, "greater", "inconclusive"),
])
def test_judge_direction(low, high, direction, expected):
    assert claims.judge(est(low, high), direction, 1.0) == expected


@pytest.mark.parametrize("low, high, expected", [(2.4, 3.0, "holds"), (1.2, 1.4, "fails"), (2.0, 2.5, "inconclusive")])
def test_judge_approx_band(low, high, expected):
    assert claims.judge(est(low, high), "approx", 2.84, (2.27, 3.41)) == expected


def test_combine_parts():
    assert claims.combine(["holds", "holds"]) == "holds"
    assert claims.combine(["holds", "fails", "inconclusive"]) == "fails"
    assert claims.combine(["holds", "inconclusive"]) == "inconclusive"


def test_registry_missing_field_is_named():
    registry = yaml.safe_load(REGISTRY.read_text())
    del registry["claims"][1]["statement"]
    with pytest.raises(claims.RegistryError, match="pk-2.*statement"):
        claims.validate(registry)


def test_registry_must_cover_every_version():
    registry = yaml.safe_load(REGISTRY.read_text())
    registry["claims"][0]["not_applicable"].pop("10.5.1")
    with pytest.raises(claims.RegistryError, match="pk-1.*10.5.1"):
        claims.validate(registry)


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    root = write_pk_results(tmp_path_factory.mktemp("results"))
    return claims.evaluate(claims.load_registry(REGISTRY), summary.load(root))


def test_every_claim_has_a_row_for_every_version(verdicts):
    ids = [c["id"] for c in verdicts["claims"]]
    assert ids == [f"pk-{i}" for i in range(1, 8)]
    cells = {(v["claim"], v["version"]) for v in verdicts["verdicts"]}
    assert cells == {(i, v) for i in ids for v in VERSIONS}
    assert all(v["verdict"] in claims.VERDICTS for v in verdicts["verdicts"])


def test_memory_claims_do_not_apply_after_its_removal(verdicts):
    row = next(v for v in verdicts["verdicts"] if v["claim"] == "pk-1" and v["version"] == "9.12.3")
    assert row["verdict"] == "n/a" and "removed" in row["reason"]


def test_fixture_effects_are_recovered(verdicts):
    # The fixture makes GlobalPkMap 4x and FST 1.3x the default: pk-6's speed part must hold.
    row = next(v for v in verdicts["verdicts"] if v["claim"] == "pk-6" and v["version"] == "9.12.3")
    speed = next(p for p in row["parts"] if p["quantity"] == "lookups_per_s")
    assert speed["verdict"] == "holds" and speed["value"] == pytest.approx(4.0 / 1.3, rel=0.15)


def test_thread_counts_pair_by_round_but_corpora_do_not(verdicts):
    # Both thread counts run in the same rounds; seq and uuid are separate runs.
    scaling = next(v for v in verdicts["verdicts"] if v["claim"] == "pk-4" and v["version"] == "8.11.4")
    assert {p["pairing"] for p in scaling["parts"]} == {"paired"}
    assert scaling["parts"][0]["value"] == pytest.approx(1.85, rel=0.05)  # the fixture's 2-thread factor
    uuid = next(v for v in verdicts["verdicts"] if v["claim"] == "pk-3" and v["version"] == "8.11.4")
    assert next(p for p in uuid["parts"] if p["quantity"] == "lookups_per_s")["pairing"] == "unpaired"


def test_question_ranks_the_default_too(verdicts):
    row = next(v for v in verdicts["verdicts"] if v["claim"] == "pk-7" and v["version"] == "10.5.1")
    ranked = [r["contender"] for r in row["answer"]["ranking"]]
    assert "default" in ranked and "GlobalPkMap" not in ranked
    assert row["answer"]["contender"] == "Direct"  # the fixture's fastest format (1.9x)


def test_missing_contender_names_claim_and_version(tmp_path):
    root = write_pk_results(tmp_path, drop={"7.7.3": "Memory"})
    with pytest.raises(Exception, match=r"pk-1.*7\.7\.3|7\.7\.3.*pk-1"):
        claims.evaluate(claims.load_registry(REGISTRY), summary.load(root))
