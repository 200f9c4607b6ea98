"""The dvjump corpus recipe: deterministic, exact query frequencies, the field traits the study relies on."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import load_recipe

DOCS = 40_000
BUCKETS = [0, 1, 2, 3, 4]


@pytest.fixture(scope="module")
def recipe():
    return load_recipe("dvjump_corpus")


@pytest.fixture(scope="module")
def corpus(recipe, tmp_path_factory):
    out = tmp_path_factory.mktemp("dvjump") / "full"
    manifest = recipe.build(out, DOCS, seed=5, buckets=BUCKETS, queries_per_bucket=3, export_fraction=0.0005)
    docs = pd.read_csv(out / "docs.tsv", sep="\t", dtype=str, keep_default_na=False)
    queries = pd.read_csv(out / "queries.tsv", sep="\t", names=["term", "df", "bucket"])
    return out, manifest, docs, queries


def test_same_seed_same_files_other_seed_other_files(recipe, corpus, tmp_path):
    _, manifest, _, _ = corpus
    again = recipe.build(tmp_path / "again", DOCS, seed=5, buckets=BUCKETS, queries_per_bucket=3, export_fraction=0.0005)
    other = recipe.build(tmp_path / "other", DOCS, seed=6, buckets=BUCKETS, queries_per_bucket=3, export_fraction=0.0005)
    assert again["sha256"] == manifest["sha256"]
    assert other["sha256"]["docs.tsv"] != manifest["sha256"]["docs.tsv"]
    assert manifest["synthetic"] is True and manifest["docs"] == DOCS


def test_every_query_term_has_exactly_its_document_frequency(corpus, recipe):
    _, manifest, docs, queries = corpus
    tokens = docs["text"].str.split(" ")
    for term, df in [*zip(queries["term"], queries["df"]), (recipe.EXPORT_TERM, round(DOCS * 0.0005))]:
        freq = tokens.map(lambda t: t.count(term))
        assert (freq > 0).sum() == df, term
        # The ranking's top: distinct frequencies 2, 3, ... in min(df, RANKED) records, once elsewhere.
        assert sorted(freq[freq > 1]) == list(range(2, 2 + min(df, recipe.RANKED))), term
    # Every bucket has its queries, their frequencies inside it.
    assert sorted(queries["bucket"].unique()) == BUCKETS
    assert ((queries["df"] >= 10 ** queries["bucket"]) & (queries["df"] < 10 ** (queries["bucket"] + 1))).all()


def test_fields_have_the_traits_the_study_needs(corpus, recipe):
    _, _, docs, _ = corpus
    assert list(docs.columns) == list(recipe.FIELDS)
    assert docs["id"].is_unique
    # Sorting by id reads records in an order unrelated to the docID (row) order.
    assert abs(np.corrcoef(np.arange(DOCS), docs["id"].rank())[0, 1]) < 0.05
    assert 0.75 < docs["url_norm"].nunique() / DOCS < 0.9
    assert (docs["url_norm"].str.split("/").str[2] == docs["host"]).all()
    assert docs["content_length"].astype(int).nunique() > 256  # not table-encoded
    lang = (docs["content_language"] != "").to_numpy()
    assert lang.any() and not lang[:1000].any() and lang.mean() < 0.5  # absent early, present later
    assert (docs.loc[lang, "content_type_norm"] == "html").all()
    years = docs["crawl_year"].astype(int).to_numpy()
    assert (np.diff(years) >= 0).all()  # crawl order


def test_a_bad_setting_is_named_and_writes_nothing(tmp_path):
    import json
    import subprocess
    import sys

    from lrev.config import REPO

    settings = {"docs": 100, "seed": 1, "buckets": [0], "queries_per_bucket": 3, "export_fraction": 0.0002}
    for change, named in (({"docs": 0}, "'docs'"), ({"buckets": [1, 0]}, "'buckets'"), ({"buckets": [0, 3]}, "'buckets'"),
                          ({"export_fraction": 0}, "'export_fraction'")):
        done = subprocess.run([sys.executable, str(REPO / "data-recipes" / "dvjump_corpus.py"), "--settings",
                               json.dumps({**settings, **change}), "--out", str(tmp_path / "x")],
                              capture_output=True, text=True)
        assert done.returncode != 0 and named in done.stderr and not (tmp_path / "x").exists(), change
