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
@pytest.mark.parametrize("model", [m for m in growth.MODELS if m not in growth.SIDED])
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
    assert fit.curvature == () and fit.describes is None
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


def two_walks(rng, rounds, sd=0.1, sizes=SIZES):
    """Side a walks every document (1 + s/1e5 ms), side b only its hits (0.5 + s/1e6 ms): their ratio rises from 2
    towards 10 with the size. Each cell carries lognormal JVM noise ``sd``, and each side's forks of a round a drift
    of their own (one shared by both sides would cancel in the ratio)."""
    def side(law):
        drift = np.exp(rng.normal(0, sd, (rounds, 1)))
        return pd.DataFrame(np.array([law(s) for s in sizes]) * drift * np.exp(rng.normal(0, sd, (rounds, len(sizes)))),
                            columns=sizes)
    return side(A_WALK), side(B_WALK)


A_WALK = lambda s: 1 + s / 1e5  # noqa: E731
B_WALK = lambda s: 0.5 + s / 1e6  # noqa: E731


def test_ratio_linear_recovers_the_ratio_of_two_walks_and_how_fast_it_still_grows():
    a = pd.DataFrame([[A_WALK(s) * f for s in SIZES] for f in (0.9, 1.0, 1.1)], columns=SIZES)
    b = pd.DataFrame([[B_WALK(s) for s in SIZES]] * 3, columns=SIZES)
    fit = growth.fit_ratio(a, b, 2.7e7)
    truth = A_WALK(2.7e7) / B_WALK(2.7e7)
    assert fit.prediction.value == pytest.approx(truth)
    elasticity = 2.7e7 * (1e-5 / A_WALK(2.7e7) - 1e-6 / B_WALK(2.7e7))
    assert fit.slope.value == pytest.approx(elasticity) and 0 < fit.slope.value < 0.02
    assert fit.describes is True and len(fit.curvature) == 2
    # A power law through the same ratios bends: the ladder says so instead of extrapolating a wrong line.
    loglog = growth.fit(a / b, 2.7e7)
    assert loglog.describes is False and loglog.prediction.value > 1.5 * truth


@pytest.mark.parametrize("rounds", [3, 5])
def test_ratio_linear_interval_keeps_its_coverage_at_the_rounds_a_run_has(rounds):
    """The two walks above at 10% lognormal noise, extrapolated 27× past the largest size: Fieller's interval, exact
    for normal pairs, covers the true ratio in 95% of 1,000 runs within binomial error (+-3 sd is +-2.1 points); a
    normal quantile in place of the t one would cover about 85% at three rounds."""
    rng = np.random.default_rng(16418 + rounds)
    truth = A_WALK(2.7e7) / B_WALK(2.7e7)
    covered = []
    for _ in range(1000):
        low, high = fit_ratio_bounds(growth.fit_ratio(*two_walks(rng, rounds), 2.7e7))
        covered.append(low <= truth <= high)
    assert 0.929 <= np.mean(covered) <= 0.971


def fit_ratio_bounds(fit: growth.Fit) -> tuple[float, float]:
    """The prediction's interval; one whose b side cannot be told from zero has no bounds (NaN) and excludes nothing
    the test can hold against it (at three rounds, about 2.5% of runs)."""
    low, high = fit.prediction.low, fit.prediction.high
    return (-math.inf, math.inf) if math.isnan(high) else (low, high)


@pytest.mark.parametrize("rounds", [3, 5])
def test_ratio_linear_lack_of_fit_check_rejects_true_lines_at_its_nominal_rate_per_side(rounds):
    """Each side is checked at 95%, so two true lines are withheld in 1 - 0.95² = 9.75% of runs (+-3 sd: 5.3-14.2%):
    a split of the error rate between the sides would give 5%, below that band at this seed."""
    rng = np.random.default_rng(8585 + rounds)
    rejected = [growth.fit_ratio(*two_walks(rng, rounds), 2.7e7).describes is False for _ in range(400)]
    assert 0.053 <= np.mean(rejected) <= 0.142


def test_ratio_linear_withholds_where_one_side_bends():
    """Side a flat to 300K docs and quadrupled at 1M, side b a line: only a's check sees it, and that is enough."""
    a = pd.DataFrame([[1.0 * f, 1.0 * f, 4.0 * f] for f in (0.95, 1.0, 1.05)], columns=SIZES)
    b = pd.DataFrame([[B_WALK(s) * f for s in SIZES] for f in (0.97, 1.0, 1.03)], columns=SIZES)
    fit = growth.fit_ratio(a, b, 2.7e7)
    assert fit.describes is False
    assert fit.curvature[0].low > 0 and fit.curvature[1].low <= 0 <= fit.curvature[1].high


