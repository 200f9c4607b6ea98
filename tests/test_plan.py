"""The seed scale and the run planner (lrev.plan): the seeds' sizes, the fit, the message without runs, a dry run."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from lrev import config, plan

REPO = Path(__file__).resolve().parent.parent


def test_the_seed_scale_validates_with_the_seeds_sizes():
    cfg = config.load({"scale": "seed"})
    assert cfg.study("pk")["docs"] == 27_600_000  # seed 001
    assert cfg.study("dvjump")["docs"] == 300_000_000  # seed 000
    corpora = cfg.study("dvupdate")["corpora"]
    assert (corpora["big"]["docs"], corpora["medium"]["docs"]) == (6_640_000, 33_300_000)  # seed 003
    join = cfg.study("join")["corpus"]
    assert join["parents"] * (1 + join["children"]) == 27_000_000  # seed 002
    assert join["children"] == 5


def test_the_fit_recovers_known_coefficients():
    docs = np.repeat([4_000, 1_000_000, 3_000_000], 5)
    seconds = 7.5 + 2e-5 * docs + np.random.default_rng(1).normal(0, 1e-3, len(docs))
    fitted = plan.fit(docs, seconds)
    assert fitted.a == pytest.approx(7.5, abs=0.01)
    assert fitted.b == pytest.approx(2e-5, rel=1e-3)
    one_size = plan.fit([1_000] * 3, [2.0, 2.0, 2.0])
    assert (one_size.a, one_size.b) == (0.0, pytest.approx(0.002))


def test_plan_without_runs_names_what_to_run(tmp_path):
    done = subprocess.run([sys.executable, "-m", "lrev.plan", "--config", "scale=seed", f"outdir={tmp_path}"],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no runs to fit on" in done.stderr
    assert "./run paper --config scale=smoke" in done.stderr


def test_a_run_with_nothing_left_to_do_plans_no_job_says_so_and_exits_0(tmp_path, monkeypatch, capsys):
    fork = tmp_path / "smoke" / "results" / "join" / "forks" / "round-0" / "10.6.0_block"
    fork.mkdir(parents=True)
    (fork / "timing.json").write_text('{"seconds": 30.0}')
    monkeypatch.setattr(plan, "dry_run_jobs", lambda argv: [])
    assert plan.main(["--config", "scale=smoke", f"outdir={tmp_path}", "studies=[join]"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("plan: nothing to plan") and "--forceall" in out


def test_no_job_left_is_no_disk_shortfall(tmp_path):
    """What ``./run paper`` checks first: a finished run's dry run lists no job, and nothing has to fit."""
    cfg = config.load({"scale": "smoke", "outdir": str(tmp_path), "studies": ["join"]})
    obs = plan.observations(tmp_path, cfg.raw, ["join"], ["smoke"])
    table, _ = plan.estimate(cfg, [], obs)
    assert plan.shortfall(table, 0, cfg.root) is None
    assert plan.check_disk(cfg, []) is None


def test_a_dry_run_at_the_seed_scale_lists_its_jobs(tmp_path):
    jobs = plan.dry_run_jobs(["--config", "scale=seed", f"outdir={tmp_path}", "studies=[join]"])
    rules = [rule for rule, _ in jobs]
    assert rules.count("join_run") == 1
    assert {w["version"] for rule, w in jobs if rule == "join_index"} == set(config.load(
        {"scale": "seed"}).study("join")["versions"])
    assert list(tmp_path.iterdir()) == []  # a dry run writes nothing


def test_the_plan_estimates_the_seed_scale_from_runs_on_disk(tmp_path):
    """Two synthetic sizes of one fork's timing on disk: the run job's estimate is, per fork, what the fork spent
    beyond the loops its config sets, fitted against size, plus the loops each fork of the target scale is set to."""
    hook = plan.hook("join")
    settings = {s: config.load({"scale": s}).study("join") for s in ("smoke", "default", "seed")}
    rest = {}
    for scale, seconds in (("smoke", 30.0), ("default", 60.0)):
        fork = tmp_path / scale / "results" / "join" / "forks" / "round-0" / "10.6.0_block"
        fork.mkdir(parents=True)
        (fork / "timing.json").write_text(f'{{"seconds": {seconds}}}')
        rest[scale] = seconds - hook.configured(settings[scale], "10.6.0_block")
    assert all(r > 0 for r in rest.values())
    result = plan.plan(["--config", "scale=seed", f"outdir={tmp_path}", "studies=[join]"])
    run = next(job for job in result["jobs"] if job["rule"] == "join_run")
    docs = {s: hook.docs(settings[s], None, {}) for s in ("smoke", "default")}
    fitted = plan.fit([docs["smoke"], docs["default"]], [rest["smoke"], rest["default"]])
    forks = hook.forks(tmp_path / "seed", settings["seed"], {})
    assert run["forks"] == len(forks)
    assert run["seconds"] == pytest.approx(sum(fitted(run["docs"]) + hook.configured(settings["seed"], f)
                                               for f in forks))
    assert {(r["scale"], r["kind"]) for r in result["fitted_on"]} == {("smoke", "run"), ("default", "run")}
    assert result["host"]["root"] == str(tmp_path / "seed") and "This host:" in plan.render(result)


def _index(root: Path, study: str, version: str, corpus: str, docs: int, seconds: int) -> None:
    folder = root / "indexes" / study / version / corpus
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({
        "corpus": {"docs": docs, "path": f"runs/x/corpora/{study}/{corpus}"},
        "started": "2026-01-01T00:00:00+00:00", "finished": f"2026-01-01T00:{seconds // 60:02d}:{seconds % 60:02d}+00:00"}))


def test_index_time_is_fitted_per_corpus_shape_and_one_size_is_named_degenerate(tmp_path):
    """Whole articles index 10x slower per document than 1K chunks: each shape's job gets its own rate (one fit
    over both would give the chunks the articles' rate, or the reverse), and each one-size fit is listed."""
    root = tmp_path / "default"
    _index(root, "dvupdate", "10.6.0", "synthetic-big", 20_000, 50)
    _index(root, "dvupdate", "10.6.0", "synthetic-medium", 100_000, 25)
    result = plan.plan(["--config", "scale=seed", f"outdir={tmp_path}", "studies=[dvupdate]"])
    seed = config.load({"scale": "seed"}).study("dvupdate")["corpora"]
    index = {job["wildcards"].rpartition("corpus=")[2]: job["seconds"] for job in result["jobs"]
             if job["rule"] == "dvupdate_index" and job["wildcards"].startswith("version=10.6.0")}
    assert index["synthetic-big"] == pytest.approx(50 / 20_000 * seed["big"]["docs"])
    assert index["synthetic-medium"] == pytest.approx(25 / 100_000 * seed["medium"]["docs"])
    degenerate = {(d["fit"], d["shape"]): d["why"] for d in result["degenerate"]}
    assert degenerate[("index", "big")] == "one size (20,000 docs): charged per document"
    assert ("index", "medium") in degenerate


def test_a_larger_size_that_took_less_time_is_a_zero_slope_warning():
    fitted = plan.fit([1_000, 1_000, 5_000], [10.0, 12.0, 8.0])
    assert fitted.b == 0 and fitted.degenerate.startswith("zero slope")
    assert plan.fit([1_000, 5_000], [1.0, 5.0]).degenerate is None
    one = plan.fit([1_000, 1_000], [4.0, 6.0], per_doc=False)
    assert (one.a, one.b, one.degenerate) == (5.0, 0.0, "one size (1,000 docs): charged as a fixed cost")


