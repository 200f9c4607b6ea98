"""Judge the claims of a seed study against measured results.

The registry (claims/<study>.yaml) states each claim once, with the value the
seed reported; this module measures the same quantity on every Lucene version
and turns the 95% interval (:mod:`lrev.stats`: Student-t over rounds, its variance
moderated as below) into a verdict. In this order, the first that applies:

- ``untestable`` (at this scale): the run's size is below what the part's mechanism needs (its ``needs``: a
  quantity of the study that measures the size, and the least value at which the claim can hold or fail);
- ``underpowered``: fewer than ``MIN_ROUNDS`` rounds: a t interval over two
  rounds has one degree of freedom and bounds nothing worth a verdict;
- ``fell-behind``: a part about a cost at a load rate where a side reached less than its ``pace`` of it, and the lag
  could have produced the verdict (the registry's ``lag`` says which way a lagging side moves the quantity; a verdict
  the lag can only have weakened is kept, and says that a side lagged). Where the registry also bounds how far
  (a cost that is a fixed part plus a part per unit of work: at most asked ÷ reached times what was measured,
  :func:`lag_bounds`), a verdict that still stands with the interval widened that far is kept too;
- ``biased``: a ratio whose A/A beside it (the study's A/A contender against the contender it repeats, same
  quantity, condition, version and rounds) shows a bias: it differs from 1 beyond chance, its p among the study's
  A/As adjusted for their number (:func:`family_p`), and its estimate lies beyond the registry's ``aa_tolerance``
  either way, so two JVMs of one contender differ by more than the claim may;
- ``unconverged``: more than a third of the forks of a side the part compares (not the A/A beside it, which tests
  for bias only: its forks' steadiness is shown and withholds nothing) show no steady state in the series it reads (a
  changepoint analysis of each fork's iterations, probes or reopens, :mod:`lrev.steady`; the value of a fork that
  settled is read from its final steady segment), and those forks could have produced the verdict: read at the least
  and at the most of its series, each in every combination, some give another (a verdict they all give is kept,
  ``steadiness.bracketed``; an A/A beside it whose forks never settled is read alike, and a reading in which it
  shows a bias keeps the verdict only where the verdict stands with the interval moved that far either way). The
  JIT's share of the steady segments is recorded beside the verdict
  (``steadiness``), a covariate that never withholds one;
- ``holds``: the whole interval clears the threshold on the claimed side (for
  ``approx`` claims: lies inside the band);
- ``fails``: the whole interval clears it on the other side (outside the band);
- ``inconclusive``: the interval straddles the threshold, or is undefined.

Two more need no measurement: ``n/a`` (the claim cannot be re-run on that
version; the reason is in the registry) and ``answer`` (a question: the answer
is measured rather than judged; too few rounds or an unconverged series withhold
it as they would a claim's verdict). The withheld verdicts of claims still say which way
the interval leans (``leaning``: the verdict it alone would give); a question has no side to lean to.

The A/A tests for bias only. It never widens a threshold: the claim's own interval is built from one value per
round, each from JVMs of their own, so it already carries the JVM-to-JVM spread the A/A shows (noise counted once).
A wide A/A interval centred on 1 is no bias; the claim's interval is then wide too, and says so. A ratio without an
A/A beside it (a version or quantity the study runs none on) is judged alike and says so (``aa: null``).

A study with a time budget (lrev/budget.py) looks at its cells again after each round it adds: whether a cell goes on
is read at the sequential confidence (a row's ``at_look``), and its verdict is drawn at the confidence of its last look
(:func:`last_look_confidence`; 95% for a cell that got no round), recorded per part (``confidence``,
``looked``).

Few rounds, many cells: each log-scale interval (a ratio paired by round, or a positive quantity alone) borrows
the variance of the cells of its group, those of one kind in the study (:func:`kind`). The study's claims
are judged twice: once to collect each cell's variance of its per-round log values, then with the prior those
give (Smyth 2004, :func:`lrev.stats.fit_prior`): a cell's variance becomes (d0·s0² + d·s²)/(d0 + d), on d0 + d
degrees of freedom. A hypervariable cell keeps its own (:func:`lrev.stats.hypervariable`). A group uses its prior
only where a simulation at its own spreads, taken as true, keeps the coverage near the nominal level overall and
in its noisiest tenth (:func:`group_prior`); the claims file's ``priors`` records each group's fit and check.

A part whose mechanism needs a size the run cannot build (``needs``) is judged a second time at that size, from a
size ladder (``grows``; :mod:`lrev.growth`'s models), and marked extrapolated: the same rules, on the prediction's
interval, withheld where the ladder's own check finds the model does not describe it; a rung's forks that never
settled are bracketed as a measured part's are (the ladder fitted again at either end of each one's series), so a
prediction whose every reading gives the verdict is not withheld as unconverged. A model that can only
understate the quantity there (``grows.bias``: the walk model) keeps only a verdict that any larger value would give
too; otherwise that extrapolation is ``untestable``, leaning the way its interval does. Such a model's check withholds
nothing for a bend the bias already allows: a walk whose smaller sizes all lie above its line, or on it
(:func:`bends_up`), is judged by that rule. At the seed's size the parts combine as below: a part that fails there
on a checked line fails the claim, even where another part's line says nothing there.

A multi-part claim holds only if every part holds and fails if any part fails;
otherwise it takes the first withheld verdict among its parts (in the order above), else
inconclusive. A version that should be judged but lacks a
contender or result is an error, never a silent ``n/a``: an empty cell in the
paper must be a decision.

The quantities a registry may name, and how to load results, come from the study's plug-in
(:mod:`lrev.studies`), named by the registry's ``study``.

CLI: ``python -m lrev.claims --registry claims/<study>.yaml --results RESULTS --out OUT.json --versions V …``
"""
from __future__ import annotations

import argparse
import math
import re
from pathlib import Path
from typing import Any, Sequence

import jsonschema
import numpy as np
import pandas as pd
import scipy.stats
import yaml

from lrev import growth, io, rounds, stats, steady, studies
from lrev.studies import Quantity
from lrev.tables import select

VERDICTS = ("holds", "fails", "answer", "inconclusive", "untestable", "underpowered", "fell-behind", "biased",
            "unconverged", "n/a")
#: Verdicts that hold a decision back although the interval may lean one way, in the order they take.
WITHHELD = ("untestable", "underpowered", "fell-behind", "biased", "unconverged")
#: How a registry's ``lag`` says a side that fell behind its asked rate moves a quantity.
LAG_MOVES = ("understates", "overstates", "either")
#: No verdict from fewer paired rounds: t(0.975, 1) = 12.7 makes an interval over two rounds about the
#: range of two JVMs times four.
MIN_ROUNDS = 3

_SIDE = {
    "type": "object",
    "required": ["contender"],
    "additionalProperties": False,
    "properties": {
        "contender": {"oneOf": [{"type": "string"},
                                {"type": "object", "additionalProperties": {"type": "string"}}]},
        # The version whose results this side reads, when not the judged version itself (a study that
        # compares releases, e.g. a contender of 8.x against the 7.x baseline of the same rounds).
        "version": {"type": "string"},
        "where": {"type": "object"},
    },
}

_EXPECT = {
    "type": "object",
    "required": ["direction", "value"],
    "additionalProperties": False,
    "properties": {
        "direction": {"enum": ["greater", "less", "approx"]},
        "value": {"type": "number"},
        "band": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
    },
    "if": {"properties": {"direction": {"const": "approx"}}},
    "then": {"required": ["band"]},
}

