"""Recipe: the `pk` corpus — synthetic documents with a primary key and a text body, plus lookup keys.

Writes into OUT (atomically, as one folder):
  docs.tsv              one document per line: ``id<TAB>body``; the line number (0-based) is the row
  keys-miss<P>.tsv      lookup keys, ``key<TAB>expected_row`` (-1: not in the corpus), P = percent missing,
                        in batches of ``batch_size`` consecutive lines
  manifest.json         recipe, parameters, doc count, seed and sha256 of every file

Ids are zero-padded sequential numbers (``seq``, as in the seed: 00000000, 00000001, …), distinct random
numbers zero-padded to the same width (``rand``: same length, same alphabet, same count, only the shared
prefixes differ, which is what the seed says an FST gains from), or random version-4 UUIDs (``uuid``, the
seed author's example of "something more random", which is also 4.5 times as long). The body is
``body_words`` words on average drawn from a Zipf-distributed synthetic vocabulary, so the index holds
a real text field beside the ids. Everything derives from ``seed``: the same parameters give
byte-identical files.

    python data-recipes/pk_corpus.py --out runs/x/corpora/pk/seq --settings \
        '{"kind": "seq", "docs": 200000, "seed": 1, "body_words": 24, "batch_size": 4000, "key_batches": 10, "miss_rates": [0, 0.1]}'
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from tqdm import tqdm

from lrev import recipe
from lrev.io import atomic_dir, sha256_file, write_json

RECIPE = "pk_corpus/2"
KINDS = ("seq", "uuid", "rand")
VOCABULARY = 50_000
ZIPF_A = 1.2
CHUNK = 100_000
SYLLABLES = np.array(["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "an", "el", "or", "us", "ip", "qu", "dr"])


def seq_ids(start: int, stop: int, width: int) -> list[str]:
    return [str(i).zfill(width) for i in range(start, stop)]


def rand_ids(rng: np.random.Generator, count: int, width: int) -> list[str]:
    """``count`` distinct random numbers below 10^width, zero-padded to ``width``, in random order."""
    return [str(int(i)).zfill(width) for i in rng.choice(10 ** width, size=count, replace=False)]


def uuid_ids(rng: np.random.Generator, count: int) -> list[str]:
    """Random version-4 UUIDs in canonical 8-4-4-4-12 form."""
    raw = rng.integers(0, 256, size=(count, 16), dtype=np.uint8)
    raw[:, 6] = (raw[:, 6] & 0x0F) | 0x40  # version 4
    raw[:, 8] = (raw[:, 8] & 0x3F) | 0x80  # RFC 4122 variant
    hexes = raw.tobytes().hex()
    return [f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}" for h in (hexes[i:i + 32] for i in range(0, len(hexes), 32))]


def bodies(rng: np.random.Generator, words: np.ndarray, count: int, mean_words: int) -> list[str]:
    lengths = rng.poisson(mean_words - 1, size=count) + 1
    ranks = np.minimum(rng.zipf(ZIPF_A, size=int(lengths.sum())), len(words)) - 1
    tokens = words[ranks]
    ends = np.cumsum(lengths)
    return [" ".join(tokens[e - n:e]) for n, e in zip(lengths, ends)]


def write_docs(path: Path, kind: str, docs: int, body_words: int, rng: np.random.Generator) -> list[str]:
    """Stream docs.tsv chunk by chunk; return the ids in row order (the keys are sampled from them)."""
    width = id_width(docs)
    words = recipe.pseudo_words(SYLLABLES, VOCABULARY)
    drawn = rand_ids(rng, docs, width) if kind == "rand" else None
    ids: list[str] = []
    with path.open("w", encoding="utf-8", newline="\n") as out, tqdm(total=docs, unit="doc", desc=f"pk corpus {kind}") as bar:
        for start in range(0, docs, CHUNK):
            stop = min(docs, start + CHUNK)
            chunk_ids = (seq_ids(start, stop, width) if kind == "seq" else drawn[start:stop] if kind == "rand"
                         else uuid_ids(rng, stop - start))
            out.writelines(f"{i}\t{b}\n" for i, b in zip(chunk_ids, bodies(rng, words, stop - start, body_words)))
            ids.extend(chunk_ids)
            bar.update(stop - start)
    return ids


def id_width(docs: int) -> int:
    """Digits of a seq or rand id: at least 8 (the seed's), room for twice the corpus."""
    return max(8, len(str(docs * 2)))


def missing_ids(kind: str, ids: list[str], count: int, rng: np.random.Generator) -> list[str]:
    """Keys that are not in the corpus but look like its ids."""
    width = len(ids[0])
    if kind == "seq":
        return [str(len(ids) + int(i)).zfill(width) for i in rng.choice(len(ids) + count, size=count, replace=False)]
    taken = set(ids)
    out: list[str] = []
    while len(out) < count:
        # Draw more than needed: the few that fall on a corpus id, or on an earlier draw, are dropped.
        for key in rand_ids(rng, 2 * count, width) if kind == "rand" else uuid_ids(rng, 2 * count):
            if key not in taken:
                taken.add(key)
                out.append(key)
    return out[:count]


def write_keys(path: Path, kind: str, ids: list[str], total: int, miss_rate: float, rng: np.random.Generator) -> None:
    misses = int(round(total * miss_rate))
    hits = total - misses
    rows = rng.choice(len(ids), size=hits, replace=hits > len(ids))
    pairs = [(ids[r], int(r)) for r in rows] + [(k, -1) for k in missing_ids(kind, ids, misses, rng)]
    order = rng.permutation(len(pairs))
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.writelines(f"{pairs[i][0]}\t{pairs[i][1]}\n" for i in order)


def keys_name(miss_rate: float) -> str:
    return f"keys-miss{int(round(miss_rate * 100))}.tsv"


def build(out: Path, kind: str, docs: int, seed: int, body_words: int, batch_size: int, key_batches: int,
          miss_rates: list[float]) -> dict:
    params = dict(kind=kind, docs=docs, seed=seed, body_words=body_words, batch_size=batch_size,
                  key_batches=key_batches, miss_rates=sorted(miss_rates))
    with atomic_dir(out) as tmp:
        rng = np.random.default_rng([seed, KINDS.index(kind)])
        ids = write_docs(tmp / "docs.tsv", kind, docs, body_words, rng)
        for rate in params["miss_rates"]:
            write_keys(tmp / keys_name(rate), kind, ids, batch_size * key_batches, rate, rng)
        files = sorted(p.name for p in tmp.iterdir())
        manifest = dict(recipe=RECIPE, synthetic=True, parameters=params, docs=docs,
                        sha256={name: sha256_file(tmp / name) for name in files})
        write_json(tmp / "manifest.json", manifest)
    return manifest


#: The settings the recipe takes (lrev/recipe.py), as lrev/pk/layout.py's corpus_settings gives them.
SETTINGS = {"kind": {"enum": list(KINDS)}, "docs": recipe.POSITIVE, "seed": recipe.INTEGER, "body_words": recipe.POSITIVE,
            "batch_size": recipe.POSITIVE, "key_batches": recipe.POSITIVE,
            "miss_rates": {"type": "array", "minItems": 1,
                           "items": {"type": "number", "minimum": 0, "exclusiveMaximum": 1}}}


def main() -> None:
    a = recipe.parse(recipe.parser(__doc__.split("\n")[0]), SETTINGS)
    build(a.out, **a.settings)


if __name__ == "__main__":
    main()
