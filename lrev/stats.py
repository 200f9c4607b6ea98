"""Point estimates with confidence intervals that keep their coverage at the number of forks a run has.

Measurements are taken in forks (separate JVM processes, each with several timed iterations). The
between-fork level dominates the noise (JIT decisions, heap layout and code alignment are fixed per
process) and a run has few forks: 3 to 8 per contender. So every interval here is built on one value
per fork (its statistic over its iterations), never on pooled iterations, and is a Student-t interval
with n - 1 degrees of freedom: it is exact when the per-fork values are normal (log-normal, for ratios)
and keeps its nominal coverage at n = 3, where a percentile bootstrap of 3 values covers about 70%
(``tests/test_stats_coverage.py`` proves both by simulation). The within-fork noise needs no level of
its own: it is already in the spread of the per-fork values.

With three rounds t has two degrees of freedom, and many cells of a study share a mechanism of noise:
:func:`fit_prior` fits Smyth's (2004) empirical-Bayes prior to a group of cells' variances, and :func:`half_width`
gives each cell its moderated interval (:mod:`lrev.claims` says which cells form a group, and checks the coverage
by simulation, :func:`coverage_by_cell`, before it uses one).

Ratios are estimated on the log scale: the paired ratio is the geometric mean of per-round ratios,
which is symmetric (a/b and b/a are reciprocals) and is the right average for multiplicative
speed-ups; its interval is the t interval of the per-round log ratios, exponentiated.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass, replace
from functools import partial
from typing import Callable, Literal, Sequence

import numpy as np
import scipy.special
import scipy.stats

CONFIDENCE = 0.95

Statistic = Literal["mean", "median", "std"]

STATISTICS: dict[str, Callable[..., np.ndarray]] = {
    "mean": np.mean,
    "median": np.median,
    # Sample standard deviation: the variance claims compare spreads of samples.
    "std": partial(np.std, ddof=1),
}


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a two-sided confidence interval (NaN when undefined) over ``n`` units."""

    value: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int | None]:
        """JSON-ready form: NaN becomes ``None`` because JSON (and Typst) has no NaN."""
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class Spread:
    """Percentile summary of a latency-like sample."""

    median: float
    p90: float
    std: float
    n: int


def _clean(values: Sequence[float] | np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=float)


def _forks(groups: Sequence[Sequence[float]] | np.ndarray, side: str) -> list[np.ndarray]:
    """One float array per fork; an empty or non-1-D fork is an error naming its index and side."""
    forks = []
    for i, samples in enumerate(groups):
        x = _clean(samples)
        if x.ndim != 1:
            raise ValueError(f"fork {i} of {side} must be a 1-D sequence of samples, got shape {x.shape}")
        if x.size == 0:
            raise ValueError(f"fork {i} of {side} has no samples")
        forks.append(x)
    return forks


def _fork_values(forks: list[np.ndarray], fn: Callable[..., np.ndarray]) -> np.ndarray:
    """Per-fork statistic of the observed samples (NaN for std of a 1-sample fork)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.array([fn(x) for x in forks], dtype=float)


def _check_positive(values: np.ndarray, side: str, statistic: str) -> None:
    bad = np.flatnonzero(values <= 0)
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"fork {i} of {side} has non-positive {statistic} {values[i]!r}: its log is undefined"
        )


def _flat(values: np.ndarray) -> bool:
    """All equal up to rounding: a t interval of zero spread is undefined, the estimate exact."""
    return bool(np.ptp(values) <= 1e-12 * max(1.0, float(np.max(np.abs(values)))))


def t_interval(values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Student-t interval of the mean of ``values`` (n - 1 degrees of freedom); NaN for fewer than two."""
    x = _clean(values)
    if x.size < 2:
        return math.nan, math.nan
    if _flat(x):
        mean = float(np.mean(x))
        return mean, mean
    ci = scipy.stats.ttest_1samp(x, 0.0).confidence_interval(confidence_level=confidence)
    return float(ci.low), float(ci.high)


