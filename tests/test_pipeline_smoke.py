"""The whole pipeline at smoke scale, from corpora to paper, in a temporary output folder."""
from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from lrev import config
from lrev.config import REPO


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    outdir = tmp_path_factory.mktemp("runs")
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--config", "scale=smoke", f"outdir={outdir}"]
    first = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr[-4000:]
    second = subprocess.run(cmd + ["--dry-run"], cwd=REPO, capture_output=True, text=True)
    return outdir / "smoke", first, second


def test_paper_is_built_and_its_path_printed(smoke_run):
    root, _, _ = smoke_run
    pdf = root / "paper" / "lucene-revisited.pdf"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    shown = subprocess.run([sys.executable, "-m", "lrev.config", "--paper-pdf", "--cores", "2",
                            "--config", "scale=smoke", f"outdir={root.parent}"], cwd=REPO, capture_output=True, text=True)
    assert shown.stdout.strip() == f"paper: {pdf.resolve()}"


def test_second_run_has_nothing_to_do(smoke_run):
    _, _, second = smoke_run
    assert second.returncode == 0
    assert "Nothing to be done" in second.stdout + second.stderr


def test_every_version_has_results_with_provenance(smoke_run):
    root, _, _ = smoke_run
    pk = config.load({"scale": "smoke"}).study("pk")
    for version in pk["versions"]:
        out = root / "results" / "pk" / version
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["lucene_version_reported"] == version
        assert manifest["git"]["sha"] and manifest["host"]["cores"] >= 1 and manifest["jdk"]["flags"]
        assert {c["sha256"]["docs.tsv"] for c in manifest["corpora"].values()}
        lookups = pd.read_parquet(out / "lookups.parquet")
        measured = lookups[lookups["phase"] == "measure"]
        assert set(measured["contender"]) == set(pk["contenders"][version]) | {"default-aa"}
        assert (measured["lookups_per_s"] > 0).all()
        footprint = pd.read_parquet(out / "footprint.parquet")
        assert set(footprint["contender"]) == set(pk["contenders"][version])
        reopen = pd.read_parquet(out / "reopen.parquet")
        assert (reopen["reopen_ms"] > 0).all()


def test_claims_cover_every_version(smoke_run):
    root, _, _ = smoke_run
    claims = json.loads((root / "results" / "claims.json").read_text())
    text = json.dumps(claims)
    for version in config.load({"scale": "smoke"}).study("pk")["versions"]:
        assert version in text
