"""Shared by the `dvupdate` corpus recipes (dvupdate_wikipedia.py, dvupdate_synthetic.py): the line-doc
format, chunking, the choice of query terms, manifests, and where dumps are cached.

Not a recipe: data-recipes/ is no package, so the recipes put their own folder on ``sys.path`` and
import this module by name.
"""
from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterable, Mapping
from http.client import HTTPException
from pathlib import Path

import numpy as np
from tqdm import tqdm

from lrev.io import ChecksumError, atomic_path, sha256_file, write_json

FIELDS = ("id", "title", "modified", "body")
QUERIES = 32
#: Query terms match between these shares of the documents: common enough to hit many documents under
#: updates, rare enough that a search is not a scan.
QUERY_DF = (0.02, 0.20)
#: A real dump fragment that a package ships (206 pages of enwiki, 2016), for offline runs and CI.
FRAGMENT_WHEEL = "gensim==4.4.0"
FRAGMENT_MEMBER = "gensim/test/test_data/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
FRAGMENT_SHA256 = "a53f4648dec40467ebdcbc7a1307eddb51fe6e28e9309f6ebde81ba0d04bea2d"
DOWNLOAD_ATTEMPTS = 5
BLOCK = 1 << 20
#: Scripts written without spaces between words, by the prefix of their letters' Unicode names.
UNSPACED_SCRIPTS = ("THAI ", "LAO ", "KHMER ", "MYANMAR ", "TIBETAN ")
#: A plain word as StandardAnalyzer keeps it whole (an inner apostrophe included), lower-cased.
WORD = re.compile(r"\w+(?:'\w+)*")


class DumpError(ValueError):
    """A dump that cannot give a corpus: truncated, corrupt, without pages, or not downloadable."""


def cache_dir() -> Path:
    return Path(os.environ.get("LREV_CACHE") or "~/.cache/lucene-revisited").expanduser() / "wikipedia"


def normalise(text: str) -> str:
    """One line of single-space-separated words: no tab or newline can break the line-doc format."""
    return " ".join(text.split())


def query_terms(text: str) -> set[str]:
    """The terms of ``text`` that may be query terms: words of letters of any alphabet, at least 4 long, that
    StandardAnalyzer indexes whole and lower-cases as Python does. Left out: ideographs and scripts written
    without spaces (Unicode's word rules split those into characters or dictionary words, not our words), and
    words that case folding changes (ß folds to ss)."""
    return {t for t in WORD.findall(text.lower())
            if len(t) >= 4 and t.isalpha() and t == t.casefold() and not any(map(_unspaced, t))}


def _unspaced(char: str) -> bool:
    """A character of an ideographic script or of one written without spaces between words."""
    return (unicodedata.east_asian_width(char) in ("W", "F")
            or unicodedata.name(char, "").startswith(UNSPACED_SCRIPTS))


def choose_queries(df: Mapping[str, int], docs: int, where: Path) -> list[tuple[str, int]]:
    """QUERIES terms whose df lies in QUERY_DF of ``docs``, spread evenly over that range's terms
    ordered by (df, term), so the same counts always give the same choice."""
    lo, hi = math.ceil(QUERY_DF[0] * docs), math.floor(QUERY_DF[1] * docs)
    candidates = sorted((n, t) for t, n in df.items() if lo <= n <= hi)
    if len(candidates) < QUERIES:
        raise DumpError(f"{where}: only {len(candidates)} terms have a df in [{lo}, {hi}] of {docs} docs, "
                        f"{QUERIES} query terms are needed; use more documents")
    picks = np.linspace(0, len(candidates) - 1, QUERIES).round().astype(int)
    return [(candidates[i][1], candidates[i][0]) for i in picks]