def ratio(
    a: Sequence[Sequence[float]] | np.ndarray,
    b: Sequence[Sequence[float]] | np.ndarray,
    *,
    statistic: Statistic = "mean",
    paired: bool = True,
    confidence: float = CONFIDENCE,
) -> Estimate:
    """Ratio of per-fork statistics of A over B, with a t interval on the log scale.

    ``a[i]`` holds the iteration samples of one fork of contender A, ``b[i]`` likewise for B; each
    fork is reduced to ``STATISTICS[statistic]`` of its samples. With ``paired=True`` unit i is round
    i, in which A and B each got one fork, so ``a`` and ``b`` must have the same length; the value is
    the geometric mean of the per-round ratios (drift shared by a round cancels) and the interval the
    t interval of the per-round log ratios. With ``paired=False`` the forks of each side are
    independent; the value is exp(mean log stat(a) - mean log stat(b)), the interval Welch's, and
    ``n`` the smaller number of forks.

    Fewer than two units give the value with a NaN interval: between-fork variance cannot be
    estimated from a single fork. No units give NaN throughout. A fork without samples, or a
    non-positive per-fork statistic (its log is undefined), is a ``ValueError``;
    ``statistic="std"`` with a fork of fewer than two samples gives a NaN estimate.
    """
    fa, fb = _forks(a, "a"), _forks(b, "b")
    if paired and len(fa) != len(fb):
        raise ValueError(f"paired fork lists differ in length: a has {len(fa)} units, b has {len(fb)}")
    fn = STATISTICS[statistic]
    n = min(len(fa), len(fb))
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    va, vb = _fork_values(fa, fn), _fork_values(fb, fn)
    if np.isnan(va).any() or np.isnan(vb).any():
        return Estimate(math.nan, math.nan, math.nan, n)
    _check_positive(va, "a", statistic)
    _check_positive(vb, "b", statistic)
    if paired:
        logs = np.log(va / vb)
        value = math.exp(float(np.mean(logs)))
        low, high = t_interval(logs, confidence)
    else:
        la, lb = np.log(va), np.log(vb)
        value = math.exp(float(np.mean(la) - np.mean(lb)))
        low, high = _welch_interval(la, lb, confidence)
    return Estimate(value, math.exp(low), math.exp(high), n)


def _welch_interval(x: np.ndarray, y: np.ndarray, confidence: float) -> tuple[float, float]:
    """Welch's interval of mean(x) - mean(y); NaN when a side has fewer than two values."""
    if x.size < 2 or y.size < 2:
        return math.nan, math.nan
    if _flat(x) and _flat(y):
        d = float(np.mean(x) - np.mean(y))
        return d, d
    ci = scipy.stats.ttest_ind(x, y, equal_var=False).confidence_interval(confidence_level=confidence)
    return float(ci.low), float(ci.high)


def location(
    groups: Sequence[Sequence[float]] | np.ndarray,
    *,
    statistic: Statistic = "mean",
    confidence: float = CONFIDENCE,
    log: bool = False,
) -> Estimate:
    """Mean over forks of a per-fork statistic, with the t interval of the per-fork values.

    ``groups[i]`` holds the iteration samples of fork i; ``n`` is the number of forks. Fewer than two
    forks give a NaN interval; an empty fork is a ``ValueError``; ``statistic="std"`` with a fork of
    fewer than two samples gives NaN. With ``log=True`` (a positive, multiplicative quantity such as a
    latency) the value is the geometric mean over forks and the interval the t interval of the log
    values, exponentiated: at three forks of widely spread latencies a plain t interval reaches below
    zero, which no latency can; a non-positive per-fork value is then a ``ValueError``.
    """
    forks = _forks(groups, "groups")
    n = len(forks)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    values = _fork_values(forks, STATISTICS[statistic])
    if np.isnan(values).any():
        return Estimate(math.nan, math.nan, math.nan, n)
    if log:
        _check_positive(values, "groups", statistic)
        low, high = t_interval(np.log(values), confidence)
        return Estimate(math.exp(float(np.mean(np.log(values)))), math.exp(low), math.exp(high), n)
    low, high = t_interval(values, confidence)
    return Estimate(float(np.mean(values)), low, high, n)


def share(est: Estimate) -> Estimate:
    """The estimate of a share of a whole with its interval cut to [0, 1], which the share cannot leave (a t
    interval over three spread runs does)."""
    return replace(est, low=min(max(est.low, 0.0), 1.0), high=max(min(est.high, 1.0), 0.0))


def sequential_confidence(looks: int, confidence: float = CONFIDENCE) -> float:
    """The confidence each interval needs when a run may look at its growing data ``looks`` times and stop at the
    first look that decides: Bonferroni's split of the error over the looks, valid however the looks depend on
    each other, so that the verdict finally drawn is wrong with probability at most ``1 - confidence``."""
    if looks < 1:
        raise ValueError(f"looks must be at least 1, got {looks}")
    return 1 - (1 - confidence) / looks


def jvm_spread(aa: Estimate, confidence: float = CONFIDENCE) -> float:
    """The spread of one JVM (sd of its log per-fork value) that a paired A/A ratio's t interval implies.

    s, the sd of the per-round log ratios of two JVMs of one contender (:func:`log_spread`), carries the variance
    of both; each JVM contributes half of it, so one has sd s / sqrt(2)."""
    return log_spread(aa, confidence) / math.sqrt(2)


