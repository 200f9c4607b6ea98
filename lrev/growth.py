"""Growth of a measured quantity with index size, and its value at a size the run did not reach.

The unit is the round, as in every comparison (:mod:`lrev.rounds`): each round measured every size of a
ladder, so each round gives its own least-squares line through its (size, value) points. That line's value
at the target size is the round's prediction, and the interval is Student-t over the rounds' predictions.
It carries both the scatter at each size and the fit's leverage (a far target multiplies that scatter)
without a model of either, and keeps its nominal coverage at the n of rounds as any t interval over
independent units does (tests/test_growth.py simulates it).

Models (``MODELS``):

- ``loglog``: log value linear in log size, a power law; the default where the seed states no mechanism;
- ``linear``: value linear in size, for a mechanism that walks the documents (cost proportional to them);
- ``ratio-linear``: a ratio a ÷ b whose two sides are each linear in size (:func:`fit_ratio`), for two costs that
  both walk what grows with the index, each with a fixed part: the ratio rises from the fixed parts' ratio towards
  the slopes', a curve that neither line above describes. Each round's two lines give its pair of values at the
  target; the ratio of their means has Fieller's interval (:func:`fieller`), paired by round.
- ``walk``: a ratio a ÷ b whose side a walks the segment from its start on every read, at a cost per read that the
  study measures directly against the docID (its ``walk`` quantity: how much a's cost per request grows per unit of
  size, in each round's fork, at the ladder's top size), while side b reads in constant time (:func:`fit_walk`).
  Each round's ratio at size S is (a + w (S - top)) ÷ b from its own a, b and w at the top size, so the
  prediction rests on the mechanism's slope, measured over thousands of reads, and not on the ladder's few noisy
  ratios; the ladder's other sizes check it. Interval: Student-t over the rounds' log predictions.

Lack of fit: each round's quadratic coefficient (in the model's coordinates) measures how its points bend
away from a line; the fit describes the ladder unless the t interval of that coefficient over rounds excludes
zero (under ``ratio-linear``, on either side, each at the fit's confidence; under ``walk``, the t interval of the
rounds' relative miss 1 - predicted ÷ measured ratio at each size below the top one: a false alarm only withholds
the verdict, a missed bend would judge a wrong curve, so the check keeps its power and true lines are withheld up to
twice the nominal rate). With three rounds it is weak: "describes" means no evidence of a bend, not evidence of a
line. Two sizes fit any line exactly, so with two the fit cannot be checked, and :class:`Fit` says so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.stats

from lrev import stats

MODELS = ("loglog", "linear", "ratio-linear", "walk")
#: The models fitted to a ratio's two sides, not to the ratio (:func:`fit_ratio`, :func:`fit_walk`).
SIDED = ("ratio-linear", "walk")


class GrowthError(ValueError):
    """A ladder that cannot be fitted under its model."""


@dataclass(frozen=True)
class Fit:
    """Per-round lines of one quantity against size, and what they predict at ``target``."""

    model: str
    sizes: tuple[float, ...]
    target: float
    #: The value at ``target`` (geometric mean over rounds under loglog and walk, arithmetic under linear, the ratio
    #: of the sides' means under ratio-linear), with its interval.
    prediction: stats.Estimate
    #: d log value / d log size under loglog, d value / d size under linear; under ratio-linear, d log ratio / d log
    #: size at ``target`` (how fast the ratio still grows there, 0 once both sides are proportional to size), NaN
    #: where a round's side is not positive there; under walk, w ÷ b, the ratio's growth per unit of size.
    slope: stats.Estimate
    #: The rounds' quadratic coefficient over the ladder's span scaled to [0, 1]: one, or one per side under
    #: ratio-linear; empty with two sizes. Under walk, the rounds' relative miss at each size below the top one.
    curvature: tuple[stats.Estimate, ...]
    #: Each round's (slope, intercept) in the model's coordinates, side a's then side b's under ratio-linear; under
    #: walk, (w, a, b, top size).
    lines: tuple[tuple[float, ...], ...]

    @property
    def beyond_ladder(self) -> bool:
        return not min(self.sizes) <= self.target <= max(self.sizes)

    @property
    def describes(self) -> bool | None:
        """Whether a line describes the measured sizes: None when two sizes, or fewer than two complete rounds, leave
        nothing to check it by (no interval of the curvature)."""
        bounds = [(c.low, c.high) for c in self.curvature]
        if not bounds or any(math.isnan(low) or math.isnan(high) for low, high in bounds):
            return None
        return not any(low > 0 or high < 0 for low, high in bounds)

    def to_dict(self) -> dict:
        return {"model": self.model, "sizes": list(self.sizes), "target": self.target,
                "prediction": self.prediction.to_dict(), "slope": self.slope.to_dict(),
                "curvature": [c.to_dict() for c in self.curvature],
                "describes": self.describes, "beyond_ladder": self.beyond_ladder,
                "lines": [list(line) for line in self.lines]}


def grown(registry: dict, versions: list[str]) -> list[str]:
    """The ids of a claims registry's claims with a part judged at the seed's size (``grows``) on one of ``versions``
    (the run's) where the claim applies."""
    return list(dict.fromkeys(cid for cid, _, _ in grown_parts(registry, versions)))


def grown_parts(registry: dict, versions: list[str]) -> list[tuple[str, str, dict]]:
    """(claim id, version, part) of every part judged at the seed's size, on each of ``versions`` where its claim
    applies: what a size ladder must measure for that part to be fitted."""
    return [(c["id"], v, p) for c in registry["claims"] for p in c["parts"] if "grows" in p
            for v in p["versions"] if v in versions and v not in c["not_applicable"]]


def side_contender(side: dict, version: str) -> str:
    """A part side's contender on ``version``: its name, or its entry in a per-version mapping."""
    contender = side["contender"]
    return contender[version] if isinstance(contender, dict) else contender


def figure_name(claim: str) -> str:
    """The file name (no suffix) of a claim's figure at the seed's size (:mod:`lrev.growth_figures`)."""
    return f"growth-{claim}"


def _check(model: str) -> None:
    if model not in MODELS:
        raise GrowthError(f"unknown growth model {model!r}; one of {', '.join(MODELS)}")


def forward(values: np.ndarray, model: str) -> np.ndarray:
    """Sizes or values in the model's coordinates (a ratio-linear side's: linear)."""
    _check(model)
    values = np.asarray(values, dtype=float)
    if model == "loglog":
        if (values <= 0).any():
            raise GrowthError("a log-log fit needs positive sizes and values")
        return np.log(values)
    return values


def back(values: np.ndarray, model: str) -> np.ndarray:
    """A level in the model's value coordinates back in value units (a ratio-linear ladder's points are log ratios)."""
    return np.exp(values) if model in ("loglog", *SIDED) else np.asarray(values, dtype=float)


def complete(values: pd.DataFrame) -> pd.DataFrame:
    """The rounds (rows) that measured every size (columns), sizes in increasing order."""
    return values.sort_index(axis=1).dropna(axis=0, how="any")


def lines(values: pd.DataFrame, model: str = "loglog") -> np.ndarray:
    """Per round (row of ``values``, columns the sizes) the (slope, intercept) of its least-squares line in the
    model's coordinates; rounds missing a size are left out."""
    values = complete(values)
    x = forward(values.columns.to_numpy(), model)
    y = forward(values.to_numpy(), model)
    return np.array([np.polyfit(x, row, 1) for row in y]).reshape(-1, 2)


def _checked(values: pd.DataFrame, target: float) -> pd.DataFrame:
    values = complete(values)
    if values.shape[1] < 2:
        raise GrowthError(f"a fit needs two sizes or more, got {values.shape[1]}")
    if not target > 0:
        raise GrowthError(f"the target size must be positive, got {target}")
    return values


def _curvature(values: pd.DataFrame, model: str, confidence: float) -> tuple[stats.Estimate, ...]:
    """The rounds' bend over the ladder's span in the model's units (:class:`Fit`), none with two sizes or no round."""
    if values.shape[1] < 3 or not len(values):
        return ()
    x, y = forward(values.columns.to_numpy(), model), forward(values.to_numpy(), model)
    span = (x - x[0]) / (x[-1] - x[0])
    bends = np.array([np.polyfit(span, row, 2)[0] for row in y])
    # Rounding error set to zero: an exact line's coefficient is 1e-15, not 0, and a t interval of identical values
    # has no width to straddle it.
    return (mean(np.where(np.abs(bends) < 1e-9 * (1 + np.abs(y).max()), 0.0, bends), confidence),)


def fit(values: pd.DataFrame, target: float, model: str = "loglog",
        confidence: float = stats.CONFIDENCE) -> Fit:
    """Fit ``values`` (rows: rounds; columns: sizes; cells: the round's value of the quantity at that size) and
    predict it at ``target``. Needs two sizes or more; a round missing a size is left out (none left: a NaN
    prediction over no rounds)."""
    _check(model)
    if model in SIDED:
        raise GrowthError(f"the {model} model fits a ratio's two sides: fit_ratio or fit_walk, not fit")
    values = _checked(values, target)
    per_round = lines(values, model)
    return Fit(model, tuple(float(s) for s in values.columns), float(target), at(per_round, target, model, confidence),
               mean(per_round[:, 0], confidence), _curvature(values, model, confidence),
               tuple(tuple(map(float, line)) for line in per_round))


def fit_ratio(a: pd.DataFrame, b: pd.DataFrame, target: float, confidence: float = stats.CONFIDENCE) -> Fit:
    """The ratio-linear fit: per round, a line through side ``a``'s values and one through side ``b``'s (each as
    :func:`fit` takes them, the same sizes), and the ratio of their means at ``target``. A round missing a size on
    either side is left out; each side is checked for a bend (module docstring)."""
    a, b = complete(a), complete(b)
    if not a.columns.equals(b.columns):
        raise GrowthError(f"a ratio's sides must be measured at the same sizes, got {list(a.columns)} and "
                          f"{list(b.columns)}")
    both = a.index.intersection(b.index)
    a, b = _checked(a.loc[both], target), _checked(b.loc[both], target)
    if (a.to_numpy() <= 0).any() or (b.to_numpy() <= 0).any():
        raise GrowthError("a ratio-linear fit needs positive values on both sides")
    per_round = np.hstack([lines(a, "linear"), lines(b, "linear")])
    at_a, at_b = sides_at(per_round, target)
    elasticity = stats.Estimate(math.nan, math.nan, math.nan, len(at_a))
    if ((at_a > 0) & (at_b > 0)).all():
        # d ln(a / b) / d ln size of each round's two lines at the target.
        elasticity = mean(target * (per_round[:, 0] / at_a - per_round[:, 2] / at_b), confidence)
    return Fit("ratio-linear", tuple(float(s) for s in a.columns), float(target),
               at(per_round, target, "ratio-linear", confidence), elasticity,
               _curvature(a, "linear", confidence) + _curvature(b, "linear", confidence),
               tuple(tuple(map(float, line)) for line in per_round))


def fit_walk(values: pd.DataFrame, a: pd.Series, b: pd.Series, walk: pd.Series, target: float,
             confidence: float = stats.CONFIDENCE) -> Fit:
    """The walk model (module docstring): ``values`` the measured ratio (rows: rounds; columns: sizes), ``a`` and
    ``b`` each round's sides at the top size, ``walk`` each round's growth of side a per unit of size there. A round
    missing any of them is left out (measured ratios must be positive). ``slope`` is w ÷ b, the ratio's growth per
    unit of size; ``curvature`` holds, for each size below the top, the rounds' relative miss there, 1 - predicted ÷
    measured ratio."""
    values = _checked(values, target)
    top = float(values.columns.max())
    rounds_ = [r for r in values.index
               if all(r in x.index and np.isfinite(x[r]) for x in (a, b, walk))]
    if not rounds_:
        raise GrowthError("no round measured both sides and the walk at the ladder's top size")
    w, a0, b0 = (np.array([float(x[r]) for r in rounds_]) for x in (walk, a, b))
    if (a0 <= 0).any() or (b0 <= 0).any():
        raise GrowthError("a walk fit needs positive values on both sides")
    per_round = np.column_stack([w, a0, b0, np.full(len(rounds_), top)])
    # The relative miss 1 - predicted / measured: zero where the model fits, defined where a prediction is not
    # positive (a walk that overshoots the smaller sizes), where a log ratio is not.
    misses = [1 - _walked(per_round, float(size)) / values.loc[rounds_, size].to_numpy(dtype=float)
              for size in values.columns[:-1]]
    # Rounding error set to zero, as in _curvature: an exact model misses by 1e-16; identical values straddle nothing.
    residuals = tuple(mean(np.where(np.abs(m) < 1e-9, 0.0, m), confidence) for m in misses)
    return Fit("walk", tuple(float(s) for s in values.columns), float(target),
               at(per_round, target, "walk", confidence), mean(w / b0, confidence), residuals,
               tuple(tuple(map(float, line)) for line in per_round))


def _walked(per_round: np.ndarray, size: float) -> np.ndarray:
    """Each round's ratio at ``size`` under the walk model, from its (w, a, b, top) line."""
    w, a, b, top = per_round.T
    return (a + w * (size - top)) / b


def at(per_round: np.ndarray, size: float, model: str = "loglog",
       confidence: float = stats.CONFIDENCE) -> stats.Estimate:
    """The rounds' lines (:func:`lines`) at ``size``: their mean and its t interval, in value units (under loglog, a
    geometric mean); a ratio-linear fit's pairs of lines: :func:`fieller` of their values there. The interval holds
    if the model does: a bend too slight for the ladder to show grows with the distance to ``size`` and is not in
    it."""
    if model == "walk":
        walked = _walked(per_round, size)
        if not (walked > 0).all():
            return stats.Estimate(math.nan, math.nan, math.nan, len(walked))
        return _level(np.log(walked), model, confidence)
    if model in SIDED:
        return fieller(*sides_at(per_round, size), confidence)
    return _level(per_round[:, 0] * forward(np.array([size]), model)[0] + per_round[:, 1], model, confidence)


def sides_at(per_round: np.ndarray, size: float) -> tuple[np.ndarray, np.ndarray]:
    """Each round's side a and side b at ``size`` (or, for one round's lines, at each of an array of sizes), from a
    ratio-linear fit's lines."""
    return per_round[:, 0] * size + per_round[:, 1], per_round[:, 2] * size + per_round[:, 3]


def fieller(a: np.ndarray, b: np.ndarray, confidence: float = stats.CONFIDENCE) -> stats.Estimate:
    """mean(a) ÷ mean(b) over rounds, ``a`` and ``b`` paired by round, with Fieller's interval: the ratios r that a t
    test of mean(a - r b) = 0 does not reject. Exact for normal pairs; unlike a mean of per-round ratios it has no
    bias from averaging ratios, and no round needs a positive b. NaN where a mean is not positive (a line that has
    left the range where costs live), and NaN bounds where mean(b) cannot be told from zero (the interval has no
    upper end) or fewer than two rounds are given."""
    n = len(a)
    ma, mb = (float(np.mean(a)), float(np.mean(b))) if n else (math.nan, math.nan)
    if not (ma > 0 and mb > 0):
        return stats.Estimate(math.nan, math.nan, math.nan, n)
    if n < 2:
        return stats.Estimate(ma / mb, math.nan, math.nan, n)
    (saa, sab), (_, sbb) = np.cov(a, b)
    q = scipy.stats.t.ppf(0.5 + confidence / 2, n - 1) ** 2 / n
    # The r with (ma - r mb)^2 <= q (saa - 2 r sab + r^2 sbb): qa r^2 - 2 qb r + qc <= 0, which holds at ma / mb.
    qa, qb, qc = mb * mb - q * sbb, ma * mb - q * sab, ma * ma - q * saa
    if qa <= 0:
        return stats.Estimate(ma / mb, math.nan, math.nan, n)
    half = math.sqrt(max(qb * qb - qa * qc, 0.0))
    return stats.Estimate(ma / mb, (qb - half) / qa, (qb + half) / qa, n)


def _level(x: np.ndarray, model: str, confidence: float) -> stats.Estimate:
    """The mean of per-round values in the model's coordinates with their t interval, back in value units."""
    level = mean(x, confidence)
    value, low, high = back(np.array([level.value, level.low, level.high]), model)
    return stats.Estimate(float(value), float(low), float(high), level.n)


def band(per_round: np.ndarray, sizes: np.ndarray, model: str = "loglog",
         confidence: float = stats.CONFIDENCE) -> pd.DataFrame:
    """:func:`at` each of ``sizes``, one row each (size, value, low, high), NaN where undefined (a plot skips it)."""
    rows = [(float(size), at(per_round, size, model, confidence)) for size in sizes]
    return pd.DataFrame([{"size": size, "value": e.value, "low": e.low, "high": e.high} for size, e in rows])


def mean(x: np.ndarray, confidence: float = stats.CONFIDENCE) -> stats.Estimate:
    """The mean of per-round values with their t interval (NaN for no rounds)."""
    low, high = stats.t_interval(x, confidence)
    return stats.Estimate(float(np.mean(x)) if len(x) else math.nan, low, high, len(x))


def points(values: pd.DataFrame, model: str = "loglog", confidence: float = stats.CONFIDENCE) -> list[dict]:
    """Each size's value over its rounds with its t interval, taken in the model's coordinates (a geometric mean
    under loglog; under ratio-linear, of the ratios, as the measured part is judged)."""
    coordinates = "loglog" if model in SIDED else model
    return [{"size": float(size),
             **_level(forward(column.dropna().to_numpy(), coordinates), model, confidence).to_dict()}
            for size, column in values.sort_index(axis=1).items()]
