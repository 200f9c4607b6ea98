"""A claim part with ``grows`` is judged a second time at the seed's size, from per-round lines through a size
ladder; the results are synthetic, the study pk's with a per-fork size column added."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml

from conftest import assert_legible
from lrev import claims, growth, growth_figures, stats
from lrev.io import write_json
from lrev.pk import study
from lrev.studies import Quantity

RUNGS = {"small": 1e5, "medium": 3e5, "large": 1e6}
WHERE = {"corpus": "large", "layout": "multi", "miss_rate": 0.0, "threads": 1}
SEED_DOCS = 3e7


@pytest.fixture(autouse=True)
def sized_pk(monkeypatch):
    """pk with a ``docs`` quantity on its lookups table."""
    sized = SimpleNamespace(BASELINE=study.BASELINE, AA=study.AA, PACE=None,
                            QUANTITIES={**study.QUANTITIES, "docs": Quantity("lookups", "docs", study.CONDITION)})
    monkeypatch.setattr(claims.studies, "get", lambda name: sized)


def registry(grows: dict | None = None, value: float = 1.5) -> dict:
    part = {"label": "FST50 / default", "quantity": "lookups_per_s", "where": WHERE, "a": {"contender": "FST50"},
            "b": {"contender": "default"}, "expect": {"direction": "greater", "value": value},
            "grows": grows or {"over": "corpus", "size": "docs", "at": SEED_DOCS, "why": "the seed's 30M docs"},
            "versions": ["9.12.3"]}
    claim = {"id": "x-3", "seed": "s", "kind": "claim", "statement": "s", "quote": "q", "claimed": "c",
             "parts": [part], "not_applicable": {}}
    out = {"study": "pk", "versions": ["9.12.3"], "aa_tolerance": 1.10, "claims": [claim]}
    claims.validate(out)
    return out


def lookups(ratio, rungs=RUNGS, rounds=5, seed=5189, base=lambda docs: 100.0) -> SimpleNamespace:
    """Per round and rung: default at ``base(docs)`` lookups/s (100), its A/A beside it, and FST50 at
    ``ratio(docs)`` times it; each fork off by 3% lognormal noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for corpus, docs in rungs.items():
        for r in range(rounds):
            for contender, speed in (("default", base(docs)), (study.AA, base(docs)),
                                     ("FST50", base(docs) * ratio(docs))):
                rows.append({"version": "9.12.3", "contender": contender, "round": r, "fork": f"{contender}-{r}",
                             **WHERE, "corpus": corpus, "iteration": 0, "docs": docs, "stable": 1,
                             "lookups_per_s": speed * math.exp(rng.normal(0, 0.03))})
    return SimpleNamespace(lookups=pd.DataFrame(rows))


def verdict(reg, results) -> dict:
    return claims.evaluate(reg, results)["verdicts"][0]


def test_a_ratio_that_grows_past_its_threshold_holds_at_the_seed_size_and_is_marked_extrapolated():
    """1.2 × (docs / 1e5) ^ 0.1: 1.51 at 1M docs, which the interval cannot clear by the A/A's band, and 2.13 at
    the seed's 30M."""
    row = verdict(registry(), lookups(lambda d: 1.2 * (d / 1e5) ** 0.1))
    grown = row["parts"][0]["extrapolated"]
    assert row["parts"][0]["verdict"] != "holds"
    assert grown["verdict"] == "holds" and grown["beyond_ladder"] is True and grown["describes"] is True
    assert grown["prediction"]["value"] == pytest.approx(1.2 * 300 ** 0.1, rel=0.1)
    assert [p["size"] for p in grown["points"]] == sorted(RUNGS.values())
    assert row["extrapolated"] == {"verdict": "holds", "reason": None, "checked": True}


def test_a_budget_reads_an_untestable_cells_extrapolation_at_its_look():
    """Where a budget may look again, a row records its extrapolation's verdict at the sequential confidence too
    (lrev/budget.py gives a cell untestable at the run's size rounds while that is open); without a budget, nothing."""
    results = lookups(lambda d: 1.2 * (d / 1e5) ** 0.1)
    row = claims.evaluate(registry(), results, looks=3)["verdicts"][0]
    assert row["at_look_extrapolated"] in claims.VERDICTS
    assert "at_look_extrapolated" not in verdict(registry(), results)


