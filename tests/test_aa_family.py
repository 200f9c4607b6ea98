"""The A/A's bias test among a study's many A/As: its p against 1 (the t test its interval inverts), adjusted for
their number, so that a run of dozens of unbiased A/As withholds no cell by chance. The study is pk; the results
are synthetic."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import scipy.stats

from lrev import claims, stats
from lrev.pk import study

SEED = {"corpus": "seq", "layout": "multi", "miss_rate": 0.0}
TOLERANCE = 1.10


def test_the_p_value_is_the_t_test_its_interval_inverts():
    logs = np.log([1.1, 1.3, 1.15])
    est = stats.ratio([[x] for x in np.exp(logs)], [[1.0]] * 3)
    assert math.isclose(stats.p_value(est), scipy.stats.ttest_1samp(logs, 0.0).pvalue, rel_tol=1e-9)
    # The interval excludes 1 exactly when p < 0.05.
    assert (est.low > 1) is (stats.p_value(est) < 0.05)
    assert math.isnan(stats.p_value(stats.Estimate(1.2, math.nan, math.nan, 1)))


def test_the_adjustment_lifts_a_lone_chance_exclusion_among_many():
    raw = {"chance": 0.044, **{f"quiet-{i}": 0.3 + 0.1 * i for i in range(5)}, "none": math.nan}
    adjusted = claims.family_p(raw)
    assert adjusted["chance"] > 0.05 and math.isnan(adjusted["none"])
    assert claims.family_p({"alone": 0.044}) == {"alone": 0.044}
    # A strong bias survives it.
    assert claims.family_p({**raw, "chance": 1e-5})["chance"] < 0.05


def test_a_study_of_unbiased_aas_rarely_withholds_anything():
    """At the top of this machine's spread (one JVM ~7 %, so a paired log ratio ~10 %) and three rounds, a study of
    20 A/As (dvupdate runs 20) with no bias at all withholds some cell as ``biased`` in at most 5 % of runs; A/As
    judged one by one would in about a third of them."""
    rng = np.random.default_rng(7)
    runs, aas, n, sd = 600, 20, 3, 0.10
    logs = rng.normal(0.0, sd, size=(runs, aas, n))
    means = logs.mean(axis=2)
    ps = scipy.stats.ttest_1samp(logs, 0.0, axis=2).pvalue
    beyond = np.abs(means) > math.log(TOLERANCE)
    family = [any(beyond[r, i] and claims.family_p(dict(enumerate(ps[r])))[i] < 0.05 for i in range(aas))
              for r in range(runs)]
    alone = [any(beyond[r, i] and ps[r, i] < 0.05 for i in range(aas)) for r in range(runs)]
    assert np.mean(family) <= 0.05
    assert np.mean(alone) > 0.2


def _results(aa_logs: dict[int, list[float]]) -> SimpleNamespace:
    """Per thread count, three rounds of FST50 (3x default) and of the A/A at the given log ratios to default."""
    rows = []
    for threads, logs in aa_logs.items():
        for r, log in enumerate(logs):
            base = 100.0 + r
            for contender, speed in (("FST50", 3 * base), ("default", base), (study.AA, base * math.exp(log))):
                rows.append({"version": "9.12.3", "contender": contender, "round": r, "fork": f"f-{contender}",
                             **SEED, "threads": threads, "iteration": 0, "lookups_per_s": speed, "stable": 1})
    return SimpleNamespace(lookups=pd.DataFrame(rows))


def _registry(threads: list[int]) -> dict:
    claim_list = []
    for t in threads:
        part = {"label": "FST50 / default", "quantity": "lookups_per_s", "where": {**SEED, "threads": t},
                "a": {"contender": "FST50"}, "b": {"contender": "default"},
                "expect": {"direction": "greater", "value": 1.5}, "versions": ["9.12.3"]}
        claim_list.append({"id": f"x-{t}", "seed": "s", "kind": "claim", "statement": "s", "quote": "q",
                           "claimed": "c", "parts": [part], "not_applicable": {}})
    registry = {"study": "pk", "versions": ["9.12.3"], "aa_tolerance": TOLERANCE, "claims": claim_list}
    claims.validate(registry)
    return registry


# An A/A of 1.18 whose own 95% interval just excludes 1 (p = 0.044 over three rounds).
CHANCE = [0.1655 - 0.0623, 0.1655, 0.1655 + 0.0623]


def test_one_chance_exclusion_among_six_aas_withholds_nothing():
    quiet = {t: [0.05 * ((t + r) % 3 - 1), -0.03 * (t % 2), 0.02] for t, r in zip(range(2, 7), range(5))}
    verdicts = claims.evaluate(_registry([1, *quiet]), _results({1: CHANCE, **quiet}))["verdicts"]
    first = verdicts[0]["parts"][0]
    assert first["aa"]["value"] > TOLERANCE and first["aa"]["low"] > 1  # alone, it would be biased
    assert first["aa"]["p"] > 0.05 and first["aa"]["biased"] is False
    assert [v["verdict"] for v in verdicts] == ["holds"] * 6


def test_the_same_aa_alone_in_its_study_withholds_its_cell():
    verdict = claims.evaluate(_registry([1]), _results({1: CHANCE}))["verdicts"][0]
    assert verdict["parts"][0]["aa"]["biased"] is True and verdict["verdict"] == "biased"
