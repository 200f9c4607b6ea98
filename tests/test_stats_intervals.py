"""Per-fork t intervals (lrev.stats.ratio, lrev.stats.location) on data with known answers."""
from __future__ import annotations

import math

import numpy as np
import scipy.stats
import pytest

from lrev import stats


def _forks(rng: np.random.Generator, fork_means, n_samples: int, within_sd: float) -> list[np.ndarray]:
    return [m + rng.normal(0, within_sd, n_samples) for m in fork_means]


def _width(est: stats.Estimate) -> float:
    return est.high - est.low


# --- point values ---------------------------------------------------------------------------


def test_paired_value_is_geometric_mean_of_per_round_mean_ratios():
    a = [[2.0, 4.0], [3.0, 3.0, 3.0], [10.0]]  # fork means 3, 3, 10
    b = [[1.0, 1.0], [2.0, 4.0], [4.0, 6.0]]  # fork means 1, 3, 5
    est = stats.ratio(a, b)
    assert est.value == pytest.approx((3 / 1 * 3 / 3 * 10 / 5) ** (1 / 3))
    assert est.n == 3
    assert est.low < est.value < est.high


def test_paired_value_uses_the_chosen_per_fork_statistic():
    a = [[1.0, 2.0, 30.0], [4.0, 5.0, 6.0]]  # medians 2, 5 (means 11, 5)
    b = [[1.0, 1.0, 1.0], [1.0, 2.0, 100.0]]  # medians 1, 2
    est = stats.ratio(a, b, statistic="median")
    assert est.value == pytest.approx(math.sqrt(2 / 1 * 5 / 2))


def test_unpaired_value_is_ratio_of_geometric_means_and_n_is_the_smaller_side():
    a = [[2.0, 4.0], [3.0, 3.0, 3.0], [10.0]]  # means 3, 3, 10
    b = [[1.0, 1.0], [2.0, 4.0]]  # means 1, 3
    est = stats.ratio(a, b, paired=False)
    assert est.value == pytest.approx((3 * 3 * 10) ** (1 / 3) / math.sqrt(1 * 3))
    assert est.n == 2


def test_ratio_is_symmetric_on_the_log_scale():
    rng = np.random.default_rng(10)
    a = _forks(rng, rng.uniform(2, 3, 8), 10, 0.1)
    b = _forks(rng, rng.uniform(1, 2, 8), 10, 0.1)
    ab, ba = stats.ratio(a, b), stats.ratio(b, a)
    assert ab.value == pytest.approx(1 / ba.value)


# --- intervals ------------------------------------------------------------------------------


def test_round_drift_cancels_when_paired_but_not_when_unpaired():
    rng = np.random.default_rng(11)
    rounds, true_ratio = 12, 1.25
    drift = rng.uniform(0.5, 1.5, rounds)  # host drift shared by both forks of a round
    b = [d * rng.lognormal(0, 0.02, 10) for d in drift]
    a = [true_ratio * d * rng.lognormal(0, 0.02, 10) for d in drift]
    paired = stats.ratio(a, b)
    unpaired = stats.ratio(a, b, paired=False)
    assert paired.value == pytest.approx(true_ratio, rel=0.02)
    assert paired.low < true_ratio < paired.high
    assert _width(paired) < 0.05
    assert unpaired.value == pytest.approx(paired.value)  # same point value, equal fork counts
    assert _width(unpaired) > 5 * _width(paired)


def test_interval_widens_with_between_fork_spread_at_fixed_within_fork_spread():
    rng = np.random.default_rng(12)
    z = rng.normal(0, 1, 10)  # standardised fork offsets
    noise = rng.normal(0, 1, (10, 20))  # the very same within-fork noise in both cases
    widths = []
    for between_sd in (0.5, 5.0):
        groups = [100 + between_sd * z[i] + noise[i] for i in range(10)]
        widths.append(_width(stats.location(groups)))
    assert widths[1] > 4 * widths[0]


def test_ratio_interval_widens_with_between_round_spread_at_fixed_within_fork_spread():
    rng = np.random.default_rng(21)
    z = rng.normal(0, 1, 10)  # standardised per-round log ratios
    noise_a, noise_b = rng.normal(0, 0.01, (10, 20)), rng.normal(0, 0.01, (10, 20))
    widths = []
    for between_sd in (0.01, 0.1):
        a = [1.5 * np.exp(between_sd * z[i]) * (1 + noise_a[i]) for i in range(10)]
        b = [1.0 + noise_b[i] for i in range(10)]
        widths.append(_width(stats.ratio(a, b)))
    assert widths[1] > 4 * widths[0]


