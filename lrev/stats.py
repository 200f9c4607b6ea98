"""Point estimates with bootstrap confidence intervals, shared by every study.

Why bootstrap: benchmark samples are skewed (GC pauses, JIT hiccups) and come
in small numbers per condition, so normal-theory intervals would be optimistic.
All intervals come from :func:`scipy.stats.bootstrap` (BCa by default) with a
fixed seed, so re-running the analysis on the same results yields the very same
numbers in the paper.

Ratios are estimated on the log scale: the paired ratio is the geometric mean
of per-pair ratios, which is symmetric (a/b and b/a are reciprocals) and is the
right average for multiplicative speed-ups.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass
from functools import partial
from typing import Callable, Literal, Sequence

import numpy as np
from scipy import stats

SEED = 20110630
"""Bootstrap seed (the date of the MemoryCodec blog post): fixed for reproducibility."""

CONFIDENCE = 0.95
N_RESAMPLES = 9999

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


def _interval(
    data: tuple[np.ndarray, ...],
    statistic: Callable[..., np.ndarray],
    *,
    confidence: float,
    n_resamples: int,
) -> tuple[float, float]:
    """Bootstrap CI; BCa first, percentile if BCa is undefined for this sample.

    BCa needs a non-degenerate jackknife; with very few or heavily tied samples
    scipy returns NaN and warns, and the percentile interval is the honest
    fallback rather than no interval at all.
    """
    for method in ("BCa", "percentile"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            ci = stats.bootstrap(
                data,
                statistic,
                vectorized=True,
                paired=False,
                confidence_level=confidence,
                n_resamples=n_resamples,
                method=method,
                rng=np.random.default_rng(SEED),
            ).confidence_interval
        if np.isfinite(ci.low) and np.isfinite(ci.high):
            return float(ci.low), float(ci.high)
    return math.nan, math.nan


def _clean(values: Sequence[float] | np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=float)


def paired_ratio(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES,
) -> Estimate:
    """Geometric mean of ``a[i] / b[i]`` with a bootstrap CI over the pairs.

    ``a`` and ``b`` must be aligned: element i of both comes from the same
    (fork, round) of one interleaved run, so run-level drift cancels in the
    ratio. Fewer than two pairs gives a NaN interval.
    """
    a, b = _clean(a), _clean(b)
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in length: {a.shape} vs {b.shape}")
    logs = np.log(a / b)
    n = logs.size
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    value = float(np.exp(logs.mean()))
    if n < 2:
        return Estimate(value, math.nan, math.nan, n)
    if np.ptp(logs) == 0:
        return Estimate(value, value, value, n)
    low, high = _interval((logs,), np.mean, confidence=confidence, n_resamples=n_resamples)
    return Estimate(value, math.exp(low), math.exp(high), n)


def unpaired_ratio(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    statistic: Statistic = "mean",
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES,
) -> Estimate:
    """``statistic(a) / statistic(b)`` with a two-sample bootstrap CI.

    For samples from different runs (other corpus, thread count, or separate
    indexing sessions) where no pairing exists; each sample is resampled on
    its own. ``n`` is the smaller sample size. Either side with fewer than two
    samples gives a NaN interval.
    """
    a, b = _clean(a), _clean(b)
    fn = STATISTICS[statistic]
    n = int(min(a.size, b.size))
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    if statistic == "std" and n < 2:
        return Estimate(math.nan, math.nan, math.nan, n)
    value = float(fn(a) / fn(b))
    if n < 2:
        return Estimate(value, math.nan, math.nan, n)
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        return Estimate(value, value, value, n)

    def ratio(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        return fn(x, axis=axis) / fn(y, axis=axis)

    low, high = _interval((a, b), ratio, confidence=confidence, n_resamples=n_resamples)
    return Estimate(value, low, high, n)


def location(
    x: Sequence[float] | np.ndarray,
    *,
    statistic: Statistic = "mean",
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES,
) -> Estimate:
    """Mean (or median, std) of one sample with a bootstrap CI."""
    x = _clean(x)
    fn = STATISTICS[statistic]
    n = int(x.size)
    if n == 0 or (statistic == "std" and n < 2):
        return Estimate(math.nan, math.nan, math.nan, n)
    value = float(fn(x))
    if n < 2:
        return Estimate(value, math.nan, math.nan, n)
    if np.ptp(x) == 0:
        return Estimate(value, value, value, n)
    low, high = _interval((x,), fn, confidence=confidence, n_resamples=n_resamples)
    return Estimate(value, low, high, n)


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
