"""The join paper's numbers that come from the run's manifests alone, and the crossover the size ladder places."""
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from lrev import paper
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


def ladder_results(scale_saved: list[float]) -> SimpleNamespace:
    """Three rounds; per round r, block join's update costs 2 ms more than the child's at every size, and the
    term-scan join's query costs scale_saved[r] x (documents / 600) ms more than block join's: the break-even
    (queries per update) falls as 1 / documents. The main corpus has 1,000 parents (6,000 docs), the ladder 100."""
    updates, loops, ladder, ladder_updates = [], [], [], []
    for r, s in enumerate(scale_saved):
        for docs, corpus in ((6000, None), (600, "parents-100")):
            update_rows = [{"contender": "update-block", "update_ms": 3.0},
                           {"contender": "update-child", "update_ms": 1.0}]
            loop_rows = [{"contender": "block", "service_ms": 1.0},
                         {"contender": "scan", "service_ms": 1.0 + s * docs / 600}]
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


def test_the_crossover_size_is_where_the_fitted_break_even_meets_the_query_rate_over_the_update_rate():
    scale = [0.1, 0.2, 0.4]
    [row] = numbers.crossover_rows(ladder_results(scale), SETTINGS)
    assert [z["docs"] for z in row["sizes"]] == ["600", "6,000"]
    # Break-even at 6,000 docs: 2 / (10 s) queries per update, geometric mean over s = 0.1, 0.2, 0.4 (0.2).
    assert row["sizes"][1]["queries_per_update"] == "1.00"
    assert row["slope"] == "-1.00" and row["rounds"] == 3
    cells = {c["rate"]: c for c in row["crossover"]}
    # Per round the size is 1,200 u / (q s): the geometric mean 6,000 u / q, its interval the t interval of the logs.
    logs = np.log([1200 / s for s in scale])
    low, high = np.exp(scipy.stats.t.interval(0.95, 2, loc=logs.mean(), scale=scipy.stats.sem(logs)))
    assert cells[1]["docs"] == "6,000" and not cells[1]["extrapolated"]
    assert cells[1]["ci"] == paper.interval(low, high)
    assert cells[10]["docs"] == "60,000" and cells[10]["extrapolated"]


def test_no_crossover_is_claimed_where_block_joins_queries_were_not_cheaper_at_some_size_in_some_round():
    data = ladder_results([0.1, 0.2, 0.4])
    small_scan = (data.ladder["contender"] == "scan") & (data.ladder["round"] == 1)
    data.ladder.loc[small_scan, "service_ms"] = 0.5
    [row] = numbers.crossover_rows(data, SETTINGS)
    assert {c["docs"] for c in row["crossover"]} == {"none"} and row["rounds"] == 2
    assert "block join's queries were not cheaper" in row["crossover"][0]["ci"]


def test_no_crossover_is_claimed_where_the_break_even_grows_with_size():
    data = ladder_results([0.1, 0.2, 0.4])
    data.ladder_updates.loc[data.ladder_updates["contender"] == "update-block", "update_ms"] = 1.01
    [row] = numbers.crossover_rows(data, SETTINGS)
    assert {c["docs"] for c in row["crossover"]} == {"none"} and float(row["slope"]) > 0
    assert {c["ci"] for c in row["crossover"]} == {"(the break-even does not fall with size)"}


@pytest.mark.parametrize("rounds", [3, 5])
def test_the_crossover_interval_keeps_its_coverage_at_the_rounds_a_run_has(rounds):
    """Each round's four times (two update designs, two joins) at two sizes a decade apart, each off by JVM-to-JVM
    noise of 20% (lognormal): the interval covers the size where the line through the true break-evens meets the
    query rate over the update rate in 95% of runs, within binomial error (400 runs: +-3 sd is about +-3.3 points)."""
    rng = np.random.default_rng(20131)
    sizes = np.array([600_000.0, 6_000_000.0])
    n = sizes / sizes[0]
    truth = {"block_update": 0.5 + 0 * n, "child_update": 0.1 + 0 * n, "block": 0.5 * n ** 0.3, "scan": 5.0 * n}
    true_ratio = (truth["block_update"] - truth["child_update"]) / (truth["scan"] - truth["block"])
    slope, intercept = np.polyfit(np.log(sizes), np.log(true_ratio), 1)
    target = math.exp((math.log(0.1) - intercept) / slope)
    covered = []
    for _ in range(400):
        noisy = {k: v * np.exp(rng.normal(0, 0.2, (rounds, len(sizes)))) for k, v in truth.items()}
        ratio = (noisy["block_update"] - noisy["child_update"]) / (noisy["scan"] - noisy["block"])
        estimate = numbers.crossover(pd.DataFrame(ratio, columns=sizes), 0.1)
        covered.append(estimate.low <= target <= estimate.high)
    assert 0.917 <= np.mean(covered) <= 0.983


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
