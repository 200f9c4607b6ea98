"""The whole pipeline at smoke scale, from corpora to paper, in a temporary output folder."""
from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys

import pandas as pd
import pytest
from pypdf import PdfReader

from lrev import cite, codeinputs, config, jdk, pdftext, provenance, studies, warmup
from lrev.pk import layout as pk_layout
from lrev.config import REPO


def test_paper_is_built_and_its_path_printed(smoke_run):
    root, _, _ = smoke_run
    pdf = root / "paper" / "lucene-revisited.pdf"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    shown = subprocess.run([sys.executable, "-m", "lrev.config", "--paper-pdf", "--cores", "2",
                            "--config", "scale=smoke", f"outdir={root.parent}"], cwd=REPO, capture_output=True, text=True)
    assert shown.stdout.strip() == f"paper: {pdf.resolve()}"


def test_the_papers_text_has_no_leaked_markup_and_its_counts_add_up(smoke_run):
    root, _, _ = smoke_run
    assert pdftext.problems(root / "paper" / "lucene-revisited.pdf") == []
    # Page 1: the machine, the JVM, the scale and the run's time, beside the verdict matrix and the abstract.
    first = " ".join(PdfReader(root / "paper" / "lucene-revisited.pdf").pages[0].extract_text().split())
    host = provenance.host()
    assert f"{host['cpu_model']}, {host['cores']} cores" in first
    assert all(word in first for word in ("Machine", "JVM", "Scale smoke", "Time", "Abstract."))


def test_the_paper_carries_its_identity_and_citation(smoke_run):
    root, _, _ = smoke_run
    meta = json.loads((root / "paper" / "numbers.json").read_text())["meta"]
    assert meta["config_digest"] == config.load({"scale": "smoke", "outdir": str(root.parent)}).digest
    assert meta["exclusive"] is False  # smoke is not in exclusive_scales: the paper says its jobs shared the cores
    assert meta["citation"]["version"] == cite.version()
    assert meta["citation"]["bibtex"] == cite.bibtex(run=cite.Run.of("smoke", meta["git"], meta["config_digest"]))
    assert re.fullmatch(r"[0-9a-f]{40}", meta["git"]["sha"]) and isinstance(meta["git"]["dirty"], bool)
    # Typst writes the document's metadata as uncompressed XMP.
    pdf = (root / "paper" / "lucene-revisited.pdf").read_bytes().decode("latin-1")
    title = cite.load()["preferred-citation"]["title"]
    assert f'<rdf:li xml:lang="x-default">{title}</rdf:li>' in pdf
    assert f"<pdf:Keywords>{', '.join(cite.load()['keywords'])}</pdf:Keywords>" in pdf


def test_the_gallery_renders_every_executed_notebook_with_its_figures(smoke_run):
    root, _, _ = smoke_run
    cfg = config.load({"scale": "smoke"})
    expected = {f"pk-{v}" for v in cfg.study("pk")["versions"]} | (set(cfg.studies) - {"pk"})
    index = (root / "gallery" / "index.html").read_text()
    assert set(re.findall(r'<a href="([\w.-]+)\.html">', index)) == expected
    for name in expected:
        page = (root / "gallery" / f"{name}.html").read_text()
        assert "data:image/png;base64," in page, name  # the figures, embedded
        assert "Traceback" not in page, name


def test_second_run_has_nothing_to_do(smoke_run):
    _, _, second = smoke_run
    assert second.returncode == 0
    assert "Nothing to be done" in second.stdout + second.stderr


@pytest.mark.parametrize("study", list(config.load({"scale": "smoke"}).studies))
def test_listing_one_study_reruns_no_job_of_any_study(smoke_run, study):
    # Each study's jobs depend on its own inputs only: after a run of all of them, a paper of one
    # rebuilds the paper, its resolved config, its seed-scale plan (over the studies listed) and the gallery, nothing
    # else.
    root, _, _ = smoke_run
    dry = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--cores", "2", "--config", "scale=smoke",
                          f"outdir={root.parent}", f"studies=[{study}]"], cwd=REPO, capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr[-2000:]
    rules = set(re.findall(r"^(?:local)?rule (\w+):", dry.stdout + dry.stderr, re.M))
    assert rules <= {"paper", "resolved_config", "plan", "gallery", "all"}


@pytest.mark.parametrize("study", list(config.load({"scale": "smoke"}).studies))
def test_editing_a_module_a_studys_summary_imports_reruns_its_results(smoke_run, study):
    # lrev/<study>/results.py names the tables the forks write and the summary reads. An edit (new content: Snakemake
    # passes over a newer file whose checksum it has seen) makes the study's run due again, and no other study's.
    root, _, _ = smoke_run
    module = f"lrev/{study}/results.py"
    assert module in codeinputs.files(f"lrev/{study}/summary.py")
    path = REPO / module
    text, before = path.read_bytes(), path.stat()
    try:
        path.write_bytes(text + b"\n# an edit\n")
        dry = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--cores", "2", "--config",
                              "scale=smoke", f"outdir={root.parent}"], cwd=REPO, capture_output=True, text=True)
    finally:
        path.write_bytes(text)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert dry.returncode == 0, dry.stderr[-2000:]
    rules = set(re.findall(r"^(?:local)?rule (\w+):", dry.stdout + dry.stderr, re.M))
    assert {f"{study}_run", f"{study}_figures", "claims", "study_numbers", "paper"} <= rules
    assert not {f"{other}_run" for other in config.load({"scale": "smoke"}).studies if other != study} & rules