@dataclass(frozen=True)
class Prior:
    """Smyth's (2004) prior for the variances of a group of cells: a scaled inverse-chi-squared with ``df`` (d0)
    degrees of freedom and scale ``scale`` (s0²), fitted on ``cells`` cells. ``df`` is 0 when nothing is borrowed
    and infinite when the cells' variances differ no more than sampling alone would make them."""

    df: float
    scale: float
    cells: int

    def to_dict(self) -> dict[str, float | int | None]:
        return {"d0": None if math.isinf(self.df) else self.df, "s0": math.sqrt(self.scale), "cells": self.cells}


#: No prior: each cell's interval is its own t interval.
NO_PRIOR = Prior(0.0, 1.0, 0)


def _trigamma_inverse(y: float) -> float:
    """x with trigamma(x) = y (y > 0), by Newton's method from Smyth's starting point, as limma does."""
    x = 0.5 + 1 / y
    for _ in range(50):
        tri = float(scipy.special.polygamma(1, x))
        step = tri * (1 - tri / y) / float(scipy.special.polygamma(2, x))
        x += step
        if -step / x < 1e-8:
            break
    return x


def fit_prior(variances: Sequence[float], dfs: Sequence[float]) -> Prior:
    """Smyth's (2004, section 6) moment estimator of the prior of ``variances`` (each a cell's sample variance with
    ``dfs`` degrees of freedom), as limma's ``fitFDist`` computes it without a covariate: on the log scale, the
    variances' spread beyond what their chi-squared sampling alone gives is trigamma(d0/2). Cells without a
    positive finite variance are left out; fewer than three cells give no prior."""
    x, d = np.asarray(variances, dtype=float), np.asarray(dfs, dtype=float)
    keep = np.isfinite(x) & (x > 0) & np.isfinite(d) & (d > 0)
    x, d = x[keep], d[keep]
    if x.size < 3:
        return Prior(0.0, float(np.mean(x)) if x.size else 1.0, int(x.size))
    e = np.log(x) - scipy.special.digamma(d / 2) + np.log(d / 2)
    excess = float(np.var(e, ddof=1) - np.mean(scipy.special.polygamma(1, d / 2)))
    if excess <= 0:
        # The variances differ no more than sampling explains: one pooled variance (its MLE), as limma since 2017.
        return Prior(math.inf, float(np.sum(d * x) / np.sum(d)), int(x.size))
    d0 = 2 * _trigamma_inverse(excess)
    return Prior(d0, float(math.exp(np.mean(e) + scipy.special.digamma(d0 / 2) - math.log(d0 / 2))), int(x.size))


def log_spread(est: Estimate, confidence: float = CONFIDENCE) -> float:
    """The sd of the per-unit log values that a log-scale t interval over ``est.n`` units implies (NaN without one)."""
    if est.n < 2 or math.isnan(est.low) or math.isnan(est.high) or est.low <= 0:
        return math.nan
    half = (math.log(est.high) - math.log(est.low)) / 2
    return half * math.sqrt(est.n) / float(scipy.stats.t.ppf(0.5 + confidence / 2, est.n - 1))


def p_value(est: Estimate, confidence: float = CONFIDENCE) -> float:
    """Two-sided p of a log-scale t interval's estimate against 1 (no difference), on ``est.n - 1`` degrees of
    freedom: the test that interval inverts. NaN without an interval; 0 for an exact estimate other than 1."""
    s = log_spread(est, confidence)
    if math.isnan(s):
        return math.nan
    if s == 0:
        return 1.0 if est.value == 1 else 0.0
    t = math.log(est.value) / (s / math.sqrt(est.n))
    return float(2 * scipy.stats.t.sf(abs(t), est.n - 1))


#: A cell whose variance is this improbable or less under its group's prior (upper tail of s²/s0² ~ F(d, d0)) is
#: taken as hypervariable and keeps its own t interval: a simplified form of Phipson et al.'s robust empirical Bayes
#: (2016), which lets outlying cells borrow less. Chosen by tests/test_moderation_coverage.py: without it the
#: noisiest tenth of this machine's cells is covered less than 90% of the time at three rounds.
HYPERVARIABLE = 0.2


def hypervariable(variance: np.ndarray | float, d: np.ndarray | float, prior: Prior) -> np.ndarray:
    """Whether each cell's variance lies in the upper :data:`HYPERVARIABLE` tail its prior gives it."""
    variance, d = np.asarray(variance, dtype=float), np.asarray(d, dtype=float)
    if prior.df == 0:
        return np.zeros(variance.shape, dtype=bool)
    if math.isinf(prior.df):
        tail = scipy.stats.chi2.sf(d * variance / prior.scale, d)
    else:
        tail = scipy.stats.f.sf(variance / prior.scale, d, prior.df)
    return tail < HYPERVARIABLE