def test_a_ratio_that_stays_below_its_threshold_fails_at_the_seed_size():
    row = verdict(registry(value=3.0), lookups(lambda d: 1.2 * (d / 1e5) ** 0.1))
    assert row["parts"][0]["extrapolated"]["verdict"] == "fails"


def test_one_size_gives_no_extrapolated_verdict_and_says_so():
    row = verdict(registry(), lookups(lambda d: 2.0, rungs={"large": 1e6}))
    grown = row["parts"][0]["extrapolated"]
    assert grown["verdict"] is None and grown["reason"].startswith("one size measured")
    assert row["extrapolated"]["verdict"] is None


def test_a_ladder_that_bends_gives_no_extrapolated_verdict():
    """Flat to 300K docs, then 2.5× at 1M: no line describes that, and the curvature interval says so."""
    rungs = {"small": 1e5, "medium": 3e5, "large": 1e6}
    row = verdict(registry(), lookups(lambda d: 1.0 if d <= 3e5 else 2.5, rungs=rungs))
    grown = row["parts"][0]["extrapolated"]
    assert grown["describes"] is False and grown["verdict"] is None and "bend" in grown["reason"]


def two_parts(fst_value: float) -> dict:
    """x-3 with a second part, Memory / default > 1.5, on the same ladder."""
    reg = registry(value=fst_value)
    second = {**reg["claims"][0]["parts"][0], "label": "Memory / default", "a": {"contender": "Memory"},
              "expect": {"direction": "greater", "value": 1.5}}
    reg["claims"][0]["parts"].append(second)
    claims.validate(reg)
    return reg


def with_memory(results: SimpleNamespace, ratio) -> SimpleNamespace:
    """``results`` plus a Memory contender at ``ratio(docs)`` times default, its forks off by 3% as the others."""
    rng = np.random.default_rng(7)
    base = results.lookups[results.lookups["contender"] == "default"]
    memory = base.assign(contender="Memory", fork=base["fork"].str.replace("default", "Memory"),
                         lookups_per_s=[v * ratio(d) * math.exp(rng.normal(0, 0.03))
                                        for v, d in zip(base["lookups_per_s"], base["docs"])])
    return SimpleNamespace(lookups=pd.concat([results.lookups, memory], ignore_index=True))


def test_a_part_failing_on_a_checked_line_fails_the_claim_where_another_parts_line_says_nothing():
    """FST50 / default stays below 3 (it fails at the seed's size on a checked line); Memory / default bends (its
    line says nothing there). The claim fails there, as it would with the bent part failing or holding; with FST50
    holding instead (above 1.5), the bent part leaves the claim without a verdict at the seed's size."""
    results = with_memory(lookups(lambda d: 1.2 * (d / 1e5) ** 0.1), lambda d: 1.0 if d <= 3e5 else 2.5)
    row = verdict(two_parts(3.0), results)
    fst, memory = (p["extrapolated"] for p in row["parts"])
    assert (fst["verdict"], fst["describes"]) == ("fails", True)
    assert memory["verdict"] is None and "bend" in memory["reason"]
    assert row["extrapolated"] == {"verdict": "fails", "reason": None, "checked": True}
    held = verdict(two_parts(1.5), results)
    assert held["parts"][0]["extrapolated"]["verdict"] == "holds"
    assert held["extrapolated"]["verdict"] is None and "bend" in held["extrapolated"]["reason"]
    assert held["extrapolated"]["checked"] is False


def test_two_sizes_extrapolate_and_say_the_line_is_unchecked():
    rungs = {"small": 1e5, "large": 1e6}
    row = verdict(registry(), lookups(lambda d: 1.2 * (d / 1e5) ** 0.1, rungs=rungs))
    grown = row["parts"][0]["extrapolated"]
    assert grown["verdict"] == "holds" and grown["describes"] is None and "two sizes" in grown["reason"]
    assert row["extrapolated"]["checked"] is False  # a decision only a checked model may count


def test_grows_over_a_key_outside_the_condition_names_it():
    reg = registry({"over": "segments", "size": "docs", "at": SEED_DOCS, "why": "w"})
    with pytest.raises(claims.RegistryError, match="x-3, part 'FST50 / default': grows needs 'over'.*segments"):
        verdict(reg, lookups(lambda d: 2.0))


