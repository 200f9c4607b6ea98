"""Atomic writes, JDK discovery and the environment Maven runs in."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from lrev import engine, jdk
from lrev.io import atomic_path, read_json, write_json, write_parquet


def test_atomic_write_replaces_whole_or_not_at_all(tmp_path):
    target = tmp_path / "r.json"
    write_json(target, {"a": 1})
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("killed")
    assert read_json(target) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_parquet_round_trip(tmp_path):
    frame = pd.DataFrame({"x": [1, 2], "y": ["a", "b"]})
    write_parquet(tmp_path / "f.parquet", frame)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "f.parquet"), frame)


def fake_jdk(root: Path, version: str) -> Path:
    (root / "bin").mkdir(parents=True)
    (root / "lib" / "server").mkdir(parents=True)
    (root / "bin" / "javac").touch()
    (root / "lib" / "server" / "libjvm.so").touch()
    (root / "release").write_text(f'JAVA_VERSION="{version}"\n')
    return root


def test_java_home_first_if_new_enough(tmp_path, monkeypatch):
    home = fake_jdk(tmp_path / "jdk21", "21.0.4")
    monkeypatch.setenv("JAVA_HOME", str(home))
    assert jdk.find_jdk() == home


def test_old_or_incomplete_jdks_are_skipped(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(fake_jdk(tmp_path / "jdk17", "17.0.15")))
    jre = fake_jdk(tmp_path / "jre25", "25")
    os.unlink(jre / "bin" / "javac")
    monkeypatch.setattr(jdk, "JVM_DIR", tmp_path / "none")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(jdk.JdkNotFound, match="JDK >= 21"):
        jdk.find_jdk()


def test_feature_version_parsing(tmp_path):
    assert jdk.feature_version(fake_jdk(tmp_path / "a", "1.8.0_392")) == 8
    assert jdk.feature_version(fake_jdk(tmp_path / "b", "25")) == 25


def test_maven_gets_quick_start_flags_unless_the_user_set_maven_opts(monkeypatch):
    monkeypatch.delenv("MAVEN_OPTS", raising=False)
    assert engine.maven_env()["MAVEN_OPTS"] == engine.MAVEN_OPTS
    monkeypatch.setenv("MAVEN_OPTS", "-Xmx2g")
    env = engine.maven_env()
    assert env["MAVEN_OPTS"] == "-Xmx2g"
    assert env["JAVA_HOME"] == str(jdk.find_jdk())


def test_a_feature_version_asked_for_finds_exactly_that_jdk_or_says_how_to_get_it(tmp_path, monkeypatch):
    jvms = tmp_path / "jvm"
    old, new = fake_jdk(jvms / "java-17", "17.0.15"), fake_jdk(jvms / "temurin-25", "25.0.1")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setattr(jdk, "JVM_DIR", jvms)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert (jdk.find_jdk(), jdk.find_jdk(17)) == (new, old)
    with pytest.raises(jdk.JdkNotFound, match="No JDK 11 found.*apt-get install openjdk-11-jdk-headless"):
        jdk.find_jdk(11)
