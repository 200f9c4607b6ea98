"""The join paper's numbers that come from the run's manifests alone, and the crossover the size ladder places."""
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from lrev import paper, stats
from lrev.join import numbers, summary


def manifest(version: str, contenders: list[str], jars: list[str]) -> dict:
    return {"parameters": {"contenders": {version: contenders}}, "classpath": [{"file": jar} for jar in jars]}


def test_the_solr_releases_are_those_whose_solr_contenders_ran_in_version_order():
    manifests = {
        "9.12.3": manifest("9.12.3", ["block", "solr-join"], ["engine.jar", "solr-core-9.10.1.jar"]),
        "4.10.4": manifest("4.10.4", ["solr-parent"], ["lucene-core-4.10.4.jar", "solr-core-4.10.4.jar"]),
        # The engine carries Solr, but this run timed Lucene's joins on it only.
        "8.11.4": manifest("8.11.4", ["block", "scan"], ["solr-core-8.11.4.jar"]),
        "10.6.0": manifest("10.6.0", ["block", "scan"], ["lucene-core-10.6.0.jar"]),
    }
    assert numbers.solr_releases(manifests) == ["4.10.4", "9.10.1"]


def ladder_results(scale_saved: list[float], ladder_parents: tuple[int, ...] = (100,),
                   saved=lambda s, docs: s * docs / 600) -> SimpleNamespace:
    """One round per entry of ``scale_saved``; per round r, block join's update costs 2 ms more than the child's at
    every size, and the term-scan join's query costs ``saved(scale_saved[r], documents)`` ms more than block
    join's (by default proportional to the documents: the break-even falls as 1 / documents). The main corpus has
    1,000 parents (6,000 docs), the ladder ``ladder_parents``."""
    updates, loops, ladder, ladder_updates = [], [], [], []
    for r, s in enumerate(scale_saved):
        for parents, corpus in ((1000, None), *((n, f"parents-{n}") for n in ladder_parents)):
            update_rows = [{"contender": "update-block", "update_ms": 3.0},
                           {"contender": "update-child", "update_ms": 1.0}]
            loop_rows = [{"contender": "block", "service_ms": 1.0},
                         {"contender": "scan", "service_ms": 1.0 + saved(s, parents * 6)}]
            common = {"version": "10.6.0", "round": r}
            if corpus is None:
                updates += [{**common, **u} for u in update_rows]
                loops += [{**common, **q} for q in loop_rows]
            else:
                ladder_updates += [{**common, "corpus": corpus, **u} for u in update_rows]
                ladder += [{**common, "corpus": corpus, **q} for q in loop_rows]
    return SimpleNamespace(updates=pd.DataFrame(updates), saturation=pd.DataFrame(loops), ladder=pd.DataFrame(ladder),
                           ladder_updates=pd.DataFrame(ladder_updates))


SETTINGS = {"corpus": {"parents": 1000, "children": 5}, "ladder": {"parents": [100], "query_rates": [1.0]}}
SCALE = [0.15, 0.2, 0.25]


def test_the_crossover_size_is_where_k_times_the_saving_line_meets_the_extra_update_cost_line():
    [row] = numbers.crossover_rows(ladder_results(SCALE), SETTINGS)
    assert [z["docs"] for z in row["sizes"]] == ["600", "6,000"]
    # Break-even at 6,000 docs: 2 / (10 s) queries per update, the geometric mean over rounds.
    assert row["sizes"][1]["queries_per_update"] == paper.fmt(0.2 / scipy.stats.gmean(SCALE))
    # The lines: extra 2 at every size, saved s n / 600; d ln break-even / d ln n is -1 everywhere.
    assert row["slope"] == "-1.00" and row["rounds"] == 3 and row["fit"] == numbers.FIT_CHECK[None]
    cells = {c["rate"]: c for c in row["crossover"]}
    # k saved = extra at n = 1,200 / (k mean(s)), k = 1 / u; with extra exact, Fieller's interval is 1,200 / k
    # over the t interval of the mean of s, upside down.
    low, high = 1200 / np.array(scipy.stats.t.interval(0.95, 2, loc=np.mean(SCALE), scale=scipy.stats.sem(SCALE)))
    assert cells[1]["docs"] == "6,000" and not cells[1]["extrapolated"]
    assert cells[1]["ci"] == paper.interval(high, low)
    assert cells[10]["docs"] == "60,000" and cells[10]["extrapolated"]
    assert cells[10]["ci"] == paper.interval(10 * high, 10 * low)