def test_configured_seconds_fixed_costs_and_per_study_subtotals(tmp_path):
    """A dvupdate fork's configured cells are charged at the target scale's durations, its other time as fitted; jobs
    that do not grow with the corpus cost their benchmarks' median; per-study subtotals add up to the total."""
    root = tmp_path / "default"
    default = config.load({"scale": "default"}).study("dvupdate")
    hook = plan.hook("dvupdate")
    name = "10.6.0_big_numeric"
    fork = root / "results" / "dvupdate" / "forks" / "round-1" / name
    fork.mkdir(parents=True)
    (fork / "timing.json").write_text(json.dumps({"seconds": hook.configured(default, name) + 4.0}))
    for rule, seconds in (("paper", [30.0, 50.0, 40.0]), ("dvupdate_figures", [6.0])):
        for i, s in enumerate(seconds):
            bench = plan.benchmark_path(tmp_path / ("default", "smoke", "paper")[i], rule, [])
            bench.parent.mkdir(parents=True, exist_ok=True)
            bench.write_text(f"s\th:m:s\n{s}\t0:00:{int(s):02d}\n")
    result = plan.plan(["--config", "scale=seed", f"outdir={tmp_path}", "studies=[dvupdate]"])
    seed = config.load({"scale": "seed"}).study("dvupdate")
    run = next(job for job in result["jobs"] if job["rule"] == "dvupdate_run")
    forks = hook.forks(tmp_path / "seed", seed, {})
    assert run["seconds"] == pytest.approx(sum(hook.configured(seed, f) for f in forks) + 4.0 * len(forks))
    # A DocValues fork's first cell warms up for fork_warmup_s instead of warmup_s: the fork's warm-up.
    fork_warmup = seed["fork_warmup_s"] - seed["warmup_s"]
    assert fork_warmup > 0
    # The seed's reopen every 5 s: its long cell measures 10 reopens, 50 s, beyond measure_s.
    assert (seed["measure_s"], seed["min_reopens"], seed["grid"]["intervals_ms"]["long"]) == (30, 10, 5000)
    assert hook.configured(seed, name) == 3 * seed["warmup_s"] + 2 * seed["measure_s"] + 50 + fork_warmup
    # A cell whose min_reopens outlast measure_s is charged for them: at 0.5 s and 2 s with 5 s measured, 10
    # reopens take 20 s in the long interval's cell.
    paper = config.load({"scale": "paper"}).study("dvupdate")
    assert (paper["measure_s"], paper["min_reopens"], paper["grid"]["intervals_ms"]) == (5, 10, {"short": 500, "long": 2000})
    assert hook.configured(paper, name) == paper["fork_warmup_s"] + 2 * paper["warmup_s"] + 5 + 20 + 5
    # Reindexing falls behind at the highest rate: those cells run to max_measure_s, the low rate's as configured;
    # its forks are not held back by a fork's warm-up.
    assert hook.configured(paper, "10.6.0_big_reindex-aa") == 3 * paper["warmup_s"] + 2 * paper["max_measure_s"] + 5
    assert hook.configured(paper, "10.6.0_medium_reindex") == 2 * (paper["warmup_s"] + paper["max_measure_s"])
    assert next(job for job in result["jobs"] if job["rule"] == "dvupdate_figures")["seconds"] == 6.0
    assert any(d["fit"] == "run" and "fixed cost" in d["why"] for d in result["degenerate"])
    parts = {row["study"]: row for row in result["studies_totals"]}
    assert sum(row["hours"] for row in parts.values()) == pytest.approx(result["totals"]["hours"])
    assert parts["dvupdate"]["hours"] * 3600 + 1e-6 >= run["seconds"]  # hours: a sum divided, rounded


def test_a_one_size_build_charges_per_document_only_what_exceeds_a_jobs_start():
    fitted = plan.fit([1_000, 1_000], [6.0, 8.0], start=4.0)
    assert (fitted.a, fitted.b) == (4.0, pytest.approx(0.003))
    assert fitted.degenerate == "one size (1,000 docs): 4.0 s to start, the rest charged per document"
    assert plan.fit([1_000], [3.0], start=4.0).a == 3.0  # never more than the job took


