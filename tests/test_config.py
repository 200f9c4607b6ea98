"""Config validation, generic keys: bad values stop with a message naming the key or value. Each study's own
keys are tested in tests/test_<study>_config.py with the helpers of conftest."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml

from conftest import assert_config_error, assert_snakemake_refuses
from lrev import config, studies
from lrev.config import REPO


def test_shipped_config_is_valid_at_every_scale():
    for scale in ("smoke", "default", "paper"):
        cfg = config.load({"scale": scale, "studies": studies.names()})
        assert cfg.scale == scale
        for name in studies.names():
            assert cfg.study(name) == config.merge(cfg.raw["scales"][scale].get(name, {}), cfg.raw[name])


def test_study_values_override_the_scale():
    cfg = config.load({"scale": "smoke", "pk": {"docs": 1234}})
    assert cfg.study("pk")["docs"] == 1234
    assert cfg.study("pk")["rounds"] == cfg.raw["scales"]["smoke"]["pk"]["rounds"]


@pytest.mark.parametrize("overrides, named", [
    ({"lucene_versions": ["4.10.4", "5.5.5"]}, "5.5.5"),
    ({"studies": ["pq"]}, "pq"),
    ({"studies": []}, "studies"),
    ({"pq": {"docs": 1}}, "'pq'"),
    ({"scales": {"smoke": {"pq": {}}}}, "scales.smoke.pq"),
    ({"sclae": "smoke"}, "sclae"),
    ({"scale": "huge"}, "huge"),
    ({"exclusive_scales": ["default", "huge"]}, "exclusive_scales.1"),
    ({"steady": {"penalty": 0, "min_steady": 5}}, "steady.penalty"),
    ({"steady": {"penalty": -1.5, "min_steady": 5}}, "steady.penalty"),
    ({"steady": {"penalty": 2.0, "min_steady": 0}}, "steady.min_steady"),
])
def test_invalid_config_names_the_key_or_value(overrides, named):
    assert_config_error(overrides, named)


@pytest.mark.parametrize("overrides, message", [
    ({"scael": "smoke"}, "unknown key 'scael'; did you mean 'scale'?"),
    ({"dvjumps": {"rounds": 3}}, "unknown key 'dvjumps'; did you mean 'dvjump'?"),
    ({"zzz": 1}, "unknown key 'zzz' (settings and studies: scale, outdir"),
])
def test_a_misspelt_top_level_key_is_named_with_the_nearest_key(overrides, message):
    with pytest.raises(config.ConfigError) as err:
        config.load(overrides)
    assert message in str(err.value)


def test_measurements_own_the_machine_at_the_scales_listed_and_the_digest_says_so():
    assert [config.load({"scale": s}).exclusive for s in ("smoke", "default", "paper")] == [False, True, True]
    shared = config.load({"scale": "paper", "exclusive_scales": ["default"]})
    assert not shared.exclusive and shared.digest != config.load({"scale": "paper"}).digest


@pytest.mark.parametrize("scale, threads", [("smoke", "1"), ("default", "2")])
def test_a_measurement_job_claims_every_core_only_at_an_exclusive_scale(tmp_path, scale, threads):
    dry = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--cores", "2", "--config", f"scale={scale}",
                          f"outdir={tmp_path}", "studies=[join]"], cwd=REPO, capture_output=True, text=True)
    job = dry.stdout.split("rule join_run:", 1)[1].split("\n\n", 1)[0]
    assert (re.search(r"threads: (\d+)", job) or [None, "1"])[1] == threads  # Snakemake shows threads above 1


def test_merge_is_recursive_and_leaves_inputs_alone():
    base = {"a": {"b": 1, "c": {"d": 2}}, "e": [1]}
    out = config.merge(base, {"a": {"c": {"d": 3}}, "e": [2]})
    assert out == {"a": {"b": 1, "c": {"d": 3}}, "e": [2]}
    assert base["a"]["c"]["d"] == 2


@pytest.mark.parametrize("options", [["studies=[pq]"], ["scale=huge"]])
def test_snakemake_stops_before_any_work(tmp_path, options):
    assert_snakemake_refuses(tmp_path, options)


def test_snakemake_options_select_the_config(tmp_path):
    extra = tmp_path / "mine.yaml"
    extra.write_text("scale: smoke\npk: {docs: 777, ladder: {docs: [500]}}\n")
    cfg = config.from_snakemake_args(["--cores", "2", "--configfile", str(extra), "--config", "outdir=elsewhere",
                                      "pk={rounds: 3}", "dvjump={ladder: {docs: [1000], workloads: [export], buckets: [2]}}"])
    assert (cfg.scale, str(cfg.root)) == ("smoke", "elsewhere/smoke")
    assert (cfg.study("pk")["docs"], cfg.study("pk")["rounds"]) == (777, 3)
    # Snakemake hands nested values over as strings ('1000'): they come back as numbers.
    assert cfg.study("dvjump")["ladder"] == {"docs": [1000], "workloads": ["export"], "buckets": [2]}
    assert config.numbers_restored({"a": "on", "b": "True", "c": "2.5"}) == {"a": "on", "b": True, "c": 2.5}


def test_every_config_group_counts_not_only_the_last():
    """Snakemake keeps only the last --config group; ./run joins them, and so does the paper's path."""
    argv = ["--config", "scale=smoke", "--dry-run", "-C", "studies=[dvupdate]", "--config=outdir=elsewhere"]
    assert config.snakemake_argv(argv) == ["--dry-run", "--config", "scale=smoke", "studies=[dvupdate]",
                                           "outdir=elsewhere"]
    cfg = config.from_snakemake_args(argv)
    assert (cfg.scale, list(cfg.studies), str(cfg.root)) == ("smoke", ["dvupdate"], "elsewhere/smoke")
    done = subprocess.run([sys.executable, "-m", "lrev.config", "--snakemake-argv", *argv], cwd=REPO,
                          capture_output=True, text=True, check=True)
    assert done.stdout.split("\0")[:-1] == config.snakemake_argv(argv)


