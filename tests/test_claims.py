"""Claim verdicts from the registry and results."""
from __future__ import annotations

import math

import pytest
import yaml

import dataclasses

import numpy as np
import pandas as pd

from lrev import claims, config, paper, rounds, stats
from lrev.config import REPO
from lrev.pk import summary
from lrev.tables import select

REGISTRY = REPO / "claims" / "pk.yaml"
VERSIONS = config.load({"scale": "smoke"}).study("pk")["versions"]


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
    registry["claims"][0]["not_applicable"].pop("10.6.0")
    with pytest.raises(claims.RegistryError, match="pk-1.*10.6.0"):
        claims.validate(registry)


def test_registry_quantity_must_be_one_of_its_studys():
    registry = yaml.safe_load(REGISTRY.read_text())
    registry["claims"][0]["parts"][0]["quantity"] = "hits_per_s"
    with pytest.raises(claims.RegistryError, match="pk-1.*hits_per_s.*lookups_per_s"):
        claims.validate(registry)


def test_registry_of_an_unknown_study_is_refused():
    registry = {**yaml.safe_load(REGISTRY.read_text()), "study": "nosuch"}
    with pytest.raises(claims.RegistryError, match="nosuch"):
        claims.validate(registry)


@pytest.fixture(scope="module")
def results(smoke_run):
    """The smoke run's real results, loaded by the real loader."""
    root, _, _ = smoke_run
    return summary.load(root / "results", VERSIONS)


@pytest.fixture(scope="module")
def verdicts(results):
    return claims.evaluate(claims.load_registry(REGISTRY), results)


def test_every_claim_has_a_row_for_every_version(verdicts):
    ids = [c["id"] for c in verdicts["claims"]]
    assert ids == [c["id"] for c in yaml.safe_load(REGISTRY.read_text())["claims"]]
    cells = {(v["claim"], v["version"]) for v in verdicts["verdicts"]}
    assert cells == {(i, v) for i in ids for v in VERSIONS}
    assert all(v["verdict"] in claims.VERDICTS for v in verdicts["verdicts"])


def test_memory_claims_do_not_apply_after_its_removal(verdicts):
    row = next(v for v in verdicts["verdicts"] if v["claim"] == "pk-1" and v["version"] == "9.12.3")
    assert row["verdict"] == "n/a" and "removed" in row["reason"]


def test_every_comparison_pairs_forks_by_round(verdicts):
    rounds = {int(r) for r in range(config.load({"scale": "smoke"}).study("pk")["rounds"])}
    for row in verdicts["verdicts"]:
        for part in row["parts"]:
            if "b" in part:
                # A round whose statistic is not positive (an id field that adds ~0 bytes) is failed and named.
                assert set(part["failed_rounds"]) <= rounds, (row["claim"], part)
                assert part["pairing"] == "paired by round", (row["claim"], part)
                assert part["n"] == len(rounds) - len(part["failed_rounds"]), (row["claim"], part)


def test_question_ranks_the_default_too(verdicts):
    row = next(v for v in verdicts["verdicts"] if v["claim"] == "pk-7" and v["version"] == "10.6.0")
    ranked = [r["contender"] for r in row["answer"]["ranking"]]
    assert "default" in ranked and "GlobalPkMap" not in ranked and "default-aa" not in ranked
    best = max(row["answer"]["ranking"], key=lambda r: r["value"])
    assert row["answer"]["contender"] == best["contender"]


def _with(results, table, frame):
    return dataclasses.replace(results, **{table: frame})


def test_missing_contender_names_claim_and_version(results):
    lookups = results.lookups[~((results.lookups["version"] == "7.7.3") & (results.lookups["contender"] == "Memory"))]
    with pytest.raises(claims.MissingResultError, match=r"pk-1, version 7\.7\.3"):
        claims.evaluate(claims.load_registry(REGISTRY), _with(results, "lookups", lookups))


def _pk3_speed(results):
    registry = claims.load_registry(REGISTRY)
    registry = {**registry, "versions": ["9.12.3"], "claims": [c for c in registry["claims"] if c["id"] == "pk-3"]}
    row = claims.evaluate(registry, results)["verdicts"][0]
    return next(p for p in row["parts"] if p["quantity"] == "lookups_per_s")