def test_a_fixed_cost_needs_no_size():
    assert plan.Fit(4.0, 0.0, 3, 1)(float("nan")) == 4.0
    assert np.isnan(plan.Fit(4.0, 0.5, 3, 2)(float("nan")))


def test_a_pk_fork_is_charged_its_timed_loops_at_the_target_scale():
    hook = plan.hook("pk")
    settings = {**config.load({"scale": "paper"}).study("pk"), "iteration_ms": 1000, "min_warmup": 3,
                "seed_warmup_s": 3.0, "measure_iterations": 3, "plain": {"warmup_s": 3.0, "measure_s": 3.0},
                "conditions": [{"corpus": "seq", "layout": "multi", "miss_rate": 0.0, "threads": [1, 2]},
                               {"corpus": "rand", "layout": "multi", "miss_rate": 0.0, "threads": [1]}],
                "reopen": {"updates_per_reopen": 10, "interval_ms": 1000, "warmup_reopens": 1, "rounds": 2,
                           "reopens_per_round": 2},
                "versions": ["4.10.4"], "contenders": {"4.10.4": ["default", "Memory", "Memory@G1", "GlobalPkMap"]},
                "ladder": {"docs": [100000, 300000], "contenders": ["default", "Memory"]}}
    # The seed's series alone (3 + 3 iterations of 1 s), the other two interleaved (2 x 6 s), 5 reopens 1 s apart.
    assert hook.configured(settings, "alone-Memory") == 6 + 12 + 5
    # A rung of the ladder in a JVM of its own: one series, warmed up as the seed's (3 + 3 iterations of 1 s).
    assert hook.configured(settings, "rung-Memory_seq-100000") == 6
    # The A/A and a G1 contender only look keys up: no reopens of their own.
    assert hook.configured(settings, "alone-default-aa") == hook.configured(settings, "alone-Memory@G1") == 18
    assert hook.configured(settings, "plain-Memory") == 6
    # Every parallel-collector contender and the A/A in one JVM: 4 series of 3 + 3 iterations.
    assert hook.configured(settings, "mixed") == 4 * 6
    # A cold JVM warms up for seed_warmup_s of wall time, however short an iteration: 30 iterations of 0.1 s.
    fast = {**settings, "iteration_ms": 100}
    assert hook.configured(fast, "alone-default-aa") == pytest.approx((30 + 3) * 0.1 + 2 * (3 + 3) * 0.1)


def test_a_pk_run_job_is_charged_its_own_versions_settings_on_disk_and_in_the_plan(tmp_path):
    """A version whose ladder is the baseline alone (no format to compare with it) runs no ladder forks, and each
    fork on disk is charged its own version's settings."""
    hook = plan.hook("pk")
    pk = config.load({"scale": "default"}).study("pk")
    old, new = hook.job_settings(pk, {"version": "4.10.4"}), hook.job_settings(pk, {"version": "10.6.0"})
    assert new["ladder"]["docs"] == [] and old["ladder"]["docs"] == pk["ladder"]["docs"]
    assert not [f for f in hook.forks(tmp_path, new, {"version": "10.6.0"}) if f.startswith("rung-")]
    assert len([f for f in hook.forks(tmp_path, old, {"version": "4.10.4"}) if f.startswith("rung-")]) == (
        len(old["ladder"]["docs"]) * len(old["ladder"]["contenders"]) * old["rounds"])
    for version in ("4.10.4", "10.6.0"):
        fork = tmp_path / "default" / "results" / "pk" / version / "forks" / "round-1" / "alone-default"
        fork.mkdir(parents=True)
        (fork / "timing.json").write_text(json.dumps({"seconds": 100.0}))
    base = config.load({"outdir": str(tmp_path), "studies": ["pk"]}).raw
    obs = plan.observations(tmp_path, base, ["pk"], ["default"])
    assert sorted(obs["configured"]) == sorted([hook.configured(old, "alone-default"),
                                                hook.configured(new, "alone-default")])


