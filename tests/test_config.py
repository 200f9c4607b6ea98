"""Config validation: bad values stop with a message naming the key or value."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from lrev import config
from lrev.config import REPO, ConfigError


def test_shipped_config_is_valid_at_every_scale():
    for scale in ("smoke", "default", "paper"):
        cfg = config.load({"scale": scale})
        assert cfg.scale == scale
        assert cfg.study("pk")["docs"] == cfg.raw["scales"][scale]["pk"]["docs"]


def test_study_values_override_the_scale():
    cfg = config.load({"scale": "smoke", "pk": {"docs": 1234}})
    assert cfg.study("pk")["docs"] == 1234
    assert cfg.study("pk")["rounds"] == cfg.raw["scales"]["smoke"]["pk"]["rounds"]


@pytest.mark.parametrize("overrides, named", [
    ({"pk": {"versions": ["4.10.5"]}}, "4.10.5"),
    ({"lucene_versions": ["4.10.4", "5.5.5"]}, "5.5.5"),
    ({"pk": {"docs": 0}}, "pk.docs"),
    ({"pk": {"docs": -5}}, "pk.docs"),
    ({"studies": ["pq"]}, "pq"),
    ({"studies": []}, "studies"),
    ({"pq": {"docs": 1}}, "'pq'"),
    ({"scales": {"smoke": {"pq": {}}}}, "scales.smoke.pq"),
    ({"pk": {"dcos": 10}}, "dcos"),
    ({"sclae": "smoke"}, "sclae"),
    ({"scale": "huge"}, "huge"),
    ({"pk": {"reopen": {"interval_ms": 0}}}, "pk.reopen.interval_ms"),
    ({"pk": {"min_warmup": 9, "max_warmup": 2}}, "min_warmup"),
    ({"pk": {"rounds": 0}}, "pk.rounds"),
    ({"pk": {"plain": {"measure_s": 0}}}, "pk.plain.measure_s"),
    ({"pk": {"contenders": {"9.12.3": ["Memory"]}}}, "default"),
    ({"pk": {"contenders": {"9.12.3": ["default", "NoSuchFormat"]}}}, "NoSuchFormat"),
    ({"pk": {"contenders": {"9.12.3": ["default", "Memory"]}}}, "'Memory'"),
    ({"pk": {"contenders": {"9.12.3": ["default", "default-aa"]}}}, "default-aa"),
])
def test_invalid_config_names_the_key_or_value(overrides, named):
    with pytest.raises(ConfigError) as err:
        config.load(overrides)
    assert named in str(err.value)


def test_merge_is_recursive_and_leaves_inputs_alone():
    base = {"a": {"b": 1, "c": {"d": 2}}, "e": [1]}
    out = config.merge(base, {"a": {"c": {"d": 3}}, "e": [2]})
    assert out == {"a": {"b": 1, "c": {"d": 3}}, "e": [2]}
    assert base["a"]["c"]["d"] == 2


@pytest.mark.parametrize("options", [["pk={docs: 0}"], ["studies=[pq]"], ["pk={versions: ['4.10.5']}"],
                                     ["pk={dcos: 1}"], ['pk={contenders: {"9.12.3": [default, NoSuchFormat]}}']])
def test_snakemake_stops_fast_and_writes_nothing(tmp_path, options):
    started = time.monotonic()
    # A real run, not a dry run: if validation let the value through, work would start (and time out).
    done = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1",
                           "--config", f"outdir={tmp_path}", *options],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "config error at" in done.stderr + done.stdout
    assert time.monotonic() - started < 10
    assert list(tmp_path.iterdir()) == []


def test_snakemake_options_select_the_config(tmp_path):
    extra = tmp_path / "mine.yaml"
    extra.write_text("scale: smoke\npk: {docs: 777}\n")
    cfg = config.from_snakemake_args(["--cores", "2", "--configfile", str(extra), "--config", "outdir=elsewhere",
                                      "pk={rounds: 3}"])
    assert (cfg.scale, str(cfg.root)) == ("smoke", "elsewhere/smoke")
    assert (cfg.study("pk")["docs"], cfg.study("pk")["rounds"]) == (777, 3)


def test_an_unknown_contender_stops_a_dry_run_naming_it(tmp_path):
    done = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", "--dry-run", "--config",
                           f"outdir={tmp_path}", 'pk={contenders: {"9.12.3": [default, NoSuchFormat]}}'],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "pk.contenders.9.12.3" in done.stderr + done.stdout and "NoSuchFormat" in done.stderr + done.stdout