@pytest.mark.parametrize("study", list(config.load({"scale": "smoke"}).studies))
def test_every_studys_results_carry_their_provenance(smoke_run, study):
    root, _, _ = smoke_run
    for version in config.load({"scale": "smoke"}).study(study)["versions"]:
        manifest = json.loads((studies.results_dir(root, study, version) / "manifest.json").read_text())
        assert manifest["study"] == study and manifest["lucene_version_reported"] == version
        assert manifest["git"]["sha"] and manifest["host"]["cores"] >= 1 and manifest["jdk"]["flags"]
        assert manifest["warmup"] == warmup.policy()  # the policy its forks ran under, where the paper reads it
        assert manifest["corpora"] and all(isinstance(c["synthetic"], bool) for c in manifest["corpora"].values())
        tables = importlib.import_module(f"lrev.{study}.results").TABLES
        assert manifest["sha256"] and set(manifest["sha256"]) <= {f"{t}.parquet" for t in tables}


def test_every_pk_version_has_its_tables(smoke_run):
    root, _, _ = smoke_run
    pk = config.load({"scale": "smoke"}).study("pk")
    for version in pk["versions"]:
        out = root / "results" / "pk" / version
        manifest = json.loads((out / "manifest.json").read_text())
        assert {c["sha256"]["docs.tsv"] for c in manifest["corpora"].values()}
        assert set(manifest["sha256"]) == {f"{t}.parquet" for t in ("lookups", "mixed", "plain", "footprint", "reopen")}
        contenders = set(pk["contenders"][version]) | {"default-aa"}
        lookups = pd.read_parquet(out / "lookups.parquet")
        measured = lookups[lookups["phase"] == "measure"]
        assert set(measured["contender"]) == contenders
        assert (measured["lookups_per_s"] > 0).all()
        # Every contender alone in its JVM: one contender per fork, one fork per contender, round and corpus (a rung
        # of the size ladder is timed in a fork of its own).
        assert (measured.groupby("fork")["contender"].nunique() == 1).all()
        assert (measured.groupby(["round", "contender", "corpus"])["fork"].nunique() == 1).all()
        assert set(measured["round"]) == set(range(pk["rounds"]))
        mixed = pd.read_parquet(out / "mixed.parquet")
        # The mixed JVM runs the parallel collector on the default JDK: the JVM variants (G1, another JDK) run only in
        # JVMs of their own, as the JVM itself reports.
        plain_jvm = {c for c in contenders if not pk_layout.jvm_variant(c)}
        assert set(mixed["contender"]) == plain_jvm
        assert (mixed.groupby("round")["contender"].nunique() == len(plain_jvm)).all()
        for c in contenders:
            jvm = json.loads((out / "forks" / "round-0" / f"alone-{c}" / "jvm.json").read_text())
            assert ("-XX:+UseG1GC" in jvm["jvm_arguments"]) == (pk_layout.collector(c) == "g1"), c
            # A @JDK<n> contender on that JDK, every other one on the default JDK, as the JVM reports it.
            feature = pk_layout.java(c) or jdk.feature_version(jdk.find_jdk())
            assert jvm["java_version"].split(".")[0] == str(feature), (c, jvm["java_version"])
        plain = pd.read_parquet(out / "plain.parquet")
        # Lookup strategies over another format's index (the global map, the +seekCeil lookups) have no plain
        # loop and no reopen run of their own.
        formats = {c for c in contenders if not pk_layout.strategy(c)}
        assert set(plain["contender"]) == formats and formats < contenders
        footprint = pd.read_parquet(out / "footprint.parquet")
        assert set(footprint["contender"]) == set(pk["contenders"][version])
        # Heap, disk and RAM are measured on every version (only accounted bytes may be unavailable).
        assert footprint[["heap_bytes_per_doc", "disk_bytes_per_doc", "ram_bytes_per_doc"]].notna().all().all()
        reopen = pd.read_parquet(out / "reopen.parquet")
        assert (reopen["reopen_ms"] > 0).all()
        assert set(reopen["contender"]) == formats - {"default-aa"}


def test_claims_judge_exactly_the_configured_versions(smoke_run):
    root, _, _ = smoke_run
    claims = json.loads((root / "results" / "pk" / "claims.json").read_text())
    configured = config.load({"scale": "smoke"}).study("pk")["versions"]
    assert claims["versions"] == configured
    cells = {(v["claim"], v["version"]) for v in claims["verdicts"]}
    assert cells == {(c["id"], v) for c in claims["claims"] for v in configured}
    rounds = config.load({"scale": "smoke"}).study("pk")["rounds"]
    paired = [p for v in claims["verdicts"] for p in v["parts"] if p.get("pairing") == "paired by round"]
    assert paired and all(p["n"] == rounds - len(p["failed_rounds"]) for p in paired)
