"""The `join` study through the real pipeline at smoke scale (the session's smoke run): real Solr on one version,
Lucene's joins on two, the correctness gate, the load's histogram logs, the cold runs, the profile, the sweep,
claims and the paper. That no job of another study depends on it is test_pipeline_smoke's
test_listing_one_study_reruns_no_job_of_any_study, which covers every study of the smoke run."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from conftest import assert_legible
from lrev import config, load
from lrev.join import figures, layout, summary


@pytest.fixture(scope="module")
def join_run(smoke_run):
    """The pipeline's smoke run, which runs join among the default studies."""
    assert "join" in config.load({"scale": "smoke"}).studies
    return smoke_run


def _settings() -> dict:
    """The join study's settings at the smoke scale."""
    return config.load({"scale": "smoke", "studies": ["join"]}).study("join")


def test_every_contender_ran_alone_in_its_jvms_after_passing_the_gate(join_run):
    root, _, _ = join_run
    join = _settings()
    for version in join["versions"]:
        out = layout.results_dir(root, version)
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["lucene_version_reported"] == version and manifest["corpora"]["blocks"]["synthetic"] is True
        saturation = pd.read_parquet(out / "saturation.parquet")
        assert set(saturation["contender"]) == set(layout.contenders(join, version))
        assert (saturation.groupby(["round", "contender"])["fork"].nunique() == 1).all()
        assert (saturation.groupby("fork")["contender"].nunique() == 1).all()
        gate = pd.read_parquet(out / "gate.parquet")
        assert (gate.groupby("query")["parents_sha256"].nunique() == 1).all()
        assert gate["hits"].sum() > 0
        steps = pd.read_parquet(out / "steps.parquet")
        assert (steps["p99_ns"] > 0).all() and (steps["completed"] > 0).all()
        # Each step lasted its configured length, or long enough to offer its fewest requests.
        least = [load.step_seconds(rate, join["load"]["step_s"], join["load"]["min_requests"])
                 for rate in steps["offered_rps"]]
        assert (steps["duration_ns"] >= pd.Series(least, index=steps.index) * 1e9 * 0.99).all()
        # The load ran pinned as configured, and its capacity estimate counted the server's CPUs alone.
        pin = join["load"]["pin"]
        assert set(saturation["generator_cpus"]) == {",".join(map(str, pin["generator"]))}
        assert set(saturation["server_cpus"]) == {",".join(map(str, pin["server"]))}
        assert (steps["server_cores"] == len(pin["server"])).all()
        assert (saturation["capacity_rps"] * saturation["service_ms"] / 1e3).round(6).eq(len(pin["server"])).all()
        assert saturation["server_cpu_at_saturation"].dropna().between(0, 1.05).all()


def test_the_histogram_logs_hold_every_completed_request_of_their_step(join_run):
    root, _, _ = join_run
    fork = next(layout.forks_dir(root).glob("round-0/*solr-join"))
    steps = pd.read_parquet(fork / "steps.parquet")
    for step in steps.itertuples():
        logged = load.merge(load.read_log(fork / f"step-{step.step}.hlog"))
        assert logged.get_total_count() == step.completed


def test_cold_runs_start_evicted_and_the_profiled_step_was_sampled(join_run):
    root, _, _ = join_run
    join = _settings()
    for version in join["versions"]:
        out = layout.results_dir(root, version)
        cold = pd.read_parquet(out / "cold.parquet")
        expected = set(join["cold"]["contenders"][version])
        assert set(cold["contender"]) == expected
        assert len(cold) == len(expected) * len(join["cold"]["runs"]) * join["rounds"]
        assert (cold["evicted"] == 1).all() and (cold["completed"] > 0).all()
        # NIO reads through read calls; MMap by page faults, which read calls do not count.
        nio, mmap = cold[cold["directory"] == "nio"], cold[cold["directory"] == "mmap"]
        assert nio["syscall_kb_per_query"].min() > mmap["syscall_kb_per_query"].max()
        residency = pd.read_parquet(out / "residency.parquet")
        assert {"tim", "doc"} <= set(residency["extension"]) and (residency["resident_bytes"] > 0).any()
        assert (residency["resident_at_open"] > 0).any() and cold["hot_share_ceiling"].between(0, 1).all()
        frames = pd.read_parquet(out / "frames.parquet")
        marks = frames[frames["kind"] == "mark"]
        assert set(marks["name"]) == set(layout.MARKS.values())
        assert set(marks["fork"]) == set(frames["fork"]) and set(marks["round"]) == set(range(join["rounds"]))
        # A cheap contender's short smoke step can fall between samples in one fork, not in all of them.
        assert (marks.groupby("contender")["total"].sum() > 0).all()