def test_a_cell_is_unconverged_when_more_than_a_third_of_a_sides_forks_show_no_steady_state(results):
    converged = _with(results, "lookups", results.lookups.assign(stable=1))
    assert _pk3_speed(converged)["converged"] is True
    lookups = converged.lookups.copy()
    fst = (lookups["version"] == "9.12.3") & (lookups["contender"] == "FST50")
    forks = sorted(lookups.loc[fst, "round"].unique())
    few = forks[: len(forks) // 3]  # at most a third: carried by the interval
    lookups.loc[fst & lookups["round"].isin(few), "stable"] = 0
    one = _pk3_speed(_with(results, "lookups", lookups))
    assert one["converged"] is True and one["steadiness"]["unsteady"]["FST50"] == [len(few), len(forks)]
    lookups.loc[fst, "stable"] = 0
    part = _pk3_speed(_with(results, "lookups", lookups))
    # Withheld; as underpowered first where the scale runs fewer rounds than a verdict needs.
    assert part["converged"] is False and part["verdict"] in claims.WITHHELD
    assert part["steadiness"]["unsteady"]["FST50"] == [len(forks), len(forks)]
    n = len(forks)
    assert f"FST50: {n} of {n} forks show no steady state" in claims.withheld_reason({**part, "verdict": "unconverged"})
    row = {"claim": "pk-3", "version": "9.12.3", "verdict": part["verdict"], "parts": [part]}
    assert "(a series did not converge)" in paper.claim_rows({"verdicts": [row]})[0]["measured"]


def test_a_failed_round_is_named_beside_its_interval():
    part = {"label": "reopen", "quantity": "reopen_ms", "pairing": "paired by round", "value": 2.0, "low": 1.5,
            "high": 2.5, "n": 2, "failed_rounds": [1], "aa": None, "verdict": "underpowered"}
    row = {"claim": "x-1", "version": "10.6.0", "verdict": "underpowered", "parts": [part]}
    assert "2.00 [1.50, 2.50], n=2; no A/A (round 1 failed: nothing measured)" in paper.claim_rows(
        {"verdicts": [row]})[0]["measured"]


def _pk2_with_ram(results, per_round):
    """pk-2 on 4.10.4 judged on results whose Memory cell has ``per_round(round)`` RAM bytes/doc in each round,
    and that cell's rows."""
    registry = claims.load_registry(REGISTRY)
    registry = {**registry, "versions": ["4.10.4"], "claims": [c for c in registry["claims"] if c["id"] == "pk-2"]}
    footprint = results.footprint.copy()
    cell = dict(version="4.10.4", contender="Memory", corpus="seq", layout="multi")
    at = (footprint[list(cell)] == pd.Series(cell)).all(axis=1)
    footprint.loc[at, "ram_bytes_per_doc"] = [per_round(r) for r in footprint.loc[at, "round"]]
    part = claims.evaluate(registry, _with(results, "footprint", footprint))["verdicts"][0]["parts"][0]
    return part, select(footprint, **cell)


def test_a_positive_quantity_alone_is_averaged_geometrically(results):
    first = int(results.footprint["round"].min())
    # One round far off: a plain t interval reaches below 0.
    part, rows = _pk2_with_ram(results, lambda r: 700.0 if r == first else 7.0 + r)
    geometric = rounds.location(rows, "ram_bytes_per_doc", log=True)
    assert rounds.location(rows, "ram_bytes_per_doc").low < 0 < part["low"]
    assert (part["value"], part["low"], part["high"]) == pytest.approx((geometric.value, geometric.low, geometric.high))


def test_a_positive_quantity_alone_fails_a_round_that_measured_nothing_rather_than_stopping(results):
    first = int(results.footprint["round"].min())
    # A difference smaller than its noise came out below zero in one round.
    part, rows = _pk2_with_ram(results, lambda r: -15.6 if r == first else 7.0 + r)
    rest = rounds.location(rows[rows["round"] != first], "ram_bytes_per_doc", log=True)
    assert part["failed_rounds"] == [first] and part["n"] == rows["round"].nunique() - 1
    assert part["value"] == pytest.approx(rest.value)


def test_two_forks_of_one_side_in_a_round_is_an_error(results):
    lookups = results.lookups
    extra = lookups[(lookups["version"] == "9.12.3") & (lookups["contender"] == "FST50") & (lookups["round"] == 0)]
    doubled = pd.concat([lookups, extra.assign(fork="alone-FST50-again")], ignore_index=True)
    with pytest.raises(rounds.PairingError, match="round 0 holds 2 forks"):
        _pk3_speed(_with(results, "lookups", doubled))


def _cross_version_registry(b_version):
    registry = claims.load_registry(REGISTRY)
    seed = {"corpus": "seq", "layout": "multi", "miss_rate": 0.0, "threads": 1}
    part = {"label": "10.6.0 ÷ another release", "quantity": "lookups_per_s", "where": seed,
            "a": {"contender": "default"}, "b": {"contender": "default", "version": b_version},
            "expect": {"direction": "greater", "value": 0.0}, "versions": ["10.6.0"]}
    claim = {**registry["claims"][0], "id": "x-1", "parts": [part],
             "not_applicable": {v: "not judged here" for v in registry["versions"] if v != "10.6.0"}}
    return {**registry, "claims": [claim]}


def test_a_side_may_read_another_versions_results(results):
    registry = _cross_version_registry("9.12.3")
    row = next(v for v in claims.evaluate(registry, results)["verdicts"] if v["version"] == "10.6.0")
    part = row["parts"][0]
    assert (part["version_a"], part["version_b"]) == ("10.6.0", "9.12.3")
    lookups = results.lookups
    seed = dict(contender="default", corpus="seq", layout="multi", miss_rate=0.0, threads=1)
    expected = rounds.ratio(select(lookups, version="10.6.0", **seed), select(lookups, version="9.12.3", **seed),
                            "lookups_per_s")
    assert part["value"] == pytest.approx(expected.value)


def test_a_side_of_an_unknown_version_is_refused():
    with pytest.raises(claims.RegistryError, match="x-1.*unknown version: 1.2.3"):
        claims.validate(_cross_version_registry("1.2.3"))


def test_a_ratio_of_ratios_pairs_four_sides_by_round(results):
    registry = claims.load_registry(REGISTRY)
    where = {"layout": "multi", "miss_rate": 0.0, "threads": 1}
    part = {"label": "(FST50 / default, seq) / (FST50 / default, uuid)", "quantity": "lookups_per_s", "where": where,
            "a": {"contender": "FST50", "where": {"corpus": "seq"}},
            "b": {"contender": "default", "where": {"corpus": "seq"}},
            "c": {"contender": "FST50", "where": {"corpus": "uuid"}},
            "d": {"contender": "default", "where": {"corpus": "uuid"}},
            "expect": {"direction": "greater", "value": 0.0}, "versions": ["9.12.3"]}
    claim = {**registry["claims"][0], "id": "x-2", "parts": [part],
             "not_applicable": {v: "not judged here" for v in registry["versions"] if v != "9.12.3"}}
    verdicts = claims.evaluate({**registry, "claims": [claim]}, results)["verdicts"]
    row = next(v for v in verdicts if v["version"] == "9.12.3")
    got = row["parts"][0]
    lookups = select(results.lookups, version="9.12.3", **where)

    def means(contender, corpus):
        rows = select(lookups, contender=contender, corpus=corpus)
        return rows.groupby("round")["lookups_per_s"].mean()

    per_round = (means("FST50", "seq") / means("default", "seq")) / (means("FST50", "uuid") / means("default", "uuid"))
    assert got["value"] == pytest.approx(float(np.exp(np.log(per_round).mean())))
    assert (got["c"], got["d"]) == ("FST50", "default") and got["n"] == len(per_round)


def test_a_part_with_c_needs_d():
    registry = claims.load_registry(REGISTRY)
    part = registry["claims"][0]["parts"][0]
    broken = {**registry, "claims": [{**registry["claims"][0], "parts": [{**part, "c": {"contender": "default"}}]}]}
    with pytest.raises(claims.RegistryError, match="d"):
        claims.validate(broken)
