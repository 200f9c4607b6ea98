"""Recipe: the `dvupdate` synthetic corpora — Wikipedia-like line docs at any scale, fitted on a real corpus.

SYNTHETIC. The seed's corpora held millions of English Wikipedia articles; a dump fragment holds a few
hundred. This recipe fits simple empirical distributions on a real corpus that dvupdate_wikipedia.py wrote
in shape ``big`` (checked against its manifest first), and draws as many articles as asked from them:

- body words from the unigram distribution of the real bodies' words, as they appear there (case and
  punctuation kept, so word forms, lengths and the analysed terms look real; word order does not);
- article lengths (words per article), title lengths (words) and title words from their empirical
  distributions;
- last-modified dates from the real ones, each moved by up to a week either way (``DATE_JITTER_S``)
  and kept inside the real range.

``big``: one document per article, ids 1, 2, … ``medium``: the articles cut into chunks as
dvupdate_wikipedia.py cuts them (at least ``chunk_chars`` characters, ending at a word boundary), ids
``<article>-<k>``, until there are ``docs`` chunks.

Writes into OUT (atomically, as one folder) the same files as dvupdate_wikipedia.py: docs.tsv,
queries.tsv (from the synthetic documents' own document frequencies) and manifest.json, whose kind is
``synthetic`` and which names the fitted corpus (its path below the run's root, and sha256s) and the fit's summary
statistics.

Everything derives from ``seed`` and the fitted corpus: the same inputs give byte-identical files.

    python data-recipes/dvupdate_synthetic.py --fit runs/x/corpora/dvupdate/real-big \\
        --settings '{"docs": 1000000, "shape": "big", "seed": 1, "chunk_chars": 1000}' \\
        --out runs/x/corpora/dvupdate/synthetic-big
"""
from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dvupdate_common as common  # noqa: E402  (data-recipes/ is no package)
from lrev import recipe  # noqa: E402
from lrev.io import ChecksumError, atomic_dir, read_json, verify  # noqa: E402

RECIPE = "dvupdate_synthetic/2"  # 2: query terms of any alphabet
SHAPES = ("big", "medium")
#: Articles drawn at a time: enough for numpy to pay, few enough to keep a batch's words in memory.
BATCH = 2_000
DATE_JITTER_S = 7 * 86_400
#: Cells of the (document, term) presence matrix that counts document frequencies, 64 MB.
PRESENCE_CELLS = 1 << 26


class FitError(ValueError):
    """The folder to fit on is no real corpus of shape big."""


