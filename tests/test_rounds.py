"""Pairing by round (lrev.rounds): sides measured in different rounds raise, except over a round a budget ran for
some contenders only."""
from __future__ import annotations

import pandas as pd
import pytest

from lrev import rounds


def _side(values: dict[int, float], partial: set[int] | None = None) -> pd.DataFrame:
    rows = pd.DataFrame([{"round": r, "fork": f"f{r}", "x": v} for r, v in values.items()])
    return rows if partial is None else rows.assign(partial=rows["round"].isin(partial))


def test_sides_measured_in_different_rounds_cannot_be_paired():
    with pytest.raises(rounds.PairingError, match=r"different rounds: \[0, 1, 2, 3\] vs \[0, 1, 2\]"):
        rounds.paired(_side({0: 1, 1: 2, 2: 3, 3: 4}), _side({0: 1, 1: 2, 2: 3}), "x")


def test_a_round_a_budget_ran_for_one_side_only_is_left_out_of_the_pairing():
    a = _side({0: 2.0, 1: 4.0, 2: 6.0, 3: 100.0}, partial={3})
    b = _side({0: 1.0, 1: 2.0, 2: 3.0}, partial={3})
    est = rounds.ratio(a, b, "x")
    assert est.n == 3 and est.value == pytest.approx(2.0)
    # A round missing from a side that is not a partial one is still an error.
    with pytest.raises(rounds.PairingError):
        rounds.paired(_side({0: 1, 1: 2, 2: 3, 3: 4}, partial={2}), _side({0: 1, 1: 2, 2: 3}), "x")
