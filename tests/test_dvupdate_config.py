"""The `dvupdate` block of the config: bad input stops, before any work, with a message naming the key or value."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import assert_config_error, assert_snakemake_refuses
from lrev import config
from lrev.config import REPO
from lrev.dvupdate import layout, plan


@pytest.mark.parametrize("overrides, named", [
    ({"dvupdate": {"methods": {"4.10.4": ["reindex", "soft"]}}}, "dvupdate.methods.4.10.4"),
    ({"dvupdate": {"methods": {"10.6.0": ["reindex", "numeric", "reindx"]}}}, "reindx"),
    # A version the scale does not run is checked too (the default scale runs 4.10.4 and 10.6.0).
    ({"scale": "default", "dvupdate": {"methods": {"6.6.6": ["reindex", "soft"]}}}, "dvupdate.methods.6.6.6"),
    ({"dvupdate": {"methods": {"10.6.0": ["numeric"]}}}, "'reindex' must be a method"),
    ({"dvupdate": {"methods": {"10.6.0": ["reindex", "numerc"]}}}, "numerc"),
    # Lucene's DocValues overlays (max_doc_values_overlays) came in 10.6.0: an earlier version is named.
    ({"dvupdate": {"methods": {"9.12.3": ["reindex", "overlays-8"]}}},
     "'dvupdate.methods.9.12.3': Lucene 9.12.3 cannot run overlays-8"),
    ({"dvupdate": {"methods": {"10.6.0": ["reindex", "overlays-0"]}}}, "overlays-0"),
    ({"dvupdate": {"methods": {"10.6.0": ["reindex", "overlay"]}}}, "'overlay'"),
    ({"dvupdate": {"corpora": {"big": {"text": "real"}}}}, "dvupdate.corpora.big"),
    ({"dvupdate": {"corpora": {"medium": {"cells": ["high-never"]}}}}, "high-never"),
    # The default scale's long interval is 300 ms: ten reopens need 3 s.
    ({"dvupdate": {"max_measure_s": 2}}, "'dvupdate.max_measure_s': 2 s holds fewer than min_reopens (10)"),
    ({"dvupdate": {"measure_s": 7}}, "'dvupdate.max_measure_s': 6 s is shorter than measure_s"),
    ({"dvupdate": {"min_reopens": 1}}, "dvupdate.min_reopens"),
    ({"dvupdate": {"warmup_s": 2, "max_warmup_s": 1}}, "dvupdate.max_warmup_s"),
    ({"dvupdate": {"fork_warmup_s": -1}}, "dvupdate.fork_warmup_s"),
    ({"dvupdate": {"seconds": 25}}, "seconds"),
    ({"dvupdate": {"rounds": 1}}, "dvupdate.rounds"),
    ({"dvupdate": {"versions": ["4.10.4", "6.6.6"]}}, "dvupdate.methods"),
    # The size ladder (the default's big corpus has 20,000 documents; dvupdate-2 and -11 are fitted on it, numeric
    # against reindex in the low-rate cell, and dvupdate-3 in the high-rate, long-interval one).
    ({"dvupdate": {"ladder": {"docs": [6000, 2000]}}}, "dvupdate.ladder.docs"),
    ({"dvupdate": {"ladder": {"docs": [2000, 20000]}}}, "dvupdate.ladder.docs"),
    ({"dvupdate": {"ladder": {"docs": [500]}}}, "dvupdate.ladder.docs"),
    ({"dvupdate": {"ladder": {"docs": []}}}, "'dvupdate.ladder.docs': claims dvupdate-2, dvupdate-3, dvupdate-11"),
    ({"dvupdate": {"ladder": {"methods": ["numeric"]}}}, "'dvupdate.ladder.methods': 'reindex' must be one"),
    ({"dvupdate": {"ladder": {"methods": ["reindex", "binary"]}}},
     "'dvupdate.ladder.methods': dvupdate-2 is fitted on the ladder and compares numeric"),
    ({"dvupdate": {"ladder": {"cells": ["low-never"]}}}, "'dvupdate.ladder.cells': not in grid.cells: low-never"),
    ({"dvupdate": {"ladder": {"cells": ["high-short"]}}},
     "'dvupdate.ladder.cells': dvupdate-2 is fitted on the ladder in cell low-short"),
    ({"dvupdate": {"ladder": {"versions": ["9.12.3"]}}}, "'dvupdate.ladder.versions': 9.12.3 not among"),
])
def test_invalid_config_names_the_key_or_value(overrides, named):
    assert_config_error({"studies": ["dvupdate"], **overrides}, named)


@pytest.mark.parametrize("option", ["dvupdate={rounds: 1}", "dvupdate={measure_s: 0}"])
def test_snakemake_stops_before_any_work(tmp_path, option):
    assert_snakemake_refuses(tmp_path, ["studies=[dvupdate]", option])


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_every_scale_runs_the_cells_the_claims_name_on_both_corpora(scale):
    settings = config.load({"scale": scale, "studies": ["dvupdate"]}).study("dvupdate")
    big = {c["cell"] for c in layout.cells(settings, "big")}
    medium = {c["cell"] for c in layout.cells(settings, "medium")}
    assert {"high-short", "high-long", "low-short"} <= big
    assert {"high-short", "high-long"} <= medium
    for version in settings["versions"]:
        timed = layout.contenders(settings, version, "big")
        assert timed[-2:] == ["reindex-aa", "numeric-aa"] and {"reindex", "numeric", "binary"} <= set(timed)
        assert {"reindex", "numeric"} <= set(layout.contenders(settings, version, "medium"))


def test_a_ladder_on_one_version_forks_and_indexes_its_corpora_there_only():
    settings = config.load({"scale": "paper", "studies": ["dvupdate"]}).study("dvupdate")
    assert settings["ladder"]["versions"] == ["10.6.0"]
    rungs = [layout.ladder_role(n) for n in settings["ladder"]["docs"]]
    laddered = {(v, role) for v, role, _ in layout.jobs(settings) if role in rungs}
    assert laddered == {("10.6.0", role) for role in rungs}
    ladder_corpora = {layout.corpora(settings)[role] for role in rungs}
    assert {(v, c) for v, c in layout.indexes(settings) if c in ladder_corpora} == {
        ("10.6.0", c) for c in ladder_corpora}
    # The big and medium corpora are still indexed and timed on both versions.
    assert {v for v, role, _ in layout.jobs(settings) if role in ("big", "medium")} == set(settings["versions"])


def test_a_job_name_gives_back_its_version_role_and_contender():
    assert layout.parse_job(layout.job_name("10.6.0", "big", "reindex-aa")) == ("10.6.0", "big", "reindex-aa")


def test_a_dump_in_the_config_replaces_the_fragment_in_the_real_corpora(tmp_path):
    dump, sha1 = tmp_path / "enwiki-pages-articles1.xml.bz2", "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"
    done = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--printshellcmds", "--cores", "1",
                           "--config", f"outdir={tmp_path}", "scale=smoke", "studies=[dvupdate]",
                           f"dvupdate={{dump: {{url: {dump}, sha1: {sha1}}}}}"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    real = [line for line in done.stdout.splitlines() if line.startswith("Shell command:") and "dvupdate_wikipedia" in line]
    assert real and all(f'"dump": {{"url": "{dump}", "sha1": "{sha1}"}}' in line for line in real)


def test_methods_are_reported_in_order_with_lucenes_overlays_by_their_n():
    names = ["numeric-aa", "reindex-aa", "overlays-8", "numeric", "ram-buffer", "overlays-1", "reindex"]
    expected = ["reindex", "numeric", "ram-buffer", "overlays-1", "overlays-8", "reindex-aa", "numeric-aa"]
    assert layout.ordered(names) == expected
    assert layout.kind("overlays-8") == "overlays" and layout.kind("numeric") == "numeric"
    assert layout.UPDATES[layout.kind("overlays-1")] == ("lastmod",)


def test_the_seed_grid_costs_its_cells_against_the_run_s():
    settings = config.load({"scale": "paper"}).study("dvupdate")
    settings = {**settings, "warmup_s": 3, "measure_s": 5, "min_reopens": 10,
                "grid": {**settings["grid"], "intervals_ms": {"short": 500, "long": 2000},
                         "cells": [{"rate": "high", "interval": "short"}, {"rate": "high", "interval": "long"}]}}
    # Run: (3 + max(5, 5)) + (3 + max(5, 20)) = 31 s; seed, 4 rates of (5 + 30) + (5 + 30) + (5 + 50) s = 500 s.
    assert plan.seed_grid_factor(settings) == pytest.approx(500 / 31)


def test_a_ratio_is_gated_by_the_aa_of_its_methods_family():
    assert layout.aa_of("soft") == ("reindex-aa", "reindex") and layout.aa_of("reindex") == ("reindex-aa", "reindex")
    for name in ("numeric", "binary", "two-fields", "ram-buffer", "overlays-8", "numeric-aa"):
        assert layout.aa_of(name) == ("numeric-aa", "numeric")


def test_only_a_docvalues_methods_fork_waits_for_its_compilers_before_its_first_cell():
    settings = {"warmup_s": 3, "fork_warmup_s": 45}
    for name in ("numeric", "binary", "two-fields", "ram-buffer", "overlays-8", "numeric-aa"):
        assert layout.first_warmup_s(settings, name) == 45
    for name in ("reindex", "soft", "reindex-aa"):
        assert layout.first_warmup_s(settings, name) == 3
    # A fork's warm-up shorter than a cell's leaves the cell's.
    assert layout.first_warmup_s({"warmup_s": 3, "fork_warmup_s": 0}, "numeric") == 3


def test_the_ladder_repeats_the_big_recipe_in_one_segment_with_its_own_methods_and_cells():
    settings = config.load({"scale": "default", "studies": ["dvupdate"]}).study("dvupdate")
    ladder = settings["ladder"]
    roles = layout.roles(settings)
    assert list(roles)[:2] == ["big", "medium"]
    rungs = [layout.ladder_role(n) for n in ladder["docs"]]
    assert list(roles)[2:] == rungs
    for n, role in zip(ladder["docs"], rungs):
        assert layout.corpora(settings)[role] == f"synthetic-big-{n}" and layout.shape(role) == "big"
        assert layout.flush_docs(settings, role) == n, "a ladder corpus is flushed as one segment"
        assert [c["cell"] for c in layout.cells(settings, role)] == ladder["cells"]
        for version in settings["versions"]:
            assert layout.contenders(settings, version, role) == [
                m for m in settings["methods"][version] if m in ladder["methods"]]
    assert layout.flush_docs(settings, "big") == settings["flush_docs"] and layout.shape("medium") == "medium"
    # The plan reads a ladder corpus's size and shape from its folder name, and charges a ladder fork its cells.
    role = rungs[0]
    assert plan.docs(settings, "dvupdate_synthetic", {"corpus": f"synthetic-{role}"}) == ladder["docs"][0]
    assert plan.shape(f"synthetic-{role}") == "big" and plan.shape("real-medium") == "medium"
    # Its cells, high-long then low-short, each the least warm-up: reindexing falls behind at the high rate and is
    # charged max_measure_s there; numeric, and the low rate, measure_s or min_reopens of the interval, the longer.
    high, low = layout.cells(settings, role)
    assert (high["cell"], low["cell"]) == ("high-long", "low-short")
    keeping_up = {c["cell"]: settings["warmup_s"] + max(settings["measure_s"],
                                                        settings["min_reopens"] * c["interval_ms"] / 1000)
                  for c in (high, low)}
    assert plan.configured(settings, layout.job_name("10.6.0", role, "reindex")) == pytest.approx(
        settings["warmup_s"] + settings["max_measure_s"] + keeping_up["low-short"])
    assert plan.configured(settings, layout.job_name("10.6.0", role, "numeric")) == pytest.approx(
        keeping_up["high-long"] + keeping_up["low-short"])