@dataclass
class Distribution:
    """An empirical distribution of strings: values by decreasing count, and the cumulative counts."""
    values: np.ndarray
    cumulative: np.ndarray

    @classmethod
    def of(cls, counts: Counter) -> Distribution:
        ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return cls(np.array([v for v, _ in ordered], dtype=object),
                   np.cumsum([n for _, n in ordered], dtype=np.int64))

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` value indexes; integer draws, so the same seed gives the same words on every machine."""
        return np.searchsorted(self.cumulative, rng.integers(0, self.cumulative[-1], size=n), side="right")


@dataclass
class Fit:
    words: Distribution
    lengths: np.ndarray  # words per article
    titles: Distribution
    title_lengths: np.ndarray
    dates: np.ndarray  # seconds since the epoch
    source: dict

    @property
    def date_range(self) -> tuple[int, int]:
        return int(self.dates.min()), int(self.dates.max())

    def summary(self) -> dict:
        return dict(articles=len(self.lengths), words=int(self.words.cumulative[-1]),
                    vocabulary=len(self.words.values), length_mean=float(self.lengths.mean()),
                    length_median=float(np.median(self.lengths)), title_vocabulary=len(self.titles.values),
                    title_length_mean=float(self.title_lengths.mean()),
                    modified=_iso(np.array(self.date_range)))


def _iso(seconds: np.ndarray) -> list[str]:
    return [f"{s}Z" for s in np.datetime_as_string(seconds.astype("datetime64[s]"), unit="s")]


def fit(folder: Path) -> Fit:
    """The distributions of ``folder``'s real corpus, read after checking it against its manifest."""
    manifest = read_json(folder / "manifest.json")
    if manifest.get("kind") != "real" or manifest.get("shape") != "big":
        raise FitError(f"{folder}: fits need a real corpus of shape big (dvupdate_wikipedia.py --shape big), "
                       f"this one is {manifest.get('kind')} {manifest.get('shape')}")
    verify(folder / "manifest.json", manifest["sha256"])
    words, titles, lengths, title_lengths, dates = Counter(), Counter(), [], [], []
    with (folder / "docs.tsv").open(encoding="utf-8") as f:
        next(f)  # the header
        for line in tqdm(f, total=manifest["docs"], unit="doc", desc=f"fit {folder.name}"):
            _, title, modified, body = line.rstrip("\n").split("\t")
            body_words, title_words = body.split(" "), title.split(" ")
            words.update(body_words)
            titles.update(title_words)
            lengths.append(len(body_words))
            title_lengths.append(len(title_words))
            dates.append(modified.rstrip("Z"))
    # The path below the run's root (corpora/dvupdate/<corpus>): where the run lies is the building machine's.
    source = dict(path="/".join(folder.resolve().parts[-3:]), recipe=manifest["recipe"],
                  docs=manifest["docs"], sha256=manifest["sha256"]["docs.tsv"], dump=manifest["source"])
    return Fit(Distribution.of(words), np.array(lengths), Distribution.of(titles), np.array(title_lengths),
               np.array(dates, dtype="datetime64[s]").astype(np.int64), source)


class TermCounter:
    """Document frequencies of the query-eligible terms, counted on word indexes with numpy: each
    vocabulary word maps to the terms the analyser finds in it (usually none or one), as a CSR table."""

    def __init__(self, vocabulary: np.ndarray):
        ids: dict[str, int] = {}
        per_word = [[ids.setdefault(t, len(ids)) for t in sorted(common.query_terms(w))] for w in vocabulary]
        self.terms = list(ids)
        self.indptr = np.concatenate([[0], np.cumsum([len(t) for t in per_word])]).astype(np.int64)
        self.indices = np.array([t for ts in per_word for t in ts], dtype=np.int64)
        self.df = np.zeros(len(self.terms), dtype=np.int64)

    def add(self, words: np.ndarray, unit_lengths: np.ndarray) -> None:
        """Count the documents made of ``words`` cut into consecutive runs of ``unit_lengths``."""
        unit = np.repeat(np.arange(len(unit_lengths)), unit_lengths)
        per_word = self.indptr[words + 1] - self.indptr[words]
        n = per_word.sum()
        within = np.arange(n) - np.repeat(np.cumsum(per_word) - per_word, per_word)
        term = self.indices[np.repeat(self.indptr[words], per_word) + within]
        unit = np.repeat(unit, per_word)
        # A term counts once per document: mark (document, term) in a presence matrix, some documents at a
        # time to bound its size (np.unique of the pairs took 70% of the run).
        step = max(1, PRESENCE_CELLS // max(1, len(self.terms)))
        seen = np.zeros((step, len(self.terms)), dtype=bool)
        bounds = np.searchsorted(unit, np.arange(0, len(unit_lengths) + step, step))
        for first, (a, b) in zip(range(0, len(unit_lengths), step), zip(bounds, bounds[1:])):
            seen[:] = False
            seen[unit[a:b] - first, term[a:b]] = True
            self.df += seen.sum(axis=0)

    def counts(self) -> dict[str, int]:
        return {self.terms[i]: int(self.df[i]) for i in np.flatnonzero(self.df)}


def _articles(model: Fit, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    """``n`` articles: their words (vocabulary indexes, end to end), where each starts (and the end), and
    their titles and dates."""
    lengths = model.lengths[rng.integers(0, len(model.lengths), size=n)]
    words = model.words.draw(rng, int(lengths.sum()))
    title_lengths = model.title_lengths[rng.integers(0, len(model.title_lengths), size=n)]
    title_words = model.titles.values[model.titles.draw(rng, int(title_lengths.sum()))].tolist()
    title_starts = np.concatenate([[0], np.cumsum(title_lengths)])
    titles = [" ".join(title_words[a:b]) for a, b in zip(title_starts, title_starts[1:])]
    jitter = rng.integers(-DATE_JITTER_S, DATE_JITTER_S + 1, size=n)
    dates = model.dates[rng.integers(0, len(model.dates), size=n)] + jitter
    return words, np.concatenate([[0], np.cumsum(lengths)]), titles, _iso(np.clip(dates, *model.date_range))


def _documents(shape: str, words: np.ndarray, starts: np.ndarray, word_lengths: np.ndarray, chunk_chars: int,
               first_id: int) -> list[tuple[str, int, int, int]]:
    """(id, article, first word, end word) of each document the articles make, in order."""
    if shape == "big":
        return [(str(first_id + i), i, a, b) for i, (a, b) in enumerate(zip(starts, starts[1:]))]
    docs = []
    for i, (a, b) in enumerate(zip(starts, starts[1:])):
        cuts = [*(common.chunk_bounds(word_lengths[words[a:b]], chunk_chars) + a), b]
        docs.extend((f"{first_id + i}-{k}", i, s, e) for k, (s, e) in enumerate(zip(cuts, cuts[1:])))
    return docs


def generate(model: Fit, docs: int, shape: str, chunk_chars: int, rng: np.random.Generator,
             counter: TermCounter) -> Iterator[tuple[str, str, str, str]]:
    word_lengths = np.fromiter(map(len, model.words.values), dtype=np.int64, count=len(model.words.values))
    done, articles = 0, 0
    with tqdm(total=docs, unit="doc", desc=f"synthetic {shape}") as bar:
        while done < docs:
            n = min(BATCH, docs - done) if shape == "big" else BATCH
            words, starts, titles, dates = _articles(model, n, rng)
            batch = _documents(shape, words, starts, word_lengths, chunk_chars, articles + 1)[:docs - done]
            end = batch[-1][3]
            counter.add(words[:end], np.array([e - s for _, _, s, e in batch]))
            text = model.words.values[words[:end]].tolist()
            for doc_id, i, s, e in batch:
                yield doc_id, titles[i], dates[i], " ".join(text[s:e])
            done += len(batch)
            articles += n
            bar.update(len(batch))


def build(out: Path, fit_on: Path, docs: int, shape: str, seed: int, chunk_chars: int) -> dict:
    model = fit(fit_on)
    params = dict(docs=docs, shape=shape, seed=seed, chunk_chars=chunk_chars)
    counter = TermCounter(model.words.values)
    with atomic_dir(out) as tmp:
        rng = np.random.default_rng(seed)
        written = common.write_docs(tmp / "docs.tsv", generate(model, docs, shape, chunk_chars, rng, counter))
        common.write_queries(tmp / "queries.tsv", common.choose_queries(counter.counts(), written, out))
        return common.write_manifest(tmp, recipe=RECIPE, kind="synthetic", shape=shape, source=model.source,
                                     fit=model.summary(), docs=written, parameters=params, queries=common.QUERIES)


#: The settings the recipe takes (lrev/recipe.py), as lrev/dvupdate/layout.py's synthetic_settings gives them.
SETTINGS = {"docs": recipe.POSITIVE, "shape": {"enum": list(SHAPES)}, "seed": recipe.INTEGER,
            "chunk_chars": recipe.POSITIVE}


def main() -> None:
    ap = recipe.parser(__doc__.split("\n")[0])
    ap.add_argument("--fit", type=Path, required=True, help="a real corpus folder of shape big")
    a = recipe.parse(ap, SETTINGS)
    try:
        build(a.out, a.fit, **a.settings)
    except (FitError, ChecksumError, common.DumpError) as e:
        sys.exit(f"error: {e}")


if __name__ == "__main__":
    main()