def test_no_crossover_is_claimed_where_block_joins_queries_were_not_cheaper_at_some_size_in_some_round():
    data = ladder_results(SCALE)
    small_scan = (data.ladder["contender"] == "scan") & (data.ladder["round"] == 1)
    data.ladder.loc[small_scan, "service_ms"] = 0.5
    [row] = numbers.crossover_rows(data, SETTINGS)
    assert {c["docs"] for c in row["crossover"]} == {"none"} and row["rounds"] == 2
    assert {c["ci"] for c in row["crossover"]} == {summary.NOT_POSITIVE}


def test_no_crossover_is_claimed_where_the_saving_does_not_outgrow_the_extra_update_cost():
    data = ladder_results(SCALE)
    # Extra 0.01 ms at 600 docs, 2 at 6,000: its line climbs faster than k = 1 times the saving's.
    data.ladder_updates.loc[data.ladder_updates["contender"] == "update-block", "update_ms"] = 1.01
    [row] = numbers.crossover_rows(data, SETTINGS)
    assert {c["docs"] for c in row["crossover"]} == {"none"} and float(row["slope"]) > 0
    assert {c["ci"] for c in row["crossover"]} == {numbers.NOT_OUTGROWN}


def test_block_join_pays_at_every_size_where_the_lines_meet_below_zero_documents():
    # A 3 ms fixed part of the saving: at k = 1, 3 k > 2 ms of extra update cost whatever the size.
    [row] = numbers.crossover_rows(ladder_results(SCALE, saved=lambda s, docs: 3 + s * docs / 600), SETTINGS)
    cells = {c["rate"]: c for c in row["crossover"]}
    assert cells[1]["docs"] == "every size" and cells[1]["ci"] == numbers.EVERY_SIZE
    # At k = 0.1: (2 - 0.3) / (0.1 x 0.2 / 600) documents.
    assert cells[10]["docs"] == paper.fmt(1.7 / (0.1 * 0.2 / 600)) and cells[10]["extrapolated"]


def test_a_crossover_that_may_lie_below_zero_documents_is_clipped_there():
    # Fixed parts of 1.5, 2 and 2.6 ms by round: at k = 1 the lines meet at 0.5, 0 and -0.6 ms of (extra - k saved)
    # at zero documents, whose mean is below zero and whose interval is not.
    fixed = dict(zip(SCALE, (1.5, 2.0, 2.6)))
    [row] = numbers.crossover_rows(ladder_results(SCALE, saved=lambda s, docs: fixed[s] + s * docs / 600), SETTINGS)
    cells = {c["rate"]: c for c in row["crossover"]}
    assert cells[1]["docs"] == "every size" and not cells[1]["extrapolated"]
    low, high = cells[1]["ci"].strip("[]").split(", ")
    assert low == "0" and float(high.replace(",", "")) > 0


def test_a_bending_side_withholds_the_crossover():
    # The saving grows with the square of the documents, over three sizes: every round bends the same way.
    data = ladder_results(SCALE, ladder_parents=(100, 300), saved=lambda s, docs: s * (docs / 600) ** 2)
    [row] = numbers.crossover_rows(data, {**SETTINGS, "ladder": {"parents": [100, 300], "query_rates": [1.0]}})
    assert [z["docs"] for z in row["sizes"]] == ["600", "1,800", "6,000"]
    assert row["fit"] == summary.BENDS
    assert {c["ci"] for c in row["crossover"]} == {summary.BENDS}
    # The same ladder with the saving linear is checked and passes.
    data = ladder_results(SCALE, ladder_parents=(100, 300))
    [row] = numbers.crossover_rows(data, {**SETTINGS, "ladder": {"parents": [100, 300], "query_rates": [1.0]}})
    assert row["fit"] == numbers.FIT_CHECK[True] and {c["docs"] for c in row["crossover"]} != {"none"}


