"""Recipe: the `join` corpus — synthetic parents with text and children with an acl value, plus queries.

Labelled synthetic: nothing here is real text. Writes into OUT (atomically, as one folder):
  docs.tsv       one block per line: ``parent_id<TAB>join_key<TAB>text<TAB>acl_0,acl_1,...`` (the block's
                 children in order; child i has id ``<parent_id>-<i>``)
  queries.tsv    ``term1 term2 term3<TAB>acl_lo<TAB>acl_hi`` (inclusive range), query 0 the seed's
  manifest.json  recipe, parameters, counts, seed, the query words' frequencies, sha256 of every file

Parent text is ``--words`` words on average (Poisson), drawn from a Zipf distribution (exponent 1, as
English roughly follows) over a vocabulary of 50,000 words: pseudo-words spelled from syllables, except
the seed's query words, placed at ranks with realistic English frequencies:

  patient  rank 1500  per-word probability 5.8e-5 (English: about 5e-5)
  autumn   rank 3500  2.5e-5 (about 2e-5)
  helen    rank 4000  2.2e-5 (about 2e-5)

A word of per-word probability p is in a fraction 1 - exp(-words * p) of the parents: at the default 300
words, 1.7%, 0.75% and 0.65% of them (the manifest records these expectations and the counts in the
written corpus). The other queries draw 3 distinct words from ranks 1,000 to 4,999, the same band.

Children draw ``acl`` uniformly from 0 .. acl_domain-1, so a range of width w matches a fraction
w/acl_domain of the children at every scale (``acl_match_fraction`` in the manifest, for width 7), and a
parent with c children has one in range with probability 1 - (1 - w/acl_domain)^c. The seed's query is
``patient autumn helen`` with ``acl:[1303 TO 1309]``; with an acl domain of 1309 or less that range is
scaled into the domain (``seed_range_scaled`` in the manifest). The other queries' ranges have the same
width at a random offset.

``share`` k makes k consecutive parents share a join_key (the "unique join values" sweep): the key of a
group is the id of its first parent, so k=1 gives join_key == parent_id. Everything derives from
``seed`` (one random stream each for text, acl and queries): the same parameters give byte-identical files.

    python data-recipes/join_corpus.py --out runs/x/corpora/join/p100k --settings \
        '{"parents": 100000, "seed": 1, "children": 5, "words": 40, "share": 1, "acl_domain": 2000, "queries": 100}'
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from tqdm import tqdm

from lrev import recipe
from lrev.io import atomic_dir, sha256_file, write_json

RECIPE = "join_corpus/1"
VOCABULARY = 50_000
ZIPF_EXPONENT = 1.0
SEED_WORDS = {"patient": 1500, "autumn": 3500, "helen": 4000}
SEED_RANGE = (1303, 1309)
SEED_DOMAIN = 2000  # the seed's acl values lie below this (its range is 1303..1309)
RANGE_WIDTH = SEED_RANGE[1] - SEED_RANGE[0] + 1
QUERY_BAND = (1000, 5000)  # vocabulary ranks [lo, hi) the other queries draw their words from
CHUNK = 10_000  # parents per chunk
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "an", "el", "or", "us", "ip", "qu", "dr"]
STREAM_TEXT, STREAM_ACL, STREAM_QUERIES = 0, 1, 2


class RecipeError(ValueError):
    """Parameters the recipe refuses; the message names the argument."""


def vocabulary() -> np.ndarray:
    """Words by rank (0 = most frequent): pseudo-words (the rank's base-16 digits as syllables), with
    the seed's query words at their ranks."""
    words = recipe.pseudo_words(SYLLABLES, VOCABULARY)
    if set(words) & set(SEED_WORDS):
        raise AssertionError("a pseudo-word spells a seed query word")
    for word, rank in SEED_WORDS.items():
        words[rank] = word
    return words


def word_probabilities() -> np.ndarray:
    weights = 1.0 / np.arange(1, VOCABULARY + 1, dtype=np.float64) ** ZIPF_EXPONENT
    return weights / weights.sum()


def seed_range(domain: int) -> tuple[tuple[int, int], bool]:
    """The seed's acl range, scaled into [0, domain) when the domain does not hold it."""
    if domain > SEED_RANGE[1]:
        return SEED_RANGE, False
    lo = min(domain - RANGE_WIDTH, int(SEED_RANGE[0] * domain / SEED_DOMAIN))
    return (lo, lo + RANGE_WIDTH - 1), True


def check(parents: int, children: int, words: int, share: int, acl_domain: int, queries: int) -> None:
    for name, value in (("parents", parents), ("children", children), ("words", words), ("share", share),
                        ("queries", queries)):
        if value <= 0:
            raise RecipeError(f"{name} must be >= 1, got {value}")
    if acl_domain < RANGE_WIDTH:
        raise RecipeError(f"acl_domain must be >= {RANGE_WIDTH} (a query's range is {RANGE_WIDTH} wide), "
                          f"got {acl_domain}")


def write_docs(path: Path, parents: int, children: int, words: int, share: int, acl_domain: int,
               seed: int) -> tuple[dict, int]:
    """Stream docs.tsv chunk by chunk; return the parents containing each seed word and the children
    whose acl lies in the seed's range."""
    width = max(8, len(str(parents)))
    vocab = vocabulary()
    cdf = np.cumsum(word_probabilities())
    cdf[-1] = 1.0
    seed_ranks = np.array(list(SEED_WORDS.values()))
    (lo, hi), _ = seed_range(acl_domain)
    text_rng = np.random.default_rng([seed, STREAM_TEXT])
    acl_rng = np.random.default_rng([seed, STREAM_ACL])
    with_word = np.zeros(len(seed_ranks), dtype=np.int64)
    in_range = 0
    with path.open("w", encoding="utf-8", newline="\n") as out, \
            tqdm(total=parents, unit="parent", desc="join corpus", disable=parents < 10 * CHUNK) as bar:
        for start in range(0, parents, CHUNK):
            stop = min(parents, start + CHUNK)
            count = stop - start
            lengths = text_rng.poisson(words - 1, size=count) + 1
            ranks = np.searchsorted(cdf, text_rng.random(int(lengths.sum())), side="right")
            starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
            with_word += np.logical_or.reduceat(ranks[:, None] == seed_ranks[None, :], starts, axis=0).sum(axis=0)
            tokens = vocab[ranks]
            acls = acl_rng.integers(0, acl_domain, size=(count, children))
            in_range += int(((acls >= lo) & (acls <= hi)).sum())
            acl_text = [",".join(row) for row in acls.astype(str).tolist()]
            ids = [str(i).zfill(width) for i in range(start, stop)]
            keys = [str(i - i % share).zfill(width) for i in range(start, stop)]
            out.writelines(f"{ids[j]}\t{keys[j]}\t{' '.join(tokens[s:s + n])}\t{acl_text[j]}\n"
                           for j, (s, n) in enumerate(zip(starts, lengths)))
            bar.update(count)
    return dict(zip(SEED_WORDS, with_word.tolist())), in_range


def write_queries(path: Path, count: int, acl_domain: int, seed: int) -> None:
    vocab = vocabulary()
    rng = np.random.default_rng([seed, STREAM_QUERIES])
    (lo, hi), _ = seed_range(acl_domain)
    lines = [f"{' '.join(SEED_WORDS)}\t{lo}\t{hi}\n"]
    for _ in range(count - 1):
        terms = vocab[rng.choice(np.arange(*QUERY_BAND), size=3, replace=False)]
        start = int(rng.integers(0, acl_domain - RANGE_WIDTH + 1))
        lines.append(f"{' '.join(terms)}\t{start}\t{start + RANGE_WIDTH - 1}\n")
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.writelines(lines)


def build(out: Path, parents: int, seed: int, children: int, words: int, share: int, acl_domain: int,
          queries: int) -> dict:
    """Writes the corpus into ``out`` (nothing at all on bad parameters) and returns its manifest."""
    check(parents, children, words, share, acl_domain, queries)
    params = dict(parents=parents, children=children, words=words, share=share, acl_domain=acl_domain,
                  queries=queries, seed=seed)
    (lo, hi), scaled = seed_range(acl_domain)
    probabilities = word_probabilities()
    with atomic_dir(out) as tmp:
        with_word, in_range = write_docs(tmp / "docs.tsv", parents, children, words, share, acl_domain, seed)
        if in_range == 0:
            raise RecipeError(
                f"the seed's range acl:[{lo} TO {hi}] matches none of the {parents * children} children: "
                f"raise parents or children, or lower acl_domain ({acl_domain})")
        write_queries(tmp / "queries.tsv", queries, acl_domain, seed)
        files = sorted(p.name for p in tmp.iterdir())
        fraction = RANGE_WIDTH / acl_domain
        manifest = dict(
            recipe=RECIPE, synthetic=True, parameters=params, seed=seed,
            parents=parents, children=parents * children, docs=parents * (children + 1),
            join_keys=-(-parents // share),
            vocabulary=dict(size=VOCABULARY, zipf_exponent=ZIPF_EXPONENT, query_band=list(QUERY_BAND)),
            seed_query=dict(terms=list(SEED_WORDS), acl_lo=lo, acl_hi=hi, seed_range_scaled=scaled),
            seed_words={w: dict(rank=r, word_probability=float(probabilities[r]),
                                expected_parent_fraction=float(1 - np.exp(-words * probabilities[r])),
                                parents=with_word[w])
                        for w, r in SEED_WORDS.items()},
            acl_match_fraction=fraction,
            parent_match_fraction=1 - (1 - fraction) ** children,
            seed_range_children=in_range,
            sha256={name: sha256_file(tmp / name) for name in files})
        write_json(tmp / "manifest.json", manifest)
    return manifest


#: The settings the recipe takes (lrev/recipe.py), as lrev/join/layout.py's corpus_settings gives them.
SETTINGS = {"parents": recipe.POSITIVE, "seed": recipe.INTEGER, "children": recipe.POSITIVE, "words": recipe.POSITIVE,
            "share": recipe.POSITIVE, "acl_domain": {"type": "integer", "minimum": RANGE_WIDTH}, "queries": recipe.POSITIVE}


def main() -> None:
    ap = recipe.parser(__doc__.split("\n")[0])
    a = recipe.parse(ap, SETTINGS)
    try:
        build(a.out, **a.settings)
    except RecipeError as e:
        ap.error(str(e))


if __name__ == "__main__":
    main()