_PART = {
    "type": "object",
    "required": ["label", "quantity", "where", "versions"],
    "additionalProperties": False,
    "properties": {
        "label": {"type": "string"},
        "quantity": {"type": "string"},
        "statistic": {"enum": list(stats.STATISTICS)},
        "where": {"type": "object"},
        "a": _SIDE,
        "b": _SIDE,
        # With c and d, the part judges (a ÷ b) ÷ (c ÷ d): whether one ratio exceeds another, e.g. a
        # gain at high hit counts against the same gain at low ones.
        "c": _SIDE,
        "d": _SIDE,
        # With versus_sum, the part judges what b saves against a on its condition ÷ the sum of what b saves
        # on each listed condition (each overrides the part's): whether a whole gains more than its parts.
        "versus_sum": {"type": "array", "items": {"type": "object", "minProperties": 1}, "minItems": 1},
        # With pace, the part is judged only where every side reached at least this share of the rate it was
        # asked for, in every round (the study's PACE); otherwise it is withheld as fell-behind.
        # A verdict the lag can only have weakened is kept (the registry's ``lag`` says which way it moves the
        # quantity); one the lag could have produced is withheld as fell-behind.
        "pace": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        # With needs, the part is judged only where the study's size ``quantity`` (same condition as side a) is at
        # least ``at_least`` in every fork of a; otherwise it is withheld as untestable at this scale, ``why``.
        # ``unladderable`` says why no size ladder can reach the mechanism (a part that needs a size and has no
        # ``grows`` must say it); such cells are counted apart from the untestable ones a ladder could reach.
        "needs": {"type": "object", "required": ["quantity", "at_least", "why"], "additionalProperties": False,
                  "properties": {"quantity": {"type": "string"}, "at_least": {"type": "number"},
                                 "why": {"type": "string", "minLength": 1},
                                 "unladderable": {"type": "string", "minLength": 1}}},
        # With grows, the part is judged a second time at the seed's size ``at``, which the run did not reach: per
        # round, a line (lrev.growth, ``model``; one per side under ratio-linear) through its value at every ``over``
        # of the condition that the results hold for every side, each placed at the study quantity ``size`` of side a
        # there. That verdict is marked extrapolated and sits beside the measured one; ``why`` names the seed's size.
        # ``rungs``, a regular expression, keeps the values of ``over`` it matches in full: a condition that holds
        # other values than the ladder's (another kind of corpus at one of the ladder's sizes). Under the walk model,
        # ``walk`` names the study quantity (same condition) that gives side a's growth per unit of ``size`` in each
        # round's fork at the ladder's top rung, and ``bias`` says which way the model is wrong if it is: ``low``, it
        # can only understate the ratio at ``at`` (a walk that gets dearer per step as the segment outgrows the
        # caches), so only a verdict that a larger ratio would keep is kept (lrev.growth).
        "grows": {"type": "object", "required": ["over", "size", "at", "why"], "additionalProperties": False,
                  "properties": {"over": {"type": "string"}, "size": {"type": "string"},
                                 "walk": {"type": "string"},
                                 "bias": {"type": "object", "required": ["direction", "why"],
                                          "additionalProperties": False,
                                          "properties": {"direction": {"enum": ["low"]},
                                                         "why": {"type": "string", "minLength": 1}}},
                                 "rungs": {"type": "string", "minLength": 1},
                                 "at": {"type": "number", "exclusiveMinimum": 0},
                                 "model": {"enum": list(growth.MODELS)},
                                 "why": {"type": "string", "minLength": 1}}},
        "expect": _EXPECT,
        "answer": {"enum": ["fastest", "ratio"]},
        "exclude": {"type": "array", "items": {"type": "string"}},
        "versions": {"type": "array", "items": {"type": "string"}, "minItems": 1},
    },
    # A judged part compares a (optionally against b) with an expectation;
    # a question part names its answer and the baseline b: the fastest contender against it, or (``ratio``,
    # which needs a) how much a differs from b, with its interval and no threshold.
    "oneOf": [{"required": ["a", "expect"], "not": {"required": ["answer"]}},
              {"required": ["answer", "b"], "not": {"required": ["expect"]}}],
    "dependentRequired": {"c": ["b", "d"], "d": ["c"], "versus_sum": ["b", "expect"]},
    "not": {"required": ["c", "versus_sum"]},
}

REGISTRY_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["study", "versions", "aa_tolerance", "claims"],
    "additionalProperties": False,
    "properties": {
        "study": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        # The A/A's bias tolerance: a ratio is withheld when its A/A excludes 1 and lies beyond [1/t, t].
        "aa_tolerance": {"type": "number", "exclusiveMinimum": 1},
        # Which way a side that fell behind its asked rate moves each paced quantity: it did less work than asked,
        # so it ``understates`` a cost that grows with the work, ``overstates`` one that the work competes with, or
        # moves it ``either`` way. As an object, ``moves`` is that word and ``bound: proportional`` says how far at
        # most: the quantity is a fixed part plus a part per unit of work, neither negative, so at the asked rate it
        # is at most (asked ÷ reached) times what was measured, ``why`` says why (:func:`lag_bounds`).
        "lag": {"type": "object", "additionalProperties": {"oneOf": [
            {"enum": list(LAG_MOVES)},
            {"type": "object", "required": ["moves", "bound", "why"], "additionalProperties": False,
             "properties": {"moves": {"enum": list(LAG_MOVES)}, "bound": {"enum": ["proportional"]},
                            "why": {"type": "string", "minLength": 1}}}]}},
        "versions": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "aliases": {"type": "object"},
        "claims": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["id", "seed", "kind", "statement", "quote", "claimed", "parts", "not_applicable"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string"},
                    "seed": {"type": "string"},
                    "kind": {"enum": ["claim", "question"]},
                    "statement": {"type": "string"},
                    "quote": {"type": "string"},
                    "claimed": {"type": "string"},
                    "parts": {"type": "array", "items": _PART, "minItems": 1},
                    "not_applicable": {"type": "object", "additionalProperties": {"type": "string"}},
                },
            },
        },
    },
}


class RegistryError(ValueError):
    """The registry is malformed or inconsistent."""


class MissingResultError(LookupError):
    """A version that a claim must be judged on lacks a needed contender or result."""


def _schema_error_message(registry: dict, error: jsonschema.ValidationError) -> str:
    path = list(error.absolute_path)
    where = "registry"
    if len(path) >= 2 and path[0] == "claims" and isinstance(path[1], int):
        claim = registry["claims"][path[1]]
        where = f"claim {claim.get('id', f'#{path[1]}') if isinstance(claim, dict) else path[1]}"
    location = "/".join(str(p) for p in path) or "(top)"
    return f"{where}: {error.message} (at {location})"


def validate(registry: dict) -> None:
    """Schema validation plus the cross-field rules a schema cannot state.

    Every claim must cover every registry version exactly once: judged by at
    least one part, or marked not applicable with a reason; every part names a
    quantity of the registry's study.
    """
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(REGISTRY_SCHEMA).iter_errors(registry))
    if error is not None:
        raise RegistryError(_schema_error_message(registry, error))
    try:
        quantities = studies.get(registry["study"]).QUANTITIES
    except KeyError as exc:
        raise RegistryError(f"registry: {exc.args[0]}") from None
    versions = set(registry["versions"])
    seen: set[str] = set()
    for claim in registry["claims"]:
        cid = claim["id"]
        if cid in seen:
            raise RegistryError(f"claim {cid}: duplicate id")
        seen.add(cid)
        if (claim["kind"] == "question") != all("answer" in p for p in claim["parts"]):
            raise RegistryError(f"claim {cid}: a question has only answer parts, a claim only expect parts")
        for part in claim["parts"]:
            if part.get("answer") == "ratio" and "a" not in part:
                raise RegistryError(f"claim {cid}, part '{part['label']}': a ratio answer needs a (a ÷ b)")
            if "grows" in part and ({"versus_sum", "answer"} & set(part)
                                    or ("c" in part and part["grows"].get("model", "loglog") != "loglog")):
                raise RegistryError(f"claim {cid}, part '{part['label']}': grows extrapolates a ratio a ÷ b, one "
                                    f"side, or a ratio of ratios on the loglog model; not a saving or an answer")
            if part.get("grows", {}).get("model") in growth.SIDED and "b" not in part:
                raise RegistryError(f"claim {cid}, part '{part['label']}': the {part['grows']['model']} model fits a "
                                    f"ratio's two sides, and the part has no b")
            if (part.get("grows", {}).get("model") == "walk") != ("walk" in part.get("grows", {})) or \
                    ("walk" in part.get("grows", {})) != ("bias" in part.get("grows", {})):
                raise RegistryError(f"claim {cid}, part '{part['label']}': the walk model, and only it, names its walk "
                                    f"quantity (grows.walk) and which way it may be wrong (grows.bias)")
            if "rungs" in part.get("grows", {}):
                try:
                    re.compile(part["grows"]["rungs"])
                except re.error as err:
                    raise RegistryError(f"claim {cid}, part '{part['label']}': grows.rungs is not a regular "
                                        f"expression: {err}") from None
            if "needs" in part and ("grows" in part) == ("unladderable" in part["needs"]):
                raise RegistryError(f"claim {cid}, part '{part['label']}': a part that needs a size is fitted on a "
                                    f"size ladder (grows) or says why no ladder reaches it (needs.unladderable), "
                                    f"one of the two")
            lag = registry.get("lag", {}).get(part["quantity"])
            if "pace" in part and isinstance(lag, dict) and lag["moves"] == "either":
                raise RegistryError(f"claim {cid}, part '{part['label']}': the lag of '{part['quantity']}' is bounded "
                                    f"in proportion, which needs the way it moves (understates or overstates), not "
                                    f"either")
            if "pace" in part and lag is None:
                raise RegistryError(f"claim {cid}, part '{part['label']}': a pace needs the way a lagging side moves "
                                    f"'{part['quantity']}', and the registry's lag does not state it")
            if part["quantity"] not in quantities:
                raise RegistryError(f"claim {cid}, part '{part['label']}': unknown quantity '{part['quantity']}' "
                                    f"(study {registry['study']} has: {', '.join(quantities)})")
        judged = {v for part in claim["parts"] for v in part["versions"]}
        sides = {part[s]["version"] for part in claim["parts"] for s in "abcd" if "version" in part.get(s, {})}
        if sides - versions:
            raise RegistryError(f"claim {cid}: a side reads an unknown version: {', '.join(sorted(sides - versions))}")
        na = set(claim["not_applicable"])
        for label, bad in (("unknown version", (judged | na) - versions),
                           ("both judged and not applicable", judged & na),
                           ("neither judged nor marked not applicable", versions - judged - na)):
            if bad:
                raise RegistryError(f"claim {cid}: {label}: {', '.join(sorted(bad))}")


def load_registry(path: str | Path) -> dict:
    """Read and validate a YAML registry."""
    registry = yaml.safe_load(Path(path).read_text())
    validate(registry)
    return registry


