"""Stopping once a verdict is reached does not inflate false verdicts: a simulation of the budget's rule.

A run looks at its claims after 3 rounds and after each further round, up to 8, and stops at the first look whose
interval clears the threshold (lrev/budget.py). The true ratio is the threshold itself, so any verdict drawn rests on
an interval that misses the truth. Judged at 95% at every look, about one run in seven would end in such a verdict;
at the sequential confidence (Bonferroni over the six looks), at most one in twenty. The budget's rule as built
reads whether a cell goes on at that confidence and draws its verdict at its last look's
(:func:`lrev.claims.last_look_confidence`): 95% for a cell that got no round.
"""
from __future__ import annotations

import numpy as np
import pytest

from lrev import claims, stats

EXPERIMENTS = 2000
FIRST, LAST = claims.MIN_ROUNDS, 8
THRESHOLD = 1.3


def _false_verdicts(confidence: float, between_sd: float, seed: int) -> float:
    rng = np.random.default_rng(seed)
    wrong = 0
    for _ in range(EXPERIMENTS):
        logs = np.log(THRESHOLD) + rng.normal(0, between_sd * np.sqrt(2), LAST)
        for n in range(FIRST, LAST + 1):
            est = stats.ratio([[np.exp(x)] for x in logs[:n]], [[1.0]] * n, confidence=confidence)
            verdict = claims.judge(est, "greater", THRESHOLD)
            if verdict != "inconclusive":
                wrong += 1
                break
    return wrong / EXPERIMENTS


@pytest.mark.parametrize("between_sd", [0.05, 0.25])
def test_sequential_confidence_keeps_false_verdicts_at_five_percent(between_sd):
    looks = LAST - FIRST + 1
    assert _false_verdicts(stats.sequential_confidence(looks), between_sd, seed=1) <= 0.05


def test_judging_every_look_at_95_percent_would_not():
    assert _false_verdicts(stats.CONFIDENCE, 0.15, seed=2) > 0.08


def _budget_false_verdicts(looks: int, give: float, seed: int, shared: float = 0.7) -> float:
    """The budget's whole rule on a cell X whose true ratio is the threshold, beside a cell Y that shares most of its
    rounds' noise (their contenders overlap): after each look, both get one more round when either is undecided at
    the sequential confidence and the budget's minutes allow (chance ``give``), up to ``looks`` looks; X's verdict
    is drawn at the confidence of its last look."""
    rng = np.random.default_rng(seed)
    last = FIRST + looks - 1
    wrong = 0
    for _ in range(EXPERIMENTS):
        common = rng.normal(0, 1, last)
        x, y = (np.log(THRESHOLD) + 0.15 * (np.sqrt(shared) * common + np.sqrt(1 - shared) * rng.normal(0, 1, last))
                for _ in range(2))

        def verdict(logs, n, confidence):
            return claims.judge(stats.ratio([[np.exp(v)] for v in logs[:n]], [[1.0]] * n, confidence=confidence),
                                "greater", THRESHOLD)

        looked = 1
        while looked < looks and rng.random() < give and any(
                verdict(c, FIRST + looked - 1, stats.sequential_confidence(looks)) == "inconclusive" for c in (x, y)):
            looked += 1
        wrong += verdict(x, FIRST + looked - 1, claims.last_look_confidence(looked, looks)) != "inconclusive"
    return wrong / EXPERIMENTS


@pytest.mark.parametrize("looks,give", [(2, 0.5), (2, 1.0), (3, 0.5), (3, 1.0)])
def test_a_cell_judged_at_its_last_look_keeps_false_verdicts_at_five_percent(looks, give):
    # A cell that got no round keeps the plain 95%; one that got k rounds spends (1 - 0.95) / looks at each look
    # before its last. Whether the budget had minutes left, or a sibling cell was undecided, does not matter.
    assert _budget_false_verdicts(looks, give, seed=3) <= 0.05


def test_last_look_confidence_spends_what_the_looks_before_left():
    assert claims.last_look_confidence(1, 2) == pytest.approx(0.95)
    assert claims.last_look_confidence(2, 2) == pytest.approx(0.975)
    assert claims.last_look_confidence(2, 3) == pytest.approx(1 - 0.05 * 2 / 3)
    with pytest.raises(ValueError, match="looks"):
        claims.last_look_confidence(3, 2)


def test_one_look_needs_no_correction_and_none_is_an_error():
    assert stats.sequential_confidence(1) == stats.CONFIDENCE
    assert stats.sequential_confidence(6) == pytest.approx(1 - 0.05 / 6)
    with pytest.raises(ValueError, match="looks"):
        stats.sequential_confidence(0)
