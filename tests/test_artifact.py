"""`./run artifact`: one archive of a run, every file in it under SHA256SUMS; refused before the paper exists."""
from __future__ import annotations

import hashlib
import json
import re
import tarfile

import pytest

from lrev import artifact, cite, config, provenance


@pytest.fixture(scope="module")
def archive(smoke_run):
    root, _, _ = smoke_run
    return artifact.build(root, "smoke")


def test_the_smoke_archive_unpacks_and_every_checksum_verifies(archive, tmp_path):
    assert archive.name == f"lucene-revisited-{cite.version()}-smoke.tar.gz"
    top = artifact.extract(archive, tmp_path)
    assert top.name == f"lucene-revisited-{cite.version()}-smoke"
    listed = dict(reversed(line.split("  ", 1)) for line in (top / artifact.SUMS).read_text().splitlines())
    for rel, digest in listed.items():  # checked again here, independently of extract()
        assert hashlib.sha256((top / rel).read_bytes()).hexdigest() == digest, rel
    names = set(listed)
    assert {"paper/lucene-revisited.pdf", "paper/numbers.json", artifact.LOCK, *artifact.FRONT} <= names
    assert (top / "CITATION.cff").read_bytes() == (config.REPO / "CITATION.cff").read_bytes()
    # Every document the README links to travels with it.
    links = set(re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", (config.REPO / "README.md").read_text()))
    assert links and links <= names
    for study in config.load({"scale": "smoke"}).studies:
        assert f"results/{study}/claims.json" in names
        assert any(n.startswith(f"results/{study}/") and n.endswith(".ipynb") for n in names), study
        assert any(n.startswith(f"figures/{study}/") for n in names), study
        assert any(n.startswith(f"results/{study}/") and n.endswith(".parquet") for n in names), study
    assert not any("/forks/" in n for n in names)


def test_no_file_in_the_archive_names_where_the_run_or_the_repository_lay(smoke_run, archive, tmp_path):
    """Built on one machine, unpacked on another: no file, executed notebooks and binary files included, holds the
    building machine's absolute path of the run (its outdir, which the run's folder lies in) or of the repository."""
    root, _, _ = smoke_run
    top = artifact.extract(archive, tmp_path)
    places = [str(root.resolve().parent), str(config.REPO)]
    named = {str(path.relative_to(top)): [p for p in places if p.encode() in path.read_bytes()]
             for path in sorted(top.rglob("*")) if path.is_file()}
    assert {rel: found for rel, found in named.items() if found} == {}


def test_the_environment_lock_names_python_packages_the_jdk_and_every_jar(archive, tmp_path):
    top = artifact.extract(archive, tmp_path)
    lock = json.loads((top / artifact.LOCK).read_text())
    packages = {name.lower(): p["version"] for name, p in lock["python"]["packages"].items()}
    # The run's own record, made when its paper was built, not the archiving machine's.
    recorded = json.loads((top / "paper" / "numbers.json").read_text())["meta"]["environment"]
    assert lock["python"]["recorded"] == "by the run" and lock["python"]["packages"] == recorded["packages"]
    assert (top / artifact.REQUIREMENTS).read_text() == artifact.requirements(lock)
    assert packages["snakemake"] == "9.27.1" and packages["jpype1"] == "1.7.1"  # environment.yml's pins
    # The JDK and the jars as the results' manifests recorded them, whatever this machine has now.
    manifests = [json.loads(p.read_text()) for p in top.glob("results/*/*/manifest.json")]
    assert {json.dumps(j, sort_keys=True) for j in lock["jdk"]["runs"]} == {
        json.dumps(m["jdk"], sort_keys=True) for m in manifests}
    assert all(int(j["version"].split(".")[0]) >= 21 for j in lock["jdk"]["runs"])
    assert lock["jars_recorded"] == "by the run"
    jars = {j["file"]: j for j in lock["jars"]}
    assert "engine.jar" in jars and any(re.fullmatch(r"lucene-core-[0-9.]+\.jar", f) for f in jars)
    assert all(re.fullmatch(r"[0-9a-f]{64}", j["sha256"]) and j["used_by"] for j in lock["jars"])
    recorded = {(jar["path"], jar["sha256"]) for m in manifests for jar in m["classpath"]}
    assert {(j["path"], j["sha256"]) for j in lock["jars"]} == recorded


def test_an_altered_archive_fails_naming_the_file(archive, tmp_path):
    top = artifact.extract(archive, tmp_path / "a")
    claims = top / "results" / "join" / "claims.json"
    claims.write_text(claims.read_text() + " ")
    altered = tmp_path / "altered.tar.gz"
    with tarfile.open(altered, "w:gz") as tar:
        tar.add(top, arcname=top.name)
    with pytest.raises(artifact.ArtifactError, match="results/join/claims.json fails its checksum"):
        artifact.extract(altered, tmp_path / "b")


def test_no_archive_before_the_paper_exists_and_the_error_says_what_to_run(tmp_path, capsys):
    root = tmp_path / "smoke"
    (root / "results").mkdir(parents=True)
    assert artifact.main(["--config", "scale=smoke", f"outdir={tmp_path}"]) == 2
    assert "./run paper --config scale=smoke" in capsys.readouterr().err
    assert list(root.rglob("*.tar.gz")) == [] and list(root.iterdir()) == [root / "results"]


def test_a_corrupted_sha256sums_line_is_named(tmp_path):
    top = tmp_path / "made" / "lucene-revisited-0-smoke"
    top.mkdir(parents=True)
    (top / "a.txt").write_text("a\n")
    good = f"{hashlib.sha256(b'a' + bytes([10])).hexdigest()}  a.txt"
    (top / artifact.SUMS).write_text(f"{good}\nnot a checksum line\n")
    made = tmp_path / "made.tar.gz"
    with tarfile.open(made, "w:gz") as tar:
        tar.add(top, arcname=top.name)
    with pytest.raises(artifact.ArtifactError, match=f"{artifact.SUMS} line 2 is not '<sha256>  <path>'"):
        artifact.extract(made, tmp_path / "out")
    (top / artifact.SUMS).write_text(f"{good}\n")  # the same archive, its sums intact, verifies
    with tarfile.open(made, "w:gz") as tar:
        tar.add(top, arcname=top.name)
    assert artifact.extract(made, tmp_path / "out2").name == top.name


def test_the_environment_names_each_packages_archive_hash_from_pips_report(tmp_path, monkeypatch):
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"install": [
        {"metadata": {"name": "PyYAML", "version": "6.0.2"},
         "download_info": {"url": "file:///w/PyYAML.whl", "archive_info": {"hashes": {"sha256": "ab" * 32}}}},
        {"metadata": {"name": "lucene-revisited", "version": "0"}, "download_info": {"dir_info": {"editable": True}}}]}))
    monkeypatch.setattr(provenance, "PIP_REPORT", report)
    packages = provenance.environment()["packages"]
    assert packages["PyYAML"]["sha256"] == "ab" * 32
    assert all(p["sha256"] is None for name, p in packages.items() if name != "PyYAML")
    lock = {"python": {"packages": packages}}
    assert artifact.requirements(lock) == f"PyYAML=={packages['PyYAML']['version']} --hash=sha256:{'ab' * 32}\n"