def test_a_dvjump_fork_is_charged_its_corpus_series_the_engine_times():
    """Per corpus, one series per workload and bucket of its queries (a varied size's on the variation bucket,
    the export on its one query), twice for a concurrent workload; the ladder's corpora run its workloads only, each
    in forks of its own."""
    hook = plan.hook("dvjump")
    settings = {**config.load({"scale": "default"}).study("dvjump"), "docs": 1_000_000, "iteration_ms": 200,
                "min_warmup": 2, "measure_iterations": 3, "buckets": [0, 2, 4, 6],
                "workloads": ["facet", "retrieve", "export", "combined"], "concurrent_workloads": ["combined"],
                "variations": {"sizes": [100], "bucket": 4},
                "ladder": {"docs": [1000, 100_000], "workloads": ["retrieve", "export"], "buckets": [2, 4]}}
    # full: facet, retrieve and combined on buckets 0, 2, 4, 6 (10^6 <= 1M docs), combined again with two
    # threads, the export once, facet@100 and retrieve@100 on bucket 4.
    assert hook.series(settings, "full") == 4 * 4 + 1 + 2
    # docs-1000 has no bucket 4 (10^4 hits): retrieve on bucket 2, the export; docs-100000 both buckets.
    assert hook.series(settings, "docs-1000") == 1 + 1
    assert hook.series(settings, "docs-100000") == 2 + 1
    # A fork times one corpus (each rung has JVMs of its own).
    assert hook.configured(settings, "lucene7") == pytest.approx(19 * 5 * 0.2)
    assert hook.configured(settings, "lucene7_docs-1000") == pytest.approx(2 * 5 * 0.2)
    assert hook.configured(settings, "lucene7_docs-100000") == pytest.approx(3 * 5 * 0.2)
    assert hook.configured(settings, "lucene7-index-aa") == hook.configured(settings, "lucene7")


def test_a_join_fork_is_charged_its_loops_at_the_target_scale():
    hook = plan.hook("join")
    settings = {**config.load({"scale": "paper"}).study("join"),
                "warmup": {"iteration_ms": 500, "min_warmup": 3, "max_warmup": 40, "measure_iterations": 3,
                           "stable_cv": 0.1},
                "load": {**config.load({"scale": "paper"}).study("join")["load"], "fractions": [0.1, 0.5, 1.0, 2.0],
                         "refine": 2, "confirm": 1, "step_s": 5, "warmup_step_s": 1, "closed_s": 4},
                "profile": {"seconds": 3},
                "cold": {"contenders": {"4.10.4": ["solr-join"]}, "fraction": 0.5, "interval_ms": 250, "seconds": 8,
                         "runs": [{"directory": "mmap", "workers": 4}, {"directory": "nio", "workers": 50}]},
                "updates": {"blocks": 10, "measure_s": 15, "per_reopen": 5,
                            "warmup": {"min_s": 10, "max_s": 40, "probe_ms": 1000}}}
    # The closed loop's 3 + 3 iterations of 0.5 s, one warm-up step, the ladder to capacity (0.1, 0.5, 1.0), two
    # bisections and a repeat of the first failing rung and of each bisection, of 5 s each, the profiled step, and
    # the closed loop on the load's workers.
    assert hook.configured(settings, "4.10.4_block") == 3 + 1 + 8 * 5 + 3 + 4
    # The cold runs come on top, for the contenders the version has them for.
    assert hook.configured(settings, "4.10.4_solr-join") == 51 + 2 * 8
    assert hook.configured(settings, "9.12.3_solr-join") == 51
    # A sweep fork runs the closed loop only; an update fork its least warm-up and its measured time.
    assert hook.configured(settings, "10.6.0_scan_share-10") == 3
    assert hook.configured(settings, "10.6.0_update-child") == 25
    # The size ladder's forks likewise, on a corpus of their own.
    assert hook.configured(settings, "10.6.0_scan_parents-100000") == 3
    assert hook.configured(settings, "10.6.0_update-block_parents-100000") == 25
    assert hook.docs(settings, "join_index", {"corpus": "-parents-100000"}) == 600_000