def test_the_config_cli_reports_a_studys_own_check_without_a_traceback():
    # A study's cross-key check raises lrev.config.ConfigError; run as `python -m lrev.config` that must still be
    # the error main() reports, not a traceback.
    done = subprocess.run([sys.executable, "-m", "lrev.config", "--config", "dvjump={workloads: [nope]}"], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip() == ("config error at 'dvjump.workloads': unknown workload 'nope' "
                                   "(known: search, facet, group, sort, retrieve, export, combined)")


@pytest.mark.parametrize("dry", [[], ["--dry-run"], ["-n"]])
def test_the_paper_path_printed_says_when_the_run_was_dry(dry, tmp_path, capsys):
    assert config.main(["--paper-pdf", "--config", f"outdir={tmp_path}", *dry]) == 0
    out = capsys.readouterr().out
    pdf = tmp_path.resolve() / "default" / "paper" / "lucene-revisited.pdf"
    assert out == (f"paper: dry run, nothing was built; the paper would be {pdf}\n" if dry else f"paper: {pdf}\n")


def _shadowed(top: dict, scaled: dict, where: str) -> list[str]:
    """Keys of ``scaled`` whose value the top-level block ``top`` replaces (nested blocks merge key by key)."""
    out = []
    for key, value in scaled.items():
        if key in top and isinstance(value, dict) and isinstance(top[key], dict):
            out += _shadowed(top[key], value, f"{where}.{key}")
        elif key in top and top[key] != value:
            out.append(f"{where}.{key}")
    return out


def test_no_scale_value_in_config_yaml_is_shadowed_by_its_top_level_block():
    """A study's top-level block wins over its block under a scale (so that --config overrides reach every scale);
    a value config.yaml itself sets in both places would be silently ignored in the scale."""
    shipped = config.shipped()
    dead = [path for scale, blocks in shipped["scales"].items() for study, block in blocks.items()
            if study in shipped for path in _shadowed(shipped[study], block, f"scales.{scale}.{study}")]
    assert dead == []


def _written_schema(name: str) -> dict:
    return yaml.safe_load(studies.schema_file(name).read_text())


# dvjump and pk check their contender names in their plug-ins' check, against the same registry.
@pytest.mark.parametrize("name", [n for n in studies.names() if "contender" in _written_schema(n).get("$defs", {})])
def test_a_schemas_contender_names_are_its_studys_registry_and_not_spelt_in_the_schema_file(name):
    assert "enum" not in _written_schema(name)["$defs"]["contender"]
    assert config.study_schema(name)["$defs"]["contender"]["enum"] == list(studies.get(name).CONTENDERS)
