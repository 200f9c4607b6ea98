"""The seed scale and the run planner (lrev.plan): the seeds' sizes, the fit, the message without runs, a dry run."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
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


def test_a_dry_run_at_the_seed_scale_lists_its_jobs(tmp_path):
    jobs = plan.dry_run_jobs(["--config", "scale=seed", f"outdir={tmp_path}", "studies=[join]"])
    rules = [rule for rule, _ in jobs]
    assert rules.count("join_run") == 1
    assert {w["version"] for rule, w in jobs if rule == "join_index"} == set(config.load(
        {"scale": "seed"}).study("join")["versions"])
    assert list(tmp_path.iterdir()) == []  # a dry run writes nothing


def test_the_plan_estimates_the_seed_scale_from_runs_on_disk(tmp_path):
    """Two synthetic sizes of one fork's timing on disk: the run job's estimate is the fit times its forks."""
    for scale, seconds in (("smoke", 10.0), ("default", 20.0)):
        fork = tmp_path / scale / "results" / "join" / "forks" / "round-0" / "10.5.1_block"
        fork.mkdir(parents=True)
        (fork / "timing.json").write_text(f'{{"seconds": {seconds}}}')
    result = plan.plan(["--config", "scale=seed", f"outdir={tmp_path}", "studies=[join]"])
    run = next(job for job in result["jobs"] if job["rule"] == "join_run")
    docs = {s: plan.hook("join").docs(config.load({"scale": s}).study("join"), None, {}) for s in ("smoke", "default")}
    fitted = plan.fit([docs["smoke"], docs["default"]], [10.0, 20.0])
    assert run["seconds"] == pytest.approx(run["forks"] * fitted(run["docs"]))
    assert {(r["scale"], r["kind"]) for r in result["fitted_on"]} == {("smoke", "run"), ("default", "run")}