def judge(est: stats.Estimate, direction: str, threshold: float, band: Sequence[float] | None = None) -> str:
    """Verdict of one measured estimate against its expectation (see module docstring)."""
    low, high = est.low, est.high
    if math.isnan(low) or math.isnan(high) or math.isnan(threshold):
        return "inconclusive"
    if direction == "approx":
        lo, hi = band
        if lo <= low and high <= hi:
            return "holds"
        return "fails" if high < lo or low > hi else "inconclusive"
    if direction == "greater":
        return "holds" if low > threshold else "fails" if high <= threshold else "inconclusive"
    if direction == "less":
        return "holds" if high < threshold else "fails" if low >= threshold else "inconclusive"
    raise ValueError(f"unknown direction {direction!r}")


def margin(value: float, direction: str, threshold: float, band: Sequence[float] | None = None,
           log: bool = True) -> float:
    """How narrow a half-width an interval around ``value`` needs for :func:`judge` to decide it: the distance from
    ``value`` to the nearest bound that decides (on the log scale if ``log``); 0 on a bound."""
    f = math.log if log else float
    if direction == "approx":
        lo, hi = band
        if lo <= value <= hi:
            return min(f(value) - f(lo), f(hi) - f(value))
        return f(lo) - f(value) if value < lo else f(value) - f(hi)
    return abs(f(value) - f(threshold))


def rounds_to_decide(est: dict, direction: str, threshold: float, band: Sequence[float] | None,
                     est_confidence: float, confidence: float, upto: int) -> int | None:
    """The fewest rounds, at most ``upto``, at which a t interval at ``confidence`` around ``est`` (a part's value, low,
    high and n, its interval at ``est_confidence``) would decide, if the estimate and the per-round spread its interval
    implies stay as they are; None if none would. An interval symmetric in the log is projected on the log scale, any
    other on its own. What the budget reads (lrev/budget.py): a round is spent only where it could decide."""
    value, low, high, n = (est.get(k) for k in ("value", "low", "high", "n"))
    if any(x is None or not math.isfinite(x) for x in (value, low, high)) or not n or n < 2:
        return None
    log = low > 0 and value > 0 and abs(math.log(value) - (math.log(low) + math.log(high)) / 2) <= \
        0.05 * (math.log(high) - math.log(low)) / 2
    # A bound at or below zero has no log.
    log = log and min(band if direction == "approx" else [threshold]) > 0
    f = math.log if log else float
    spread = (stats.log_spread(stats.Estimate(value, low, high, n), est_confidence) if log else
              (high - low) / 2 * math.sqrt(n) / float(scipy.stats.t.ppf(0.5 + est_confidence / 2, n - 1)))
    need = margin(value, direction, threshold, band, log)
    for m in range(max(n, 2), upto + 1):
        if float(scipy.stats.t.ppf(0.5 + confidence / 2, m - 1)) * spread / math.sqrt(m) < need:
            return m
    return None


def bends_up(fit: growth.Fit) -> bool:
    """Whether a walk fit's check found a bend, and every bend it found has the smaller sizes measured above the
    line drawn back from the top (a positive miss): the ratio bends up towards the top, where the line is its
    tangent, so beyond the top the line runs below a ratio that keeps bending up. That is the way the model's
    ``bias`` says it errs (it can only understate), so such a bend moves no verdict the bias rule keeps. A miss the
    other way (a ratio that bends down) could make the line overstate, and the check stands. (Here, not in
    :mod:`lrev.growth`: the forks' code holds that module, and a verdict rule must not make their outputs stale.)"""
    if fit.model != "walk" or fit.describes is not False:
        return False
    return all(c.low > 0 for c in fit.curvature if c.low > 0 or c.high < 0)


def combine(verdicts: Sequence[str]) -> str:
    """Multi-part rule: fails if any part fails, holds only if all hold; otherwise what held the
    decision back (module docstring)."""
    if "fails" in verdicts:
        return "fails"
    if verdicts and all(v == "holds" for v in verdicts):
        return "holds"
    return next((v for v in WITHHELD if v in verdicts), "inconclusive")


def withhold(interval_verdict: str, n: int, biased: bool, converged: bool, paced: bool = True,
             scaled: bool = True) -> str:
    """The part's verdict: the interval's, unless a run below the size its mechanism needs, too few rounds, a
    side that fell behind its asked rate, an A/A that shows a bias or an unconverged series withholds it (in that
    order)."""
    if not scaled:
        return "untestable"
    if n < MIN_ROUNDS:
        return "underpowered"
    if not paced:
        return "fell-behind"
    if biased:
        return "biased"
    if not converged:
        return "unconverged"
    return interval_verdict


def _amount(x: float) -> str:
    """A size or share as a reader takes it in: thousands separated, or three significant digits below 100."""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def withheld_reason(part: dict) -> str:
    """Why ``part``'s verdict (one of :data:`WITHHELD`) holds the decision back, in words, with the numbers that
    did: the row's ``reason``, so that a reader of a withheld cell need not dig through its parts."""
    verdict = part["verdict"]
    if verdict == "untestable":
        scale = part["scale"]
        why = (f"{scale['quantity']} {_amount(scale['lowest'])} in this run, under the {_amount(scale['at_least'])} "
               f"its mechanism needs: {scale['why']}")
    elif verdict == "underpowered":
        why = f"{part['n']} round{'s' if part['n'] != 1 else ''}, under the {MIN_ROUNDS} a verdict needs"
    elif verdict == "fell-behind":
        pace = part["pace"]
        why = (f"{pace['slowest']} reached {pace['lowest']:.0%} of its asked rate, under the {pace['required']:.0%} "
               f"required, and a lag that moves the value {pace['moves']} could have produced the verdict")
    elif verdict == "biased":
        aa = part["aa"]
        why = (f"the A/A {aa['a']} ÷ {aa['b']} is {aa['value']:.3g} [{aa['low']:.3g}, {aa['high']:.3g}]: two JVMs "
               f"of one contender differ beyond ×{aa['tolerance']:g}, and beyond chance")
    else:
        unsteady = (part.get("steadiness") or {}).get("unsteady", {})
        why = "; ".join(f"{c}: {k} of {n} forks show no steady state" for c, (k, n) in unsteady.items() if k) or \
            "a series it reads never reached a steady state"
    return f"{part['label']}: {why}"


def answered(n: int, converged: bool) -> dict[str, str]:
    """A question's verdict: ``answer``, unless too few rounds or an unconverged series withhold it as they would a
    claim's. The answer itself is kept either way; it has no side to lean to."""
    return {"verdict": withhold("answer", n, False, converged)}


def lag_moves(lag: str, lagging: Sequence[int], plain_ratio: bool) -> str | None:
    """Which way the sides at positions ``lagging`` (0: a, 1: b), having fallen behind their asked rate, moved the
    part's value: ``up`` (above what the asked rate would give), ``down``, ``either``, or None when none lagged.
    ``lag`` is the registry's word for the quantity; a side of a ratio of ratios or of a saving moves it either
    way, as does a quantity the lag moves either way."""
    if not lagging:
        return None
    if lag == "either" or not (plain_ratio or set(lagging) == {0}):
        return "either"
    side = "down" if lag == "understates" else "up"
    moves = {side if i == 0 else {"up": "down", "down": "up"}[side] for i in lagging}
    return moves.pop() if len(moves) == 1 else "either"


def lag_word(entry: str | dict | None) -> str:
    """The registry's ``lag`` entry of a quantity as its word (``either`` where none is stated)."""
    return "either" if entry is None else entry["moves"] if isinstance(entry, dict) else entry


def lag_bounds(est: stats.Estimate, word: str, shares: Sequence[float]) -> stats.Estimate:
    """The interval ``est`` of a side a alone, or of a ÷ b, widened by what a lag bounded in proportion could have
    moved it: a side that reached a share s of its asked rate did s of the work, and a quantity that is a fixed part
    plus a part per unit of work lies, at the asked rate, between its measured value and that value ÷ s if it
    ``understates``, or that value × s if it ``overstates``. ``shares`` are each side's least share (a, then b; 1
    where it kept its rate); a ratio's end moves by its sides' factors, each toward where that side's lag moved it. ``word`` is
    ``understates`` or ``overstates`` (validate() refuses a bound on ``either``)."""
    a, b = (list(shares) + [1.0])[:2]
    # Understated: a* in [a, a/s_a], b* in [b, b/s_b], so a*/b* in [r s_b, r/s_a]; overstated, the mirror. A side
    # that did no work bounds nothing.
    grows, shrinks = (a, b) if word == "understates" else (b, a)
    return stats.Estimate(est.value, est.low * shrinks, est.high / grows if grows > 0 else math.inf, est.n)


def could_produce(verdict: str, expect: dict, est: stats.Estimate, moves: str | None) -> bool:
    """Whether a lag that moved the value ``moves`` could have produced ``verdict``: a verdict that the lag can only
    have weakened (its interval would lie farther on the same side had every side kept its rate) it could not."""
    if moves is None or verdict not in ("holds", "fails"):
        return False
    if moves == "either":
        return True
    direction = expect["direction"]
    if direction == "approx":
        if verdict == "holds":
            return True
        above = est.low > expect["band"][1]  # it fails above the band, else below it
        return above == (moves == "up")
    says_high = (direction == "greater") == (verdict == "holds")
    return says_high == (moves == "up")


