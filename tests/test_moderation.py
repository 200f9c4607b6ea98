"""Smyth's empirical-Bayes prior and moderated intervals (lrev.stats.fit_prior, half_width, moderate) against
limma's own numbers, and what the claims make of them."""
from __future__ import annotations

import math

import numpy as np
import pytest

from lrev import claims, stats

# docs/noise/limma_reference.R, run with limma 3.54.1 (Debian's r-bioc-limma): `Rscript limma_reference.R`.
VARIANCES = [0.0009, 0.0025, 0.0004, 0.0016, 0.0100, 0.0036, 0.0012, 0.0049, 0.0002, 0.0030, 0.0064, 0.0020]
DFS = [2, 2, 2, 4, 2, 4, 7, 2, 4, 7, 2, 2]
LIMMA_D0, LIMMA_S0SQ = 9.15228089982, 0.002618336576
LIMMA_POSTERIOR = [0.00231017780714, 0.00259711462561, 0.00222051005138, 0.00230863012014, 0.00394213096215,
                   0.00291688963504, 0.00200366450005, 0.0030275198533, 0.0018828484597, 0.00278374008678,
                   0.00329652312061, 0.00250744686984]


def test_the_prior_is_limmas():
    prior = stats.fit_prior(VARIANCES, DFS)
    assert prior.df == pytest.approx(LIMMA_D0, rel=1e-9) and prior.scale == pytest.approx(LIMMA_S0SQ, rel=1e-9)
    posterior = [(prior.df * prior.scale + d * v) / (prior.df + d) for v, d in zip(VARIANCES, DFS)]
    assert posterior == pytest.approx(LIMMA_POSTERIOR, rel=1e-9)


def test_variances_that_differ_only_by_sampling_pool_into_one():
    # limma: fitFDist(c(.0020, .0021, .0019, .0020, .0022, .0018), rep(2, 6)) gives df2 Inf, scale 0.002.
    prior = stats.fit_prior([0.0020, 0.0021, 0.0019, 0.0020, 0.0022, 0.0018], [2] * 6)
    assert math.isinf(prior.df) and prior.scale == pytest.approx(0.002)
    half, df = stats.half_width(0.0025, 2, 3, prior)
    assert math.isinf(df) and half == pytest.approx(1.959964 * math.sqrt(0.002 / 3), rel=1e-6)


def test_a_hypervariable_cell_keeps_its_own_t_interval():
    prior = stats.Prior(6.0, 0.001, 20)
    # s²/s0² = 10 lies far in F(2, 6)'s upper tail; 1.2 does not.
    assert stats.hypervariable([0.01, 0.0012], [2, 2], prior).tolist() == [True, False]
    half, df = stats.half_width([0.01, 0.0012], [2, 2], [3, 3], prior)
    assert df.tolist() == [2, 8]
    assert half[0] == pytest.approx(4.302653 * math.sqrt(0.01 / 3), rel=1e-6)
    assert half[1] == pytest.approx(2.306004 * math.sqrt((6 * 0.001 + 2 * 0.0012) / 8 / 3), rel=1e-6)


def test_fewer_than_three_cells_or_none_usable_borrow_nothing():
    assert stats.fit_prior([0.01, 0.02], [2, 2]).df == 0
    assert stats.fit_prior([0.0, math.nan, 0.01], [2, 2, 2]).df == 0
    est = stats.Estimate(1.5, 1.2, 1.9, 3)
    assert stats.moderate(est, stats.NO_PRIOR) == (est, 2.0)


def test_without_a_prior_the_half_width_is_students():
    half, df = stats.half_width(0.04, 2, 3, stats.NO_PRIOR)
    assert df == 2 and half == pytest.approx(4.302653 * 0.2 / math.sqrt(3), rel=1e-6)


def test_a_moderated_interval_keeps_its_centre_and_takes_the_posterior_variance():
    values = np.log([1.4, 1.6, 1.5])
    low, high = stats.t_interval(values)
    est = stats.Estimate(math.exp(values.mean()), math.exp(low), math.exp(high), 3)
    assert stats.log_spread(est) == pytest.approx(values.std(ddof=1))
    prior = stats.Prior(4.0, 0.01, 10)
    moderated, df = stats.moderate(est, prior)
    posterior = (4 * 0.01 + 2 * values.var(ddof=1)) / 6
    assert df == 6
    assert math.log(moderated.high / moderated.low) / 2 == pytest.approx(2.446912 * math.sqrt(posterior / 3),
                                                                          rel=1e-6)
    assert math.sqrt(moderated.low * moderated.high) == pytest.approx(est.value)


def _many_cells(spread_of_first: float) -> tuple[dict, object]:
    """Ten claims c0/default … c9/default ≥ 1.5 on pk's lookups, each ratio 1.65 over three rounds with per-round log
    values spread by 0.04, c0's by ``spread_of_first``."""
    from test_claims_verdicts import SEED, _lookups
    parts = [{"label": f"c{i} / default", "quantity": "lookups_per_s", "where": SEED, "a": {"contender": f"c{i}"},
              "b": {"contender": "default"}, "expect": {"direction": "greater", "value": 1.5},
              "versions": ["9.12.3"]} for i in range(10)]
    registry = {"study": "pk", "versions": ["9.12.3"], "aa_tolerance": 1.10,
                "claims": [{"id": f"x-{i}", "seed": "s", "kind": "claim", "statement": "s", "quote": "q",
                            "claimed": "c", "parts": [p], "not_applicable": {}} for i, p in enumerate(parts)]}
    claims.validate(registry)
    speeds = {"default": [100.0] * 3}
    for i in range(10):
        a = spread_of_first if i == 0 else 0.04
        speeds[f"c{i}"] = [100 * math.exp(math.log(1.65) + e) for e in (-a, 0.0, a)]
    return registry, _lookups(speeds)


def test_a_cell_borrows_its_studys_variance_and_is_decided():
    registry, results = _many_cells(0.048)
    judged = claims.evaluate(registry, results)
    first = judged["verdicts"][0]["parts"][0]
    # Its own three rounds leave it open: t(2) = 4.30 makes the interval reach below 1.5.
    assert first["moderation"]["plain"]["low"] < 1.5 < first["low"]
    assert first["verdict"] == "holds" and first["moderation"]["hypervariable"] is False
    prior = judged["priors"]["ratio"]
    assert prior["used"] is True and prior["cells"] == 10 and prior["d0"] is None  # alike: one pooled variance
    assert prior["coverage"]["overall"] >= 0.94


def test_a_hypervariable_cell_is_judged_on_its_own_rounds():
    registry, results = _many_cells(0.15)
    first = claims.evaluate(registry, results)["verdicts"][0]["parts"][0]
    assert first["moderation"]["hypervariable"] is True
    assert (first["low"], first["high"]) == pytest.approx((first["moderation"]["plain"]["low"],
                                                            first["moderation"]["plain"]["high"]))
    assert first["verdict"] == "inconclusive"


def test_a_group_whose_simulated_coverage_falls_short_keeps_the_plain_interval(monkeypatch):
    monkeypatch.setitem(claims.COVERAGE_SLACK, "overall", -0.1)  # asks for more than any interval covers
    registry, results = _many_cells(0.048)
    judged = claims.evaluate(registry, results)
    assert judged["priors"]["ratio"]["used"] is False
    first = judged["verdicts"][0]["parts"][0]
    assert first["low"] == pytest.approx(first["moderation"]["plain"]["low"]) and first["verdict"] == "inconclusive"
