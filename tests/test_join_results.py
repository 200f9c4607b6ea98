"""The `join` correctness gate across forks and the measured time, on hand-made tables."""
from __future__ import annotations

import math
from types import SimpleNamespace

import pandas as pd
import pytest

from lrev.join import layout, results, summary


def gate_rows(contender: str, version: str = "9.12.3", parents: str = "aa", top: str = "p1 p2", round_: int = 0):
    return pd.DataFrame({"version": version, "round": round_, "fork": layout.job_name(version, contender),
                         "contender": contender, "system": layout.system(contender), "query": [0, 1],
                         "hits": [2, 0], "parents_sha256": [parents, "e3"], "top": [top, ""]})


def test_contenders_that_agree_pass_even_with_other_top_hits_on_solrs_index():
    results.check_answers(pd.concat([gate_rows("block"), gate_rows("scan"), gate_rows("block-aa", round_=1),
                                     gate_rows("solr-join", top="p2 p1"), gate_rows("solr-parent", top="p2 p1"),
                                     gate_rows("block", "10.6.0", parents="bb")]))


def test_another_parent_set_stops_the_run_naming_query_version_and_contenders():
    with pytest.raises(results.AnswerMismatch, match=r"parent sets of query 0 on Lucene 9\.12\.3.*scan"):
        results.check_answers(pd.concat([gate_rows("block"), gate_rows("scan", parents="ab")]))


def test_other_top_hits_on_one_index_stop_the_run():
    with pytest.raises(results.AnswerMismatch, match=r"top hits of query 0"):
        results.check_answers(pd.concat([gate_rows("block"), gate_rows("terms", top="p2 p1")]))


def test_the_sweep_compares_answers_within_a_corpus_only():
    shared = [gate_rows("scan", parents="cc").assign(corpus="share-10"),
              gate_rows("terms", parents="cc").assign(corpus="share-10")]
    results.check_answers(pd.concat([gate_rows("scan").assign(corpus="blocks"), *shared]), ["corpus"])
    with pytest.raises(results.AnswerMismatch, match=r"query 0 on Lucene 9\.12\.3, corpus share-10"):
        results.check_answers(pd.concat([*shared, gate_rows("ordinals", parents="cd").assign(corpus="share-10")]),
                              ["corpus"])


def test_the_measured_time_is_the_closed_loops_measured_iterations_and_the_load_steps():
    closed = pd.DataFrame({"version": "10.6.0", "phase": "measure", "nanos": [5, 6], "jit_ms": [1, 0],
                           "gc_ms": [0, 1], "ops": 3})
    steps = pd.DataFrame({"version": "10.6.0", "duration_ns": [100], "jit_ms": [2], "gc_ms": [3],
                          "offered_rps": 50.0})
    measured = summary.measured_time(SimpleNamespace(closed=closed, steps=steps))
    assert measured.to_dict(orient="list") == {"version": ["10.6.0"] * 3, "nanos": [5, 6, 100], "jit_ms": [1, 0, 2],
                                               "gc_ms": [0, 1, 3]}


def update_gate(design: str, **wrong) -> pd.DataFrame:
    """Two updated blocks of one update fork, read back as written unless ``wrong`` overrides a column."""
    rows = pd.DataFrame({"version": "10.6.0", "round": 1, "fork": layout.job_name("10.6.0", design),
                         "contender": design, "parent": ["00000007", "00000009"], "children": [5, 5],
                         "found": [6, 6], "acl_ok": [5, 5], "adjacent": [1, 1]})
    for column, value in wrong.items():
        rows.loc[1, column] = value
    return rows


def test_updates_count_only_where_every_block_reads_back_as_written():
    results.check_updates(pd.concat([update_gate("update-block"), update_gate("update-child")]))
    for wrong, what in (({"found": 7}, "7 of 6 ids"), ({"acl_ok": 4}, "4 of 5 acls"), ({"adjacent": 0}, "adjacent 0")):
        with pytest.raises(results.AnswerMismatch,
                           match=rf"10\.6\.0_update-block \(round 1\) left block 00000009.*{what}"):
            results.check_updates(update_gate("update-block", **wrong))


def test_cpu_per_request_reads_the_first_step_past_saturation():
    keys = {"version": "9.12.3", "round": 0, "contender": "block"}
    steps = pd.DataFrame([{**keys, "offered_rps": rate, "stop_reason": reason, "cpu_share": cpu, "cores": 2,
                           "completion_rate": done}
                          for rate, reason, cpu, done in ((100, "", 0.1, 100), (400, "backlog", 0.9, 300),
                                                          (300, "p99", 0.8, 250), (200, "", 0.5, 200))])
    saturation = pd.DataFrame([{**keys, "service_ms": 5.0}])
    out = summary.with_cpu_per_request(saturation, steps)
    # The lowest failing rate (300 req/s): 0.8 of 2 cores over 250 completions/s.
    assert out["cpu_per_request_ms"].iloc[0] == pytest.approx(0.8 * 2 / 250 * 1e3)


def test_a_saturation_rate_interval_stays_above_zero_however_spread_the_forks():
    # Three forks as spread as the default run's term scan on 4.10.4: a plain t interval over them is [-89.4, 273].
    rates = [20.0, 90.0, 166.0]
    saturation = pd.DataFrame([{"version": "4.10.4", "contender": "scan", "system": "lucene", "round": r,
                                "fork": f"scan-{r}", "stable": 1, "outcome": "reached", "saturation_rps": rate,
                                **{m: 1.0 for m in summary.METRICS if m != "saturation_rps"}}
                               for r, rate in enumerate(rates)])
    row = summary.contender_table(SimpleNamespace(saturation=saturation)).iloc[0]
    assert 0 < row["saturation_rps_low"] < row["saturation_rps"] < row["saturation_rps_high"]
    # The geometric mean of the forks' rates, its interval the t interval of their logs.
    assert row["saturation_rps"] == pytest.approx(math.prod(rates) ** (1 / 3))
