"""The dvjump study's results, from the session's smoke run of the real pipeline: provenance, the correctness gate, the
export test's cold first run, the mechanism's positions, and the search-time jump tables' cost."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from conftest import assert_legible
from lrev import config
from lrev.dvjump import layout, results, summary

SETTINGS = config.load({"scale": "smoke", "studies": ["dvjump"]}).study("dvjump")


@pytest.fixture(scope="module")
def data(smoke_run):
    root, _, _ = smoke_run
    return summary.load(root / "results", SETTINGS["versions"])


def test_every_versions_manifest_names_the_corpora_it_read(smoke_run):
    # The provenance every study's manifest carries is tests/test_pipeline_smoke.py's.
    root, _, _ = smoke_run
    manifests = [json.loads((layout.results_dir(root, v) / "manifest.json").read_text()) for v in SETTINGS["versions"]]
    assert all(set(m["corpora"]) == set(layout.corpora(SETTINGS)) for m in manifests)


def test_every_contender_ran_alone_in_every_round(data):
    lat = data.latency
    assert set(lat["contender"]) == set(layout.timed(SETTINGS))
    assert (lat.groupby("fork")["contender"].nunique() == 1).all()
    # One JVM per contender and corpus: a rung of the ladder is never timed in a JVM another corpus warmed.
    assert (lat.groupby(["round", "fork"])["corpus"].nunique() == 1).all()
    assert (lat.groupby(["round", "contender", "corpus"])["fork"].nunique() == 1).all()
    assert set(lat["round"]) == set(range(SETTINGS["rounds"]))
    # Each contender ran in the JVM of its own version.
    assert all(layout.contender(c).version == v for c, v in lat[["contender", "version"]].drop_duplicates().values)
    assert (lat["latency_ms"] > 0).all()
    # The concurrent workloads ran on one and on two request threads, the others on one.
    assert set(lat.loc[lat["workload"].isin(SETTINGS["concurrent_workloads"]), "threads"]) == {1, 2}
    assert set(lat.loc[~lat["workload"].isin(SETTINGS["concurrent_workloads"]), "threads"]) == {1}


def test_warmup_ran_until_every_series_converged_or_the_limit(data):
    keys = ["version", "round", "contender", "corpus", "workload", "bucket", "threads"]
    warm = data.warmup.groupby(keys).size().rename("warmup").reset_index()
    series = data.latency.groupby(keys, as_index=False)["stable"].first().merge(warm, on=keys, how="left")
    assert series["warmup"].notna().all()
    # Warm-up is shared by a fork's series: it stops for all at once, at the limit if one has not converged.
    per_fork = series.groupby(["round", "contender", "corpus"])
    assert (per_fork["warmup"].nunique() == 1).all()
    # Warm-up rows: the warm-up's iterations, then each measure iteration the JIT compiled in, at most
    # measure_iterations of them; a series that never converged ran to the warm-up's limit or used them all.
    measures = SETTINGS["measure_iterations"]
    assert series["warmup"].between(SETTINGS["min_warmup"], SETTINGS["max_warmup"] + measures).all()
    least = min(SETTINGS["max_warmup"], SETTINGS["min_warmup"] + measures)
    assert (series.loc[series["stable"] == 0, "warmup"] >= least).all()
    assert (data.latency[["nanos", "jit_ms", "gc_ms"]] >= 0).all().all()


def test_an_unconverged_series_is_told_spread_or_compiling():
    def rows(stable, means, jit):
        keys = {"version": "8.11.4", "round": 0, "contender": "upgraded", "corpus": "full", "workload": "sort",
                "bucket": 2, "threads": 1}
        warm = pd.DataFrame([{**keys, "iteration": i, "mean_nanos": m, "requests": 1000, "jit_ms": j}
                             for i, (m, j) in enumerate(zip(means, jit))])
        return warm, pd.DataFrame([{**keys, "stable": stable}])
    flat, compiled, spread = [100_000] * 4, [0, 0, 9, 0], [100_000, 100_000, 100_000, 200_000]
    assert summary.unconverged(*rows(1, flat, [0] * 4), 3, 0.1, 0.02).empty
    why = summary.unconverged(*rows(0, flat, compiled), 3, 0.1, 0.02).iloc[0]
    assert why["compiling"] and not why["spread"]
    why = summary.unconverged(*rows(0, spread, [0] * 4), 3, 0.1, 0.02).iloc[0]
    assert why["spread"] and not why["compiling"]
    # Only the last window counts: a compilation before it does not.
    why = summary.unconverged(*rows(0, spread, [50, 0, 0, 0]), 3, 0.1, 0.02).iloc[0]
    assert not why["compiling"]


def test_the_cocktail_effect_compares_the_whole_saving_with_the_sum_of_the_parts():
    # Per round: lucene7-index and upgraded's fork latencies (ms) on each request; round 1 saves twice as much
    # on the whole. Savings, round 0: whole 8, parts 2 + 2 + 1 = 5; round 1: whole 16, parts 5.
    ms = {"lucene7-index": {"combined": [10, 18], "facet": [3, 3], "group": [3, 3], "retrieve": [2, 2]},
          "upgraded": {"combined": [2, 2], "facet": [1, 1], "group": [1, 1], "retrieve": [1, 1]}}
    version = {"lucene7-index": "8.11.4", "upgraded": "8.11.4"}
    rows = [{"version": version[c], "contender": c, "fork": f"{c}-{r}", "round": r, "corpus": "full", "threads": 1,
             "bucket": 4, "workload": w, "latency_ms": v[r] * k}
            for c, by_w in ms.items() for w, v in by_w.items() for r in (0, 1) for k in (0.9, 1.0, 1.1)]
    table = summary.cocktail(pd.DataFrame(rows), ("8.11.4", "lucene7-index"), ("8.11.4", "upgraded"), "combined",
                             ["facet", "group", "retrieve"])
    row = table.iloc[0]
    assert (row["whole_ms"], row["parts_ms"]) == (12.0, 5.0)
    # The ratio is paired by round: the geometric mean of 8/5 and 16/5, its interval a t interval of the logs.
    logs = np.log([8 / 5, 16 / 5])
    assert row["value"] == pytest.approx(np.exp(logs.mean())) and row["n"] == 2 and row["failed"] == 0
    half = scipy.stats.t.ppf(0.975, 1) * logs.std(ddof=1) / np.sqrt(2)
    assert (row["low"], row["high"]) == pytest.approx((np.exp(logs.mean() - half), np.exp(logs.mean() + half)))
    # A round whose parts saved nothing has no ratio: it is failed, and one round left gives no interval.
    slower = [{**r, "latency_ms": r["latency_ms"] * 10}
              if r["contender"] == "upgraded" and r["workload"] == "facet" and r["round"] == 0 else r for r in rows]
    row = summary.cocktail(pd.DataFrame(slower), ("8.11.4", "lucene7-index"), ("8.11.4", "upgraded"), "combined",
                           ["facet", "group", "retrieve"]).iloc[0]
    assert row["failed"] == 1 and row["value"] == pytest.approx(16 / 5) and pd.isna(row["low"])
    # A part that never ran alone leaves no row, rather than a sum missing a term.
    assert summary.cocktail(pd.DataFrame(rows), ("8.11.4", "lucene7-index"), ("8.11.4", "upgraded"), "combined",
                            ["facet", "sort"]).empty


def test_the_export_table_gives_each_run_a_geometric_mean_whose_interval_stays_above_zero():
    # Three rounds of one fork; run 1 on an evicted index spreads widely, as it does on a shared disk.
    first, second = [9.5, 1.0, 19.0], [2.0, 2.2, 1.8]
    rows = [{"version": "7.7.3", "contender": "lucene7-index", "fork": f"f{r}", "round": r, "run": run,
             "latency_ms": ms, "resident_before": 0, "index_bytes": 100}
            for run, per_round in ((1, first), (2, second)) for r, ms in enumerate(per_round)]
    row = summary.export_table(pd.DataFrame(rows)).iloc[0]
    assert row["run1"] == pytest.approx(np.exp(np.log(first).mean())) and 0 < row["run1_low"] < row["run1_high"]
    assert row["run2"] == pytest.approx(np.exp(np.log(second).mean())) and row["resident_share"] == 0


def test_every_request_was_answered_alike_by_every_contender(data):
    answers = data.answers
    assert set(answers["contender"]) == set(SETTINGS["contenders"])
    assert (answers.groupby(["corpus", "workload", "term"])["checksum"].nunique() == 1).all()


def test_a_different_answer_stops_the_results(data):
    answers = data.answers.copy()
    answers.loc[answers.index[0], "checksum"] += 1
    with pytest.raises(results.AnswerMismatch, match=str(answers.loc[answers.index[0], "workload"])):
        results.check_answers(answers, data.export)


def test_the_first_export_runs_on_an_evicted_index(data):
    export = data.export
    assert set(export["run"]) == set(range(1, SETTINGS["export_runs"] + 1))
    first = export[export["run"] == 1]
    assert (first["resident_before"] < first["index_bytes"] / 2).all()


def test_positions_span_the_segment_for_every_field(data):
    pos = data.positions
    assert set(pos["field"]) == set(SETTINGS["positions"]["fields"])
    per = pos.groupby(["version", "contender", "field"])["doc"].nunique()
    assert (per == SETTINGS["positions"]["points"]).all()


def test_reads_span_the_segment_for_every_workload_and_give_every_series_a_walk(data):
    reads = data.reads
    assert set(reads["workload"]) == set(SETTINGS["reads"]["workloads"])
    assert (reads.groupby(["version", "round", "contender", "workload"])["doc"].nunique()
            == SETTINGS["reads"]["points"]).all()
    assert not reads["contender"].str.endswith(layout.AA_SUFFIX).any()
    walked = data.walk.set_index(["version", "round", "contender", "workload", "bucket"]).index
    full = data.latency[(data.latency["corpus"] == layout.FULL) & data.latency["workload"].isin(reads["workload"])
                        & ~data.latency["contender"].str.endswith(layout.AA_SUFFIX)]
    assert set(full.set_index(["version", "round", "contender", "workload", "bucket"]).index) == set(walked)
    assert np.isfinite(data.walk["walk_ms_per_doc"]).all()


def test_the_walk_is_the_read_slope_times_the_documents_a_request_reads_halved():
    """One read costs 100 ns + 0.5 ns per docID; export reads its 400 hits, retrieve its top 20 of 5,000 (or its 8
    hits): each document added to the segment moves their mean docID by half a document."""
    reads = pd.DataFrame([{"version": "9.12.3", "round": 0, "fork": "lucene9", "contender": "lucene9", "workload": w,
                           "doc": d, "nanos": 100 + 0.5 * d}
                          for w in ("export", "retrieve") for d in range(0, 10_000, 1000)])
    cell = {"version": "9.12.3", "round": 0, "fork": "lucene9", "contender": "lucene9", "corpus": "full", "threads": 1}
    latency = pd.DataFrame([{**cell, "workload": "export", "bucket": -1, "hits": 400.0},
                            {**cell, "workload": "retrieve", "bucket": 4, "hits": 5000.0},
                            {**cell, "workload": "retrieve", "bucket": 0, "hits": 8.0},
                            {**cell, "workload": "facet", "bucket": 4, "hits": 5000.0}])
    walk = summary.walk(reads, latency, {"9.12.3": 20}).set_index(["workload", "bucket"])["walk_ms_per_doc"]
    assert walk.to_dict() == pytest.approx({("export", -1): 0.5 * 400 / 2 / 1e6, ("retrieve", 4): 0.5 * 20 / 2 / 1e6,
                                            ("retrieve", 0): 0.5 * 8 / 2 / 1e6})
    assert summary.walk(reads.iloc[:0], latency, {"9.12.3": 20}).empty


def test_only_search_time_jump_tables_cost_anything_at_first_access(data):
    built = data.cost.groupby("contender")["build_nanos"].max()
    assert built["search-time"] > 0
    assert (built.drop("search-time") == 0).all()


def test_claims_are_judged_on_the_studys_own_versions(smoke_run):
    root, _, _ = smoke_run
    claims = json.loads((root / "results" / "dvjump" / "claims.json").read_text())
    assert claims["versions"] == SETTINGS["versions"]
    cells = {(v["claim"], v["version"]) for v in claims["verdicts"]}
    assert cells == {(c["id"], v) for c in claims["claims"] for v in SETTINGS["versions"]}
    cross = [p for v in claims["verdicts"] for p in v["parts"] if p.get("version_b") not in (None, v["version"])]
    assert cross, "claims compare versions within one run"


def test_the_paper_has_the_dvjump_section(smoke_run):
    root, _, _ = smoke_run
    numbers = json.loads((root / "paper" / "numbers.json").read_text())
    assert "dvjump" in numbers["order"] and numbers["studies"]["dvjump"]["claim_rows"]


def test_box_statistics_are_ordered(data):
    box = summary.boxes(data.latency)
    assert (box["min"] <= box["q25"]).all() and (box["q25"] <= box["median"]).all()
    assert (box["median"] <= box["q75"]).all() and (box["q75"] <= box["p95"]).all()
    assert isinstance(box, pd.DataFrame) and len(box)


def test_figures_read_in_plain_hit_counts_and_the_papers_contender_names(data):
    """Ticks are hit counts (100, 10,000) or the export query, never 10^k; legends name contenders as the paper
    does, name (version)."""
    import matplotlib

    matplotlib.use("Agg")
    from lrev.dvjump import figures

    papers = {f"{name} ({c.version})" for name, c in layout.CONTENDERS.items()}
    for name in ("dvjump_export", "dvjump_facet", "dvjump_gain", "dvjump_positions"):
        fig = figures.build(data, name)
        fig.canvas.draw()
        ticks = {t.get_text() for ax in fig.axes if ax.get_visible() for t in ax.get_xticklabels() if t.get_text()}
        legend = {t.get_text() for lg in [*fig.legends, *(ax.get_legend() for ax in fig.axes)] if lg
                  for t in lg.get_texts()}
        assert legend and legend <= papers, (name, legend)
        if name != "dvjump_positions":
            assert ticks and all(t == "export query" or t.replace(",", "").isdigit() for t in ticks), (name, ticks)
        labels = {t.get_text() for ax in fig.axes for t in ax.get_yticklabels() if t.get_text()}
        assert not any("^" in t or "$" in t for t in labels), (name, labels)


def test_every_figure_prints_legibly(data):
    import matplotlib

    matplotlib.use("Agg")
    from lrev.dvjump import figures

    for name in figures.names(SETTINGS["workloads"]):
        assert_legible(figures.build(data, name), name)


def test_the_ladders_corpora_run_their_workloads_and_carry_their_size(data):
    lat = data.latency
    assert set(lat["corpus"]) == set(layout.corpora(SETTINGS))
    for corpus in layout.corpora(SETTINGS):
        mine = lat[lat["corpus"] == corpus]
        assert set(mine["docs"]) == {layout.corpus_docs(SETTINGS, corpus)}
        if corpus != layout.FULL:
            assert set(mine["workload"]) == set(SETTINGS["ladder"]["workloads"])
            assert set(mine["bucket"]) - {layout.EXPORT_BUCKET} <= set(SETTINGS["ladder"]["buckets"])


def test_claims_fitted_on_the_ladder_are_untestable_as_measured_and_judged_at_the_seed_size(smoke_run):
    """The smoke run is far below the seed's 300M-document segment: every part that needs it is untestable as
    measured, and those the ladder's workloads cover are fitted through its three sizes."""
    root, _, _ = smoke_run
    claims = json.loads((root / "results" / "dvjump" / "claims.json").read_text())
    grown = [p for v in claims["verdicts"] for p in v["parts"] if "extrapolated" in p]
    assert grown and all(p["verdict"] == "untestable" for p in grown)
    fitted = [p for p in grown if "prediction" in p["extrapolated"]]
    sizes = sorted(layout.corpus_docs(SETTINGS, c) for c in layout.corpora(SETTINGS))
    assert fitted and all(p["extrapolated"]["sizes"] == sizes for p in fitted)
    assert {p["where_a"]["workload"] for p in fitted} == set(SETTINGS["ladder"]["workloads"])
