"""The `dvupdate` results: the correctness gate and the seed's per-reopen columns, on hand-made fork tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lrev.dvupdate import results


def verify_rows(contender: str, version: str = "10.6.0", lastmod: str = "aa", title: str = "bb",
                match: int = 1) -> pd.DataFrame:
    return pd.DataFrame({
        "version": version, "round": 0, "fork": f"{version}_big_{contender}", "contender": contender, "role": "big",
        "step": ["reopen-0", "final", "final"], "item": ["paris", "lastmod", "title_dv"],
        "expected": ["1", lastmod, title], "actual": ["1" if match else "2", lastmod, title], "match": match})


def test_methods_that_leave_what_their_updates_should_pass():
    base_title = "00"  # numeric leaves the titles as they were, binary the last-modified times
    results.check_answers(pd.concat([verify_rows("reindex"), verify_rows("numeric", title=base_title),
                                     verify_rows("binary", lastmod="11"), verify_rows("reindex", "4.10.4")]))


def test_a_wrong_top_hit_stops_the_results_naming_method_version_and_query():
    with pytest.raises(results.AnswerMismatch, match=r"numeric on Lucene 10\.6\.0.*reopen-0 paris"):
        results.check_answers(pd.concat([verify_rows("reindex"), verify_rows("numeric", match=0)]))


def test_methods_that_set_one_field_must_agree_across_versions():
    with pytest.raises(results.AnswerMismatch, match="lastmod"):
        results.check_answers(pd.concat([verify_rows("reindex"), verify_rows("numeric", "4.10.4", lastmod="ab")]))


def reopen_rows(**cols) -> pd.DataFrame:
    base = {"rate": 1000, "reopen_ns": 2_000_000, "update_ns": 8_000_000, "updates": 500, "queries": 100,
            "elapsed_ns": 500_000_000, "due": 1000, "done": 1000, "fell_behind": 0, "heap_bytes": 1 << 20}
    return pd.DataFrame([{**base, **cols}])


def test_the_seed_columns_come_per_reopen():
    r = results.derive(reopen_rows(), behind_s=0.5).iloc[0]
    assert (r["reopen_ms"], r["update_ms"], r["total_ms"]) == (2.0, 8.0, 10.0)
    assert r["perdoc_ms"] == pytest.approx(0.02)
    assert r["queries_per_s"] == pytest.approx(200.0)
    assert r["behind"] == 0 and r["heap_mb"] == 1.0


@pytest.mark.parametrize("cols", [{"done": 400}, {"fell_behind": 1}])
def test_updates_not_done_in_time_or_a_late_reopen_is_behind(cols):
    assert results.derive(reopen_rows(**cols), behind_s=0.5).iloc[0]["behind"] == 1


def test_a_reopen_without_updates_has_no_per_document_cost():
    assert pd.isna(results.derive(reopen_rows(updates=0), behind_s=0.5).iloc[0]["perdoc_ms"])


def test_a_forks_sizes_are_its_corpus_documents_per_update_and_its_buffers_flushes():
    """Per fork and cell: the corpus's documents over the mean updates of its measured reopens (a reopen with none
    counts), and how many of them flushed the RAM buffer."""
    from lrev.dvupdate import summary

    cell = {"role": "big", "rate_role": "high", "interval_role": "long"}
    reopens = pd.DataFrame([{"version": "10.6.0", "contender": "ram-buffer", "round": r, "fork": f"f{r}", **cell,
                             "updates": u, "flushed": f, "stable": 1}
                            for r, rows in enumerate([[(300, 1), (100, 0)], [(0, 0), (400, 1)]]) for u, f in rows])
    manifests = {"10.6.0": {"parameters": {"corpora": {"big": {"text": "synthetic", "docs": 20000}}},
                            "corpora": {"synthetic-big": {"docs": 20000}}}}
    data = summary.DvuResults(reopens=reopens, perdoc=reopens, latency=pd.DataFrame(), verify=pd.DataFrame(),
                              warmup=pd.DataFrame(), manifests=manifests)
    sizes = data.sizes.set_index("round")
    assert list(sizes["docs_per_update"]) == [20000 / 200, 20000 / 200] and list(sizes["docs"]) == [20000, 20000]
    assert list(sizes["flushes"]) == [1, 1]


def test_the_seeds_tables_leave_the_size_ladders_corpora_to_the_claims_fitted_on_them():
    from lrev.dvupdate import summary

    rows = pd.DataFrame([{"role": role, "updates": 1, "flushed": 0} for role in ("big", "medium", "big-2000")])
    data = summary.DvuResults(reopens=rows, perdoc=rows, latency=rows, verify=rows, warmup=rows, manifests={})
    kept = summary.without_ladder(data)
    assert list(kept.reopens["role"]) == ["big", "medium"] and list(kept.verify["role"]) == ["big", "medium"]


def _one_cell(reopen_ms, behind):
    """One cell of one method, a fork per round with one reopen each."""
    from lrev.dvupdate import summary

    rows = pd.DataFrame([{"version": "10.6.0", "contender": "numeric", "round": r, "fork": f"f{r}", "role": "big",
                          "rate_role": "high", "interval_role": "short", "rate": 1000, "interval_ms": 500,
                          "updates": 500, **{m: 1.0 for m in summary.METRICS}, "reopen_ms": reopen_ms[r],
                          "behind": behind[r]} for r in range(len(reopen_ms))])
    return summary.DvuResults(reopens=rows, perdoc=rows, latency=rows, verify=rows, warmup=rows, manifests={})


def test_the_seeds_table_averages_times_and_rates_geometrically_and_the_behind_share_plainly():
    from lrev.dvupdate import summary

    # Widely spread reopens, and one fork of three behind.
    reopen_ms, behind = [9.5, 1.0, 19.0], [0.0, 0.0, 1.0]
    row = summary.cell_table(_one_cell(reopen_ms, behind)).iloc[0]
    assert row["reopen_ms"] == pytest.approx(np.exp(np.log(reopen_ms).mean())) and 0 < row["reopen_ms_low"]
    # The plain t interval of a share reaches below 0 here; the table cuts it to [0, 1], which a share cannot leave.
    assert row["behind"] == pytest.approx(1 / 3) and row["behind_low"] == 0 < row["behind_high"] <= 1


def test_an_interval_from_two_rounds_runs_to_the_axis_edge_and_the_axis_stays_near_the_estimates():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from lrev.dvupdate import figures, summary

    table = summary.cell_table(_one_cell([1.0, 50.0], [0.0, 0.0]))
    row = table.iloc[0]
    assert row["reopen_ms_high"] / row["reopen_ms_low"] > 1e10  # two rounds: t(0.975, 1) = 12.7 on the log scale
    fig = figures.bars_figure(table, "dvupdate_reopen")
    ax = fig.axes[0]
    assert ax.get_ylim() == pytest.approx((row["reopen_ms"] / 10, row["reopen_ms"] * 10))
    plt.close(fig)