def _observed(kind, docs_seconds, shape="full", configured=None):
    return pd.DataFrame([{"study": "s", "scale": "x", "kind": kind, "rule": None, "shape": shape, "docs": d,
                          "seconds": t, "configured": configured, "bytes": 0} for d, t in docs_seconds],
                        columns=plan.COLUMNS)


def test_held_out_predicts_the_largest_size_from_the_smaller_ones():
    """Index builds of 2 + 1e-5 s per doc at 100K and 300K, and 40 s (not 32) at 3M: the line through the smaller
    two predicts 32 s, 20% under; a fit on all three misses its worst size by its own residual."""
    obs = _observed("index", [(1e5, 3.0), (1e5, 3.0), (3e5, 5.0), (3e6, 40.0)])
    (row,) = plan.held_out(obs)
    assert (row["study"], row["kind"], row["shape"], row["sizes"]) == ("s", "index", "full", [100000, 300000, 3000000])
    assert row["held_out"]["predicted"] == pytest.approx(32.0)
    assert row["held_out"]["error"] == pytest.approx(-0.2)
    assert row["in_sample"] == pytest.approx(0.0767, abs=1e-3)  # a + b x through all four: worst at 300K docs


def test_held_out_needs_three_sizes_and_takes_forks_beyond_their_configured_seconds():
    obs = pd.concat([_observed("run", [(1e4, 12.0), (1e5, 21.0)], shape="", configured=10.0),
                     _observed("index", [(1e5, 3.0)])])
    (row,) = plan.held_out(obs)  # the index has one size: no row
    assert (row["kind"], row["sizes"], row["held_out"]) == ("run", [10000, 100000], None)
    assert row["in_sample"] == pytest.approx(0.0, abs=1e-9)  # 2 s and 11 s beyond the configured 10: a line fits
    assert "two sizes: none held out" in plan._error(row)


def test_a_run_whose_builds_exceed_the_free_disk_is_stopped_naming_the_largest_and_the_free_space():
    gib = plan.GIB
    table = pd.DataFrame([
        {"rule": "pk_corpus", "wildcards": "corpus=seq-300000", "kind": "corpus", "docs": 3e5, "disk": 1 * gib},
        {"rule": "pk_index", "wildcards": "version=4.10.4, corpus=seq", "kind": "index", "docs": 3e6, "disk": 6 * gib},
        {"rule": "pk_index", "wildcards": "version=4.10.4, corpus=rand", "kind": "index", "docs": 3e6,
         "disk": float("nan")},
        {"rule": "pk_run", "wildcards": "version=4.10.4", "kind": "run", "docs": 3e6, "disk": 50 * gib},
    ])
    why = plan.shortfall(table, 5 * gib, Path("runs/paper"))
    assert "7.0 GiB" in why and "runs/paper has 5.0 GiB free" in why
    assert "pk_index (version=4.10.4, corpus=seq): 3,000,000 documents, 6.0 GiB" in why
    # Fork outputs are not what fills the disk before indexing; a build the model cannot size is left out.
    assert plan.shortfall(table, 8 * gib, Path("runs/paper")) is None
    assert plan.shortfall(table[table.kind == "run"], 0, Path("runs/paper")) is None


def test_the_free_space_of_a_root_not_yet_made_is_its_nearest_parents(tmp_path, monkeypatch):
    asked = []
    monkeypatch.setattr(plan.shutil, "disk_usage", lambda path: asked.append(path) or shutil._ntuple_diskusage(9, 2, 7))
    assert plan.free_bytes(tmp_path / "runs" / "paper") == 7 and asked == [tmp_path]