def write_queries(path: Path, queries: list[tuple[str, int]]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.writelines(f"{term}\t{df}\n" for term, df in queries)


def chunk_bounds(word_lengths: np.ndarray, chunk_chars: int) -> np.ndarray:
    """Start indexes of the chunks of a text of words joined by single spaces: each chunk is the
    shortest run of words at least ``chunk_chars`` long (the last one may be shorter), so it is cut at
    a word boundary and exceeds ``chunk_chars`` by less than one word."""
    ends = np.cumsum(np.asarray(word_lengths) + 1)  # characters up to each word's trailing space
    starts, start = [], 0
    while start < len(ends):
        starts.append(start)
        base = ends[start - 1] if start else 0
        start = min(int(np.searchsorted(ends, base + chunk_chars + 1)) + 1, len(ends))
    return np.array(starts, dtype=np.int64)


def chunks(body: str, chunk_chars: int) -> list[str]:
    words = body.split(" ")
    starts = chunk_bounds(np.fromiter(map(len, words), dtype=np.int64, count=len(words)), chunk_chars)
    return [" ".join(words[a:b]) for a, b in zip(starts, [*starts[1:], len(words)])]


def write_manifest(folder: Path, **fields) -> dict:
    """manifest.json beside the corpus files, with the sha256 of each (``lrev.io.verify`` reads them)."""
    files = sorted(p.name for p in folder.iterdir())
    manifest = dict(fields, synthetic=fields["kind"] == "synthetic", fields=list(FIELDS),
                    sha256={name: sha256_file(folder / name) for name in files})
    write_json(folder / "manifest.json", manifest)
    return manifest


def fragment() -> Path:
    """The gensim wheel's enwiki fragment, from the cache, or fetched into it with pip (not installed)."""
    path = cache_dir() / Path(FRAGMENT_MEMBER).name
    if not path.exists():
        with tempfile.TemporaryDirectory() as tmp:
            pip = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                                  "--quiet", "-d", tmp, FRAGMENT_WHEEL])
            if pip.returncode:
                raise DumpError(f"{path}: absent, and pip could not download {FRAGMENT_WHEEL} to read it from")
            wheel = next(Path(tmp).glob("*.whl"))
            with zipfile.ZipFile(wheel) as z, z.open(FRAGMENT_MEMBER) as src, atomic_path(path) as dst:
                with dst.open("wb") as out:
                    shutil.copyfileobj(src, out, BLOCK)
    actual = sha256_file(path)
    if actual != FRAGMENT_SHA256:
        raise ChecksumError(f"{path}: sha256 {actual[:12]}… is not the {FRAGMENT_WHEEL} fragment's "
                            f"{FRAGMENT_SHA256[:12]}…; delete it to fetch it again")
    return path


def download(url: str, into: Path) -> Path:
    """``url`` as a file in ``into``, resumed with HTTP Range from a ``.part`` file after a broken
    connection or an interrupted run; a file already complete there is not fetched again."""
    target = into / Path(urllib.parse.urlsplit(url).path).name
    if target.exists():
        return target
    part = target.with_name(target.name + ".part")
    into.mkdir(parents=True, exist_ok=True)
    error = None
    for _ in range(DOWNLOAD_ATTEMPTS):
        try:
            if _fetch(url, part):
                break
        except urllib.error.HTTPError as e:
            if e.code == 416:  # the range starts at the file's end: it was complete
                break
            raise DumpError(f"{url}: HTTP {e.code} {e.reason}") from e
        except (urllib.error.URLError, HTTPException, OSError) as e:
            error = e  # a dropped connection: the next attempt resumes
    else:
        raise DumpError(f"{url}: still incomplete after {DOWNLOAD_ATTEMPTS} attempts (last error: {error}); "
                        f"{part} keeps what arrived, rerun to resume")
    part.rename(target)
    return target


def _fetch(url: str, part: Path) -> bool:
    """Append what the server sends past ``part``'s current size; True once the file is complete."""
    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    with urllib.request.urlopen(request, timeout=60) as response:
        if response.status != 206:
            have = 0  # the server ignored the range: start over
        size = response.headers.get("Content-Length")
        total = have + int(size) if size is not None else None
        with part.open("ab" if have else "wb") as out, \
                tqdm(total=total, initial=have, unit="B", unit_scale=True, desc=part.name) as bar:
            while block := response.read(BLOCK):
                out.write(block)
                bar.update(len(block))
    # http.client ends a body cut short without an error: only the length tells.
    return total is None or part.stat().st_size == total


def write_docs(path: Path, docs: Iterable[tuple[str, str, str, str]]) -> int:
    """docs.tsv: a header naming FIELDS, then one document per line. Returns the number of documents."""
    n = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write("\t".join(FIELDS) + "\n")
        for doc in docs:
            out.write("\t".join(doc) + "\n")
            n += 1
    return n
