"""`./run artifact`: one archive of a run, every file in it under SHA256SUMS; refused before the paper exists."""
from __future__ import annotations

import hashlib
import json
import re
import tarfile

import pytest

from lrev import artifact, cite, config


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
    assert {"paper/lucene-revisited.pdf", "paper/numbers.json", artifact.LOCK} <= names
    for study in config.load({"scale": "smoke"}).studies:
        assert f"results/{study}/claims.json" in names
        assert any(n.startswith(f"results/{study}/") and n.endswith(".ipynb") for n in names), study
        assert any(n.startswith(f"figures/{study}/") for n in names), study
        assert any(n.startswith(f"results/{study}/") and n.endswith(".parquet") for n in names), study
    assert not any("/forks/" in n for n in names)


def test_the_environment_lock_names_python_packages_the_jdk_and_every_jar(archive, tmp_path):
    lock = json.loads((artifact.extract(archive, tmp_path) / artifact.LOCK).read_text())
    packages = {name.lower(): version for name, version in lock["python"]["packages"].items()}
    assert packages["snakemake"] == "9.27.1" and packages["jpype1"] == "1.7.1"  # environment.yml's pins
    assert int(lock["jdk"]["release"]["JAVA_VERSION"].split(".")[0]) >= 21
    jars = {j["file"]: j for j in lock["jars"]}
    assert "engine.jar" in jars and any(re.fullmatch(r"lucene-core-[0-9.]+\.jar", f) for f in jars)
    assert all(re.fullmatch(r"[0-9a-f]{64}", j["sha256"]) and j["used_by"] for j in lock["jars"])


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
