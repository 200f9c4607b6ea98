"""A withheld verdict says why in its row's ``reason``, in words with the numbers that withheld it: the gallery and
the claims tables print it beside the cell. The results are the made-to-order ones of test_claims_verdicts."""
from __future__ import annotations

import pytest

from lrev import claims
from lrev.pk import study
from test_claims_verdicts import (BASE, CEILING, QUIET_AA, _cold, _lookups, _paced_registry, _paced_results, _registry,
                                  _row, _scaled_registry)

FST = [300.0, 310.0, 290.0, 305.0, 295.0]
CASES = {
    "untestable": (lambda: _row(_scaled_registry(CEILING), _cold([0.72, 0.73, 0.72], [0.73, 0.73, 0.74])),
                   "hot share: hot_share_ceiling 0.73 in this run, under the 0.9 its mechanism needs: the index is too "
                   "small"),
    "underpowered": (lambda: _row(_registry(), _lookups({"FST50": FST[:2], "default": BASE[:2],
                                                         study.AA: QUIET_AA[:2]})),
                     "FST50 / default: 2 rounds, under the 3 a verdict needs"),
    "fell-behind": (lambda: _row(_paced_registry(0.9), _paced_results({"numeric": 0.3, "reindex": 1.0})),
                    "reopen, numeric / reindex: numeric reached 29% of its asked rate, under the 90% required, and a "
                    "lag that moves the value down could have produced the verdict"),
    "biased": (lambda: _row(_registry(), _lookups({"FST50": FST, "default": BASE,
                                                   study.AA: [b * 1.25 for b in BASE]})),
               "FST50 / default: the A/A default-aa ÷ default is 1.25 [1.25, 1.25]: two JVMs of one contender differ "
               "beyond ×1.1, and beyond chance"),
    "unconverged": (lambda: _row(_registry(), _lookups({"FST50": FST, "default": BASE, study.AA: QUIET_AA},
                                                       stable={"FST50": [1, 0, 0, 1, 1]})),
                    "FST50 / default: FST50: 2 of 5 forks show no steady state"),
}


@pytest.mark.parametrize("verdict", claims.WITHHELD)
def test_a_withheld_cell_says_why_in_words(verdict):
    make, reason = CASES[verdict]
    row = make()
    assert row["verdict"] == verdict
    assert row["reason"].startswith(reason)


def test_a_size_reads_with_thousands_separated_not_as_a_raw_float():
    part = {"label": "export", "verdict": "untestable",
            "scale": {"quantity": "docs", "lowest": 10000000.0, "at_least": 300000000, "why": "one big segment"}}
    assert claims.withheld_reason(part) == ("export: docs 10,000,000 in this run, under the 300,000,000 its "
                                            "mechanism needs: one big segment")
