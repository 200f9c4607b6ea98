"""The pk corpus recipe: deterministic, correct keys, atomic output."""
from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

from lrev.config import REPO
from lrev.io import ChecksumError, read_json, sha256_file, verify

from conftest import load_recipe

ARGS = dict(docs=3000, seed=7, body_words=12, batch_size=100, key_batches=5, miss_rates=[0.0, 0.1])


@pytest.fixture(scope="module")
def pk_corpus_recipe():
    return load_recipe("pk_corpus")


def rows(path):
    return [line.rstrip("\n").split("\t") for line in path.open(encoding="utf-8")]


@pytest.mark.parametrize("kind", ["seq", "rand", "uuid"])
def test_same_seed_same_checksums(tmp_path, pk_corpus_recipe, kind):
    a = pk_corpus_recipe.build(tmp_path / "a", kind, **ARGS)
    b = pk_corpus_recipe.build(tmp_path / "b", kind, **ARGS)
    assert a["sha256"] == b["sha256"]
    c = pk_corpus_recipe.build(tmp_path / "c", kind, **{**ARGS, "seed": 8})
    assert c["sha256"]["docs.tsv"] != a["sha256"]["docs.tsv"]
    assert c["sha256"]["keys-miss0.tsv"] != a["sha256"]["keys-miss0.tsv"]


@pytest.mark.parametrize("kind", ["seq", "rand", "uuid"])
def test_keys_point_at_their_rows_and_misses_are_absent(tmp_path, pk_corpus_recipe, kind):
    out = tmp_path / kind
    manifest = pk_corpus_recipe.build(out, kind, **ARGS)
    docs = rows(out / "docs.tsv")
    assert len(docs) == ARGS["docs"] == manifest["docs"]
    ids = [d[0] for d in docs]
    assert len(set(ids)) == len(ids)
    assert all(len(d) == 2 and d[1] for d in docs)
    position = {k: i for i, k in enumerate(ids)}
    for rate in ARGS["miss_rates"]:
        keys = rows(out / pk_corpus_recipe.keys_name(rate))
        assert len(keys) == ARGS["batch_size"] * ARGS["key_batches"]
        misses = [k for k, row in keys if int(row) == -1]
        assert len(misses) == round(len(keys) * rate)
        assert all(k not in position for k in misses)
        assert all(position[k] == int(row) for k, row in keys if int(row) != -1)
        assert all(len(k) == len(ids[0]) for k, _ in keys)


def test_id_formats(tmp_path, pk_corpus_recipe):
    pk_corpus_recipe.build(tmp_path / "s", "seq", **ARGS)
    pk_corpus_recipe.build(tmp_path / "u", "uuid", **ARGS)
    assert [r[0] for r in rows(tmp_path / "s" / "docs.tsv")[:3]] == ["00000000", "00000001", "00000002"]
    ids = [r[0] for r in rows(tmp_path / "u" / "docs.tsv")]
    assert all(uuid.UUID(i).version == 4 and str(uuid.UUID(i)) == i for i in ids)


def test_rand_ids_differ_from_seq_ids_only_in_order_and_spacing(tmp_path, pk_corpus_recipe):
    # pk-3 compares the two: same count, same length, same alphabet; only the prefixes they share differ.
    pk_corpus_recipe.build(tmp_path / "s", "seq", **ARGS)
    pk_corpus_recipe.build(tmp_path / "r", "rand", **ARGS)
    seq, rand = ([r[0] for r in rows(tmp_path / k / "docs.tsv")] for k in "sr")
    assert len(rand) == len(seq) and {len(i) for i in rand} == {len(seq[0])} and all(i.isdigit() for i in rand)
    assert rand != sorted(rand) and len(set(rand) - set(seq)) > len(rand) // 2


def test_manifest_lists_every_file(tmp_path, pk_corpus_recipe):
    pk_corpus_recipe.build(tmp_path / "s", "seq", **ARGS)
    manifest = read_json(tmp_path / "s" / "manifest.json")
    assert set(manifest["sha256"]) == {"docs.tsv", "keys-miss0.tsv", "keys-miss10.tsv"}
    assert manifest["synthetic"] is True and manifest["parameters"]["seed"] == 7


def test_failed_build_leaves_nothing(tmp_path, pk_corpus_recipe, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(pk_corpus_recipe, "write_keys", boom)
    with pytest.raises(RuntimeError):
        pk_corpus_recipe.build(tmp_path / "s", "seq", **ARGS)
    assert list(tmp_path.iterdir()) == []


def test_an_edited_corpus_is_refused_before_indexing(tmp_path, pk_corpus_recipe):
    out = tmp_path / "seq"
    pk_corpus_recipe.build(out, "seq", **ARGS)
    docs = out / "docs.tsv"
    docs.write_text(docs.read_text().replace("\t", "\tedited ", 1))
    # The index step checks the corpus manifest before it starts a JVM or writes anything.
    done = subprocess.run([sys.executable, "-m", "lrev.pk.index", "--version", "9.12.3", "--corpus", str(out),
                           "--out", str(tmp_path / "idx"), "--segment-docs", "100", "--contenders", "default"],
                          cwd=REPO, capture_output=True, text=True)
    assert done.returncode != 0 and "docs.tsv" in done.stderr and "sha256" in done.stderr
    assert not (tmp_path / "idx").exists()


def test_verify_names_a_missing_or_changed_file(tmp_path):
    (tmp_path / "a.txt").write_text("a")
    manifest = tmp_path / "manifest.json"
    recorded = {"a.txt": sha256_file(tmp_path / "a.txt")}
    verify(manifest, recorded)
    (tmp_path / "a.txt").write_text("b")
    with pytest.raises(ChecksumError, match="a.txt"):
        verify(manifest, recorded)
    with pytest.raises(ChecksumError, match="missing"):
        verify(manifest, {"gone.txt": "0"})
