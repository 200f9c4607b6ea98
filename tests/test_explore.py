"""What an opened notebook explores: the scale of the latest run with the study's results, else smoke; with no
results, what a first look would run, and nothing run until asked (measure = True); paths and numbers as printed."""
from __future__ import annotations

import os

import pandas as pd
import pytest

from lrev import config, explore
from lrev.config import REPO


def results(outdir, scale, study, version, mtime):
    manifest = outdir / scale / "results" / study / version / "manifest.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text("{}")
    os.utime(manifest, (mtime, mtime))


def run_folder(outdir, scale="smoke", study="join"):
    return config.load({"scale": scale, "outdir": str(outdir), "studies": [study]})


@pytest.fixture
def no_subprocess(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"a subprocess was started: {args}")
    monkeypatch.setattr(explore.subprocess, "Popen", refuse)


def test_latest_is_the_scale_whose_results_of_the_study_were_written_last(tmp_path):
    results(tmp_path, "smoke", "join", "4.10.4", 1_000)
    results(tmp_path, "default", "join", "10.6.0", 3_000)
    results(tmp_path, "paper", "join", "10.6.0", 2_000)
    results(tmp_path, "paper", "pk", "10.6.0", 9_000)  # another study's results do not count
    assert explore.scale("join", "latest", tmp_path) == "default"
    assert explore.scale("pk", "latest", tmp_path) == "paper"


def test_latest_without_any_results_is_smoke_and_a_named_scale_stays(tmp_path):
    assert explore.scale("join", "latest", tmp_path) == "smoke"
    results(tmp_path, "default", "join", "10.6.0", 3_000)
    assert explore.scale("join", "paper", tmp_path) == "paper"


def test_exploring_without_results_starts_nothing_and_says_what_measure_true_would_run(tmp_path, no_subprocess):
    with pytest.raises(explore.NoResults) as err:
        explore.first_look(run_folder(tmp_path), "join", False, [], {"rounds": 1}, minutes=1.6)
    message = str(err.value)
    assert "`measure = True`" in message and "about 1.6 min" in message
    assert "./run snakemake " in message and 'join={"rounds": 1}' in message


@pytest.mark.parametrize("measure", [False, True])
def test_a_scale_other_than_smoke_without_results_names_the_pipelines_command(tmp_path, no_subprocess, measure):
    with pytest.raises(explore.NoResults, match=r"\./run paper --config scale=default studies='\[join\]'"):
        explore.first_look(run_folder(tmp_path, "default"), "join", measure, [tmp_path / "missing"], {}, minutes=1)


@pytest.mark.parametrize("measure", [False, True])
def test_existing_results_or_the_pipelines_built_indexes_start_nothing(tmp_path, no_subprocess, capsys, measure):
    index = tmp_path / "smoke" / "indexes" / "manifest.json"
    index.parent.mkdir(parents=True)
    index.write_text("{}")
    if measure:  # the pipeline's own run: measuring, its indexes built, no results yet; it measures in the notebook
        assert explore.first_look(run_folder(tmp_path), "join", True, [index], {}, minutes=1) is True
    results(tmp_path, "smoke", "join", "4.10.4", 1_000)
    assert explore.first_look(run_folder(tmp_path), "join", measure, [], {}, minutes=1) is measure
    assert capsys.readouterr().out == ""


def test_measure_true_without_results_runs_a_narrowed_first_look_and_a_failed_one_is_an_error(tmp_path, capsys):
    with pytest.raises(RuntimeError, match="the first look at join failed"):  # refused by the config's schema
        explore.first_look(run_folder(tmp_path), "join", True, [tmp_path / "missing"], {"rounds": 0}, minutes=1)
    shown = capsys.readouterr().out
    assert "running a first look at join's smoke scale" in shown and "config error at 'join.rounds'" in shown


def test_measuring_without_the_indexes_names_the_command_that_builds_them(tmp_path):
    built, missing = tmp_path / "built.json", tmp_path / "missing.json"
    built.write_text("{}")
    explore.indexes_built(run_folder(tmp_path), "join", [built])
    with pytest.raises(FileNotFoundError, match=rf"./run snakemake .*studies='\[join\]' {missing}$"):
        explore.indexes_built(run_folder(tmp_path), "join", [built, missing])


def test_the_version_explored_is_one_the_run_has(tmp_path):
    pk = run_folder(tmp_path, study="pk")
    configured = pk.study("pk")["versions"]
    assert explore.version(pk, "pk", None) == configured[-1]  # no results: the newest configured
    results(tmp_path, "smoke", "pk", configured[1], 1_000)
    results(tmp_path, "smoke", "pk", configured[0], 2_000)
    assert explore.done(pk, "pk") == configured[:2]
    assert explore.version(pk, "pk", None) == configured[1]  # the newest with results, whenever written
    assert explore.version(pk, "pk", configured[0]) == configured[0]


def test_printed_paths_name_no_folder_of_the_machine(tmp_path):
    assert explore.where(REPO / "runs" / "default" / "results", "runs") == "runs/default/results"
    assert explore.where("runs/default", "runs") == "runs/default"
    elsewhere = tmp_path / "smoke" / "results" / "pk" / "10.6.0"
    assert explore.where(elsewhere, tmp_path) == "<outdir>/smoke/results/pk/10.6.0"


def test_a_table_prints_three_significant_digits_intervals_and_units():
    frame = pd.DataFrame({"contender": ["a", "b"], "rate": [1524247.0, 0.0012345], "rate_low": [1.48e6, 0.001],
                          "rate_high": [1.57e6, 0.002], "p50": [12.345, float("nan")], "forks": [3, 4]})
    shown = explore.table(frame, unit={"p50": "ms"})
    assert list(shown.data.columns) == ["contender", "rate", "p50 (ms)", "forks"]
    text = shown.to_string()
    # As the paper prints them (lrev.paper.fmt): no decimals past the third digit, and none dropped before the point.
    assert "1,524,247 [1,480,000, 1,570,000]" in text and "0.00123 [0.00100, 0.00200]" in text
    assert "12.3 " in text and "n/a" in text and "1524247" not in text and "12.345" not in text
    ratios = pd.DataFrame({"version": ["9.12.3"], "value": [2.34567], "low": [1.5], "high": [3.25], "n": [2]})
    assert list(explore.table(ratios, ["version", "value"]).data.columns) == ["version", "value"]
    assert "2.35 [1.50, 3.25]" in explore.table(ratios).to_string()


def test_a_pivots_unit_heads_all_its_columns():
    pivot = pd.DataFrame({"4.10.4": [980173.25], "10.6.0": [1524247.0]}, index=pd.Index(["default"], name="contender"))
    shown = explore.table(pivot.rename_axis(columns="version"), unit="lookups/s")
    assert list(shown.data.columns) == [("lookups/s", "4.10.4"), ("lookups/s", "10.6.0")]
    assert "980,173" in shown.to_string() and "default" in shown.to_string()
