"""The verdict rules on results made to order: too few rounds, the A/A as a test for bias, unconverged series,
failed rounds. The study is pk (its quantities and A/A contender), and dvupdate where a part needs a rate
reached (pace); the results are synthetic."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from lrev import claims, stats
from lrev.pk import study

SEED = {"corpus": "seq", "layout": "multi", "miss_rate": 0.0, "threads": 1}


def _registry(direction="greater", value=1.5, band=None, tolerance=1.10):
    expect = {"direction": direction, "value": value, **({"band": band} if band else {})}
    part = {"label": "FST50 / default", "quantity": "lookups_per_s", "where": SEED, "a": {"contender": "FST50"},
            "b": {"contender": "default"}, "expect": expect, "versions": ["9.12.3"]}
    claim = {"id": "x-1", "seed": "s", "kind": "claim", "statement": "s", "quote": "q", "claimed": "c",
             "parts": [part], "not_applicable": {}}
    registry = {"study": "pk", "versions": ["9.12.3"], "aa_tolerance": tolerance, "claims": [claim]}
    claims.validate(registry)
    return registry


def _lookups(speeds: dict[str, list[float]], stable: dict[str, list[int]] | None = None,
             wander: float = 0.7) -> SimpleNamespace:
    """One fork per contender and round, three iterations each at the given per-round speed; a fork marked
    unstable wanders ``wander`` of it either way over its iterations (mean unchanged)."""
    rows = []
    for contender, per_round in speeds.items():
        for r, speed in enumerate(per_round):
            ok = (stable or {}).get(contender, [1] * len(per_round))[r]
            for i in range(3):
                rows.append({"version": "9.12.3", "contender": contender, "round": r, "fork": f"alone-{contender}",
                             **SEED, "iteration": i, "lookups_per_s": speed * (1 + (1 - ok) * wander * (i - 1)),
                             "stable": ok})
    return SimpleNamespace(lookups=pd.DataFrame(rows))


def _row(registry, results) -> dict:
    return claims.evaluate(registry, results)["verdicts"][0]


BASE = [100.0, 104.0, 98.0, 101.0, 99.0]
QUIET_AA = [100.5, 103.5, 98.4, 101.3, 98.6]


def test_two_rounds_are_underpowered_and_say_which_way_they_lean():
    results = _lookups({"FST50": [300.0, 310.0], "default": BASE[:2], study.AA: QUIET_AA[:2]})
    row = _row(_registry(), results)
    assert row["verdict"] == "underpowered" and row["leaning"] in {"holds", "inconclusive"}
    assert row["parts"][0]["n"] == 2


def test_a_quiet_aa_shows_no_bias_and_the_ratio_is_judged():
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA})
    part = _row(_registry(), results)["parts"][0]
    assert part["aa"]["biased"] is False and part["aa"]["n"] == 5
    assert part["verdict"] == "holds" and part["leaning"] is None


def test_the_aa_widens_no_threshold():
    # FST50 is 1.52x default, tightly: its interval clears the bare threshold of 1.5, which is all a verdict needs.
    # (Widened by the A/A interval's farther bound, as the A/A gate once did, it would be inconclusive.)
    aa = [102.0, 101.0, 96.0, 104.0, 99.0]  # within 3% of the baseline round by round
    results = _lookups({"FST50": [152.0, 158.1, 148.9, 153.5, 150.5], "default": BASE, study.AA: aa})
    part = _row(_registry(), results)["parts"][0]
    assert part["aa"]["biased"] is False
    assert 1.5 < part["low"] < 1.5 * stats.noise_floor(part["aa"]["low"], part["aa"]["high"])
    assert part["verdict"] == "holds" and "noise_band" not in part


def test_a_wide_aa_centred_on_one_is_no_bias():
    # Two JVMs of one contender that differ a lot from round to round, but neither way on the whole: the A/A's
    # interval is wide and holds 1, and the claim's own interval, also over rounds, carries that spread.
    noisy = [130.0, 80.0, 125.0, 70.0, 135.0]
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: noisy})
    part = _row(_registry(), results)["parts"][0]
    assert part["aa"]["low"] < 1 < part["aa"]["high"] and part["aa"]["high"] > 1.10
    assert part["aa"]["biased"] is False and part["verdict"] == "holds"


@pytest.mark.parametrize("factor, spread, biased", [
    (1.25, 0.01, True),    # beyond x1.10, and the interval excludes 1: a bias
    (1 / 1.25, 0.01, True),  # either way
    (1.05, 0.01, False),   # the interval excludes 1, but the bias is within the tolerance
    (1.25, 0.30, False),   # beyond the tolerance, but the interval holds 1: chance can explain it
])
def test_a_ratio_is_withheld_as_biased_only_when_its_aa_excludes_one_beyond_the_tolerance(factor, spread, biased):
    wobble = [1 + spread, 1 - spread, 1 + spread / 2, 1 - spread / 2, 1.0]
    aa = [b * factor * w for b, w in zip(BASE, wobble)]
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: aa})
    row = _row(_registry(), results)
    part = row["parts"][0]
    assert part["aa"]["biased"] is biased
    assert (part["aa"]["low"] > 1 or part["aa"]["high"] < 1) is (spread < 0.1)
    assert row["verdict"] == ("biased" if biased else "holds")
    assert row.get("leaning") == ("holds" if biased else None)


def test_biased_is_the_rule_on_the_estimate_and_its_interval():
    tol = 1.10
    assert claims.biased(stats.Estimate(1.2, 1.15, 1.25, 3), tol)
    assert claims.biased(stats.Estimate(0.8, 0.75, 0.85, 3), tol)
    assert not claims.biased(stats.Estimate(1.2, 0.9, 1.6, 3), tol)
    assert not claims.biased(stats.Estimate(1.08, 1.05, 1.11, 3), tol)
    assert not claims.biased(stats.Estimate(1.2, math.nan, math.nan, 1), tol)


def test_a_study_with_an_aa_per_family_withholds_a_ratio_biased_on_either_side(monkeypatch):
    # FST50's own A/A is quiet; default's twin runs 25% fast every round: FST50 / default carries that bias.
    families = {"FST50": ("FST50-aa", "FST50"), "default": (study.AA, "default")}
    monkeypatch.setattr(study, "aa_of", lambda c: families[c.removesuffix("-aa")] if c != "FST50-aa"
                        else families["FST50"], raising=False)
    fst = [300.0, 310.0, 290.0, 305.0, 295.0]
    quiet_fst = [301.5, 308.0, 291.0, 306.5, 294.0]
    fast_twin = [b * 1.25 for b in BASE]
    part = _row(_registry(), _lookups({"FST50": fst, "default": BASE, "FST50-aa": quiet_fst,
                                       study.AA: fast_twin}))["parts"][0]
    assert (part["aa"]["a"], part["aa"]["b"], part["aa"]["biased"]) == (study.AA, "default", True)
    assert part["verdict"] == "biased"
    part = _row(_registry(), _lookups({"FST50": fst, "default": BASE, "FST50-aa": quiet_fst,
                                       study.AA: QUIET_AA}))["parts"][0]
    assert part["aa"]["biased"] is False and part["verdict"] == "holds"
    # With no bias, the A/A shown is the one farther from 1.
    farther = max((quiet_fst, fst), (QUIET_AA, BASE),
                  key=lambda ab: abs(np.mean([math.log(x / y) for x, y in zip(*ab)])))
    assert part["aa"]["a"] == ("FST50-aa" if farther[0] is quiet_fst else study.AA)


@pytest.mark.parametrize("empty", ["FST50-aa", study.AA])
def test_an_aa_that_measured_nothing_tests_nothing_and_withholds_nothing(monkeypatch, empty):
    families = {"FST50": ("FST50-aa", "FST50"), "default": (study.AA, "default")}
    monkeypatch.setattr(study, "aa_of", lambda c: families[c.removesuffix("-aa")] if c != "FST50-aa"
                        else families["FST50"], raising=False)
    fst = [300.0, 310.0, 290.0, 305.0, 295.0]
    aas = {"FST50-aa": [301.5, 308.0, 291.0, 306.5, 294.0], study.AA: QUIET_AA, empty: [0.0] * 5}
    part = _row(_registry(), _lookups({"FST50": fst, "default": BASE, **aas}))["parts"][0]
    assert part["aa"]["biased"] is False and part["verdict"] == "holds"


def test_no_aa_beside_a_ratio_is_said_and_the_threshold_judges():
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE})
    part = _row(_registry(), results)["parts"][0]
    assert part["aa"] is None and part["verdict"] == "holds"


def test_an_unconverged_series_shows_the_verdict_its_interval_would_give():
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA},
                       stable={"FST50": [1, 0, 0, 1, 1]})
    row = _row(_registry(), results)
    assert row["verdict"] == "unconverged" and row["leaning"] == "holds"
    assert row["parts"][0]["converged"] is False


def test_unsteady_forks_that_could_not_have_produced_the_verdict_withhold_nothing():
    # Two of five FST50 forks never settled, but they wandered only 5% either way: read at the least or the most of
    # their series, in every combination, FST50 still clears 1.5x default.
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA},
                       stable={"FST50": [1, 0, 0, 1, 1]}, wander=0.05)
    part = _row(_registry(), results)["parts"][0]
    assert part["verdict"] == "holds" and part["converged"] is False and part["steadiness"]["bracketed"] is True
    assert part["steadiness"]["unsteady"]["FST50"] == [2, 5]


def test_one_unsteady_fork_of_five_is_carried_by_the_interval_and_withholds_nothing():
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA},
                       stable={"FST50": [1, 0, 1, 1, 1]})
    part = _row(_registry(), results)["parts"][0]
    assert part["verdict"] == "holds" and part["steadiness"]["unsteady"]["FST50"] == [1, 5]


def test_an_aa_whose_forks_never_settled_withholds_nothing_its_sides_settled_for():
    # Three of five A/A forks show no steady state and wander far; FST50 and default settled. The A/A tests for bias
    # only, so the ratio is judged, and the A/A's count is shown beside it.
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA},
                       stable={study.AA: [0, 1, 0, 1, 0]})
    part = _row(_registry(), results)["parts"][0]
    assert part["verdict"] == "holds" and part["converged"] is True
    assert part["steadiness"]["unsteady"][study.AA] == [3, 5]
    # A compared side that never settled still withholds.
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA},
                       stable={study.AA: [0, 1, 0, 1, 0], "default": [0, 0, 1, 1, 1]})
    assert _row(_registry(), results)["verdict"] == "unconverged"


def test_an_unsettled_aa_beside_an_unsettled_side_is_bracketed_too():
    # default and the A/A both have unsettled forks. Wandering 5%: however each is read, FST50 clears 1.5x default and
    # the A/A shows no bias, so the verdict stands (bracketed).
    speeds = {"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA}
    unsettled = {study.AA: [0, 1, 0, 1, 0], "default": [0, 0, 1, 1, 1]}
    part = _row(_registry(), _lookups(speeds, stable=unsettled, wander=0.05))["parts"][0]
    assert part["verdict"] == "holds" and part["steadiness"]["bracketed"] is True
    assert part["steadiness"]["unsteady"][study.AA] == [3, 5]
    # Wandering 70%, some reading of the A/A's forks is biased. At 3x default, a bias that large could have produced
    # the verdict (the case above: unconverged); at 30x, none could, and it stands.
    far = {**speeds, "FST50": [10 * x for x in speeds["FST50"]]}
    part = _row(_registry(), _lookups(far, stable=unsettled, wander=0.7))["parts"][0]
    assert part["verdict"] == "holds" and part["steadiness"]["bracketed"] is True


def test_a_cell_whose_every_fork_lacks_a_steady_state_is_unconverged_with_the_count():
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA},
                       stable={"FST50": [0] * 5})
    row = _row(_registry(), results)
    assert row["verdict"] == "unconverged" and "FST50: 5 of 5 forks show no steady state" in row["reason"]


def test_a_round_that_measured_nothing_is_failed_not_an_infinite_bound():
    # Round 2 of FST50 did nothing (a reopen interval without updates, say): zero, whose log is -inf.
    results = _lookups({"FST50": [300.0, 310.0, 0.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA})
    part = _row(_registry(), results)["parts"][0]
    assert part["failed_rounds"] == [2] and part["n"] == 4
    assert all(math.isfinite(part[k]) and part[k] > 0 for k in ("value", "low", "high"))


def test_a_round_in_which_one_side_has_no_samples_is_failed_in_the_ratio_and_its_aa():
    # The A/A fork of round 0 measured no sample at all (a reindexing fork that fell so far behind that no reopen of
    # the cell came): its round is failed in the A/A, as a round that measured zero is, not a pairing error.
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA})
    lookups = results.lookups
    results.lookups = lookups[~((lookups["contender"] == study.AA) & (lookups["round"] == 0))]
    part = _row(_registry(), results)["parts"][0]
    assert part["aa"]["n"] == 4 and part["n"] == 5 and part["failed_rounds"] == []


def test_approx_holds_only_inside_the_band():
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA})
    assert _row(_registry("approx", 3.0, [2.4, 3.6]), results)["verdict"] == "holds"
    # The interval (about [2.96, 3.02]) reaches below 3.0.
    assert _row(_registry("approx", 3.0, [3.0, 3.6]), results)["verdict"] == "inconclusive"
    assert _row(_registry("approx", 2.0, [1.5, 2.5]), results)["verdict"] == "fails"


@pytest.mark.parametrize("low, high, expected", [
    (1.2, 1.5, "holds"), (0.9, 1.5, "inconclusive"), (0.85, 0.95, "fails"), (0.85, 1.0, "fails"),
])
def test_judge_takes_the_threshold_as_it_is(low, high, expected):
    assert claims.judge(stats.Estimate(math.sqrt(low * high), low, high, 5), "greater", 1.0, None) == expected


def test_withheld_verdicts_take_their_order_and_parts_combine():
    assert claims.withhold("holds", 2, False, False) == "underpowered"
    assert claims.withhold("holds", 3, True, False) == "biased"
    assert claims.withhold("fails", 3, False, False) == "unconverged"
    assert claims.withhold("fails", 3, False, True) == "fails"
    assert claims.combine(["holds", "unconverged", "biased"]) == "biased"
    assert claims.combine(["fails", "underpowered"]) == "fails"
    assert claims.combine(["holds", "inconclusive"]) == "inconclusive"


def test_a_registry_without_its_aa_tolerance_is_refused():
    registry = _registry()
    del registry["aa_tolerance"]
    with pytest.raises(claims.RegistryError, match="aa_tolerance"):
        claims.validate(registry)


def test_the_aa_reports_the_spread_of_one_jvm():
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA})
    aa = _row(_registry(), results)["parts"][0]["aa"]
    logs = np.log(np.array(QUIET_AA) / np.array(BASE))
    assert aa["jvm_sd"] == pytest.approx(np.std(logs, ddof=1) / np.sqrt(2))


def _ratio_question():
    registry = _registry()
    part = registry["claims"][0]["parts"][0]
    del part["expect"]
    part["answer"] = "ratio"
    registry["claims"][0]["kind"] = "question"
    claims.validate(registry)
    return registry


def test_a_ratio_answer_gives_a_over_b_with_its_interval_and_no_threshold():
    registry = _ratio_question()
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA})
    row = _row(registry, results)
    expected = math.exp(np.mean(np.log(np.array([300.0, 310.0, 290.0, 305.0, 295.0]) / np.array(BASE))))
    assert row["verdict"] == "answer" and row["parts"][0]["verdict"] == "answer"
    ratio = row["answer"]["ratio"]
    assert ratio["value"] == pytest.approx(expected) and ratio["low"] < expected < ratio["high"] and ratio["n"] == 5


def test_an_answer_from_two_rounds_is_underpowered_and_keeps_its_ratio():
    results = _lookups({"FST50": [300.0, 310.0], "default": BASE[:2], study.AA: QUIET_AA[:2]})
    row = _row(_ratio_question(), results)
    assert row["verdict"] == "underpowered" and row["parts"][0]["verdict"] == "underpowered"
    assert row["answer"]["ratio"]["n"] == 2 and row["answer"]["ratio"]["value"] > 2


def test_an_answer_from_an_unconverged_series_is_withheld():
    results = _lookups({"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": BASE, study.AA: QUIET_AA},
                       stable={"FST50": [1, 0, 0, 1, 1]})
    row = _row(_ratio_question(), results)
    assert row["verdict"] == "unconverged" and "ratio" in row["answer"]


def test_a_ratio_answer_without_a_is_refused():
    registry = _registry()
    part = registry["claims"][0]["parts"][0]
    del part["expect"], part["a"]
    part["answer"] = "ratio"
    registry["claims"][0]["kind"] = "question"
    with pytest.raises(claims.RegistryError, match="x-1, part 'FST50 / default': a ratio answer needs a"):
        claims.validate(registry)


def test_a_saving_versus_the_sum_of_parts_pairs_every_condition_by_round():
    # a's statistic minus b's (what b saves, for a latency) on the seed's condition and on two miss rates "run
    # alone": the whole 6 and 8 per round, the parts 1 + 2 and 2 + 2, ratios 2 and 2.
    registry = _registry(value=1.0)
    part = registry["claims"][0]["parts"][0]
    part["versus_sum"] = [{"miss_rate": 0.1}, {"miss_rate": 0.5}]
    claims.validate(registry)
    rows = []
    speeds = {("FST50", 0.0): [16, 18], ("default", 0.0): [10, 10], ("FST50", 0.1): [11, 12],
              ("default", 0.1): [10, 10], ("FST50", 0.5): [12, 12], ("default", 0.5): [10, 10]}
    for (contender, miss), per_round in speeds.items():
        for r, speed in enumerate(per_round):
            rows.append({"version": "9.12.3", "contender": contender, "round": r, "fork": f"{contender}-{r}",
                         **{**SEED, "miss_rate": miss}, "iteration": 0, "lookups_per_s": float(speed), "stable": 1})
    got = _row(registry, SimpleNamespace(lookups=pd.DataFrame(rows)))["parts"][0]
    assert got["failed_rounds"] == [] and got["n"] == 2 and got["value"] == pytest.approx(2.0)
    assert got["versus_sum"] == [{"miss_rate": 0.1}, {"miss_rate": 0.5}]
    # The other way round every saving is negative: no round has a ratio, and none is judged.
    part["a"], part["b"] = part["b"], part["a"]
    row = _row(registry, SimpleNamespace(lookups=pd.DataFrame(rows)))
    assert row["parts"][0]["failed_rounds"] == [0, 1] and row["parts"][0]["n"] == 0
    assert row["verdict"] == "underpowered"


def test_versus_sum_needs_b_and_names_a_bad_condition():
    registry = _registry()
    part = registry["claims"][0]["parts"][0]
    part["versus_sum"] = [{"workload": "facet"}]
    with pytest.raises(claims.RegistryError, match="x-1.*versus_sum sets workload"):
        _row(registry, _lookups({"FST50": BASE, "default": BASE}))
    del part["b"]
    with pytest.raises(claims.RegistryError, match="b"):
        claims.validate(registry)


def _paced_results(reached: dict[str, float]) -> SimpleNamespace:
    """dvupdate-style reopens: each method's reopen time over five rounds, at 1000 docs/s asked and the given
    share of it reached, 1% less each round (two reopens per fork, 1% either side of it)."""
    cell = {"role": "big", "rate_role": "high", "interval_role": "long"}
    ms = {"numeric": [10.0, 11.0, 10.5, 9.5, 10.2], "reindex": [20.0, 21.0, 19.0, 20.5, 20.2]}
    rows = [{"version": "10.6.0", "contender": c, "round": r, "fork": f"{c}-{r}", **cell, "reopen_ms": v,
             "stable": 1, "rate": 1000.0, "achieved_per_s": 1000.0 * reached[c] * (1 - 0.01 * r) * (1 + 0.01 * i)}
            for c, values in ms.items() for r, v in enumerate(values) for i in (-1, 1)]
    return SimpleNamespace(reopens=pd.DataFrame(rows))


def _paced_registry(pace: float | None, lag: str = "understates", direction: str = "less") -> dict:
    part = {"label": "reopen, numeric / reindex", "quantity": "reopen_ms",
            "where": {"role": "big", "rate_role": "high", "interval_role": "long"}, "a": {"contender": "numeric"},
            "b": {"contender": "reindex"}, "expect": {"direction": direction, "value": 1.0}, "versions": ["10.6.0"],
            **({"pace": pace} if pace else {})}
    return _one_part_registry("dvupdate", part, {"reopen_ms": lag})


def _one_part_registry(study: str, part: dict, lag: dict | None = None) -> dict:
    """A validated registry of ``study`` with one claim of one part, on 10.6.0."""
    claim = {"id": "x-2", "seed": "s", "kind": "claim", "statement": "s", "quote": "q", "claimed": "c",
             "parts": [part], "not_applicable": {}}
    registry = {"study": study, "versions": ["10.6.0"], "aa_tolerance": 1.10, "claims": [claim],
                **({"lag": lag} if lag else {})}
    claims.validate(registry)
    return registry


def test_a_verdict_the_lag_can_only_have_weakened_is_kept():
    # Reindexing reached 30% of its rate: its reopens applied fewer updates, so its reopen time is understated and
    # numeric / reindex overstated. That numeric / reindex is below 1 is then only the more true.
    behind = _paced_results({"numeric": 1.0, "reindex": 0.3})
    row = _row(_paced_registry(0.9), behind)
    part = row["parts"][0]
    assert row["verdict"] == "holds" and row.get("leaning") is None
    assert part["pace"]["slowest"] == "reindex" and part["pace"]["lowest"] == pytest.approx(0.3 * 0.96)
    assert (part["pace"]["reached"], part["pace"]["moves"], part["pace"]["kept"]) == (False, "up", True)


@pytest.mark.parametrize("reached, lag, direction", [
    ({"numeric": 0.3, "reindex": 1.0}, "understates", "less"),   # numeric's cost understated: "less" may be the lag's
    ({"numeric": 1.0, "reindex": 0.3}, "overstates", "less"),    # reindex's overstated, numeric / reindex too low
    ({"numeric": 1.0, "reindex": 0.3}, "either", "less"),
    ({"numeric": 0.3, "reindex": 0.3}, "understates", "less"),   # both lag: the ratio moves either way
])
def test_a_verdict_the_lag_could_have_produced_is_withheld_as_fell_behind(reached, lag, direction):
    row = _row(_paced_registry(0.9, lag, direction), _paced_results(reached))
    assert row["verdict"] == "fell-behind" and row["leaning"] == "holds"
    assert row["parts"][0]["pace"]["kept"] is False


def test_pace_judges_as_without_it_when_every_side_kept_its_rate():
    assert _row(_paced_registry(0.9), _paced_results({"numeric": 1.0, "reindex": 0.95}))["verdict"] == "holds"
    assert _row(_paced_registry(None), _paced_results({"numeric": 0.3, "reindex": 0.3}))["verdict"] == "holds"


def test_an_inconclusive_interval_stays_inconclusive_whatever_the_lag():
    # numeric / reindex is about 0.5: against 0.5 its interval straddles, and the lag decides nothing.
    registry = _paced_registry(0.9)
    registry["claims"][0]["parts"][0]["expect"]["value"] = 0.5
    row = _row(registry, _paced_results({"numeric": 0.3, "reindex": 1.0}))
    assert row["verdict"] == "inconclusive" and row["parts"][0]["pace"]["kept"] is True


PROPORTIONAL = {"moves": "understates", "bound": "proportional", "why": "a fixed part plus a part per update"}


@pytest.mark.parametrize("share, claimed, verdict", [
    # numeric lags at 85% and understates its cost, so numeric / reindex (about 0.5) may be low by up to 1/0.85.
    (0.85, 1.0, "holds"),         # 0.5 [.., high] / 0.85 still below 1: the lag cannot have made it hold
    (0.85, 0.6, "fell-behind"),   # below 0.6 as measured, not once widened by 1/0.85
    (0.3, 1.0, "fell-behind"),    # at 30% of its rate the bound is 3.3x: it could have
])
def test_a_lag_bounded_in_proportion_withholds_only_what_it_could_move_across_the_threshold(share, claimed, verdict):
    registry = _paced_registry(0.9, PROPORTIONAL)
    registry["claims"][0]["parts"][0]["expect"]["value"] = claimed
    row = _row(registry, _paced_results({"numeric": share, "reindex": 1.0}))
    part = row["parts"][0]
    assert row["verdict"] == verdict and part["leaning" if verdict != "holds" else "verdict"] == "holds"
    lowest = part["pace"]["lowest"]
    assert lowest < share and part["pace"]["bounded"] == {"bound": "proportional", "low": pytest.approx(part["low"]),
                                                         "high": pytest.approx(part["high"] / lowest)}


def test_a_lag_bound_moves_each_end_by_its_side():
    def ends(word, shares):
        bounded = claims.lag_bounds(stats.Estimate(1.0, 0.8, 1.25, 3), word, shares)
        return pytest.approx((bounded.low, bounded.high))
    # a understated: the ratio's top may be higher; b understated: its bottom may be lower. Overstated: the mirror.
    assert ends("understates", [0.5, 1.0]) == (0.8, 2.5)
    assert ends("understates", [1.0, 0.5]) == (0.4, 1.25)
    assert ends("overstates", [0.5, 0.8]) == (0.4, 1.5625)
    assert ends("understates", [0.5]) == (0.8, 2.5)
    assert ends("understates", [0.0, 0.0]) == (0.0, math.inf)


def test_a_lag_bounded_in_proportion_that_moves_either_way_is_a_registry_error_naming_the_claim():
    with pytest.raises(claims.RegistryError, match="x-2.*bounded in proportion.*not either"):
        _paced_registry(0.9, {**PROPORTIONAL, "moves": "either"})


def test_a_pace_without_a_stated_lag_direction_is_a_registry_error_naming_the_claim():
    with pytest.raises(claims.RegistryError, match="x-2.*lag does not state it"):
        _one_part_registry("dvupdate", _paced_registry(0.9)["claims"][0]["parts"][0])


@pytest.mark.parametrize("lag, lagging, plain, moves", [
    ("understates", [], True, None), ("understates", [0], True, "down"), ("understates", [1], True, "up"),
    ("overstates", [1], True, "down"), ("understates", [0, 1], True, "either"), ("either", [0], True, "either"),
    ("understates", [1], False, "either"), ("understates", [0], False, "down"),
])
def test_which_way_a_lag_moves_a_value(lag, lagging, plain, moves):
    assert claims.lag_moves(lag, lagging, plain) == moves


def test_pace_on_a_study_that_records_no_rate_is_refused():
    registry = {**_registry(), "lag": {"lookups_per_s": "understates"}}
    registry["claims"][0]["parts"][0]["pace"] = 0.9
    with pytest.raises(claims.RegistryError, match="x-1.*pace needs a study that records the rate"):
        _row(registry, _lookups({"FST50": BASE, "default": BASE}))


def _cold(hot: list[float], ceiling: list[float]) -> SimpleNamespace:
    """join-style cold runs of the term-scan join: a round each, with the terms and postings share resident
    afterwards and the ceiling that share had once the index was opened."""
    rows = [{"version": "10.6.0", "contender": "scan", "round": r, "fork": f"scan-{r}", "directory": "mmap",
             "workers": 4, "hot_share": h, "hot_share_ceiling": c} for r, (h, c) in enumerate(zip(hot, ceiling))]
    return SimpleNamespace(cold=pd.DataFrame(rows))


def _scaled_registry(needs: dict | None) -> dict:
    part = {"label": "hot share", "quantity": "hot_share", "where": {"directory": "mmap", "workers": 4},
            "a": {"contender": "scan"}, "expect": {"direction": "greater", "value": 0.9}, "versions": ["10.6.0"],
            **({"needs": needs} if needs else {})}
    return _one_part_registry("join", part)


CEILING = {"quantity": "hot_share_ceiling", "at_least": 0.9, "why": "the index is too small",
           "unladderable": "residency is a step function of the index against the read-ahead"}


def test_a_part_that_needs_a_size_says_how_it_is_judged_there():
    # Neither a ladder nor a reason why none reaches the mechanism: a registry error naming the claim and part.
    bare = {k: v for k, v in CEILING.items() if k != "unladderable"}
    with pytest.raises(claims.RegistryError, match="part 'hot share': a part that needs a size is fitted on a size "
                                                   "ladder .grows. or says why no ladder reaches it"):
        _scaled_registry(bare)


def test_a_run_below_the_size_its_mechanism_needs_is_untestable_not_failed():
    small = _cold([0.72, 0.73, 0.72], [0.73, 0.73, 0.74])
    row = _row(_scaled_registry(CEILING), small)
    part = row["parts"][0]
    assert row["verdict"] == "untestable" and row["leaning"] == "fails"
    assert part["scale"] == {**CEILING, "lowest": pytest.approx(0.73), "kept": False}
    # Without needs the same run fails; with the size met, the interval decides.
    assert _row(_scaled_registry(None), small)["verdict"] == "fails"
    assert _row(_scaled_registry(CEILING), _cold([0.95, 0.96, 0.95], [0.97, 0.97, 0.98]))["verdict"] == "holds"
    # One fork below the size is enough to withhold the verdict.
    assert _row(_scaled_registry(CEILING), _cold([0.95, 0.96, 0.95], [0.97, 0.85, 0.98]))["verdict"] == "untestable"


def test_a_size_that_is_not_a_quantity_of_the_parts_condition_is_refused():
    results = _cold([0.95, 0.96, 0.95], [0.97, 0.97, 0.98])
    with pytest.raises(claims.RegistryError, match="needs.quantity 'saturation_rps'"):
        _row(_scaled_registry({**CEILING, "quantity": "saturation_rps"}), results)
    with pytest.raises(claims.RegistryError, match="why"):
        _scaled_registry({"quantity": "hot_share_ceiling", "at_least": 0.9})
    # Results from before the size was recorded say which column is missing.
    old = SimpleNamespace(cold=results.cold.drop(columns="hot_share_ceiling"))
    with pytest.raises(claims.MissingResultError, match="no hot_share_ceiling in the cold results"):
        _row(_scaled_registry(CEILING), old)


def test_a_round_the_budget_ran_for_other_contenders_is_no_failed_round_of_this_part():
    # Round 5 ran only Memory, default and the A/A (another cell was undecided); FST50 / default reads rounds 0-4, and
    # names no failed round. Read with the budget's record in the manifest missing, that round would be failed.
    speeds = {"FST50": [300.0, 310.0, 290.0, 305.0, 295.0], "default": [*BASE, 100.0], study.AA: [*QUIET_AA, 100.2],
              "Memory": [200.0, 190.0, 210.0, 205.0, 195.0, 201.0]}
    rows = _lookups(speeds).lookups
    partial = {"9.12.3": {"parameters": {"budget_contenders": {"5": ["Memory", "default", study.AA]}}}}
    part = _row(_registry(), SimpleNamespace(lookups=rows, manifests=partial))["parts"][0]
    assert part["n"] == 5 and part["failed_rounds"] == [] and part["verdict"] == "holds"
    assert _row(_registry(), SimpleNamespace(lookups=rows))["parts"][0]["failed_rounds"] == [5]
    # A part whose every contender ran in that round reads it.
    registry = _registry()
    registry["claims"][0]["parts"][0]["a"] = {"contender": "Memory"}
    assert _row(registry, SimpleNamespace(lookups=rows, manifests=partial))["parts"][0]["n"] == 6


def test_a_cell_the_budget_gave_no_round_is_judged_at_its_one_look():
    # A budget that may look twice reads each cell at 97.5% (at_look: whether it goes on); a cell that got no round was
    # looked at once, and its verdict is drawn at 95%. FST50 ÷ default clears 1.5 at 95% and not at 97.5%.
    fst50 = [153.0 + d for d in (8.0, 12.0, -4.0, 4.0, -2.0)]
    results = SimpleNamespace(lookups=_lookups({"FST50": fst50, "default": BASE, study.AA: QUIET_AA}).lookups,
                              manifests={})
    row = claims.evaluate(_registry(), results, looks=2)["verdicts"][0]
    assert (row["verdict"], row["at_look"]) == ("holds", "inconclusive")
    assert (row["parts"][0]["looked"], row["parts"][0]["confidence"]) == (1, pytest.approx(0.95))
    # Read with a round the budget added for its contenders, the same cell is at its second look: 97.5%.
    speeds = {"FST50": [*fst50, 157.0], "default": [*BASE, 100.0], study.AA: [*QUIET_AA, 100.2]}
    added = {"9.12.3": {"parameters": {"budget_contenders": {"5": ["FST50", "default", study.AA]}}}}
    part = claims.evaluate(_registry(), SimpleNamespace(lookups=_lookups(speeds).lookups, manifests=added),
                           looks=2)["verdicts"][0]["parts"][0]
    assert (part["n"], part["looked"], part["confidence"]) == (6, 2, pytest.approx(0.975))
    # Without a budget there is one look, and no at_look.
    assert "at_look" not in claims.evaluate(_registry(), results)["verdicts"][0]