def last_look_confidence(looked: int, looks: int, confidence: float = stats.CONFIDENCE) -> float:
    """The confidence of a verdict drawn at a cell's last look, its ``looked``-th of at most ``looks``. Each earlier
    look spent ``(1 - confidence) / looks`` of the error on deciding to go on (:func:`lrev.stats.sequential_confidence`);
    the last spends what is left. A cell the budget gave no further round was looked at once, at ``confidence``: an
    interval that decided at the stricter sequential confidence decides the same way at this one
    (tests/test_sequential.py simulates the whole rule). Here and not in :mod:`lrev.stats`, which the forks import:
    a rule of judging reruns the judging, not the measurements."""
    if not 1 <= looked <= looks:
        raise ValueError(f"a cell's looks must lie in [1, {looks}], got {looked}")
    return 1 - (1 - confidence) * (looks - looked + 1) / looks


def biased(aa: stats.Estimate, tolerance: float, p: float | None = None,
           confidence: float = stats.CONFIDENCE) -> bool:
    """Whether an A/A ratio shows a bias: it differs from 1 beyond chance (``p``, its p against 1, below
    1 - ``confidence``; by default its own t interval's, which then excludes 1) and its estimate lies beyond
    ×``tolerance`` either way. An A/A without an interval (fewer than two measured rounds) shows none: it tests
    nothing."""
    p = stats.p_value(aa, confidence) if p is None else p
    if math.isnan(p):
        return False
    return p < 1 - confidence and abs(math.log(aa.value)) > math.log(tolerance)


def family_p(raw: dict[tuple, float]) -> dict[tuple, float]:
    """The p of each of a study's A/As against 1, adjusted for their number (Benjamini-Hochberg,
    :func:`scipy.stats.false_discovery_control`). A run checks dozens of A/As; at 95% each, one in twenty of
    unbiased pairs would exclude 1 by chance and withhold the cells beside it. Where no pair is biased, the
    adjustment keeps the chance of any false ``biased`` in the study at 1 - confidence. NaN (no interval) stays."""
    tested = {k: p for k, p in raw.items() if not math.isnan(p)}
    adjusted = scipy.stats.false_discovery_control(list(tested.values())) if tested else []
    return {**raw, **dict(zip(tested, (float(q) for q in adjusted)))}


def _settled(unsteady: int, forks: int) -> bool:
    """Whether a side's forks settled enough for its value: at most :data:`lrev.steady.UNSTEADY_SHARE` without a
    steady state."""
    return unsteady <= steady.UNSTEADY_SHARE * forks


def _offset(aa: stats.Estimate) -> float:
    """How far an A/A's estimate lies from 1, either way; one that measured nothing lies nowhere."""
    return 0.0 if math.isnan(aa.value) else abs(math.log(aa.value))


def kind(pairing: str, quantity: Quantity) -> str | None:
    """What a part's interval is over: ``ratio`` for a ratio paired by round (the spread of two JVMs' log ratio),
    ``level`` for a positive quantity judged alone (one JVM's log value); None for an interval on the quantity's own
    scale, which has units of its own and borrows nothing. The cells of one kind in a study share a variance prior.
    One prior per quantity was tried too: on a default run's spreads its groups of two to a dozen cells gave priors
    too unsure to keep the coverage at three rounds (tests/test_moderation_coverage.py's simulation, 93.9% overall),
    where the study's whole kind keeps it."""
    if pairing == "paired by round":
        return "ratio"
    return "level" if quantity.positive and not quantity.share else None


#: How far below the nominal confidence a group's simulated coverage may fall, overall and in its noisiest tenth,
#: for its moderation to be used (:func:`group_prior`).
COVERAGE_SLACK = {"overall": 0.01, "noisiest": 0.05}
#: Replicates of that simulation: enough to tell 94% from 95% over a group's cells, quick in the claims step.
COVERAGE_REPLICATES = 400


def group_prior(variances: Sequence[float], dfs: Sequence[int], confidence: float) -> tuple[stats.Prior, dict]:
    """A group's prior (:func:`lrev.stats.fit_prior`) and what was found of it: used only where a simulation at the
    group's own spreads (taken as true) and rounds keeps the coverage within :data:`COVERAGE_SLACK` of
    ``confidence``, overall and in its noisiest tenth of cells. A group that fails keeps each cell's plain t interval,
    and says so."""
    variances, dfs = np.asarray(variances, dtype=float), np.asarray(dfs, dtype=int)
    prior = stats.fit_prior(variances, dfs)
    record: dict[str, Any] = {**prior.to_dict(), "used": False, "coverage": None}
    if prior.df == 0:
        return stats.NO_PRIOR, record
    sds = np.sqrt(variances)
    hits = stats.coverage_by_cell(sds, dfs + 1, confidence=confidence, replicates=COVERAGE_REPLICATES)
    coverage = {"overall": float(hits.mean()), "noisiest": float(hits[sds >= np.quantile(sds, 0.9)].mean())}
    used = all(coverage[k] >= confidence - slack for k, slack in COVERAGE_SLACK.items())
    return (prior if used else stats.NO_PRIOR), {**record, "used": used, "coverage": coverage}