def test_grows_cannot_fit_a_ratio_of_ratios_one_line_per_side():
    reg = registry({"over": "corpus", "size": "docs", "at": SEED_DOCS, "why": "w", "model": "linear"})
    part = reg["claims"][0]["parts"][0]
    part["c"], part["d"] = {"contender": "FST50"}, {"contender": "default"}
    with pytest.raises(claims.RegistryError, match="x-3, part 'FST50 / default': grows extrapolates a ratio"):
        claims.validate(reg)


def test_a_gain_against_a_gain_extrapolates_on_the_loglog_model():
    # (FST50 ÷ default at threads 1) ÷ (default-aa ÷ default at threads 1): the A/A leg is flat, so the ratio of
    # ratios grows as FST50's gain does, 1.2·(d/1e5)^0.1, which is 1.79 at the seed's 30M docs.
    reg = registry()
    part = reg["claims"][0]["parts"][0]
    part["c"], part["d"] = {"contender": study.AA}, {"contender": "default"}
    claims.validate(reg)
    grown = verdict(reg, lookups(lambda d: 1.2 * (d / 1e5) ** 0.1))["parts"][0]["extrapolated"]
    assert grown["verdict"] == "holds" and grown["reason"] is None
    assert grown["prediction"]["low"] < 1.2 * (SEED_DOCS / 1e5) ** 0.1 < grown["prediction"]["high"]


def test_a_non_positive_seed_size_is_a_registry_error():
    with pytest.raises(claims.RegistryError, match="grows/at"):
        registry({"over": "corpus", "size": "docs", "at": 0, "why": "w"})


def test_the_growth_figure_draws_each_version_with_its_ladder_and_the_seed(tmp_path):
    reg = registry()
    judged = claims.evaluate(reg, lookups(lambda d: 1.2 * (d / 1e5) ** 0.1))
    fig = growth_figures.figure(judged, "x-3")
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["9.12.3", "seed"]
    assert ax.get_xscale() == "log" and ax.get_xlim()[1] >= SEED_DOCS
    # The solid line over the measured sizes, then the dashed one out to the seed's.
    assert [line.get_linestyle() for line in ax.get_lines() if len(line.get_xdata()) == 32] == ["-", "--"]
    assert_legible(fig, growth.figure_name("x-3"))
    with pytest.raises(ValueError, match="claim x-9 has no part judged at the seed's size"):
        growth_figures.figure(judged, "x-9")


def test_the_growth_figure_command_refuses_a_claim_without_a_ladder(tmp_path):
    reg = tmp_path / "claims.yaml"
    reg.write_text(yaml.safe_dump(registry()))
    judged = tmp_path / "claims.json"
    write_json(judged, stats.json_safe(claims.evaluate(registry(), lookups(lambda d: 2.0))))
    with pytest.raises(SystemExit, match="claim x-9 has no part with 'grows' on the versions judged"):
        growth_figures.main(["--registry", str(reg), "--claims", str(judged), "--claim", "x-9", "--out", str(tmp_path)])


def test_a_claim_is_grown_only_on_the_versions_a_run_judges_where_it_applies():
    reg = registry()
    assert growth.grown(reg, ["9.12.3"]) == ["x-3"]
    assert growth.grown(reg, ["10.6.0"]) == []
    reg["claims"][0]["not_applicable"] = {"9.12.3": "gone"}
    assert growth.grown(reg, ["9.12.3"]) == []


def test_a_ladder_with_no_round_measuring_every_size_gives_no_interval_and_no_verdict():
    """Round r measured only on some rungs: no round is complete, so the prediction has no rounds."""
    results = lookups(lambda d: 1.2 * (d / 1e5) ** 0.1)
    frame = results.lookups
    odd = frame["round"] % 2 == 1
    results.lookups = frame[~((frame["corpus"] == "small") & ~odd | (frame["corpus"] == "large") & odd)]
    grown = verdict(registry(), results)["parts"][0]["extrapolated"]
    assert grown["prediction"]["n"] == 0 and grown["describes"] is None
    assert grown["verdict"] == "underpowered"
    assert grown["reason"] == "fewer than two rounds measured every size, so nothing checks the line"


def test_two_rungs_of_one_size_are_an_error_naming_both():
    results = lookups(lambda d: 2.0, rungs={"small": 1e5, "copy": 1e5, "large": 1e6})
    with pytest.raises(claims.MissingResultError, match="corpus copy and small are both docs 100,000"):
        verdict(registry(), results)



