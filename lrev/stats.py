"""Point estimates with bootstrap confidence intervals, shared by every study.

Why bootstrap: benchmark samples are skewed (GC pauses, JIT hiccups) and come
in small numbers per condition, so normal-theory intervals would be optimistic.
A fixed seed makes re-running the analysis on the same results yield the very
same numbers in the paper.

Ratios are estimated on the log scale: the paired ratio is the geometric mean
of per-pair ratios, which is symmetric (a/b and b/a are reciprocals) and is the
right average for multiplicative speed-ups.

Measurements taken in forks (separate JVM processes, each with several timed
iterations) have two levels of noise, and the between-fork level dominates
(JIT decisions, heap layout and code alignment are fixed per process). Treating
the pooled iterations as independent would give far too narrow intervals, so
the ``hierarchical_*`` estimators resample forks first and iterations within
each fork second.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass
from functools import partial
from typing import Callable, Literal, Sequence

import numpy as np

SEED = 20110630
"""Bootstrap seed (the date of the MemoryCodec blog post): fixed for reproducibility."""

CONFIDENCE = 0.95
N_RESAMPLES_HIERARCHICAL = 4000
"""Two-stage resamples: ~100 draws beyond each 95% endpoint keep it stable while a call stays well under 0.2 s."""

Statistic = Literal["mean", "median", "std"]

STATISTICS: dict[str, Callable[..., np.ndarray]] = {
    "mean": np.mean,
    "median": np.median,
    # Sample standard deviation: the variance claims compare spreads of samples.
    "std": partial(np.std, ddof=1),
}


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a two-sided confidence interval (NaN when undefined)."""

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
            f"fork {i} of {side} has non-positive {statistic} {values[i]!r}: its log ratio is undefined"
        )


