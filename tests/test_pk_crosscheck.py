"""The cross-check's verdict: paired rounds, the tolerance, and refusal of unpaired data."""
from __future__ import annotations

import pandas as pd
import pytest

from lrev.pk import crosscheck


def samples(harness_ns: list[int], plain_ns: list[int], first_ns: list[int], contender: str = "default",
            ops: int = 12_000) -> pd.DataFrame:
    rows = []
    for source, nanos in ((crosscheck.HARNESS, harness_ns), (crosscheck.PLAIN, plain_ns),
                          (crosscheck.FIRST_PASS, first_ns)):
        for r, ns in enumerate(nanos):
            rows.append({"fork": 0, "source": source, "contender": contender, "threads": 1, "phase": "measure",
                         "round": r, "ops": ops, "nanos": ns})
            if source == crosscheck.HARNESS:  # two-thread samples never count
                rows.append({"fork": 0, "source": source, "contender": contender, "threads": 2,
                             "phase": "measure", "round": r, "ops": 2 * ops, "nanos": 1})
        rows.append({"fork": 0, "source": source, "contender": contender, "threads": 1, "phase": "warmup",
                     "round": 0, "ops": ops, "nanos": 1})  # warm-up never counts
    rows.append({"fork": 0, "source": crosscheck.HARNESS, "contender": "FST50", "threads": 1, "phase": "measure",
                 "round": 0, "ops": ops, "nanos": 1})  # another contender never counts
    return pd.DataFrame(rows)


def test_ratio_pairs_rounds_so_drift_cancels():
    # The host slows down 3x over the run; each round's harness sample is 10% faster than its plain pass.
    plain = [4_000_000, 6_000_000, 12_000_000, 8_000_000]
    harness = [round(ns / 1.1) for ns in plain]
    c = crosscheck.check(samples(harness, plain, [ns * 2 for ns in plain]), "default")
    assert c["ratio"] == pytest.approx(1.1)
    assert c["pairs"] == 4
    assert c["within_tolerance"]
    assert c["first_pass_ratio"] == pytest.approx(0.5)
    assert c["harness_lookups_per_s"] / c["plain_lookups_per_s"] == pytest.approx(c["ratio"])


def test_outside_tolerance_is_reported_as_such():
    plain = [4_000_000, 4_100_000, 3_900_000]
    c = crosscheck.check(samples([ns // 2 for ns in plain], plain, plain), "default")
    assert c["ratio"] == pytest.approx(2.0, rel=1e-3)
    assert not c["within_tolerance"]


def test_a_contender_without_paired_rounds_is_an_error():
    with pytest.raises(ValueError, match="Memory"):
        crosscheck.check(samples([1, 2], [1, 2], [1, 2]), "Memory")


def test_checked_contenders_follow_the_version():
    assert crosscheck.checked_contenders(["default", "Memory", "FST41"]) == ["default", "Memory"]
    assert crosscheck.checked_contenders(["default", "FST50", "Direct"]) == ["default", "FST50"]
    assert crosscheck.checked_contenders(["default", "Direct"]) == ["default"]