class _Judge:
    """Measures one claim's parts on one version of the loaded results of ``study``. Each log-scale interval takes
    its variance from ``priors`` (:func:`lrev.stats.moderate`) and is recorded in ``spreads``, keyed by what it
    measures, so that a cell two claims share counts once in the fit."""

    def __init__(self, study: studies.Study, claim: dict, version: str, results: Any, aa_tolerance: float,
                 looks: int, final: bool, priors: dict[str, stats.Prior], spreads: dict[tuple, tuple[str, float, int]],
                 lag: dict[str, str | dict], aa_p: dict[tuple, float]):
        self.study, self.claim, self.version, self.results = study, claim, version, results
        self.aa_tolerance, self.lag = aa_tolerance, lag
        # At a look the budget reads (final False), every interval is at the sequential confidence; the verdict drawn
        # is at the confidence of the cell's last look (last_look_confidence), set per part by reads().
        self.looks, self.final = looks, final
        self.confidence, self.looked = stats.sequential_confidence(looks), 1
        self.priors, self.spreads = priors, spreads
        # Each A/A's p against 1, keyed by what it compares: the first judging fills it with the raw p's, the
        # second reads the study's adjusted ones (family_p).
        self.aa_p = aa_p
        # The rounds a budget added for some contenders only (the study's ``budget_contenders`` setting), per
        # version: a part reads such a round only if every contender it reads ran in it.
        manifests = getattr(results, "manifests", None) or {}
        self.partial = {v: {int(r): set(c) for r, c in (m.get("parameters", {}).get("budget_contenders") or {}).items()}
                        for v, m in manifests.items()}
        self.reading: set[str] = set()
        # Forks whose series never settled, each read at the least or the most of its rows (settles()).
        self.settle: dict[tuple, str] = {}

    def reads(self, names: Sequence[str]) -> None:
        """The contenders the part being judged reads (its sides and the A/As beside them), the looks its cell had
        (one, plus each budget round it reads) and so its confidence."""
        self.reading = {*names, *(n for pair in self.aa_pairs(list(names)) for n in pair)}
        self.looked = 1 + sum(self.reading <= ran for ran in self.partial.get(self.version, {}).values())
        # Results with more budget rounds than ``looks`` allows (judged again without the budget) spend as if it
        # had allowed them.
        looks = max(self.looks, self.looked)
        self.confidence = (last_look_confidence(self.looked, looks) if self.final
                           else stats.sequential_confidence(looks))

    def moderate(self, est: stats.Estimate, group: str | None,
                 key: tuple | None = None) -> tuple[stats.Estimate, dict | None]:
        """``est`` with its group's prior, and what the moderation did; the cell's variance enters the fit under
        ``key`` (none: an estimate that only tests a verdict, :meth:`settles`)."""
        if group is None:
            return est, None
        s = stats.log_spread(est, self.confidence)
        if not math.isnan(s) and key is not None:
            self.spreads[key] = (group, s * s, est.n - 1)
        prior = self.priors.get(group, stats.NO_PRIOR)
        moderated, df = stats.moderate(est, prior, self.confidence)
        own = not math.isnan(s) and bool(stats.hypervariable(s * s, est.n - 1, prior))
        # The group's prior, and whether it was used, are the study's (``priors`` in the claims file).
        return moderated, {"group": group, "df": None if math.isinf(df) else df, "hypervariable": own,
                           "plain": {"low": est.low, "high": est.high}}

    def fail(self, what: str) -> MissingResultError:
        return MissingResultError(f"claim {self.claim['id']}, version {self.version}: {what}")

    def contender(self, side: dict) -> str:
        name = side["contender"]
        if isinstance(name, dict):
            if self.version not in name:
                raise RegistryError(f"claim {self.claim['id']}: no contender named for version {self.version}")
            name = name[self.version]
        return name

    def condition(self, part: dict, side: dict | None) -> dict:
        quantity = self.study.QUANTITIES[part["quantity"]]
        where = {**part["where"], **((side or {}).get("where") or {})}
        if set(where) != set(quantity.condition):
            raise RegistryError(f"claim {self.claim['id']}, part '{part['label']}': condition {where} must set "
                                f"exactly {', '.join(quantity.condition)}")
        return where

    def side_version(self, side: dict | None) -> str:
        return (side or {}).get("version", self.version)

    def samples(self, quantity: Quantity, contender: str, where: dict, version: str | None = None) -> pd.DataFrame:
        return self.rows(quantity.table, quantity.column, contender, where, version or self.version)

    def rows(self, table: str, column: str, contender: str, where: dict, version: str) -> pd.DataFrame:
        """The rows of results ``table`` for one side; none is an error naming the ``column`` sought."""
        frame = getattr(self.results, table)
        if not (frame["version"] == version).any():
            raise self.fail(f"no {table} results for version {version}")
        rows = select(frame, version=version, contender=contender, **where)
        skipped = [r for r, ran in self.partial.get(version, {}).items() if not self.reading <= ran]
        if skipped:  # a round the budget ran for other cells' contenders: not this part's round
            rows = rows[~rows["round"].isin(skipped)]
        if rows.empty:
            raise self.fail(f"no {column} results for contender '{contender}' of {version} where {where}")
        return self.settled(rows, column, contender, where, version)

    def settled(self, rows: pd.DataFrame, column: str, contender: str, where: dict, version: str) -> pd.DataFrame:
        """``rows`` of one side with each fork :meth:`settles` is trying read at one end of its series."""
        if self.settle:
            rows = rows.copy()
            for (c, v, w, r, f), end in self.settle.items():
                if (c, v, w) == (contender, version, tuple(sorted(where.items()))):
                    fork = (rows["round"] == r) & (rows["fork"] == f)
                    rows.loc[fork, column] = getattr(rows.loc[fork, column], end)()
        return rows

    def ratio(self, quantity: Quantity, a: str, where_a: dict, b: str, where_b: dict, statistic: str | None,
              version_a: str | None = None, version_b: str | None = None) -> tuple[stats.Estimate, list[int]]:
        """Per-fork ``statistic`` (mean by default) of a ÷ of b, paired by round, and the failed rounds left
        out of it (:func:`lrev.rounds.ratio_of_measured_rounds`)."""
        ra, rb = self.samples(quantity, a, where_a, version_a), self.samples(quantity, b, where_b, version_b)
        return rounds.ratio_of_measured_rounds(ra, rb, quantity.column, statistic or "mean", self.confidence)

    def ratio_of_ratios(self, quantity: Quantity, sides: list[tuple[str, dict, str]],
                        statistic: str | None) -> tuple[stats.Estimate, list[int]]:
        """(a ÷ b) ÷ (c ÷ d), each ratio of two forks' ``statistic`` taken round by round; the interval is
        over rounds. All four sides must come from the same rounds; a round in which a side's statistic is
        not positive is failed and left out."""
        fn = stats.STATISTICS[statistic or "mean"]
        per_round = [rounds.by_round(self.samples(quantity, c, w, v), quantity.column) for c, w, v in sides]
        if len({tuple(sorted(r)) for r in per_round}) != 1:
            raise rounds.PairingError(f"claim {self.claim['id']}: the four sides were measured in different rounds")
        value = [{r: float(fn(x)) for r, x in side.items()} for side in per_round]
        failed = sorted(r for r in value[0] if any(not (side[r] > 0) for side in value))
        kept = sorted(set(value[0]) - set(failed))
        top = [np.array([value[0][r] / value[1][r]]) for r in kept]
        bottom = [np.array([value[2][r] / value[3][r]]) for r in kept]
        return stats.ratio(top, bottom, confidence=self.confidence), failed

    def saving_ratio(self, quantity: Quantity, part: dict, a: tuple[str, dict, str],
                     b: tuple[str, dict, str]) -> tuple[stats.Estimate, list[int], list[dict]]:
        """b's saving against a on the part's condition ÷ its summed savings on the ``versus_sum`` conditions
        (:func:`lrev.rounds.saving_ratio`), the failed rounds, and those conditions."""
        parts = part["versus_sum"]
        unknown = sorted({k for p in parts for k in p} - set(quantity.condition))
        if unknown:
            raise RegistryError(f"claim {self.claim['id']}, part '{part['label']}': versus_sum sets "
                                f"{', '.join(unknown)}, not a condition of {part['quantity']} "
                                f"({', '.join(quantity.condition)})")

        def pair(override: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
            return tuple(self.samples(quantity, c, {**w, **override}, v) for c, w, v in (a, b))

        est, failed = rounds.saving_ratio(pair({}), [pair(p) for p in parts], quantity.column,
                                          part.get("statistic") or "mean", self.confidence)
        return est, failed, parts

    def pace(self, part: dict, sides: list[tuple[str, dict, str]]) -> dict:
        """The lowest share of its asked rate that any side's fork reached in any round (mean over the fork's
        rows of the study's PACE table in that cell), whether every one reached ``part["pace"]``, which side
        reached least, and the positions (in ``sides``) of those that did not."""
        pace = getattr(self.study, "PACE", None)
        if pace is None:
            raise RegistryError(f"claim {self.claim['id']}, part '{part['label']}': pace needs a study that "
                                "records the rate it reached (PACE)")
        lowest, slowest, lagging, shares = math.inf, None, [], []
        for i, (contender, where, version) in enumerate(sides):
            rows = self.rows(pace.table, pace.achieved, contender, where, version)
            forks = rows.groupby("round")[[pace.achieved, pace.asked]].mean()
            share = float((forks[pace.achieved] / forks[pace.asked]).min())
            shares.append(share)
            if share < part["pace"]:
                lagging.append(i)
            if share < lowest:
                lowest, slowest = share, contender
        return {"required": part["pace"], "lowest": lowest, "slowest": slowest, "reached": not lagging,
                "lagging": lagging, "shares": shares}

    def scale(self, part: dict, quantity: Quantity, a: str, where: dict, version: str) -> dict:
        """The least value of the part's ``needs`` quantity over side a's forks, and whether it reaches
        ``at_least``."""
        needs = part["needs"]
        size = self.study.QUANTITIES.get(needs["quantity"])
        if size is None or set(size.condition) != set(quantity.condition):
            raise RegistryError(f"claim {self.claim['id']}, part '{part['label']}': needs.quantity "
                                f"'{needs['quantity']}' must be a quantity of the study with the condition "
                                f"{', '.join(quantity.condition)}")
        rows = self.samples(size, a, where, version)
        if size.column not in rows:
            raise self.fail(f"no {size.column} in the {size.table} results, the size part '{part['label']}' needs")
        lowest = float(rows[size.column].min())
        return {**needs, "lowest": lowest, "kept": lowest >= needs["at_least"]}

    def steadiness(self, quantity: Quantity, *sides: tuple[str, dict, str],
                   shown: tuple[tuple[str, dict, str], ...] = ()) -> dict | None:
        """Whether the part's series settled: per side, its forks and those whose series shows no steady state
        (:mod:`lrev.steady`); ``converged`` unless more than :data:`lrev.steady.UNSTEADY_SHARE` of a side's forks
        show none; ``jit_share``, the most the JIT took of a side's steady segments (a covariate). The ``shown``
        sides are counted but not judged: the A/A beside a part tests for bias only. None for a quantity that reads
        no series."""
        if not quantity.converges:
            return None
        unsteady, jit = {}, 0.0
        for contender, where, version in (*sides, *shown):
            rows = self.samples(quantity, contender, where, version)
            forks = rows.groupby(["round", "fork"])["stable"].min()
            unsteady[contender] = [int((forks == 0).sum()), int(forks.size)]
            if "steady_jit" in rows:
                jit = max(jit, float(rows.groupby(["round", "fork"])["steady_jit"].first().max()))
        converged = all(_settled(*unsteady[c]) for c, _, _ in sides)
        return {"converged": converged, "unsteady": unsteady, "jit_share": jit}

    def converged(self, quantity: Quantity, *sides: tuple[str, dict, str]) -> bool:
        found = self.steadiness(quantity, *sides)
        return found is None or found["converged"]

    def aa_pairs(self, contenders: list[str]) -> list[tuple[str, str]]:
        """(A/A contender, the contender it repeats) for each of ``contenders``: the study's ``aa_of`` where it
        runs more than one A/A, else its one A/A against its baseline."""
        aa_of = getattr(self.study, "aa_of", None)
        return list(dict.fromkeys(aa_of(c) if aa_of else (self.study.AA, self.study.BASELINE) for c in contenders))

    def aa(self, quantity: Quantity, where: dict, version: str, statistic: str | None,
           contenders: list[str]) -> tuple[stats.Estimate, float, str, str] | None:
        """The A/A ratio beside a part (A/A contender ÷ the contender it repeats, same quantity, condition,
        version and statistic) with its two names: of the A/As its contenders map to, a biased one first, else the
        one farthest from 1, so that a bias on either side of a ratio withholds it, and its p against 1 among the
        study's A/As (:func:`family_p`). None where the study ran none of them. Its interval is its own t interval:
        a bias withholds a verdict only on the A/A's own evidence."""
        found = []
        for aa, base in self.aa_pairs(contenders):
            if not select(getattr(self.results, quantity.table), version=version, contender=aa, **where).empty:
                est = self.ratio(quantity, aa, where, base, where, statistic, version, version)[0]
                key = (aa, base, quantity.table, quantity.column, tuple(sorted(where.items())), version, statistic)
                p = self.aa_p.setdefault(key, stats.p_value(est, self.confidence))
                found.append((est, p, aa, base))
        return max(found, key=lambda f: (biased(f[0], self.aa_tolerance, f[1], self.confidence), _offset(f[0]))
                   ) if found else None

    def estimate(self, part: dict, quantity: Quantity) -> tuple[stats.Estimate, list[int], str, dict, list]:
        """The part's interval before moderation: its estimate, the failed rounds left out, how it pairs, what
        it compares (names and conditions, for the record) and the sides it reads."""
        a, where_a, version_a = self.contender(part["a"]), self.condition(part, part["a"]), self.side_version(part["a"])
        statistic = part.get("statistic")
        out: dict[str, Any] = {}
        sides = [(a, where_a, version_a)]
        failed: list[int] = []
        if "c" in part:
            named = [(self.contender(part[s]), self.condition(part, part[s]), self.side_version(part[s]))
                     for s in "bcd"]
            est, failed = self.ratio_of_ratios(quantity, [(a, where_a, version_a), *named], statistic)
            pairing = "paired by round"
            (b, where_b, version_b), (c, where_c, version_c), (d, where_d, version_d) = named
            out.update(b=b, where_b=where_b, version_b=version_b, c=c, where_c=where_c, version_c=version_c,
                       d=d, where_d=where_d, version_d=version_d)
            sides.extend(named)
        elif "versus_sum" in part:
            b, where_b = self.contender(part["b"]), self.condition(part, part["b"])
            version_b = self.side_version(part["b"])
            est, failed, parts = self.saving_ratio(quantity, part, (a, where_a, version_a), (b, where_b, version_b))
            pairing = "paired by round"
            out.update(b=b, where_b=where_b, version_b=version_b, versus_sum=parts)
            sides.extend([(a, {**where_a, **p}, version_a) for p in parts] + [(b, where_b, version_b)]
                         + [(b, {**where_b, **p}, version_b) for p in parts])
        elif "b" in part:
            b, where_b = self.contender(part["b"]), self.condition(part, part["b"])
            version_b = self.side_version(part["b"])
            est, failed = self.ratio(quantity, a, where_a, b, where_b, statistic, version_a, version_b)
            pairing = "paired by round"
            out.update(b=b, where_b=where_b, version_b=version_b)
            sides.append((b, where_b, version_b))
        else:
            rows, pairing = self.samples(quantity, a, where_a, version_a), "single"
            if quantity.positive:
                est, failed = rounds.location_of_measured_rounds(rows, quantity.column, statistic or "mean",
                                                                 self.confidence)
            else:
                est = rounds.location(rows, quantity.column, statistic or "mean", self.confidence)
            est = stats.share(est) if quantity.share else est
        return est, failed, pairing, out, sides

    #: The most forks without a steady state whose every end :meth:`settles` tries (2 ** this estimates).
    SETTLE_MAX = 8

    def settles(self, part: dict, quantity: Quantity, sides: list[tuple[str, dict, str]], verdict: str,
                aa: tuple[str, str, dict, str, str | None] | None = None) -> bool:
        """Whether ``verdict`` stands wherever the forks that never settled would have: each such fork of the part's
        sides read at the least and at the most of its measured rows, in every combination, and judged as the part is
        (its group's prior, its confidence). Forks that could not have produced the verdict withhold nothing. With
        ``aa`` (the A/A beside the part, the contender it repeats, their condition, version and statistic), the A/A's
        forks that never settled are read alike; where a reading shows a bias (its own p, not the family's adjusted
        one: the stricter reading), the verdict must also stand with the interval moved that far either way. More
        than :data:`SETTLE_MAX` such forks are not tried."""
        shown = [] if aa is None else [(aa[0], aa[2], aa[3])]
        unsettled = self.unsettled(quantity, [*sides, *shown])
        if not unsettled or len(unsettled) > self.SETTLE_MAX:
            return False
        expect = part["expect"]
        try:
            for ends in np.ndindex(*(2,) * len(unsettled)):
                self.settle = {fork: ("min", "max")[e] for fork, e in zip(unsettled, ends)}
                est, _, pairing, _, _ = self.estimate(part, quantity)
                est, _ = self.moderate(est, kind(pairing, quantity))
                if judge(est, expect["direction"], expect["value"], expect.get("band")) != verdict:
                    return False
                if aa is not None:
                    name, base, where, version, statistic = aa
                    check = self.ratio(quantity, name, where, base, where, statistic, version, version)[0]
                    # A bias that reading shows could move the ratio as far as the A/A lies from 1, either way: the
                    # verdict stands if it stands that far (a bound, as lag_bounds is for a lag).
                    if biased(check, self.aa_tolerance, stats.p_value(check, self.confidence), self.confidence):
                        reach = math.exp(abs(math.log(check.value)))
                        wide = stats.Estimate(est.value, est.low / reach, est.high * reach, est.n)
                        if judge(wide, expect["direction"], expect["value"], expect.get("band")) != verdict:
                            return False
        finally:
            self.settle = {}
        return True

    def unsettled(self, quantity: Quantity, sides: list[tuple[str, dict, str]]) -> list[tuple]:
        """The forks of ``sides`` whose series show no steady state, as :attr:`settle` names them."""
        found = []
        for contender, where, version in sides:
            forks = self.samples(quantity, contender, where, version).groupby(["round", "fork"])["stable"].min()
            found += [(contender, version, tuple(sorted(where.items())), r, f)
                      for (r, f), stable in forks.items() if stable == 0]
        return found

    def ladder_settles(self, part: dict, quantity: Quantity, sides: list[tuple[str, dict, str]],
                       rungs: list[tuple[str, dict, str]], statistic: str | None, bias: bool, verdict: str) -> bool:
        """Whether an extrapolated ``verdict`` stands wherever the forks of the ladder's ``rungs`` (every rung's
        sides) that never settled would have: the ladder fitted again with each such fork read at the least and at
        the most of its series, in every combination, as :meth:`settles` reads a measured part; every fit must give
        the verdict."""
        unsettled = self.unsettled(quantity, rungs)
        if not unsettled or len(unsettled) > self.SETTLE_MAX:
            return False
        try:
            for ends in np.ndindex(*(2,) * len(unsettled)):
                self.settle = {fork: ("min", "max")[e] for fork, e in zip(unsettled, ends)}
                reading = self.extrapolate(part, quantity, sides, statistic, bias, bracket=False)
                if (reading.get("leaning") or reading["verdict"]) != verdict or \
                        reading["verdict"] not in (verdict, "unconverged"):
                    return False
        finally:
            self.settle = {}
        return True

    def part(self, part: dict) -> dict:
        if "answer" in part:
            return self.answer(part)
        self.reads([self.contender(part[s]) for s in "abcd" if s in part])
        quantity = self.study.QUANTITIES[part["quantity"]]
        a, where_a, version_a = self.contender(part["a"]), self.condition(part, part["a"]), self.side_version(part["a"])
        statistic = part.get("statistic")
        out: dict[str, Any] = {"label": part["label"], "quantity": part["quantity"], "a": a, "where_a": where_a,
                               "version_a": version_a}
        est, failed, pairing, compared, sides = self.estimate(part, quantity)
        out.update(compared)
        version_b = compared.get("version_b", version_a)
        key = (part["quantity"], statistic, *((c, tuple(sorted(w.items())), v) for c, w, v in sides))
        est, moderation = self.moderate(est, kind(pairing, quantity), key)
        expect = part["expect"]
        check = None if pairing == "single" else self.aa(quantity, where_a, version_b, statistic,
                                                          [s[0] for s in sides])
        aa, aa_p, aa_names = (None, None, None) if check is None else (check[0], check[1], check[2:])
        tolerance = self.aa_tolerance
        bias = aa is not None and biased(aa, tolerance, aa_p, self.confidence)
        timed = list(sides)
        leaning = judge(est, expect["direction"], expect["value"], expect.get("band"))
        steadiness = self.steadiness(quantity, *timed, shown=() if aa is None else ((aa_names[0], where_a, version_b),))
        converged = steadiness is None or steadiness["converged"]
        pace = self.pace(part, timed) if "pace" in part else None
        if pace is not None:
            lag = self.lag.get(part["quantity"])
            plain = "b" in part and not {"c", "versus_sum"} & set(part)
            pace["moves"] = lag_moves(lag_word(lag), pace["lagging"], plain)
            pace["kept"] = pace["reached"] or not could_produce(leaning, expect, est, pace["moves"])
            if not pace["kept"] and isinstance(lag, dict) and (plain or len(timed) == 1):
                # However far the lag could have moved the value, the verdict stands if it stands that far.
                shares = [s if i in pace["lagging"] else 1.0 for i, s in enumerate(pace["shares"])]
                bounded = lag_bounds(est, lag["moves"], shares)
                pace["bounded"] = {"bound": lag["bound"], "low": bounded.low, "high": bounded.high}
                pace["kept"] = judge(bounded, expect["direction"], expect["value"], expect.get("band")) == leaning
        scale = self.scale(part, quantity, a, where_a, version_a) if "needs" in part else None
        verdict = withhold(leaning, est.n, bias, converged, pace is None or pace["kept"],
                           scale is None or scale["kept"])
        # An A/A that never settled tested for bias on a value it never reached: its unsettled forks are bracketed too,
        # and the verdict stands only where no reading of them shows a bias that could have produced it.
        aa_unsettled = aa is not None and aa_names[0] not in {c for c, _, _ in timed} and \
            not _settled(*steadiness["unsteady"][aa_names[0]])
        if verdict == "unconverged" and leaning in ("holds", "fails") and \
                self.settles(part, quantity, timed, leaning,
                             (aa_names[0], aa_names[1], where_a, version_b, statistic) if aa_unsettled else None):
            verdict, steadiness["bracketed"] = leaning, True
        if "grows" in part:
            out["extrapolated"] = self.extrapolate(part, quantity, timed, statistic, bias)
        return {**out, "statistic": f"geomean of per-fork {statistic or 'mean'} ratios" if pairing != "single"
                else f"mean of per-fork {statistic or 'mean'}", "pairing": pairing, **est.to_dict(),
                "failed_rounds": failed, "direction": expect["direction"], "claimed": expect["value"],
                "band": expect.get("band"),
                "aa": None if aa is None else {**aa.to_dict(), "a": aa_names[0], "b": aa_names[1],
                                               "tolerance": tolerance, "p": aa_p, "biased": bias,
                                               "jvm_sd": stats.jvm_spread(aa, self.confidence)},
                "moderation": moderation, "converged": converged, "steadiness": steadiness, "pace": pace,
                "scale": scale, "verdict": verdict, "leaning": leaning if verdict in WITHHELD else None}

    def extrapolate(self, part: dict, quantity: Quantity, sides: list[tuple[str, dict, str]], statistic: str | None,
                    bias: bool, bracket: bool = True) -> dict:
        """The part at the seed's size (its ``grows``), judged as the measured part is, from the per-round lines
        through its ladder: no verdict, and why, from one size or from a ladder that bends away from a line. A
        verdict withheld as unconverged is kept where every reading of the rungs' unsettled forks gives it
        (:meth:`ladder_settles`, with ``bracket``)."""
        grows = part["grows"]
        over, model = grows["over"], grows.get("model", "loglog")
        size = self.study.QUANTITIES.get(grows["size"])
        if over not in quantity.condition or size is None or set(size.condition) != set(quantity.condition):
            raise RegistryError(f"claim {self.claim['id']}, part '{part['label']}': grows needs 'over', a condition "
                                f"of {part['quantity']} ({', '.join(quantity.condition)}), and 'size', a quantity of "
                                f"the study with that condition; got over '{over}', size '{grows['size']}'")
        (a, where_a, version_a), fn = sides[0], stats.STATISTICS[statistic or "mean"]
        frame = getattr(self.results, quantity.table)
        if size.column not in getattr(self.results, size.table):
            raise self.fail(f"no {size.column} in the {size.table} results, the ladder of '{part['label']}' needs "
                            f"(results from before the study measured a size ladder)")
        rest = {k: v for k, v in where_a.items() if k != over}
        values: dict[float, pd.Series] = {}
        sided: dict[float, list[pd.Series]] = {}
        rungs: dict[float, Any] = {}
        converged = True
        moves: set[str] = set()
        rung_sides: list[tuple[str, dict, str]] = []
        measured = sorted(set(select(frame, version=version_a, contender=a, **rest)[over]))
        for rung in [r for r in measured if re.fullmatch(grows.get("rungs", ".*"), str(r))]:
            at = [(c, {**w, over: rung}, v) for c, w, v in sides]
            frames = [self.settled(select(frame, version=v, contender=c, **w), quantity.column, c, w, v)
                      for c, w, v in at]
            if any(f.empty for f in frames):
                continue
            per_side = [pd.Series({r: float(fn(x)) for r, x in rounds.by_round(f, quantity.column).items()})
                        for f in frames]
            # a ÷ b, or (a ÷ b) ÷ (c ÷ d) for a gain against a gain, or a side alone.
            ratio = per_side[0] / per_side[1] if len(per_side) > 1 else per_side[0]
            if len(per_side) == 4:
                ratio = ratio / (per_side[2] / per_side[3])
            # A round without a finite value (a side measured nothing), or, fitted in logs, without a positive one
            # (under ratio-linear: on both sides), is left out as a failed round is from a ratio.
            keep = np.isfinite(ratio)
            if model in growth.SIDED:
                keep &= (per_side[0].reindex(ratio.index) > 0) & (per_side[1].reindex(ratio.index) > 0)
            elif model == "loglog":
                keep &= ratio > 0
            ratio = ratio.where(keep)
            docs = float(self.samples(size, a, at[0][1], version_a)[size.column].median())
            if docs in rungs:
                raise self.fail(f"{over} {rungs[docs]} and {rung} are both {grows['size']} {docs:,.0f}: a ladder's "
                                f"sizes must differ")
            values[docs], sided[docs], rungs[docs] = ratio, per_side, rung
            rung_sides += at
            converged = converged and self.converged(quantity, *at)
            # A rung whose side fell behind its asked rate moves the fit as it would move the part there.
            if "pace" in part:
                moves.add(lag_moves(lag_word(self.lag.get(part["quantity"])), self.pace(part, at)["lagging"],
                                    "b" in part))
        table = pd.DataFrame(values)
        out: dict[str, Any] = {"over": over, "at": grows["at"], "why": grows["why"], "model": model,
                               "rungs": [rungs[d] for d in sorted(rungs)],
                               "points": growth.points(table, model, self.confidence), "verdict": None}
        if table.shape[1] < 2:
            return {**out, "reason": f"one size measured ({over} {', '.join(map(str, rungs.values())) or 'none'})"}
        if model == "walk":
            top = max(values)
            walked = self.walked(part, grows["walk"], a, {**where_a, over: rungs[top]}, version_a)
            if walked.empty:
                return {**out, "reason": f"no {grows['walk']} of {a} at {over} {rungs[top]} (results from before the "
                                         f"study measured it)"}
            fit = growth.fit_walk(table, sided[top][0], sided[top][1], walked, grows["at"], self.confidence)
        elif model in growth.SIDED:
            # Each side's value where the ratio has one, so that both lines rest on the rounds the ratio keeps.
            a_side, b_side = (pd.DataFrame({d: s[i].where(values[d].notna()) for d, s in sided.items()})
                              for i in (0, 1))
            fit = growth.fit_ratio(a_side, b_side, grows["at"], self.confidence)
        else:
            fit = growth.fit(table, grows["at"], model, self.confidence)
        bent = bends_up(fit)
        out.update(fit.to_dict(), bends_up=bent)
        # A walk whose ratio bends up bends the way its bias already says: the bias rule below keeps only what a
        # larger ratio would keep too.
        if fit.describes is False and not ("bias" in grows and bent):
            return {**out, "reason": "the measured sizes bend away from a line (the interval of their curvature "
                                     "excludes zero), so the line says nothing at the seed's size"}
        if math.isnan(fit.prediction.value) and fit.prediction.n:
            return {**out, "reason": "a side's line falls to zero or below before the seed's size, where the model "
                                     "no longer holds"}
        expect = part["expect"]
        leaning = judge(fit.prediction, expect["direction"], expect["value"], expect.get("band"))
        if "bias" in grows and leaning in ("holds", "fails") and \
                judge(stats.Estimate(fit.prediction.value, fit.prediction.low, math.inf, fit.prediction.n),
                      expect["direction"], expect["value"], expect.get("band")) != leaning:
            # A model that can only understate the ratio decides only what any larger ratio would decide too.
            return {**out, "verdict": "untestable", "leaning": leaning,
                    "reason": f"the model can only understate the ratio here ({grows['bias']['why']}), and a larger "
                              f"one could turn this verdict"}
        moved = moves - {None}
        paced = not could_produce(leaning, expect, fit.prediction,
                                  None if not moved else moved.pop() if len(moved) == 1 else "either")
        verdict = withhold(leaning, fit.prediction.n, bias, converged, paced)
        unchecked = None
        if math.isnan(fit.prediction.high) and fit.prediction.n >= 2:
            unchecked = "side b at the seed's size cannot be told from zero, so the ratio's interval there is unbounded"
        elif fit.describes is None:
            unchecked = ("two sizes: a line fits any two points, so nothing checks it" if len(fit.sizes) == 2 else
                         "fewer than two rounds measured every size, so nothing checks the line")
        bracketed = verdict == "unconverged" and leaning in ("holds", "fails") and bracket and \
            self.ladder_settles(part, quantity, sides, rung_sides, statistic, bias, leaning)
        if bracketed:
            verdict = leaning
        return {**out, "verdict": verdict, "leaning": leaning if verdict in WITHHELD else None, "reason": unchecked,
                "bracketed": bracketed}

    def walked(self, part: dict, name: str, contender: str, where: dict, version: str) -> pd.Series:
        """Per round, the study quantity ``name`` (a walk model's growth of side a per unit of size) of ``contender``
        where ``where`` holds: the mean of the round's fork, NaN-free; empty where none was measured."""
        walk = self.study.QUANTITIES.get(name)
        if walk is None or set(walk.condition) != set(where):
            raise RegistryError(f"claim {self.claim['id']}, part '{part['label']}': grows.walk must name a quantity "
                                f"of the study with the part's condition; got '{name}'")
        rows = select(getattr(self.results, walk.table), version=version, contender=contender, **where)
        if rows.empty:
            return pd.Series(dtype=float)
        return pd.Series({r: float(np.mean(x)) for r, x in rounds.by_round(rows, walk.column).items()}).dropna()

    def answer(self, part: dict) -> dict:
        """The fastest contender by paired ratio vs the baseline, and whether it beats the runner-up; or, for
        a ``ratio`` answer, a ÷ b with its interval."""
        quantity = self.study.QUANTITIES[part["quantity"]]
        if part["answer"] == "ratio":
            return self.ratio_answer(part, quantity)
        where, b = self.condition(part, None), self.contender(part["b"])
        rows = select(getattr(self.results, quantity.table), version=self.version, **where)
        candidates = sorted(set(rows["contender"]) - set(part.get("exclude", [])))
        self.reads([*candidates, b])
        if len(candidates) < 2:
            raise self.fail(f"fewer than two candidate contenders for '{part['label']}' where {where}")
        ranked = sorted(((*self.ratio(quantity, c, where, b, where, None), c) for c in candidates),
                        key=lambda ranking: ranking[0].value, reverse=True)
        (best, failed, name), (_, _, runner_up) = ranked[0], ranked[1]
        margin = self.ratio(quantity, name, where, runner_up, where, None)[0]
        # A study may group contenders into families comparable across versions.
        family = rows.loc[rows["contender"] == name, "family"].iloc[0] if "family" in rows else name
        steadiness = self.steadiness(quantity, *((c, where, self.version) for c in candidates))
        converged = steadiness is None or steadiness["converged"]
        return {"label": part["label"], "quantity": part["quantity"], "b": b, "where_a": where, "where_b": where,
                "statistic": "geomean of per-fork mean ratios", "pairing": "paired by round", **best.to_dict(),
                "failed_rounds": failed, "converged": converged, "steadiness": steadiness,
                **answered(best.n, converged),
                "answer": {"contender": name, "family": family, "runner_up": runner_up,
                           "margin_vs_runner_up": margin.to_dict(),
                           "separated": bool(margin.low > 1) if not math.isnan(margin.low) else False,
                           "ranking": [{"contender": c, **e.to_dict()} for e, _, c in ranked]}}

    def ratio_answer(self, part: dict, quantity: Quantity) -> dict:
        a, where_a = self.contender(part["a"]), self.condition(part, part["a"])
        b, where_b = self.contender(part["b"]), self.condition(part, part["b"])
        self.reads([a, b])
        est, failed = self.ratio(quantity, a, where_a, b, where_b, part.get("statistic"))
        steadiness = self.steadiness(quantity, (a, where_a, self.version), (b, where_b, self.version))
        converged = steadiness is None or steadiness["converged"]
        return {"label": part["label"], "quantity": part["quantity"], "a": a, "b": b, "where_a": where_a,
                "where_b": where_b, "statistic": f"geomean of per-fork {part.get('statistic') or 'mean'} ratios",
                "pairing": "paired by round", **est.to_dict(), "failed_rounds": failed, "converged": converged,
                "steadiness": steadiness, **answered(est.n, converged),
                "answer": {"ratio": est.to_dict()}}

    def run(self) -> dict:
        # Each part with the confidence of its cell's last look (reads() sets it for the part judged).
        parts = [{**self.part(p), "confidence": self.confidence, "looked": self.looked}
                 for p in self.claim["parts"] if self.version in p["versions"]]
        row: dict[str, Any] = {"claim": self.claim["id"], "version": self.version, "kind": self.claim["kind"],
                               "parts": parts, "reason": None}
        if self.claim["kind"] == "question":
            # A question has one part, whose verdict (answer, or withheld) is the row's.
            row["verdict"], row["answer"] = parts[0]["verdict"], parts[0]["answer"]
        else:
            row["verdict"] = combine([p["verdict"] for p in parts])
            if row["verdict"] in WITHHELD:
                row["leaning"] = combine([p["leaning"] or p["verdict"] for p in parts])
            if any("extrapolated" in p for p in parts):
                # At the seed's size: the extrapolated parts there, the others as measured (a part that is not fitted
                # on a ladder says at the seed's size what it says here, or is untestable there too).
                grown = [p["extrapolated"] for p in parts if "extrapolated" in p]
                at_seed = [p["extrapolated"]["verdict"] if "extrapolated" in p else p["verdict"] for p in parts]
                # A part that fails there on a checked line fails the claim whatever its other parts say (combine),
                # so a part whose line says nothing there leaves that verdict standing.
                failed = any(g["verdict"] == "fails" and g["reason"] is None for g in grown)
                missing = None if failed else next((g["reason"] for g in grown if g["verdict"] is None), None)
                # Checked: every line was fitted on three sizes or more, so its bend was tested (a reason marks the
                # parts nothing checks); for a failure, the failing part's line.
                row["extrapolated"] = {"verdict": None if missing else combine([v for v in at_seed if v]),
                                       "reason": missing,
                                       "checked": failed or (not missing and all(g["reason"] is None for g in grown))}
        if row["verdict"] in WITHHELD:
            # The first part that withheld it, as combine() takes the first withheld verdict.
            row["reason"] = withheld_reason(next(p for p in parts if p["verdict"] == row["verdict"]))
        return row


def evaluate(registry: dict, results: Any, looks: int = 1) -> dict:
    """Verdicts for every claim × registry version. Each part's interval is at the confidence of its cell's last
    look (:func:`last_look_confidence`): the plain 95% where the budget gave its contenders no round
    beyond the scale's, less where it did, so that ``looks`` looks at the growing rounds do not inflate false
    verdicts. Where a budget may look again (``looks`` > 1), each row's ``at_look`` is its verdict at the sequential
    confidence (:func:`lrev.stats.sequential_confidence`), the one that decides whether the cell gets a round."""
    study = studies.get(registry["study"])
    confidence = stats.sequential_confidence(looks)

    def judged(priors: dict[str, stats.Prior], spreads: dict, aa_p: dict, final: bool) -> list[dict]:
        verdicts = []
        for claim in registry["claims"]:
            for version in registry["versions"]:
                if version in claim["not_applicable"]:
                    verdicts.append({"claim": claim["id"], "version": version, "kind": claim["kind"],
                                     "verdict": "n/a", "reason": claim["not_applicable"][version], "parts": []})
                else:
                    verdicts.append(_Judge(study, claim, version, results, registry["aa_tolerance"], looks, final,
                                           priors, spreads, registry.get("lag", {}), aa_p).run())
        return verdicts

    # Judged once with each cell's own variance to collect the study's variances and A/As, then with the priors
    # they give and the A/As' p adjusted for their number.
    spreads: dict[tuple, tuple[str, float, int]] = {}
    raw_p: dict[tuple, float] = {}
    judged({}, spreads, raw_p, final=False)
    fitted = {g: group_prior([v for h, v, _ in spreads.values() if h == g],
                             [d for h, _, d in spreads.values() if h == g],
                             confidence) for g in sorted({g for g, _, _ in spreads.values()})}
    priors, adjusted = {g: prior for g, (prior, _) in fitted.items()}, family_p(raw_p)
    verdicts = judged(priors, {}, adjusted, final=True)
    if looks > 1:
        # What the budget reads: each cell at the sequential confidence, whether this look may stop it.
        for row, at_look in zip(verdicts, judged(priors, {}, adjusted, final=False)):
            row["at_look"] = at_look["verdict"]
            if at_look.get("extrapolated"):
                row["at_look_extrapolated"] = at_look["extrapolated"]["verdict"]
    return {
        "study": registry["study"],
        "versions": registry["versions"],
        "aa_tolerance": registry["aa_tolerance"],
        "min_rounds": MIN_ROUNDS,
        "looks": looks,
        "confidence": confidence,
        "priors": {g: record for g, (_, record) in fitted.items()},
        "claims": [{k: c[k] for k in ("id", "seed", "kind", "statement", "quote", "claimed")}
                   for c in registry["claims"]],
        "verdicts": verdicts,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registry", type=Path, required=True, help="claims/<study>.yaml")
    parser.add_argument("--results", type=Path, required=True, help="RESULTS root (holds <study>/<version>/)")
    parser.add_argument("--out", type=Path, required=True, help="verdicts JSON, written atomically")
    parser.add_argument("--versions", nargs="+", required=True, help="the configured versions to judge")
    parser.add_argument("--looks", type=int, default=1,
                        help="how many times the run's budget may look at its rounds (lrev/budget.py)")
    args = parser.parse_args(argv)
    registry = load_registry(args.registry)
    unknown = sorted(set(args.versions) - set(registry["versions"]))
    if unknown:
        raise SystemExit(f"{args.registry}: no claims registered for version(s) {', '.join(unknown)}")
    registry = {**registry, "versions": [v for v in registry["versions"] if v in args.versions]}
    results = studies.get(registry["study"]).load(args.results, registry["versions"])
    result = evaluate(registry, results, args.looks)
    io.write_json(args.out, stats.json_safe({**result, "registry": str(args.registry)}))


if __name__ == "__main__":
    main()