def _median_by_sort(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Same numbers as :func:`numpy.median`; on many short rows numpy's sort beats its partition ~8x."""
    s = np.sort(x, axis=axis)
    m = s.shape[axis]
    return (np.take(s, (m - 1) // 2, axis=axis) + np.take(s, m // 2, axis=axis)) / 2


_ROW_STATISTICS: dict[str, Callable[..., np.ndarray]] = {**STATISTICS, "median": _median_by_sort}
"""``STATISTICS`` for the many rows of stage two of the hierarchical bootstrap."""


def _resampled_fork_values(
    forks: list[np.ndarray],
    units: np.ndarray,
    statistic: Statistic,
    rng: np.random.Generator,
) -> np.ndarray:
    """Stage two: for every drawn unit, resample its fork's samples and recompute the statistic.

    ``units`` holds drawn fork indices (any shape); the result has the same
    shape. Forks are grouped by size so each group is one vectorised draw of
    shape (draws, size); groups are visited in size order, which keeps the
    random stream, and so the interval, deterministic.
    """
    fn = _ROW_STATISTICS[statistic]
    sizes = np.array([x.size for x in forks])
    width = int(sizes.max())
    padded = np.zeros((len(forks), width))
    for i, x in enumerate(forks):
        padded[i, : x.size] = x
    padded = padded.ravel()
    flat = units.ravel()
    out = np.empty(flat.shape)
    for size in np.unique(sizes):
        where = np.flatnonzero(sizes[flat] == size)
        if where.size == 0:
            continue
        picks = rng.integers(0, size, size=(where.size, int(size)))
        out[where] = fn(padded.take(flat[where, None] * width + picks), axis=1)
    return out.reshape(units.shape)


def _percentile_interval(boot: np.ndarray, confidence: float) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates; NaN if any replicate is undefined.

    Replicates may be infinite (a resampled std of zero has log -inf); linear
    interpolation next to an infinity is undefined, so the bound then falls
    back to the outer order statistic, which can only widen the interval.
    """
    if np.isnan(boot).any():
        return math.nan, math.nan
    alpha = (1 - confidence) / 2
    with np.errstate(invalid="ignore"):
        low, high = np.quantile(boot, [alpha, 1 - alpha])
    if not np.isfinite(low):
        low = np.quantile(boot, alpha, method="lower")
    if not np.isfinite(high):
        high = np.quantile(boot, 1 - alpha, method="higher")
    return float(low), float(high)


def hierarchical_ratio(
    a: Sequence[Sequence[float]] | np.ndarray,
    b: Sequence[Sequence[float]] | np.ndarray,
    *,
    statistic: Statistic = "mean",
    paired: bool = True,
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES_HIERARCHICAL,
) -> Estimate:
    """Ratio of per-fork statistics of A over B with a two-level bootstrap CI.

    ``a[i]`` holds the iteration samples of one fork of contender A, ``b[i]``
    likewise for B; each fork is reduced to ``STATISTICS[statistic]`` of its
    samples. With ``paired=True`` unit i is round i, in which A and B each got
    one fork, so ``a`` and ``b`` must have the same length; the value is the
    geometric mean of the per-round ratios, and drift shared by a round
    cancels. With ``paired=False`` the forks of each side are independent; the
    value is exp(mean log stat(a) - mean log stat(b)) and ``n`` is the smaller
    number of forks.

    The interval is a percentile bootstrap with two stages per resample:
    (1) draw units with replacement (one draw of round indices shared by A and
    B when paired, separate draws otherwise); (2) within each drawn fork,
    redraw its samples with replacement and recompute its statistic. Resampling
    both levels is slightly conservative (within-fork noise already shows in
    the spread between forks and is added once more), which we prefer to an
    optimistic interval. It is written by hand because
    :func:`scipy.stats.bootstrap` resamples one level only: resampling pooled
    iterations ignores the dominant between-fork variance, and resampling fork
    statistics ignores the within-fork noise. BCa is not used: its jackknife
    acceleration has no standard two-level form.

    Fewer than two units give the value with a NaN interval: between-fork
    variance cannot be estimated from a single fork. No units give NaN
    throughout. A fork without samples, or a non-positive per-fork statistic
    (its log is undefined), is a ``ValueError``; ``statistic="std"`` with a
    fork of fewer than two samples gives a NaN estimate. If any resample
    divides a zero resampled std by another zero, the interval is NaN.
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
        log_value = float(np.mean(np.log(va / vb)))
    else:
        log_value = float(np.mean(np.log(va)) - np.mean(np.log(vb)))
    value = math.exp(log_value)
    if n < 2:
        return Estimate(value, math.nan, math.nan, n)

    rng = np.random.default_rng(SEED)
    units_a = rng.integers(0, len(fa), size=(n_resamples, len(fa)))
    units_b = units_a if paired else rng.integers(0, len(fb), size=(n_resamples, len(fb)))
    with np.errstate(divide="ignore", invalid="ignore"):
        log_a = np.log(_resampled_fork_values(fa, units_a, statistic, rng))
        log_b = np.log(_resampled_fork_values(fb, units_b, statistic, rng))
        if paired:
            boot = np.mean(log_a - log_b, axis=1)
        else:
            boot = np.mean(log_a, axis=1) - np.mean(log_b, axis=1)
    if np.ptp(boot) <= 1e-12:  # identical up to rounding, on the log scale
        return Estimate(value, value, value, n)
    low, high = _percentile_interval(boot, confidence)
    return Estimate(value, math.exp(low), math.exp(high), n)


def hierarchical_location(
    groups: Sequence[Sequence[float]] | np.ndarray,
    *,
    statistic: Statistic = "mean",
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES_HIERARCHICAL,
) -> Estimate:
    """Mean over forks of a per-fork statistic, with a two-level bootstrap CI.

    ``groups[i]`` holds the iteration samples of fork i; the value is the mean
    over forks of ``STATISTICS[statistic]`` of each fork, and ``n`` is the
    number of forks. The interval resamples forks, then iterations within each
    drawn fork, as in :func:`hierarchical_ratio` (hand-written for the same
    reason: :func:`scipy.stats.bootstrap` resamples one level only). Fewer
    than two forks give a NaN interval, since between-fork variance cannot be
    estimated from one fork; an empty fork is a ``ValueError``;
    ``statistic="std"`` with a fork of fewer than two samples gives NaN.
    """
    forks = _forks(groups, "groups")
    fn = STATISTICS[statistic]
    n = len(forks)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    values = _fork_values(forks, fn)
    if np.isnan(values).any():
        return Estimate(math.nan, math.nan, math.nan, n)
    value = float(np.mean(values))
    if n < 2:
        return Estimate(value, math.nan, math.nan, n)
    rng = np.random.default_rng(SEED)
    units = rng.integers(0, n, size=(n_resamples, n))
    boot = np.mean(_resampled_fork_values(forks, units, statistic, rng), axis=1)
    if np.ptp(boot) <= 1e-12 * abs(value):
        return Estimate(value, value, value, n)
    low, high = _percentile_interval(boot, confidence)
    return Estimate(value, low, high, n)


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
