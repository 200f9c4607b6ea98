"""The `pk` block of the config: bad values stop, before any work, with a message naming the key or value."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import assert_config_error, assert_snakemake_refuses
from lrev import config, fork
from lrev.config import REPO
from lrev.pk import forks, layout


@pytest.mark.parametrize("overrides, named", [
    ({"pk": {"versions": ["4.10.5"]}}, "4.10.5"),
    ({"pk": {"docs": 0}}, "pk.docs"),
    ({"pk": {"docs": -5}}, "pk.docs"),
    ({"pk": {"dcos": 10}}, "dcos"),
    ({"pk": {"reopen": {"interval_ms": 0}}}, "pk.reopen.interval_ms"),
    ({"pk": {"min_warmup": 9, "max_warmup": 2}}, "min_warmup"),
    ({"pk": {"rounds": 0}}, "pk.rounds"),
    ({"pk": {"rounds": 2, "mixed_rounds": 3}}, "pk.mixed_rounds"),
    ({"pk": {"plain": {"measure_s": 0}}}, "pk.plain.measure_s"),
    ({"pk": {"contenders": {"10.6.0": ["Memory"]}}}, "default"),
    ({"pk": {"contenders": {"10.6.0": ["default", "NoSuchFormat"]}}}, "NoSuchFormat"),
    ({"pk": {"contenders": {"10.6.0": ["default", "Memory"]}}}, "'Memory'"),
    ({"pk": {"contenders": {"10.6.0": ["default", "default-aa"]}}}, "default-aa"),
    # G1 is the only other collector; a G1 contender must name a format the version has.
    ({"pk": {"contenders": {"10.6.0": ["default", "FST50@ZGC"]}}}, "FST50@ZGC"),
    ({"pk": {"contenders": {"10.6.0": ["default", "Memory@G1"]}}}, "'Memory@G1'"),
    # Another JDK must load the engine's class files: 7.7.3's engine is compiled for Java 21, not 17.
    ({"pk": {"contenders": {"7.7.3": ["default", "default@JDK17"]}}}, "'default@JDK17' would run on a JDK older"),
    # A JVM variant is paired with its contender in the default JVM, whose index it reads.
    ({"pk": {"contenders": {"4.10.4": ["default", "Memory@JDK17"]}}}, "'Memory@JDK17' runs 'Memory' in other JVMs"),
    ({"pk": {"contenders": {"4.10.4": ["default", "default@JDK0"]}}}, "pk.contenders.4.10.4.1"),
    # A version the scale does not run is checked too (the default scale runs 4.10.4 and 10.6.0).
    ({"scale": "default", "pk": {"contenders": {"9.12.3": ["Nope"]}}}, "pk.contenders.9.12.3': unknown contender 'Nope'"),
    # The size ladder: sizes that do not increase or reach the seq corpus, contenders no version runs, a ladder
    # without the baseline, and no rung where the registry fits claims on the ladder.
    ({"scale": "default", "pk": {"ladder": {"docs": [300000, 100000]}}}, "pk.ladder.docs"),
    ({"scale": "default", "pk": {"ladder": {"docs": [100000, 100000]}}}, "pk.ladder.docs"),
    ({"scale": "default", "pk": {"ladder": {"docs": [1000000]}}}, "pk.ladder.docs"),
    ({"scale": "default", "pk": {"ladder": {"contenders": ["default", "Direct"]}}}, "pk.ladder.contenders': Direct"),
    ({"scale": "default", "pk": {"ladder": {"contenders": ["Memory", "Pulsing41"]}}}, "pk.ladder.contenders"),
    ({"scale": "default", "pk": {"ladder": {"docs": []}}}, "pk.ladder.docs': claims pk-1"),
    ({"scale": "default", "pk": {"ladder": {"docs": [0]}}}, "pk.ladder.docs"),
    # A contender a fitted claim compares, left off the ladder, would leave that claim one size.
    ({"scale": "default", "pk": {"ladder": {"contenders": ["default", "Memory"]}}},
     "pk.ladder.contenders': pk-1 is fitted on the ladder and compares Pulsing41"),
])
def test_invalid_config_names_the_key_or_value(overrides, named):
    assert_config_error(overrides, named)


@pytest.mark.parametrize("options", [["pk={docs: 0}"], ["pk={versions: ['4.10.5']}"], ["pk={dcos: 1}"],
                                     ['pk={contenders: {"10.6.0": [default, NoSuchFormat]}}']])
def test_snakemake_stops_before_any_work(tmp_path, options):
    assert_snakemake_refuses(tmp_path, options)


def test_an_unknown_contender_stops_a_dry_run_naming_it(tmp_path):
    done = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", "--dry-run", "--config",
                           f"outdir={tmp_path}", 'pk={contenders: {"10.6.0": [default, NoSuchFormat]}}'],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "pk.contenders.10.6.0" in done.stderr + done.stdout and "NoSuchFormat" in done.stderr + done.stdout


def test_a_versions_run_reads_only_its_own_contenders(monkeypatch, tmp_path):
    jar = tmp_path / "engine.jar"
    jar.write_bytes(b"jar")
    monkeypatch.setattr(fork.engine, "classpath", lambda study, version: [str(jar)])
    pk = config.load({"scale": "default"}).study("pk")
    other = {**pk, "contenders": {**pk["contenders"], "9.12.3": ["default", "FST50"]}}
    assert layout.for_version(other, "10.6.0") == layout.for_version(pk, "10.6.0")
    assert forks.fingerprint("10.6.0", other) == forks.fingerprint("10.6.0", pk)
    assert layout.for_version(pk, "10.6.0")["contenders"] == {"10.6.0": pk["contenders"]["10.6.0"]}
    changed = {**pk, "contenders": {**pk["contenders"], "10.6.0": ["default", "FST50"]}}
    assert forks.fingerprint("10.6.0", changed) != forks.fingerprint("10.6.0", pk)


def test_a_version_runs_the_ladder_only_where_it_has_a_format_to_compare_with_the_baseline():
    pk = config.load({"scale": "default"}).study("pk")
    assert {"Memory", "Pulsing41"} <= set(pk["ladder"]["contenders"]) and pk["ladder"]["docs"]
    old, new = layout.for_version(pk, "4.10.4"), layout.for_version(pk, "10.6.0")
    assert old["ladder"] == {"docs": pk["ladder"]["docs"], "contenders": ["default", "Memory", "Pulsing41"]}
    assert new["ladder"] == {"docs": [], "contenders": []}
    assert not any(c.startswith(layout.LADDER_PREFIX) for c in layout.corpora(new))
    assert layout.for_version(old, "4.10.4") == old, "a version's settings are its own again"


def test_a_ladder_contender_that_reads_another_index_gets_that_index_built_on_the_ladder():
    # Settings by hand: a ladder without Memory itself is a config error while pk-1 is fitted on it.
    pk = config.load({"scale": "default"}).study("pk")
    pk = {**pk, "ladder": {**pk["ladder"], "contenders": ["default", "Memory@G1", "GlobalPkMap"]}}
    assert layout.indexed_contenders(pk, "4.10.4", f"{layout.LADDER_PREFIX}{pk['ladder']['docs'][0]}") == [
        "default", "Memory"]
    assert "Pulsing41" in layout.indexed_contenders(pk, "4.10.4", "seq")