def half_width(variance: np.ndarray | float, d: np.ndarray | float, n: np.ndarray | float, prior: Prior,
               confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """The half-width of the interval of a mean over ``n`` units whose sample variance ``variance`` has ``d`` degrees
    of freedom, with Smyth's posterior variance (d0·s0² + d·s²)/(d0 + d) and t on d0 + d degrees of freedom (the
    normal interval with s0² for an infinite d0); the plain t interval for a prior that borrows nothing and for a
    :func:`hypervariable` cell. Returns it and its degrees of freedom, vectorised over cells."""
    variance, d, n = (np.asarray(a, dtype=float) for a in (variance, d, n))
    if math.isinf(prior.df):
        post, df = np.full_like(variance, prior.scale), np.full_like(variance, math.inf)
    else:
        post, df = (prior.df * prior.scale + d * variance) / (prior.df + d), prior.df + d
    own = hypervariable(variance, d, prior)
    post, df = np.where(own, variance, post), np.where(own, d, df)
    quantile = np.where(np.isinf(df), scipy.stats.norm.ppf(0.5 + confidence / 2),
                        scipy.stats.t.ppf(0.5 + confidence / 2, np.where(np.isinf(df), 1.0, df)))
    return quantile * np.sqrt(post / n), df


def moderate(est: Estimate, prior: Prior, confidence: float = CONFIDENCE) -> tuple[Estimate, float]:
    """``est`` (a log-scale t interval over its units) with Smyth's moderated interval (:func:`half_width`) in place
    of its own, around the same estimate; and its degrees of freedom. An estimate without an interval, or a prior
    that borrows nothing, is returned as it is."""
    s = log_spread(est, confidence)
    if math.isnan(s) or prior.df == 0:
        return est, float(est.n - 1)
    half, df = half_width(s * s, est.n - 1, est.n, prior, confidence)
    centre = math.log(est.value)
    return replace(est, low=math.exp(centre - float(half)), high=math.exp(centre + float(half))), float(df)


def moderated_half_width(variance: np.ndarray, d: np.ndarray, n: np.ndarray,
                         confidence: float = CONFIDENCE) -> np.ndarray:
    """Each cell's half-width with the prior fitted on all of them: what :mod:`lrev.claims` gives a group."""
    return half_width(variance, d, n, fit_prior(variance, d), confidence)[0]


def coverage_by_cell(sds: Sequence[float], n: Sequence[int],
                     half: Callable[[np.ndarray, np.ndarray, np.ndarray, float], np.ndarray] = moderated_half_width,
                     confidence: float = CONFIDENCE, replicates: int = 1000, seed: int = 0) -> np.ndarray:
    """How often each cell's interval covers its truth when the cells' true per-unit sds are ``sds`` and cell i has
    ``n[i]`` units: each replicate draws every cell's normal values and builds the cells' half-widths from their
    variances, degrees of freedom and units with ``half`` (by default :func:`moderated_half_width`). An interval
    moves with its centre, so the truth is drawn at zero without loss."""
    sds, n = np.asarray(sds, dtype=float), np.asarray(n, dtype=int)
    rng = np.random.default_rng(seed)
    top = int(n.max())
    x = rng.normal(0.0, sds[None, :, None], (replicates, sds.size, top))
    # Cell i keeps its first n[i] values.
    used = np.arange(top)[None, None, :] < n[None, :, None]
    mean = np.where(used, x, 0.0).sum(axis=2) / n
    variance = (np.where(used, x - mean[..., None], 0.0) ** 2).sum(axis=2) / (n - 1)
    d = (n - 1).astype(float)
    hits = np.empty(mean.shape, dtype=bool)
    for r in range(replicates):
        hits[r] = np.abs(mean[r]) <= half(variance[r], d, n, confidence)
    return hits.mean(axis=0)


def noise_floor(low: float, high: float) -> float:
    """Symmetric A/A noise factor f >= 1 from an A/A ratio's CI: ratios inside [1/f, f] are
    indistinguishable from noise.

    Taken from the CI's farther bound, so it covers both the sampling noise and any systematic bias
    between two JVMs measuring the same thing.
    """
    if math.isnan(low) or math.isnan(high):
        return math.nan
    return float(math.exp(max(abs(math.log(low)), abs(math.log(high)))))


def spread(x: Sequence[float] | np.ndarray) -> Spread:
    """Median, 90th percentile and sample standard deviation (NaN std for n<2)."""
    x = _clean(x)
    if x.size == 0:
        return Spread(math.nan, math.nan, math.nan, 0)
    std = float(np.std(x, ddof=1)) if x.size > 1 else math.nan
    return Spread(float(np.median(x)), float(np.percentile(x, 90)), std, int(x.size))


def json_safe(obj: object) -> object:
    """Replace NaN/inf floats by ``None`` recursively: JSON, and Typst reading it, have no NaN."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, np.generic):
        return json_safe(obj.item())
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj
