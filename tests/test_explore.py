"""What an opened notebook explores: the scale of the latest run with the study's results, else smoke."""
from __future__ import annotations

import os

import pytest

from lrev import explore


def results(outdir, scale, study, version, mtime):
    manifest = outdir / scale / "results" / study / version / "manifest.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text("{}")
    os.utime(manifest, (mtime, mtime))


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


def test_existing_smoke_results_start_no_run_and_a_failed_run_is_an_error(tmp_path, capsys):
    results(tmp_path, "smoke", "join", "4.10.4", 1_000)
    explore.ensure_smoke_results("join", tmp_path)
    assert capsys.readouterr().out == ""
    with pytest.raises(RuntimeError, match="the smoke run of nosuch failed"):
        explore.ensure_smoke_results("nosuch", tmp_path)  # the pipeline refuses the study at once
    shown = capsys.readouterr().out
    assert "running a first look at its smoke scale" in shown and "config error at 'studies'" in shown


def test_a_first_look_narrows_the_smoke_settings_it_runs(tmp_path, capsys):
    with pytest.raises(RuntimeError, match="the smoke run of join failed"):
        explore.ensure_smoke_results("join", tmp_path, first_look={"rounds": 0})  # refused by the config's schema
    shown = capsys.readouterr().out
    assert "first look" in shown and "config error at 'join.rounds'" in shown