def test_the_plan_names_what_would_not_fit_this_host(monkeypatch):
    """All the disk the jobs write against the free bytes under the run root, the largest job's memory against the
    RAM; the hours on the host's cores, a measurement job of an exclusive scale alone."""
    gib = plan.GIB
    table = pd.DataFrame([
        {"rule": "pk_index", "wildcards": "version=4.10.4, corpus=seq", "kind": "index", "seconds": 3600.0,
         "memory": 4 * gib, "disk": 60 * gib},
        {"rule": "pk_run", "wildcards": "version=4.10.4", "kind": "run", "seconds": 7200.0, "memory": 30 * gib,
         "disk": 20 * gib},
        {"rule": "paper", "wildcards": "", "kind": None, "seconds": 3600.0, "memory": float("nan"),
         "disk": float("nan")},
    ], columns=plan.ESTIMATE)
    monkeypatch.setattr(plan.psutil, "cpu_count", lambda: 2)
    monkeypatch.setattr(plan.psutil, "virtual_memory", lambda: SimpleNamespace(total=23 * gib))
    monkeypatch.setattr(plan, "free_bytes", lambda root: 76 * gib)
    root = Path("runs/seed")
    fit = plan.host(table, root, exclusive=True)
    assert (fit["cores"], fit["memory_gib"], fit["free_disk_gib"]) == (2, 23.0, 76.0)
    assert fit["hours_all_cores"] == pytest.approx(2 + (1 + 1) / 2)
    assert plan.host(table, root, exclusive=False)["hours_all_cores"] == pytest.approx(4 / 2)
    disk, memory = fit["exceeds"]
    assert disk == "disk: the jobs write about 80.0 GiB, and runs/seed has 76.0 GiB free"
    assert memory == "memory: pk_run (version=4.10.4) peaks at about 30.0 GiB, and this host has 23.0 GiB of RAM"
    said = plan._host(fit, 4.0)
    assert said.startswith("This host: 2 cores, 23.0 GiB of RAM, 76.0 GiB free under runs/seed.")
    assert f"Would not fit this host: {disk}; {memory}." in said
    one = plan.host(table.assign(wildcards=""), root, exclusive=True)["exceeds"][1]
    assert one.startswith("memory: pk_run peaks at")  # a job of no wildcards is named by its rule alone
    roomy = plan.host(table.iloc[[0, 2]], root, exclusive=True)
    assert roomy["exceeds"] == [] and "Fits this host's disk and memory." in plan._host(roomy, 2.0)



def test_a_budget_adds_a_row_for_the_most_its_rounds_can_add(tmp_path):
    """At the default scale dvupdate has a budget: its row prices the rounds left to max_rounds as whole rounds of
    its run job, within what its minutes leave; the seed scale has none."""
    hook = plan.hook("dvupdate")
    default = config.load({"scale": "default"})
    name = "10.6.0_big_numeric"
    fork = tmp_path / "default" / "results" / "dvupdate" / "forks" / "round-0" / name
    fork.mkdir(parents=True)
    (fork / "timing.json").write_text(json.dumps({"seconds": hook.configured(default.study("dvupdate"), name) + 4.0}))
    result = plan.plan(["--config", f"outdir={tmp_path}", "studies=[dvupdate]"])
    run = next(job for job in result["jobs"] if job["rule"] == "dvupdate_run")
    (row,) = [job for job in result["jobs"] if job["rule"] == "budget"]
    budget, rounds = default.budget("dvupdate"), default.study("dvupdate")["rounds"]
    left = budget["max_rounds"] - rounds
    assert row["study"] == "dvupdate" and row["wildcards"] == f"at most {left} more rounds"
    assert row["seconds"] == pytest.approx(max(min(budget["minutes"] * 60 - run["seconds"],
                                                   left * run["seconds"] / rounds), 0))
    assert row["seconds"] > 0
    assert sum(job["seconds"] or 0 for job in result["jobs"]) == pytest.approx(result["totals"]["hours"] * 3600)
    assert re.search(rf"budget +at most {left} more rounds", plan.render(result))
    seed = plan.plan(["--config", "scale=seed", f"outdir={tmp_path}", "studies=[dvupdate]"])
    assert not [job for job in seed["jobs"] if job["rule"] == "budget"]