@pytest.mark.parametrize("rounds", [3, 5])
def test_the_crossover_interval_keeps_its_coverage_at_the_rounds_a_run_has(rounds):
    """Each round's four times (two update designs, two joins) at the paper ladder's three sizes, each a line in the
    documents with a fixed part, each off by JVM-to-JVM noise of 10% (lognormal): where the lines are not withheld,
    the interval covers the size at which the true lines meet, k = 0.03 queries per update (past the top size), in
    95% of runs, within binomial error (1,000 runs: +-3 sd is about +-2.1 points). An interval with no upper end
    excludes nothing above its lower one and counts as covering there; it must stay rare, or the test proves
    little. A run whose lines never meet, or meet below zero, excludes the true size."""
    rng = np.random.default_rng(20131)
    sizes = np.array([600_000.0, 1_800_000.0, 6_000_000.0])
    n = sizes / sizes[0]
    truth = {"block_update": 0.5 + 0 * n, "child_update": 0.1 + 0 * n, "block": 0.05 + 0.02 * n,
             "scan": 0.5 + 1.0 * n}
    k = 0.03
    # extra = 0.4; saved = 0.45 + 0.98 n / 600,000: k saved = extra at n = (0.4 - 0.45 k) 600,000 / (0.98 k).
    target = (0.4 - 0.45 * k) * sizes[0] / (0.98 * k)
    assert target > sizes[-1]
    covered, unbounded = [], 0
    for _ in range(1000):
        noisy = {c: v * np.exp(rng.normal(0, 0.1, (rounds, len(sizes)))) for c, v in truth.items()}
        extra = pd.DataFrame(noisy["block_update"] - noisy["child_update"], columns=sizes)
        saved = pd.DataFrame(noisy["scan"] - noisy["block"], columns=sizes)
        fit = summary.ladder_fit(extra, saved)
        if isinstance(fit, str):
            continue
        estimate = numbers.crossover(fit, k)
        if not isinstance(estimate, stats.Estimate):
            covered.append(False)
        elif math.isnan(estimate.high):
            unbounded += 1
            covered.append(not estimate.low > target)
        else:
            covered.append(estimate.low <= target <= estimate.high)
    assert len(covered) >= 850 and unbounded <= 0.2 * len(covered)
    assert 0.929 <= np.mean(covered) <= 0.971


def test_the_service_table_puts_the_main_corpus_on_the_size_ladder_with_its_documents():
    """The load forks' closed loops are the main corpus's rung; the ladder's forks carry their own documents."""
    saturation = pd.DataFrame([{"version": "10.6.0", "round": r, "fork": f"10.6.0_{c}", "contender": c,
                                "service_ms": ms, "stable": 1, "saturation_rps": 1.0}
                               for r in range(2) for c, ms in (("block", 0.1), ("scan", 6.0))])
    ladder = pd.DataFrame([{"version": "10.6.0", "round": r, "fork": f"10.6.0_{c}_parents-100", "contender": c,
                            "corpus": "parents-100", "join_keys": 100, "service_ms": ms, "stable": 0, "docs": 600}
                           for r in range(2) for c, ms in (("block", 0.05), ("scan", 0.6))])
    # The load steps of round 1's scan fork were not quiet; its closed loop converged, which is what the rung reads.
    saturation.loc[(saturation["round"] == 1) & (saturation["contender"] == "scan"), "stable"] = 0
    closed = pd.DataFrame([{"version": "10.6.0", "round": r, "fork": f"10.6.0_{c}", "contender": c, "stable": 1,
                            "iteration": i} for r in range(2) for c in ("block", "scan") for i in range(3)])
    manifests = {"10.6.0": {"parameters": {"corpus": {"parents": 1000, "children": 5}}}}
    table = summary.service_table(saturation, closed, ladder, manifests)
    assert list(table.columns) == ["version", "round", "fork", "contender", "corpus", "docs", "service_ms", "stable"]
    by = table.groupby(["corpus", "contender"])
    assert {k: list(v) for k, v in by["docs"].unique().items()} == {("blocks", "block"): [6000], ("blocks", "scan"): [6000],
                                             ("parents-100", "block"): [600], ("parents-100", "scan"): [600]}
    assert by["service_ms"].mean().to_dict()[("blocks", "scan")] == 6.0
    assert len(table) == 8
    assert list(table.loc[table["corpus"] == "blocks", "stable"]) == [1, 1, 1, 1]


def test_cold_windows_count_the_terms_and_postings_opening_left_on_disk_in_read_ahead_windows():
    keys = {"version": "10.6.0", "round": 0, "contender": "scan", "workers": 4}
    cold = pd.DataFrame([{**keys, "fork": "f", "directory": d, "read_ahead_kb": ra} for d, ra in
                         (("mmap", 128), ("nio", 0))])
    # MMap's opening left 256 KB of postings on disk (two 128 KB windows) and read the terms whole; stored
    # fields do not count. NIO's left 40 KB of terms, in 4 KB pages where no read-ahead is known.
    residency = pd.DataFrame([{**keys, "fork": "f", "directory": d, "extension": ext, "bytes": b,
                               "resident_at_open": r} for d, ext, b, r in
                              (("mmap", "doc", 300 * 1024, 44 * 1024), ("mmap", "tim", 8192, 8192),
                               ("mmap", "fdt", 10**6, 0), ("nio", "tim", 40 * 1024, 0))])
    out = summary.with_cold_windows(cold, residency).set_index("directory")["cold_windows"]
    assert out.to_dict() == {"mmap": 2.0, "nio": 10.0}