def test_fieller_keeps_a_round_whose_side_dips_below_zero_and_has_no_upper_end_when_b_may_be_zero():
    # One round's b is negative at the target; the means are positive and b's clearly so: a bounded interval.
    bounded = growth.fieller(np.array([10.0, 11.0, 9.0, 10.5, 9.5]), np.array([1.0, 1.1, 0.9, 1.05, -0.05]))
    assert bounded.value == pytest.approx(10.0 / 0.8) and bounded.low < bounded.value < bounded.high < math.inf
    # b's mean positive, but its spread leaves zero inside its interval: no upper end.
    unbounded = growth.fieller(np.array([10.0, 11.0, 9.0]), np.array([1.0, 2.0, -2.0]))
    assert unbounded.value == pytest.approx(10.0 / (1 / 3)) and math.isnan(unbounded.high)
    # A mean at or below zero: the lines have left the range of a cost.
    assert math.isnan(growth.fieller(np.array([1.0, 2.0]), np.array([-1.0, 0.5])).value)


def test_fieller_matches_the_t_test_it_inverts():
    """At each end of the interval, the t statistic of mean(a - r b) is exactly the 95% quantile."""
    import scipy.stats
    a, b = np.array([10.0, 12.0, 9.0, 11.5]), np.array([1.0, 1.3, 0.8, 1.1])
    est = growth.fieller(a, b)
    for r in (est.low, est.high):
        d = a - r * b
        assert abs(d.mean()) / (d.std(ddof=1) / 2) == pytest.approx(scipy.stats.t.ppf(0.975, 3))


def test_ratio_linear_gives_no_ratio_where_a_side_falls_to_zero():
    a = pd.DataFrame([[1.0, 2.0, 3.0]] * 3, columns=SIZES)
    b = pd.DataFrame([[3.0, 2.0, 1.0], [3.1, 2.0, 1.0], [2.9, 2.0, 1.0]], columns=SIZES)
    fit = growth.fit_ratio(a, b, 3e8)
    assert math.isnan(fit.prediction.value) and fit.prediction.n == 3 and math.isnan(fit.slope.value)


@pytest.mark.parametrize("a, b, message", [
    (pd.DataFrame([[1.0, 2.0]], columns=[1e5, 1e6]), pd.DataFrame([[1.0, 2.0]], columns=[1e5, 3e6]),
     "same sizes"),
    (pd.DataFrame([[1.0, 2.0]], columns=[1e5, 1e6]), pd.DataFrame([[1.0, 0.0]], columns=[1e5, 1e6]),
     "positive values on both sides"),
    (pd.DataFrame([[1.0]], columns=[1e5]), pd.DataFrame([[1.0]], columns=[1e5]), "two sizes or more, got 1"),
])
def test_bad_ratio_ladders_name_what_is_wrong(a, b, message):
    with pytest.raises(growth.GrowthError, match=message):
        growth.fit_ratio(a, b, 1e7)


@pytest.mark.parametrize("values, target, model, message", [
    (pd.DataFrame([[1.0], [2.0]], columns=[1e5]), 1e6, "loglog", "two sizes or more, got 1"),
    (pd.DataFrame([[1.0, -2.0]], columns=[1e5, 1e6]), 1e7, "loglog", "positive sizes and values"),
    (pd.DataFrame([[1.0, 2.0]], columns=[1e5, 1e6]), 0, "loglog", "target size must be positive"),
    (pd.DataFrame([[1.0, 2.0]], columns=[1e5, 1e6]), 1e7, "cubic", "unknown growth model 'cubic'"),
    (pd.DataFrame([[1.0, 2.0]], columns=[1e5, 1e6]), 1e7, "ratio-linear", "fit_ratio or fit_walk, not fit"),
    (pd.DataFrame([[1.0, 2.0]], columns=[1e5, 1e6]), 1e7, "walk", "fit_ratio or fit_walk, not fit"),
])
def test_bad_ladders_name_what_is_wrong(values, target, model, message):
    with pytest.raises(growth.GrowthError, match=message):
        growth.fit(values, target, model)


def test_a_band_is_numeric_with_nan_where_fiellers_interval_has_no_bounds():
    """A smoke run's two rounds (join-2, 10.6.0): side b's lines part ways past the ladder, so the band is bounded near
    it and has no bounds far out. NaN, not None, where it has none: a plot skips NaN and fails on None."""
    lines = np.array([[1.1261583817113889e-04, 0.7888515164144184, -2.7909105316911753e-05, 1.509689236480537],
                      [9.946941855479338e-05, 0.6255032679407703, 1.0647680017067245e-04, 0.2804832263101398]])
    band = growth.band(lines, np.geomspace(3e3, 2.7e7, 32), "ratio-linear")
    assert all(band[c].dtype == float for c in band)
    assert band["high"].notna().any() and band["high"].isna().any()


#: The walk model's world, as dvjump's export measures it: side a costs 1 ms per request plus 2e-6 ms per document of
#: segment (its walk), side b 0.5 ms whatever the size; the ratio is 2.8 at 1M documents and 1,202 at 300M.
WALK_A = lambda s: 1 + 2e-6 * s  # noqa: E731
WALK_B = 0.5
WALK_SLOPE = 2e-6


