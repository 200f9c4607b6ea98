"""The join corpus recipe: deterministic, in the study's format, the seed's query first, bad arguments refused."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from lrev.config import REPO
from lrev.io import read_json, verify

from conftest import load_recipe

ARGS = dict(parents=3000, seed=7, children=5, words=30, share=1, acl_domain=2000, queries=20)


@pytest.fixture(scope="module")
def recipe():
    return load_recipe("join_corpus")


def rows(path):
    return [line.rstrip("\n").split("\t") for line in path.open(encoding="utf-8")]


def test_same_parameters_same_bytes(tmp_path, recipe):
    a = recipe.build(tmp_path / "a", **ARGS)
    b = recipe.build(tmp_path / "b", **ARGS)
    for name in ("docs.tsv", "queries.tsv", "manifest.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    c = recipe.build(tmp_path / "c", **{**ARGS, "seed": 8})
    assert c["sha256"]["docs.tsv"] != a["sha256"]["docs.tsv"]
    assert c["sha256"]["queries.tsv"] != a["sha256"]["queries.tsv"]
    verify(tmp_path / "a" / "manifest.json", a["sha256"])


def test_blocks_have_the_format_of_the_study(tmp_path, recipe):
    manifest = recipe.build(tmp_path / "x", **{**ARGS, "children": 3})
    docs = rows(tmp_path / "x" / "docs.tsv")
    assert len(docs) == ARGS["parents"] == manifest["parents"]
    assert manifest["children"] == 3 * ARGS["parents"] and manifest["docs"] == 4 * ARGS["parents"]
    assert [d[0] for d in docs[:3]] == ["00000000", "00000001", "00000002"]
    assert [d[0] for d in docs] == sorted(d[0] for d in docs)
    for parent_id, join_key, text, acl in docs:
        assert join_key == parent_id
        assert text and text == text.lower() and "  " not in text and text.strip() == text
        values = [int(v) for v in acl.split(",")]
        assert len(values) == 3 and all(0 <= v < ARGS["acl_domain"] for v in values)
    mean_words = sum(len(d[2].split(" ")) for d in docs) / len(docs)
    assert abs(mean_words - ARGS["words"]) < 1
    assert manifest["acl_match_fraction"] == pytest.approx(7 / 2000)
    words = {w for d in docs for w in d[2].split(" ")}
    assert {"patient", "autumn", "helen"} <= words
    for word, stats in manifest["seed_words"].items():
        assert stats["parents"] == sum(word in d[2].split(" ") for d in docs)


def test_share_groups_consecutive_parents_under_the_first_ones_id(tmp_path, recipe):
    manifest = recipe.build(tmp_path / "s", **{**ARGS, "parents": 10, "share": 4, "acl_domain": 7})
    docs = rows(tmp_path / "s" / "docs.tsv")
    assert [d[1] for d in docs] == ["00000000"] * 4 + ["00000004"] * 4 + ["00000008"] * 2
    assert manifest["join_keys"] == 3


def test_query_zero_is_the_seeds_and_the_others_are_alike(tmp_path, recipe):
    recipe.build(tmp_path / "q", **ARGS)
    queries = rows(tmp_path / "q" / "queries.tsv")
    assert len(queries) == ARGS["queries"]
    assert queries[0] == ["patient autumn helen", "1303", "1309"]
    for terms, lo, hi in queries[1:]:
        assert len(set(terms.split(" "))) == 3
        assert int(hi) - int(lo) == 6 and 0 <= int(lo) and int(hi) < ARGS["acl_domain"]


def test_a_small_domain_scales_the_seed_range_into_it(tmp_path, recipe):
    manifest = recipe.build(tmp_path / "d", **{**ARGS, "acl_domain": 100})
    lo, hi = (int(v) for v in rows(tmp_path / "d" / "queries.tsv")[0][1:])
    assert (hi - lo, manifest["seed_query"]["seed_range_scaled"]) == (6, True)
    assert 0 <= lo and hi < 100


@pytest.mark.parametrize("change, named", [
    ({"parents": 0}, "'parents'"),
    ({"children": 0}, "'children'"),
    ({"share": -1}, "'share'"),
    ({"words": 0}, "'words'"),
    ({"queries": 0}, "'queries'"),
    ({"acl_domain": 6}, "'acl_domain'"),
    ({"parents": 2, "children": 1}, "acl_domain"),  # the seed's range matches no child
    ({"queries": None}, "'queries' is a required property"),  # the recipe has no defaults
    ({"sed": 1}, "'sed' was unexpected"),
])
def test_bad_settings_stop_naming_the_setting_and_write_nothing(tmp_path, change, named):
    out = tmp_path / "out"
    settings = {**ARGS, "parents": 50, "seed": 1, "words": 5, **change}
    settings = {k: v for k, v in settings.items() if v is not None}
    cmd = [sys.executable, str(REPO / "data-recipes" / "join_corpus.py"), "--settings", json.dumps(settings),
           "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert named in done.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_writes_what_build_writes(tmp_path, recipe):
    recipe.build(tmp_path / "api", **ARGS)
    cmd = [sys.executable, str(REPO / "data-recipes" / "join_corpus.py"), "--settings", json.dumps(ARGS),
           "--out", str(tmp_path / "cli")]
    subprocess.run(cmd, check=True, capture_output=True, timeout=60)
    assert read_json(tmp_path / "cli" / "manifest.json") == read_json(tmp_path / "api" / "manifest.json")
