"""The dvupdate study's results, from the session's smoke run of the real pipeline: every method alone in its
forks, the correctness gate, the seed's columns per reopen, and a load the engine cannot keep up with showing as
behind."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from conftest import assert_legible
from lrev import claims, config, fork, growth
from lrev.config import REPO
from lrev.dvupdate import figures, layout, results, summary

SETTINGS = config.load({"scale": "smoke", "studies": ["dvupdate"]}).study("dvupdate")


@pytest.fixture(scope="module")
def data(smoke_run):
    root, _, _ = smoke_run
    return summary.load(root / "results", SETTINGS["versions"])


def test_every_versions_manifest_says_which_corpora_are_real_text(smoke_run):
    # The provenance every study's manifest carries is tests/test_pipeline_smoke.py's.
    root, _, _ = smoke_run
    for version in SETTINGS["versions"]:
        manifest = json.loads((layout.results_dir(root, version) / "manifest.json").read_text())
        assert set(manifest["corpora"]) == set(layout.corpora(SETTINGS).values())
        configured = {layout.corpus_name(spec, role) for role, spec in SETTINGS["corpora"].items()}
        texts = {name: c["synthetic"] for name, c in manifest["corpora"].items()}
        assert not any(texts[name] for name in configured), "smoke runs its corpus roles on real text"
        assert all(texts[name] for name in set(texts) - configured), "the size ladder's corpora are synthetic"


def test_every_method_ran_alone_in_every_round_and_cell(data):
    for (version, role, contender) in layout.jobs(SETTINGS):
        mine = data.reopens[(data.reopens["version"] == version) & (data.reopens["role"] == role)
                            & (data.reopens["contender"] == contender)]
        assert set(mine["round"]) == set(range(SETTINGS["rounds"])), (version, role, contender)
        assert {c["cell"] for c in layout.cells(SETTINGS, role)} == set(mine["rate_role"] + "-" + mine["interval_role"])
        assert (mine.groupby("round")["fork"].nunique() == 1).all()
    assert (data.reopens.groupby("fork")["contender"].nunique() == 1).all()


def test_every_correctness_check_matched_and_covers_every_reopen_and_field(data):
    assert (data.verify["match"] == 1).all()
    steps = set(data.verify["step"])
    assert {f"reopen-{j}" for j in range(1, SETTINGS["verify"]["reopens"] + 1)} | {"final"} == steps
    assert set(data.verify.loc[data.verify["step"] == "final", "item"]) == {"lastmod", "title_dv"}


def test_every_measured_cell_carries_its_warmup_verdict(data):
    cells = summary.warmups(data)
    assert len(cells) == len(data.reopens.groupby(["fork", "round", *summary.CELL]))
    assert cells["stable"].isin([0, 1]).all()
    warmup = cells["warmup_ms"]
    assert (warmup >= SETTINGS["warmup_s"] * 1000).all()
    # A cell's verdict is its reopens' series' (lrev.steady, warm-up and measured reopens in turn): stable unless
    # the series shows no steady state, whatever the JIT did (its share is a covariate, kept beside it).
    keys = ["version", "contender", "round", "fork", *summary.CELL]
    series = data.series.merge(cells[[*keys, "stable"]], on=keys)
    assert len(series) == len(cells)
    assert ((series["steady"] != "no steady state").astype(int) == series["stable"]).all()
    assert (series["jit_share"] >= 0).all()
    assert (data.reopens[["jit_ms", "gc_ms"]] >= 0).all().all()
    assert (warmup < (SETTINGS["max_warmup_s"] + SETTINGS["measure_s"]) * 1000).all()
    assert (data.reopens["t_ms"] >= data.reopens["warmup_ms"]).all(), "a reopen measured during the warm-up"


def test_every_cell_measured_its_min_reopens_unless_they_fell_behind(data):
    cells = summary.warmups(data)
    assert cells["reopens"].max() >= SETTINGS["min_reopens"]
    short = cells[cells["reopens"] < SETTINGS["min_reopens"]]
    keys = ["fork", "round", *summary.CELL]
    late = data.reopens.groupby(keys, as_index=False).agg(behind=("fell_behind", "max"), late_ns=("late_ns", "sum"),
                                                          interval_ms=("interval_ms", "first"))
    short = short.merge(late, on=keys)
    assert ((short["behind"] == 1) | (short["late_ns"] > short["interval_ms"] * 1e6)).all(), short
    # No reopen starts after its cell's run ended: one that fell behind does not catch up on an idle index.
    assert (data.reopens["t_ms"] <= data.reopens["warmup_ms"] + SETTINGS["max_measure_s"] * 1000 + 1).all()


def test_a_cell_whose_warmup_never_converged_withholds_its_claims(data):
    registry = claims.load_registry(REPO / "claims" / "dvupdate.yaml")
    registry = {**registry, "versions": [SETTINGS["versions"][-1]],
                "claims": [c for c in registry["claims"] if c["id"] == "dvupdate-1"]}

    def first_part(reopens):
        measured = dataclasses.replace(data, reopens=reopens, perdoc=reopens[reopens["updates"] > 0])
        return claims.evaluate(registry, measured)["verdicts"][0]["parts"][0]

    converged = data.reopens.assign(stable=1)
    assert first_part(converged)["converged"] is True
    one = (converged["contender"] == "numeric") & (converged["round"] == 0) & (converged["rate_role"] == "high")
    part = first_part(converged.assign(stable=(~one).astype(int)))
    assert part["converged"] is False and part["verdict"] in claims.WITHHELD


def test_the_seed_columns_add_up(data):
    r = data.reopens
    assert ((r["total_ms"] - r["reopen_ms"] - r["update_ms"]).abs() < 1e-9).all()
    assert (r["done"] <= r["due"]).all()
    assert (data.perdoc["perdoc_ms"] > 0).all()


def test_every_figure_prints_legibly(data):
    for name in figures.names():
        assert_legible(figures.build(summary.without_ladder(data), name), name)


def test_the_paper_numbers_cover_every_version_and_figure(smoke_run):
    root, _, _ = smoke_run
    got = json.loads((root / "paper" / "dvupdate.json").read_text())
    assert {r["version"] for r in got["seed_table"]} == set(SETTINGS["versions"])
    assert [c["text"] for c in got["corpora"]] == ["real", "real"]
    assert {r["version"] for r in got["rewrite"]} == set(SETTINGS["versions"])
    assert all(not Path(path).is_absolute() and (root / path).is_file() for path in got["figures"].values())
    # The seed's figures, and one per claim fitted on the size ladder.
    registry = claims.load_registry(REPO / "claims" / "dvupdate.yaml")
    grown = {growth.figure_name(c) for c in growth.grown(registry, SETTINGS["versions"])}
    assert grown and set(got["figures"]) == set(figures.FIGURES) | grown


def test_a_rate_the_engine_cannot_hold_shows_as_behind(smoke_run, tmp_path):
    """Updates are never skipped: at a rate far above what reindexing manages, the run reports a backlog."""
    root, _, _ = smoke_run
    version = SETTINGS["versions"][-1]
    settings = {**SETTINGS, "grid": {**SETTINGS["grid"], "rates": {"low": 10, "high": 1_000_000},
                                     "cells": [{"rate": "high", "interval": "short"}]},
                "corpora": {"big": SETTINGS["corpora"]["big"]}}
    job = layout.job_name(version, "big", "reindex")
    fork.run("dvupdate.measure", version, {"root": str(root), "version": version, "role": "big",
                                           "contender": "reindex", "job": job, "dvupdate": settings, "round": 0},
             tmp_path)
    reopens = results.derive(fork.tables(tmp_path)["reopens"], SETTINGS["behind_s"])
    measured = reopens[reopens["warmup"] == 0]
    assert (measured["due"] > measured["done"]).all()
    assert measured["behind"].all()
    assert not layout.scratch_dir(root, job).exists(), "the fork's index copy is removed"