def walk_round(rng, sd_walk, sd_side, sizes=SIZES):
    """One round: its fork of side a walks at the true slope times a JVM factor (spread ``sd_walk``), which its
    measured ratio at every size shares; each side's latency carries lognormal noise ``sd_side`` per size."""
    jvm = math.exp(rng.normal(0, sd_walk))
    a = np.array([(1 + WALK_SLOPE * jvm * s) * math.exp(rng.normal(0, sd_side)) for s in sizes])
    b = np.array([WALK_B * math.exp(rng.normal(0, sd_side)) for _ in sizes])
    walk = WALK_SLOPE * jvm * math.exp(rng.normal(0, sd_side))
    return a / b, a[-1], b[-1], walk


def walk_fit(rng, rounds, sd_walk=0.3, sd_side=0.1, target=3e8):
    drawn = [walk_round(rng, sd_walk, sd_side) for _ in range(rounds)]
    values = pd.DataFrame([d[0] for d in drawn], columns=SIZES)
    a, b, walk = (pd.Series([d[i] for d in drawn]) for i in (1, 2, 3))
    return growth.fit_walk(values, a, b, walk, target)


def test_walk_recovers_the_ratio_from_the_top_rung_and_the_measured_slope():
    values = pd.DataFrame([[WALK_A(s) / WALK_B for s in SIZES]] * 3, columns=SIZES)
    top = pd.Series([WALK_A(SIZES[-1])] * 3)
    fit = growth.fit_walk(values, top, pd.Series([WALK_B] * 3), pd.Series([WALK_SLOPE] * 3), 3e8)
    assert fit.prediction.value == pytest.approx(WALK_A(3e8) / WALK_B)
    assert fit.slope.value == pytest.approx(WALK_SLOPE / WALK_B)
    assert fit.describes is True and len(fit.curvature) == 2
    assert [len(line) for line in fit.lines] == [4] * 3
    band = growth.band(np.array(fit.lines), np.array([1e6, 3e8]), "walk")
    assert list(band["value"]) == pytest.approx([WALK_A(1e6) / WALK_B, WALK_A(3e8) / WALK_B])


@pytest.mark.parametrize("rounds", [3, 5, 8])
def test_walk_interval_keeps_its_coverage_at_the_rounds_a_run_has(rounds):
    """At this machine's spread (the walk's slope differed by up to 2× between a default run's JVMs: 0.3 lognormal;
    a latency 10%), extrapolated 300× past the ladder: the t interval of the rounds' log predictions covers the
    true (geometric-mean) ratio in 95% of 1,000 runs, within binomial error (+-3 sd is +-2.1 points)."""
    rng = np.random.default_rng(8374 + rounds)
    # The truth: the median over JVMs of a round's ratio at 300M, from many rounds.
    truth = math.exp(np.mean([math.log(growth._walked(np.array([[d[3], d[1], d[2], SIZES[-1]]]), 3e8)[0])
                              for d in (walk_round(rng, 0.3, 0.1) for _ in range(100_000))]))
    covered = [(f.prediction.low <= truth <= f.prediction.high) for f in (walk_fit(rng, rounds) for _ in range(1000))]
    assert 0.929 <= np.mean(covered) <= 0.971


def test_walk_check_catches_a_slope_the_ladder_does_not_show():
    """The reads measure a walk three times the one the requests pay: at the smaller sizes the model predicts
    ratios far below the measured ones, and the check says so."""
    rng = np.random.default_rng(3)
    drawn = [walk_round(rng, 0.05, 0.02) for _ in range(5)]
    values = pd.DataFrame([d[0] for d in drawn], columns=SIZES)
    a, b, walk = (pd.Series([d[i] for d in drawn]) for i in (1, 2, 3))
    assert growth.fit_walk(values, a, b, walk, 3e8).describes is True
    assert growth.fit_walk(values, a, b, 3 * walk, 3e8).describes is False


@pytest.mark.parametrize("rounds", [3, 5])
def test_walk_check_rejects_a_true_model_near_its_nominal_rate(rounds):
    """Two sizes below the top, each tested at 95%: a true model is rejected in at most about 10% of runs."""
    rng = np.random.default_rng(16418 + rounds)
    rejected = np.mean([walk_fit(rng, rounds).describes is False for _ in range(400)])
    assert rejected <= 0.13


def test_walk_without_a_round_that_measured_everything_names_what_is_missing():
    values = pd.DataFrame([[1.0, 2.0, 3.0]], columns=SIZES)
    with pytest.raises(growth.GrowthError, match="no round measured both sides and the walk"):
        growth.fit_walk(values, pd.Series([1.0]), pd.Series([1.0]), pd.Series([], dtype=float), 3e8)