def test_interval_reflects_fork_spread_that_pooled_iterations_hide():
    rng = np.random.default_rng(13)
    groups = _forks(rng, 100 + rng.normal(0, 5, 10), 30, 1.0)
    hier = stats.location(groups)
    # One level, as scipy resamples: treats the 300 iterations as independent.
    pooled = scipy.stats.bootstrap((np.concatenate(groups),), np.mean, method="percentile",
                                   rng=np.random.default_rng(0)).confidence_interval
    assert hier.value == pytest.approx(np.mean(np.concatenate(groups)))  # equal fork sizes
    assert hier.high - hier.low > 3 * (pooled.high - pooled.low)


def test_constant_forks_give_a_degenerate_interval():
    est = stats.ratio([[2.0, 2.0], [4.0, 4.0, 4.0]], [[1.0, 1.0], [2.0]])
    assert (est.value, est.low, est.high, est.n) == (2.0, 2.0, 2.0, 2)
    loc = stats.location([[3.0, 3.0], [3.0]])
    assert (loc.value, loc.low, loc.high, loc.n) == (3.0, 3.0, 3.0, 2)


def test_ratios_equal_up_to_rounding_give_a_degenerate_interval():
    # Every round's ratio is 3 up to the last bit; the interval must not report that noise.
    a = [[0.3, 0.3], [0.7, 0.7], [1.1, 1.1], [0.9, 0.9]]
    b = [[0.1, 0.1], [0.7 / 3] * 2, [1.1 / 3] * 3, [0.3]]
    est = stats.ratio(a, b)
    assert est.value == pytest.approx(3.0)
    assert est.low == est.value == est.high


def test_location_contains_the_true_mean_and_counts_forks():
    rng = np.random.default_rng(17)
    true_mean = 10.0
    groups = _forks(rng, true_mean + rng.normal(0, 0.5, 15), 20, 1.0)
    est = stats.location(groups)
    assert est.n == 15
    assert est.value == pytest.approx(np.mean([g.mean() for g in groups]))
    assert est.low < true_mean < est.high


def test_location_interval_covers_the_true_mean_at_about_the_nominal_rate():
    rng = np.random.default_rng(18)
    hits = 0
    for _ in range(40):
        groups = _forks(rng, 10 + rng.normal(0, 0.5, 10), 10, 1.0)
        est = stats.location(groups)
        hits += est.low < 10 < est.high
    assert hits >= 34  # nominal 95% of 40 = 38


def test_a_log_location_is_the_geometric_mean_and_stays_above_zero_where_the_plain_one_does_not():
    groups = [[9.5], [1.0], [19.0]]  # three forks of widely spread latencies, as the export's first runs show
    plain, geometric = stats.location(groups), stats.location(groups, log=True)
    assert plain.low < 0 < geometric.low < geometric.value < geometric.high
    assert geometric.value == pytest.approx((9.5 * 1.0 * 19.0) ** (1 / 3))
    logs = np.log([9.5, 1.0, 19.0])
    half = scipy.stats.t.ppf(0.975, 2) * np.std(logs, ddof=1) / math.sqrt(3)
    expected = (math.exp(logs.mean() - half), math.exp(logs.mean() + half))
    assert (geometric.low, geometric.high) == pytest.approx(expected)


def test_a_log_location_refuses_a_non_positive_fork_naming_it():
    with pytest.raises(ValueError, match="fork 1 of groups has non-positive mean"):
        stats.location([[2.0], [0.0], [3.0]], log=True)


def test_location_of_std_estimates_the_within_fork_spread():
    rng = np.random.default_rng(19)
    groups = _forks(rng, rng.normal(50, 5, 12), 25, 2.0)
    est = stats.location(groups, statistic="std")
    assert est.value == pytest.approx(np.mean([np.std(g, ddof=1) for g in groups]))
    assert est.low < 2.0 < est.high
    assert est.high - est.low < 1.0


def test_ratio_of_std_recovers_the_ratio_of_within_fork_spreads():
    rng = np.random.default_rng(20)
    means = rng.normal(50, 5, 12)
    a = _forks(rng, means, 30, 2.0)
    b = _forks(rng, means, 30, 1.0)
    est = stats.ratio(a, b, statistic="std")
    assert est.low < 2.0 < est.high
    assert est.low > 1.5 and est.high < 2.6


# --- edge cases -----------------------------------------------------------------------------


def test_mismatched_rounds_are_an_error_stating_both_lengths():
    with pytest.raises(ValueError, match="a has 3 units, b has 2"):
        stats.ratio([[1.0], [1.0], [1.0]], [[1.0], [1.0]])
    # Unpaired forks need not match.
    assert stats.ratio([[1.0], [1.0], [1.0]], [[1.0], [1.0]], paired=False).n == 2


