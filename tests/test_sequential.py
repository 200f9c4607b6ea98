"""Stopping once a verdict is reached does not inflate false verdicts: a simulation of the budget's rule.

A run looks at its claims after 3 rounds and after each further round, up to 8, and stops at the first look whose
interval clears the threshold (lrev/budget.py). The true ratio is the threshold itself, so any verdict drawn rests on
an interval that misses the truth. Judged at 95% at every look, about one run in seven would end in such a verdict;
at the sequential confidence (Bonferroni over the six looks), at most one in twenty.
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


def test_one_look_needs_no_correction_and_none_is_an_error():
    assert stats.sequential_confidence(1) == stats.CONFIDENCE
    assert stats.sequential_confidence(6) == pytest.approx(1 - 0.05 / 6)
    with pytest.raises(ValueError, match="looks"):
        stats.sequential_confidence(0)
