"""The `join` study through the real pipeline at smoke scale: real Solr on one version, Lucene's joins on two, the
correctness gate, the load's histogram logs, claims and the paper; and adding it reruns no job of another study."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pandas as pd
import pytest

from conftest import run_smoke
from lrev import config, load
from lrev.config import REPO
from lrev.join import layout


@pytest.fixture(scope="module")
def join_run(tmp_path_factory):
    return run_smoke(tmp_path_factory.mktemp("runs"), "studies=[join]")


def test_the_paper_is_built_and_a_second_run_has_nothing_to_do(join_run):
    root, _, second = join_run
    assert (root / "paper" / "lucene-revisited.pdf").read_bytes()[:5] == b"%PDF-"
    assert second.returncode == 0 and "Nothing to be done" in second.stdout + second.stderr


def test_every_contender_ran_alone_in_its_jvms_after_passing_the_gate(join_run):
    root, _, _ = join_run
    join = config.load({"scale": "smoke", "studies": ["join"]}).study("join")
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


def test_the_histogram_logs_hold_every_completed_request_of_their_step(join_run):
    root, _, _ = join_run
    fork = next(layout.forks_dir(root).glob("round-0/*solr-join"))
    steps = pd.read_parquet(fork / "steps.parquet")
    for step in steps.itertuples():
        logged = load.merge(load.read_log(fork / f"step-{step.step}.hlog"))
        assert logged.get_total_count() == step.completed


def test_cold_runs_start_evicted_and_the_profiled_step_was_sampled(join_run):
    root, _, _ = join_run
    join = config.load({"scale": "smoke", "studies": ["join"]}).study("join")
    for version in join["versions"]:
        out = layout.results_dir(root, version)
        cold = pd.read_parquet(out / "cold.parquet")
        expected = set(join["cold"]["contenders"]) & set(join["contenders"][version])
        assert set(cold["contender"]) == expected
        assert len(cold) == len(expected) * len(join["cold"]["runs"]) * join["rounds"]
        assert (cold["evicted"] == 1).all() and (cold["completed"] > 0).all()
        # NIO reads through read calls; MMap by page faults, which read calls do not count.
        nio, mmap = cold[cold["directory"] == "nio"], cold[cold["directory"] == "mmap"]
        assert nio["syscall_kb_per_query"].min() > mmap["syscall_kb_per_query"].max()
        residency = pd.read_parquet(out / "residency.parquet")
        assert {"tim", "doc"} <= set(residency["extension"]) and (residency["resident_bytes"] > 0).any()
        frames = pd.read_parquet(out / "frames.parquet")
        marks = frames[frames["kind"] == "mark"]
        assert set(marks["name"]) == set(layout.MARKS.values()) and (marks["total"] > 0).all()


def test_the_sweep_gated_each_corpus_and_timed_every_share(join_run):
    root, _, _ = join_run
    sweep = config.load({"scale": "smoke", "studies": ["join"]}).study("join")["sweep"]
    out = layout.results_dir(root, sweep["version"])
    rows = pd.read_parquet(out / "sweep.parquet")
    assert set(rows["share"]) == set(sweep["shares"]) and set(rows["contender"]) == set(sweep["contenders"])
    assert rows.groupby("share")["join_keys"].first().is_monotonic_decreasing
    gate = pd.read_parquet(out / "sweep_gate.parquet")
    assert (gate.groupby(["corpus", "query"])["parents_sha256"].nunique() == 1).all()


def test_claims_judge_exactly_the_configured_versions(join_run):
    root, _, _ = join_run
    claims = json.loads((root / "results" / "join" / "claims.json").read_text())
    configured = config.load({"scale": "smoke", "studies": ["join"]}).study("join")["versions"]
    assert claims["versions"] == configured
    assert {(v["claim"], v["version"]) for v in claims["verdicts"]} == {(c["id"], v) for c in claims["claims"]
                                                                       for v in configured}


def test_adding_join_to_a_finished_run_schedules_only_its_own_jobs(smoke_run):
    root, _, _ = smoke_run
    others = list(config.load({"scale": "smoke"}).studies)
    dry = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--cores", "2", "--config", "scale=smoke",
                          f"outdir={root.parent}", f"studies=[{','.join([*others, 'join'])}]"], cwd=REPO,
                         capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr[-2000:]
    text = dry.stdout + dry.stderr
    assert set(re.findall(r"^rule (\w+):", text, re.M)) - {"engine", "claims", "study_numbers", "paper", "all"} \
        <= {"join_corpus", "join_index", "join_run", "join_figures"}
    for study in others:
        assert not re.search(rf"(study={study}\b|results/{study}/|indexes/{study}/)", text), study