def test_empty_fork_is_an_error_naming_index_and_side():
    with pytest.raises(ValueError, match="fork 1 of b has no samples"):
        stats.ratio([[1.0], [2.0]], [[1.0], []])
    with pytest.raises(ValueError, match="fork 0 of a has no samples"):
        stats.ratio([[]], [[1.0]], paired=False)
    with pytest.raises(ValueError, match="fork 2 of groups has no samples"):
        stats.location([[1.0], [2.0], []])


def test_non_positive_fork_statistic_in_a_ratio_is_an_error():
    with pytest.raises(ValueError, match=r"fork 1 of a has non-positive mean .*log"):
        stats.ratio([[1.0, 2.0], [-3.0, 1.0]], [[1.0], [1.0]])
    with pytest.raises(ValueError, match="fork 0 of b has non-positive median"):
        stats.ratio([[1.0], [1.0]], [[0.0, 0.0, 5.0], [1.0]], statistic="median")
    with pytest.raises(ValueError, match="fork 0 of a has non-positive std"):
        stats.ratio([[2.0, 2.0], [1.0, 3.0]], [[1.0, 2.0], [1.0, 3.0]], statistic="std")


def test_one_unit_gives_a_value_but_no_interval():
    est = stats.ratio([[3.0, 5.0]], [[2.0, 2.0]])
    assert est.value == pytest.approx(2.0) and est.n == 1
    assert math.isnan(est.low) and math.isnan(est.high)
    unpaired = stats.ratio([[3.0, 5.0], [4.0]], [[2.0, 2.0]], paired=False)
    assert unpaired.value == pytest.approx(2.0) and unpaired.n == 1 and math.isnan(unpaired.low)
    loc = stats.location([[1.0, 2.0, 3.0]])
    assert loc.value == 2.0 and loc.n == 1 and math.isnan(loc.low) and math.isnan(loc.high)


def test_no_units_give_nan_throughout():
    for est in (
        stats.ratio([], []),
        stats.ratio([[1.0]], [], paired=False),
        stats.location([]),
    ):
        assert est.n == 0
        assert all(math.isnan(v) for v in (est.value, est.low, est.high))


def test_std_of_a_single_sample_fork_is_nan():
    est = stats.location([[1.0, 2.0], [3.0]], statistic="std")
    assert est.n == 2 and math.isnan(est.value) and math.isnan(est.low)
    ratio = stats.ratio([[1.0, 2.0], [3.0, 5.0]], [[1.0, 2.0], [3.0]], statistic="std")
    assert ratio.n == 2 and math.isnan(ratio.value)


def test_estimate_serialises_without_nan():
    d = stats.location([[1.0, 2.0]]).to_dict()
    assert d == {"value": 1.5, "low": None, "high": None, "n": 1}


def test_paired_interval_is_the_t_interval_of_the_per_round_log_ratios():
    a = [[3.0, 3.2], [2.0], [2.6, 2.4, 2.5], [3.3]]
    b = [[1.0], [1.1, 0.9], [1.2], [1.5, 1.4]]
    logs = np.log([np.mean(x) / np.mean(y) for x, y in zip(a, b)])
    half = scipy.stats.t.ppf(0.975, len(logs) - 1) * np.std(logs, ddof=1) / math.sqrt(len(logs))
    est = stats.ratio(a, b)
    assert est.n == 4
    assert est.value == pytest.approx(math.exp(logs.mean()))
    assert (est.low, est.high) == pytest.approx((math.exp(logs.mean() - half), math.exp(logs.mean() + half)))


def test_location_interval_is_the_t_interval_of_the_per_fork_values():
    groups = [[10.0, 12.0], [9.0], [11.0, 11.5, 10.5]]
    means = np.array([11.0, 9.0, 11.0])
    half = scipy.stats.t.ppf(0.975, 2) * np.std(means, ddof=1) / math.sqrt(3)
    est = stats.location(groups)
    assert (est.value, est.n) == (pytest.approx(means.mean()), 3)
    assert (est.low, est.high) == pytest.approx((means.mean() - half, means.mean() + half))


def test_two_units_give_the_wide_interval_their_one_degree_of_freedom_allows():
    # t(0.975, 1) = 12.7: two rounds hardly bound a ratio, which is what the claims call underpowered.
    est = stats.ratio([[2.0], [2.2]], [[1.0], [1.0]])
    assert est.high / est.low > 3


def test_jvm_spread_recovers_the_per_jvm_sd_of_an_aa_pair():
    rng = np.random.default_rng(22)
    sd, rounds_ = 0.08, 400
    a = [[np.exp(rng.normal(0, sd))] for _ in range(rounds_)]
    b = [[np.exp(rng.normal(0, sd))] for _ in range(rounds_)]
    assert stats.jvm_spread(stats.ratio(a, b)) == pytest.approx(sd, rel=0.1)
    assert math.isnan(stats.jvm_spread(stats.ratio(a[:1], b[:1])))