def test_rungs_keep_only_the_ladders_values_of_the_condition():
    # A corpus of another kind at one of the ladder's sizes (pk's rand beside seq): rungs leave it out of the fit.
    results = lookups(lambda d: 1.2 * (d / 1e5) ** 0.1, rungs={**RUNGS, "rand": 1e6})
    grows = {"over": "corpus", "rungs": "small|medium|large", "size": "docs", "at": SEED_DOCS, "why": "w"}
    grown = verdict(registry(grows), results)["parts"][0]["extrapolated"]
    assert grown["rungs"] == ["small", "medium", "large"] and grown["verdict"] == "holds"
    with pytest.raises(claims.MissingResultError, match="are both docs 1,000,000"):
        verdict(registry(), results)


def test_rungs_that_are_not_a_regular_expression_are_a_registry_error_naming_the_part():
    with pytest.raises(claims.RegistryError, match="FST50 / default': grows.rungs"):
        registry({"over": "corpus", "rungs": "seq(", "size": "docs", "at": SEED_DOCS, "why": "w"})


def test_a_rung_whose_side_fell_behind_its_rate_withholds_the_extrapolated_verdict(monkeypatch):
    """With ``pace``, every rung is held to it, as the measured size is: the smallest rung's FST50 reached half its
    asked rate."""
    from lrev.studies import Pace

    paced = SimpleNamespace(BASELINE=study.BASELINE, AA=study.AA, PACE=Pace("lookups", "achieved", "asked"),
                            QUANTITIES={**study.QUANTITIES, "docs": Quantity("lookups", "docs", study.CONDITION)})
    monkeypatch.setattr(claims.studies, "get", lambda name: paced)
    results = lookups(lambda d: 1.2 * (d / 1e5) ** 0.1)
    table = results.lookups.assign(asked=100.0, achieved=100.0)
    table.loc[(table["corpus"] == "small") & (table["contender"] == "FST50"), "achieved"] = 50.0
    reg = registry()
    reg["claims"][0]["parts"][0]["pace"] = 0.9
    row = verdict(reg, SimpleNamespace(lookups=table))
    assert row["parts"][0]["pace"]["kept"] is True, "the measured size kept its pace"
    assert row["parts"][0]["extrapolated"]["verdict"] == "fell-behind"


def unsettled_rung(spread: float) -> SimpleNamespace:
    """The growing ratio of the first test, with two of the medium rung's five FST50 forks never settled: each ran
    its iteration and two more, at ``spread`` times and 1 / ``spread`` times its value."""
    table = lookups(lambda d: 1.2 * (d / 1e5) ** 0.1, seed=3).lookups  # a draw whose line the readings keep straight
    fork = (table["corpus"] == "medium") & (table["contender"] == "FST50") & table["round"].isin([0, 1])
    table.loc[fork, "stable"] = 0
    extra = [table[fork].assign(iteration=i, lookups_per_s=table.loc[fork, "lookups_per_s"] * f)
             for i, f in ((1, spread), (2, 1 / spread))]
    return SimpleNamespace(lookups=pd.concat([table, *extra], ignore_index=True))


def test_an_extrapolation_whose_unsettled_rung_forks_give_its_verdict_at_either_end_is_kept():
    """Read at the least and the most of their series (±10%), the unsettled forks still give 'holds' at 30M docs:
    the verdict is kept, bracketed; spread ×20 either way, some reading turns it, so it stays unconverged."""
    narrow = verdict(registry(), unsettled_rung(1.1))["parts"][0]["extrapolated"]
    assert narrow["verdict"] == "holds" and narrow["bracketed"] is True
    wide = verdict(registry(), unsettled_rung(20.0))["parts"][0]["extrapolated"]
    assert wide["verdict"] == "unconverged" and wide["leaning"] == "holds" and wide["bracketed"] is False


def ratio_linear(**extra) -> dict:
    return {"over": "corpus", "size": "docs", "at": SEED_DOCS, "why": "w", "model": "ratio-linear", **extra}


#: Two sides that both grow with the documents, each from a fixed part: FST50 at 100 + docs / 1,000 and default
#: at 50 + docs / 10,000 lookups/s. Their ratio rises from 3.3 (100K docs) to 7.3 (1M docs) towards 10, no power law.
A_SIDE = lambda docs: 100 + docs / 1e3  # noqa: E731
B_SIDE = lambda docs: 50 + docs / 1e4  # noqa: E731


