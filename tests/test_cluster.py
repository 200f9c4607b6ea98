"""The SLURM profile on a real SLURM: a single-node cluster on localhost (lrev.cluster), brought up from Debian's
packages when none runs and shut down after. One study's measurement is first sent alone under a time limit of one
minute, which must end in a reported TIMEOUT; then the whole smoke pipeline (every study the config lists, or
``$LREV_CLUSTER_STUDIES``, a comma-separated subset) goes through ``profiles/slurm``, must resume that measurement
without redoing a finished fork, and its outputs must match a local smoke run's.

``./run test-cluster`` is the full proof: every study, after a local smoke run of its own, each building its own
corpora and indexes. ``./run test`` (and so CI, where the session's smoke run, about 12 min, is the local one) sends
the cheapest study alone (``LREV_CLUSTER_STUDIES=cheapest``), on that run's corpora and indexes. All four took
19.7 min through SLURM (jobs queue for the node's 2 CPUs, and measurement jobs own the node).
``LREV_CLUSTER_STUDIES=a,b`` names studies; ``LREV_SKIP_CLUSTER=1`` skips the test, and says so.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from lrev import cluster, config, stability
from lrev.io import sha256_file

from conftest import REPO, run_smoke

pytestmark = pytest.mark.skipif(os.environ.get("LREV_SKIP_CLUSTER") == "1",
                                reason="LREV_SKIP_CLUSTER=1: the SLURM test is skipped")
#: The cheapest study's smoke pipeline through SLURM (about 10 min, against 19.7 for all four): what `./run test`,
#: and so CI, sends (``LREV_CLUSTER_STUDIES=cheapest``); dvjump's forks are also the shortest to kill.
CHEAPEST = "dvjump"
_ASKED = os.environ.get("LREV_CLUSTER_STUDIES", "")
#: The studies sent through SLURM: the config's own list (`./run test-cluster`, the full proof) unless narrowed.
STUDIES = ([CHEAPEST] if _ASKED == "cheapest" else [s for s in _ASKED.split(",") if s]) or list(config.load().studies)
#: The study whose measurement job is killed at its time limit.
KILLED = CHEAPEST if CHEAPEST in STUDIES else STUDIES[0]
#: A cluster without accounting (this one) answers job status through squeue; a first check after 5 s, not the
#: plugin's 40, keeps a pipeline of short jobs from waiting on the poll.
STATUS = ["--slurm-status-command", "squeue", "--slurm-init-seconds-before-status-checks", "5"]


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    state = tmp_path_factory.mktemp("slurm")
    cluster.up(state)
    yield
    cluster.down(state)


def through_profile(outdir: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "snakemake", "--profile", "profiles/slurm", *STATUS, *extra,
                           "--config", "scale=smoke", f"outdir={outdir}", f"studies=[{','.join(STUDIES)}]"],
                          cwd=REPO, capture_output=True, text=True, timeout=3600)


def verdict_keys(root: Path, study: str) -> set[tuple]:
    claims = json.loads((root / "results" / study / "claims.json").read_text())
    return {(v["claim"], v["kind"], v["version"]) for v in claims["verdicts"]}


def session_smoke(request) -> bool:
    """Whether this session has a smoke run anyway: other tests use it, or ``$LREV_SMOKE_OUTDIR`` holds one."""
    others = [item for item in request.session.items if item.module.__name__ != __name__]
    return bool(os.environ.get("LREV_SMOKE_OUTDIR")) or any("smoke_run" in item.fixturenames for item in others)


@dataclass
class ClusterRun:
    root: Path
    killed: subprocess.CompletedProcess  # the first submission: the killed study's measurement, under a 1-min limit
    kept: dict[Path, int]  # the forks it finished before the limit, with their mtimes
    done: subprocess.CompletedProcess  # the resubmission: the whole smoke pipeline


@pytest.fixture(scope="module")
def cluster_run(slurm, request, tmp_path_factory) -> ClusterRun:
    """The smoke pipeline through the profile, in two submissions: first the killed study's measurement as far as
    its claims, under a time limit of one minute, which SLURM must enforce; then the whole pipeline, which must
    resume that measurement. One measurement of that study, not two, proves both. Beside the session's smoke run
    (``./run test``, CI) it reads that run's corpora and indexes, linked as `./run stability` links them, and builds
    none; alone (``./run test-cluster``) it builds every one of its own."""
    outdir = tmp_path_factory.mktemp("cluster")
    if session_smoke(request):
        stability.link_shared(request.getfixturevalue("smoke_run")[0], outdir / "smoke")
    root = outdir / "smoke"
    claims = str(root / "results" / KILLED / "claims.json")
    killed = through_profile(outdir, claims, "--set-resources", f"{KILLED}_run:runtime=1")
    kept = {p: p.stat().st_mtime_ns for p in (root / "results" / KILLED).rglob("timing.json")}
    done = through_profile(outdir)
    assert done.returncode == 0, done.stderr[-4000:]
    return ClusterRun(root, killed, kept, done)


def local_smoke_run(request, tmp_path) -> Path:
    """The session's smoke run when other tests of the session use it anyway (or ``$LREV_SMOKE_OUTDIR`` holds one);
    else a local smoke run of the same studies."""
    if session_smoke(request):
        return request.getfixturevalue("smoke_run")[0]
    return run_smoke(tmp_path, f"studies=[{','.join(STUDIES)}]")[0]


def test_the_smoke_pipeline_through_the_profile_matches_a_local_run(cluster_run, request, tmp_path):
    root, done = cluster_run.root, cluster_run.done
    assert "SLURM jobid" in done.stderr  # the jobs were submitted, not run in this process
    local = local_smoke_run(request, tmp_path)
    for study in STUDIES:
        assert verdict_keys(root, study) == verdict_keys(local, study), study
        manifests = sorted((root / "results" / study).glob("*/manifest.json"))
        local_manifests = (local / "results" / study).glob("*/manifest.json")
        assert manifests and {m.parent.name for m in manifests} == {m.parent.name for m in local_manifests}, study
        for path in manifests:
            manifest = json.loads(path.read_text())
            assert manifest["study"] == study and manifest["scale"] == "smoke" and manifest["git"]["sha"]
            assert manifest["lucene_version_reported"] == path.parent.name
            for name, sha in manifest["sha256"].items():
                assert sha256_file(path.parent / name) == sha, f"{path.parent / name} does not match its manifest"
    assert (root / "paper" / "lucene-revisited.pdf").is_file()


def test_a_job_killed_at_its_time_limit_is_reported_and_a_resubmission_resumes(cluster_run):
    killed, kept, done = cluster_run.killed, cluster_run.kept, cluster_run.done
    assert killed.returncode != 0
    assert "SLURM status is: 'TIMEOUT'" in killed.stderr, killed.stderr[-3000:]
    assert kept, "no fork finished within the minute before the time limit"
    assert f"rule {KILLED}_index" not in done.stderr and f"rule {KILLED}_run" in done.stderr  # indexes were kept
    for path, mtime in kept.items():
        assert path.stat().st_mtime_ns == mtime, f"{path} was measured again"
    assert verdict_keys(cluster_run.root, KILLED)
