"""lrev.growth: per-round lines through a size ladder, their prediction at an unmeasured size, and the check
that a line describes the ladder."""
import math

import numpy as np
import pandas as pd
import pytest

from lrev import growth

SIZES = [1e5, 3e5, 1e6]


def ladder(rng, rounds, law, sd=0.2, sizes=SIZES):
    """Rounds × sizes of ``law(size)``, each cell off by JVM-to-JVM lognormal noise ``sd`` and each round by a
    shared factor of the same spread (host drift)."""
    drift = np.exp(rng.normal(0, sd, (rounds, 1)))
    cells = np.exp(rng.normal(0, sd, (rounds, len(sizes))))
    return pd.DataFrame(np.array([law(s) for s in sizes]) * drift * cells, columns=sizes)


def test_exact_power_law_is_recovered_at_the_target():
    values = pd.DataFrame([[3 * (s / 1e5) ** 0.7 * f for s in SIZES] for f in (0.9, 1.0, 1.2)], columns=SIZES)
    fit = growth.fit(values, 3e8)
    truth = 3 * 3000 ** 0.7 * math.exp(np.mean(np.log([0.9, 1.0, 1.2])))
    assert fit.prediction.value == pytest.approx(truth)
    assert fit.slope.value == pytest.approx(0.7)
    assert fit.describes is True and fit.beyond_ladder is True


def test_linear_model_recovers_a_walk_proportional_to_documents():
    values = pd.DataFrame([[2e-6 * s + 1 + e for s in SIZES] for e in (0.0, 0.1, -0.1)], columns=SIZES)
    fit = growth.fit(values, 3e8, model="linear")
    assert fit.prediction.value == pytest.approx(2e-6 * 3e8 + 1)
    assert fit.slope.value == pytest.approx(2e-6)


@pytest.mark.parametrize("rounds", [3, 5])
@pytest.mark.parametrize("model", growth.MODELS)
def test_prediction_interval_keeps_its_coverage_at_the_rounds_a_run_has(rounds, model):
    """Three sizes spanning 10×, extrapolated 300× past the largest: the 95% interval covers the true value in
    95% of 400 runs, within binomial error (+-3 sd is about +-3.3 points)."""
    rng = np.random.default_rng(8585 + rounds)
    target = 3e8
    covered = []
    for _ in range(400):
        if model == "loglog":
            law = lambda s: 2 * (s / 1e5) ** 0.5  # noqa: E731
            values = ladder(rng, rounds, law)
        else:  # a walk's cost: additive noise of one unit per round and per cell
            law = lambda s: 1 + s / 1e5  # noqa: E731
            values = pd.DataFrame(np.array([law(s) for s in SIZES]) + rng.normal(0, 1, (rounds, 1))
                                  + rng.normal(0, 1, (rounds, len(SIZES))), columns=SIZES)
        fit = growth.fit(values, target, model)
        covered.append(fit.prediction.low <= law(target) <= fit.prediction.high)
    assert 0.917 <= np.mean(covered) <= 0.983


@pytest.mark.parametrize("rounds", [3, 5])
def test_the_lack_of_fit_check_rejects_a_true_line_at_its_nominal_rate(rounds):
    rng = np.random.default_rng(8374 + rounds)
    rejected = [growth.fit(ladder(rng, rounds, lambda s: 2 * (s / 1e5) ** 0.5), 3e8).describes is False
                for _ in range(400)]
    assert 0.017 <= np.mean(rejected) <= 0.083


def test_the_lack_of_fit_check_catches_a_ladder_that_bends():
    """A quantity flat until a threshold size and growing past it, measured with 5% noise: the line is rejected
    in most runs, so no verdict is drawn from it at the seed's size."""
    rng = np.random.default_rng(16418)
    bend = lambda s: 1.0 if s <= 3e5 else (s / 3e5) ** 2  # noqa: E731
    rejected = [growth.fit(ladder(rng, 5, bend, 0.05), 3e8).describes is False for _ in range(200)]
    assert np.mean(rejected) > 0.8


def test_two_sizes_fit_exactly_and_say_the_check_is_impossible():
    fit = growth.fit(pd.DataFrame([[1.0, 2.0], [1.1, 2.3], [0.9, 1.9]], columns=[1e5, 1e6]), 1e7)
    assert fit.curvature is None and fit.describes is None
    assert fit.to_dict()["describes"] is None


def test_one_complete_round_leaves_the_line_unchecked_not_rejected():
    values = pd.DataFrame([[1.0, 2.0, 4.0], [1.0, np.nan, 4.0]], columns=SIZES)
    fit = growth.fit(values, 3e6)
    assert fit.prediction.n == 1 and fit.describes is None


def test_rounds_missing_a_size_are_left_out():
    values = pd.DataFrame([[1.0, 2.0, 4.0], [1.0, np.nan, 4.0], [1.0, 2.0, 4.0]], columns=SIZES)
    assert growth.fit(values, 3e6).prediction.n == 2


def test_a_target_inside_the_ladder_is_not_beyond_it():
    values = pd.DataFrame([[1.0, 2.0, 4.0], [1.1, 2.1, 4.2]], columns=SIZES)
    assert growth.fit(values, 3e5).beyond_ladder is False


@pytest.mark.parametrize("values, target, model, message", [
    (pd.DataFrame([[1.0], [2.0]], columns=[1e5]), 1e6, "loglog", "two sizes or more, got 1"),
    (pd.DataFrame([[1.0, -2.0]], columns=[1e5, 1e6]), 1e7, "loglog", "positive sizes and values"),
    (pd.DataFrame([[1.0, 2.0]], columns=[1e5, 1e6]), 0, "loglog", "target size must be positive"),
    (pd.DataFrame([[1.0, 2.0]], columns=[1e5, 1e6]), 1e7, "cubic", "unknown growth model 'cubic'"),
])
def test_bad_ladders_name_what_is_wrong(values, target, model, message):
    with pytest.raises(growth.GrowthError, match=message):
        growth.fit(values, target, model)