def two_lines(**extra) -> SimpleNamespace:
    return lookups(lambda d: A_SIDE(d) / B_SIDE(d), base=B_SIDE, **extra)


def test_ratio_linear_fits_each_side_and_judges_their_ratio_at_the_seed_size():
    """Threshold 8: the ladder's top rung (7.3) does not clear it, the seed's 30M docs (9.9) do."""
    row = verdict(registry(ratio_linear(), value=8.0), two_lines())
    grown = row["parts"][0]["extrapolated"]
    assert row["parts"][0]["verdict"] != "holds"
    assert grown["model"] == "ratio-linear" and grown["describes"] is True and len(grown["curvature"]) == 2
    truth = A_SIDE(SEED_DOCS) / B_SIDE(SEED_DOCS)
    assert grown["prediction"]["low"] <= truth <= grown["prediction"]["high"]
    assert grown["prediction"]["value"] == pytest.approx(truth, rel=0.05) and grown["verdict"] == "holds"
    assert [len(line) for line in grown["lines"]] == [4] * 5
    # A power law through the same ratios overshoots, and its own check sees the bend.
    loglog = verdict(registry(value=8.0), two_lines())["parts"][0]["extrapolated"]
    assert loglog["describes"] is False and loglog["verdict"] is None


def test_ratio_linear_on_a_part_without_a_second_side_is_a_registry_error_naming_the_part():
    reg = registry(ratio_linear())
    del reg["claims"][0]["parts"][0]["b"]
    with pytest.raises(claims.RegistryError, match="x-3, part 'FST50 / default': the ratio-linear model fits a "
                                                   "ratio's two sides, and the part has no b"):
        claims.validate(reg)


def test_ratio_linear_gives_no_verdict_where_a_side_falls_below_zero_before_the_seed_size():
    """default's rate falls by 1 lookup/s per 20,000 docs: 50 at 1M, below zero long before 30M."""
    grown = verdict(registry(ratio_linear()), lookups(lambda d: 2.0, base=lambda d: 100 - d / 2e4))["parts"][0]
    assert grown["extrapolated"]["verdict"] is None
    assert grown["extrapolated"]["reason"].startswith("a side's line falls to zero or below before the seed's size")


def test_ratio_linear_keeps_a_round_only_where_both_sides_measured_a_positive_value():
    results = two_lines()
    frame = results.lookups
    # Both sides negative: a positive ratio, from a round whose values no cost can take.
    frame.loc[(frame["round"] == 0) & frame["contender"].isin(["default", "FST50"]) & (frame["corpus"] == "small"),
              "lookups_per_s"] = -1.0
    grown = verdict(registry(ratio_linear()), results)["parts"][0]["extrapolated"]
    assert grown["prediction"]["n"] == 4 and len(grown["lines"]) == 4


def test_the_growth_figure_draws_a_ratio_linear_fit_on_a_log_scale():
    judged = claims.evaluate(registry(ratio_linear()), two_lines())
    (ax,) = growth_figures.figure(judged, "x-3").axes
    drawn = [line for line in ax.get_lines() if len(line.get_xdata()) == 32]
    assert ax.get_yscale() == "log" and [line.get_linestyle() for line in drawn] == ["-", "--"]
    assert drawn[-1].get_ydata()[-1] == pytest.approx(A_SIDE(SEED_DOCS) / B_SIDE(SEED_DOCS), rel=0.05)


#: The walk model: FST50 costs 1 + 2e-6 × docs, default 0.5, whatever the size (as dvjump's export without and with
#: jump tables); FST50's walk, 2e-6 per document, is measured apart at the top rung (the study's walk table).
def walk_grows(**extra) -> dict:
    return {"over": "corpus", "size": "docs", "at": SEED_DOCS, "why": "w", "model": "walk", "walk": "walk_ms_per_doc",
            "bias": {"direction": "low", "why": "the walk gets dearer per step as the segment outgrows the caches"},
            **extra}


def walked(rounds=5, slope=2e-6) -> SimpleNamespace:
    results = lookups(lambda d: (1 + 2e-6 * d) / 0.5, base=lambda d: 0.5, rounds=rounds)
    forks = results.lookups[(results.lookups["contender"] == "FST50") & (results.lookups["corpus"] == "large")]
    walk = forks[["version", "contender", "round", "fork", *WHERE]].assign(walk_ms_per_doc=slope)
    return SimpleNamespace(lookups=results.lookups, walk=walk)