def test_the_index_sizes_the_paper_states_are_those_of_the_index_files(join_run):
    root, _, _ = join_run
    join = _settings()
    table = summary.index_table(summary.load(root / "results", join["versions"]))
    cold_systems = {(v, layout.system(c)) for v, cs in join["cold"]["contenders"].items() for c in cs}
    assert set(zip(table["version"], table["system"])) == cold_systems
    for r in table.to_dict(orient="records"):
        files = (layout.index_dir(root, r["version"], r["system"]) / layout.FILES[r["system"]]).iterdir()
        assert r["bytes"] == sum(f.stat().st_size for f in files if f.is_file())
        assert 0 < r["terms_and_postings"] < r["bytes"]


def test_the_sweep_gated_each_corpus_and_timed_every_share(join_run):
    root, _, _ = join_run
    sweep = _settings()["sweep"]
    out = layout.results_dir(root, sweep["version"])
    rows = pd.read_parquet(out / "sweep.parquet")
    assert set(rows["share"]) == set(sweep["shares"]) and set(rows["contender"]) == set(sweep["contenders"])
    assert rows.groupby("share")["join_keys"].first().is_monotonic_decreasing
    gate = pd.read_parquet(out / "sweep_gate.parquet")
    assert (gate.groupby(["corpus", "query"])["parents_sha256"].nunique() == 1).all()


def test_every_update_design_read_back_its_blocks_before_its_time_counted(join_run):
    root, _, _ = join_run
    join = _settings()
    data = summary.load(root / "results", join["versions"])
    forks = data.updates.groupby("version")["contender"].apply(sorted).to_dict()
    assert forks == {v: sorted(list(layout.UPDATE_DESIGNS) * join["rounds"]) for v in join["versions"]}
    assert (data.updates["update_ms"] > 0).all() and (data.updates["updates"] > 0).all()
    # The time per update is the measured probes' mean, after a warm-up of at least min_s.
    probes = data.update_probes
    keys = ["version", "round", "fork"]
    measured = probes[probes["phase"] == "measure"].groupby(keys)[["nanos", "ops"]].sum()
    per_fork = data.updates.set_index(keys)["update_ms"]
    assert (measured["nanos"] / measured["ops"] / 1e6).sort_index().to_numpy() == pytest.approx(
        per_fork.sort_index().to_numpy())
    assert (measured["nanos"] >= join["updates"]["measure_s"] * 1e9).all()
    assert (data.updates["warmup_s"] >= join["updates"]["warmup"]["min_s"]).all()
    gate = data.update_gate
    # The updates cycle through the blocks, for as long as the fork's time allows: each block it reached (all of
    # them once it made as many updates) reads back as written.
    reached = data.updates.set_index(keys)["updates"].clip(upper=join["updates"]["blocks"])
    assert gate.groupby(keys)["parent"].nunique().sort_index().equals(reached.sort_index())
    assert ((gate["found"] == gate["children"] + 1) & (gate["acl_ok"] == gate["children"])
            & (gate["adjacent"] == 1)).all()


def test_the_ladder_gated_and_timed_the_pair_and_both_designs_at_every_size_in_every_round(join_run):
    root, _, _ = join_run
    join = _settings()
    data = summary.load(root / "results", join["versions"])
    sizes = {layout.ladder_corpus(n) for n in join["ladder"]["parents"]}
    for table, contenders in ((data.ladder, {layout.BASELINE, layout.QUERY_TIME}),
                              (data.ladder_updates, set(layout.UPDATE_DESIGNS))):
        runs = table.groupby(["version", "corpus", "contender"])["round"].nunique()
        assert runs.to_dict() == {(v, c, d): join["rounds"] for v in join["ladder"]["versions"] for c in sizes
                                  for d in contenders}
    assert (data.ladder_gate.groupby(["version", "corpus", "query"])["parents_sha256"].nunique() == 1).all()
    assert set(data.ladder["docs"]) == {layout.docs(join, c) for c in sizes}
    gate = data.ladder_update_gate
    assert ((gate["found"] == gate["children"] + 1) & (gate["acl_ok"] == gate["children"])).all()
    paper = json.loads((root / "paper" / "numbers.json").read_text())["studies"]["join"]
    assert [r["version"] for r in paper["crossover"]] == join["ladder"]["versions"]
    for row in paper["crossover"]:
        assert len(row["sizes"]) == len(sizes) + 1
        assert len(row["crossover"]) == len(paper["update_rates"]) * len(join["ladder"]["query_rates"])


def test_claims_judge_exactly_the_configured_versions(join_run):
    root, _, _ = join_run
    claims = json.loads((root / "results" / "join" / "claims.json").read_text())
    configured = _settings()["versions"]
    assert claims["versions"] == configured
    assert {(v["claim"], v["version"]) for v in claims["verdicts"]} == {(c["id"], v) for c in claims["claims"]
                                                                       for v in configured}


def test_every_figure_prints_legibly(join_run):
    root, _, _ = join_run
    data = summary.load(root / "results", _settings()["versions"])
    for name in figures.names():
        assert_legible(figures.build(data, name), name)