@pytest.fixture
def walking(monkeypatch):
    sized = SimpleNamespace(BASELINE=study.BASELINE, AA=study.AA, PACE=None,
                            QUANTITIES={**study.QUANTITIES, "docs": Quantity("lookups", "docs", study.CONDITION),
                                        "walk_ms_per_doc": Quantity("walk", "walk_ms_per_doc", study.CONDITION)})
    monkeypatch.setattr(claims.studies, "get", lambda name: sized)


def test_walk_judges_the_ratio_at_the_seed_size_from_the_measured_walk(walking):
    """The truth at 30M documents: (1 + 60) / 0.5 = 122; the top rung measures 6."""
    row = verdict(registry(walk_grows(), value=100.0), walked())
    grown = row["parts"][0]["extrapolated"]
    assert grown["model"] == "walk" and grown["describes"] is True and grown["verdict"] == "holds"
    assert grown["prediction"]["value"] == pytest.approx(122, rel=0.05)
    assert row["extrapolated"] == {"verdict": "holds", "reason": None, "checked": True}


def test_walk_keeps_only_what_a_larger_ratio_would_keep_since_it_can_only_understate(walking):
    """Expected within [100, 150]: the prediction (122) lies inside, but a model that can only understate the ratio
    cannot say it stays below 150."""
    reg = registry(walk_grows())
    reg["claims"][0]["parts"][0]["expect"] = {"direction": "approx", "value": 120.0, "band": [100.0, 150.0]}
    grown = verdict(reg, walked())["parts"][0]["extrapolated"]
    assert grown["verdict"] == "untestable" and grown["leaning"] == "holds"
    assert grown["reason"].startswith("the model can only understate the ratio here (the walk gets dearer")
    reg["claims"][0]["parts"][0]["expect"]["band"] = [5.0, 10.0]
    assert verdict(reg, walked())["parts"][0]["extrapolated"]["verdict"] == "fails"


def bent(shift: float) -> SimpleNamespace:
    """walked(), with the ratio at the two smaller rungs moved by ``shift`` off the walk's line (the top rung on it)."""
    results = walked()
    frame = results.lookups
    smaller = (frame["contender"] == "FST50") & (frame["corpus"] != "large")
    frame.loc[smaller, "lookups_per_s"] *= 1 + shift
    return results


def test_walk_keeps_a_verdict_through_a_bend_its_bias_allows_and_withholds_one_through_a_bend_it_does_not(walking):
    """The smaller rungs 40% above the walk's line: the ratio bends up towards the top, the way a walk that can only
    understate errs, and the 122 at 30M holds above 100 as any larger ratio would. 40% below: the ratio bends down,
    the line could overstate, and the check withholds it. A bend in a model without a bias withholds as before."""
    reg = registry(walk_grows(), value=100.0)
    up = verdict(reg, bent(0.4))["parts"][0]["extrapolated"]
    assert up["describes"] is False and up["bends_up"] is True
    assert up["verdict"] == "holds" and up["reason"] is None
    down = verdict(reg, bent(-0.4))["parts"][0]["extrapolated"]
    assert down["describes"] is False and down["bends_up"] is False
    assert down["verdict"] is None and "bend away from a line" in down["reason"]
    straight = verdict(reg, walked())["parts"][0]["extrapolated"]
    assert straight["describes"] is True and straight["bends_up"] is False


def test_walk_on_results_without_a_measured_walk_says_so(walking):
    results = walked()
    grown = verdict(registry(walk_grows(), value=100.0),
                    SimpleNamespace(lookups=results.lookups, walk=results.walk.iloc[:0]))["parts"][0]["extrapolated"]
    assert grown["verdict"] is None and grown["reason"].startswith("no walk_ms_per_doc of FST50 at corpus large")


@pytest.mark.parametrize("grows", [walk_grows(walk=None), walk_grows(bias=None), {**ratio_linear(), "walk": "w"}])
def test_the_walk_model_and_only_it_names_its_walk_and_bias(grows):
    grows = {k: v for k, v in grows.items() if v is not None}
    with pytest.raises(claims.RegistryError, match="x-3, part 'FST50 / default': the walk model, and only it, names"):
        registry(grows)
