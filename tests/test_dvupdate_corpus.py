"""The dvupdate corpus recipes: plain-text line docs of the real enwiki fragment in both shapes, a resumed
download, bad dumps refused by name with no corpus left, and the synthetic corpus fitted on the real one."""
from __future__ import annotations

import bz2
import hashlib
import json
import http.server
import re
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO, load_recipe
from lrev.io import verify

ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
CHUNK = 1000


@pytest.fixture(scope="module")
def wiki():
    return load_recipe("dvupdate_wikipedia")


@pytest.fixture(scope="module")
def synthetic():
    return load_recipe("dvupdate_synthetic")


@pytest.fixture(scope="module")
def fragment(wiki) -> Path:
    return wiki.common.fragment()


@pytest.fixture(scope="module")
def real(wiki, tmp_path_factory):
    """The fragment in both shapes: {shape: (folder, manifest, docs)}."""
    root = tmp_path_factory.mktemp("dvupdate")
    return {shape: (root / shape, manifest, read_docs(root / shape))
            for shape in ("big", "medium")
            for manifest in [wiki.build(root / shape, shape, dump=None, chunk_chars=CHUNK)]}


@pytest.fixture(scope="module")
def fake(synthetic, real, tmp_path_factory):
    """Synthetic corpora fitted on the real big one: big, big again, big with another seed, and medium."""
    root, fit_on = tmp_path_factory.mktemp("synthetic"), real["big"][0]
    runs = dict(big=(300, "big", 3), again=(300, "big", 3), other=(300, "big", 4), medium=(2000, "medium", 3))
    return {name: (root / name, synthetic.build(root / name, fit_on, docs, shape, seed, CHUNK), read_docs(root / name))
            for name, (docs, shape, seed) in runs.items()}


def read_docs(folder: Path) -> list[list[str]]:
    lines = (folder / "docs.tsv").read_text(encoding="utf-8").split("\n")
    assert lines[0] == "id\ttitle\tmodified\tbody" and lines[-1] == ""
    return [line.split("\t") for line in lines[1:-1]]


def assert_queries_match(folder: Path, docs: list[list[str]], common) -> None:
    """32 query terms, each with its exact df among the documents, within [2%, 20%] of them."""
    terms = [line.split("\t") for line in (folder / "queries.tsv").read_text().splitlines()]
    assert len(terms) == 32 and len({t for t, _ in terms}) == 32
    analysed = [common.query_terms(body) for *_, body in docs]
    for term, df in terms:
        assert term.isalpha() and term == term.casefold() and len(term) >= 4
        assert int(df) == sum(term in a for a in analysed), term
        assert 0.02 * len(docs) <= int(df) <= 0.2 * len(docs), term


def test_fragment_gives_plain_text_articles(real, wiki):
    folder, manifest, docs = real["big"]
    verify(folder / "manifest.json", manifest["sha256"])
    assert manifest["kind"] == "real" and manifest["synthetic"] is False and manifest["docs"] == len(docs) > 100
    assert manifest["source"]["sha256"] == wiki.common.FRAGMENT_SHA256
    assert len({d[0] for d in docs}) == len(docs)
    for page_id, title, modified, body in docs:
        assert page_id.isdigit() and title and body == " ".join(body.split()), page_id
        assert ISO_UTC.fullmatch(modified) and np.datetime64(modified.rstrip("Z")) <= np.datetime64("2016-06-01")
        assert "[[" not in body and "{{" not in body and "<ref" not in body and "thumb|" not in body, title
    assert_queries_match(folder, docs, wiki.common)


def test_medium_chunks_articles_at_word_boundaries(real, wiki):
    (folder, manifest, chunks), (_, _, articles) = real["medium"], real["big"]
    assert manifest["shape"] == "medium" and manifest["docs"] == len(chunks) > len(articles)
    by_page: dict[str, list[list[str]]] = {}
    for chunk in chunks:
        page_id, k = chunk[0].split("-")
        assert int(k) == len(by_page.setdefault(page_id, []))  # ids <pageid>-0, -1, … in order
        by_page[page_id].append(chunk)
    for page_id, title, modified, body in articles:
        parts = by_page[page_id]
        assert {(c[1], c[2]) for c in parts} == {(title, modified)}
        assert " ".join(c[3] for c in parts) == body  # cut at spaces, nothing lost
        for c in parts:
            words = c[3].split(" ")
            assert len(c[3]) - len(words[-1]) - 1 < CHUNK  # over the size by less than its last word
        assert all(len(c[3]) >= CHUNK for c in parts[:-1])
    assert_queries_match(folder, chunks, wiki.common)


def test_same_dump_same_files(real, wiki, tmp_path):
    again = wiki.build(tmp_path / "again", "big", dump=None, chunk_chars=CHUNK)
    assert again == real["big"][1]


def test_a_broken_download_resumes_with_a_range_request(fragment, wiki, tmp_path):
    data = fragment.read_bytes()
    ranges = []

    class CutOnce(http.server.BaseHTTPRequestHandler):
        """Serves the fragment with Range support; its first answer stops half-way, as a dropped
        connection does."""

        def do_GET(self):
            ranges.append(self.headers.get("Range"))
            start = int(self.headers["Range"][len("bytes="):-1]) if self.headers.get("Range") else 0
            body = data[start:]
            self.send_response(206 if start else 200)
            if start:
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:len(body) // 2] if len(ranges) == 1 else body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), CutOnce)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/dumps/{fragment.name}"
        got = wiki.common.download(url, tmp_path / "cache")
    finally:
        server.shutdown()
        server.server_close()
    assert got == tmp_path / "cache" / fragment.name and not list((tmp_path / "cache").glob("*.part"))
    assert hashlib.sha256(got.read_bytes()).hexdigest() == wiki.common.FRAGMENT_SHA256
    assert ranges == [None, f"bytes={len(data) // 2}-"]


def _no_pages(fragment: Path, path: Path) -> Path:
    """A well-formed dump of the same site, with its siteinfo and no page."""
    xml = bz2.decompress(fragment.read_bytes()).decode()
    path.write_bytes(bz2.compress((xml[:xml.index("<page>")] + "</mediawiki>\n").encode()))
    return path


def _no_siteinfo(fragment: Path, path: Path) -> Path:
    """The same pages without <siteinfo>, as an export of single pages can come."""
    xml = bz2.decompress(fragment.read_bytes()).decode()
    path.write_bytes(bz2.compress((xml[:xml.index("<siteinfo>")] + xml[xml.index("</siteinfo>") + 11:]).encode()))
    return path


@pytest.mark.parametrize("case", ["truncated", "wrong sha1", "no pages", "no siteinfo"])
def test_a_bad_dump_stops_naming_it_and_leaves_no_corpus(case, fragment, tmp_path):
    if case == "no siteinfo":
        dump, extra = _no_siteinfo(fragment, tmp_path / "export.xml.bz2"), {}
    elif case == "truncated":
        dump = tmp_path / "half.xml.bz2"
        dump.write_bytes(fragment.read_bytes()[:fragment.stat().st_size // 2])
        extra = {}
    elif case == "wrong sha1":
        dump, extra = fragment, {"sha1": "0" * 40}
    else:
        dump, extra = _no_pages(fragment, tmp_path / "empty.xml.bz2"), {}
    out = tmp_path / "out"
    settings = {"shape": "big", "chunk_chars": CHUNK, "dump": {"url": str(dump), **extra}}
    done = subprocess.run([sys.executable, str(REPO / "data-recipes" / "dvupdate_wikipedia.py"), "--settings",
                           json.dumps(settings), "--out", str(out)], capture_output=True, text=True)
    assert done.returncode != 0 and str(dump) in done.stderr.splitlines()[-1], done.stderr[-2000:]
    assert "Traceback" not in done.stderr and not out.exists() and list(tmp_path.glob(".out*")) == []
    if case == "no siteinfo":
        assert "no <siteinfo>" in done.stderr.splitlines()[-1]


#: Made-up Bulgarian words: two to four syllables of Cyrillic letters.
SYLLABLES = ["ба", "ве", "ги", "до", "жу", "зе", "ки", "ло", "му", "не", "по", "ру", "ст", "тя", "фи", "цъ", "ше", "юл"]


def _bulgarian(fragment: Path, path: Path, encoding: str) -> Path:
    """A bgwiki-like dump: the fragment's <siteinfo> with bgwiki's names for File and Category, and 150 articles
    of Cyrillic words at shares of 1-30% of the articles, with file and category links in both the wiki's own
    namespace names and the canonical English ones."""
    xml = bz2.decompress(fragment.read_bytes()).decode()
    head = xml[:xml.index("<page>")].replace('xml:lang="en"', 'xml:lang="bg"')
    head = head.replace('key="6" case="first-letter">File<', 'key="6" case="first-letter">Файл<')
    head = head.replace('key="14" case="first-letter">Category<', 'key="14" case="first-letter">Категория<')
    rng = np.random.default_rng(7)
    words = sorted({"".join(rng.choice(SYLLABLES, size=rng.integers(2, 5))) for _ in range(160)})
    shares = np.linspace(0.01, 0.30, len(words))
    pages = []
    for p in range(150):
        body = " ".join(w for w, share in zip(words, shares) if rng.random() < share) or words[-1]
        text = (f"{body.capitalize()}. [[Файл:Снимка {p}.jpg|мини|надпис]] [[File:Pic {p}.png|thumb|caption]] "
                f"{body}\n[[Категория:Тест]] [[Category:Test]]")
        pages.append(f"<page><title>Статия {p}</title><ns>0</ns><id>{p + 1}</id><revision><id>{p + 1000}</id>"
                     f"<timestamp>2024-01-01T00:00:00Z</timestamp><text xml:space=\"preserve\">{text}</text>"
                     "</revision></page>")
    doc = head + "\n".join(pages) + "\n</mediawiki>\n"
    if encoding != "utf-8":
        doc = doc.replace("<mediawiki ", f'<?xml version="1.0" encoding="{encoding}"?>\n<mediawiki ', 1)
    path.write_bytes(bz2.compress(doc.encode(encoding)))
    return path


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_a_non_latin_wiki_becomes_a_corpus_with_its_own_query_terms(encoding, wiki, fragment, tmp_path):
    dump = _bulgarian(fragment, tmp_path / "bgwiki.xml.bz2", encoding)
    wiki.build(tmp_path / "bg", "big", dump=str(dump), chunk_chars=CHUNK)
    docs = read_docs(tmp_path / "bg")
    assert len(docs) == 150 and docs[0][1] == "Статия 0"
    for *_, body in docs:
        # File and category links show no text, by either name; their captions and options stay out too.
        assert not re.search(r"мини|надпис|thumb|caption|Файл|File|Тест|Test", body), body[:300]
    terms = [line.split("\t")[0] for line in (tmp_path / "bg" / "queries.tsv").read_text().splitlines()]
    assert len(terms) == 32 and all(re.fullmatch(r"[а-я]{4,}", t) for t in terms), terms
    assert_queries_match(tmp_path / "bg", docs, wiki.common)


def test_query_terms_follow_unicode_word_rules(wiki):
    terms = wiki.common.query_terms("Здравей свят, Ελλάδα Straße naïve 東京都 กรุงเทพ abc can't")
    # Not: ß (its case folds to two letters), ideographs and Thai (no spaces between words), an apostrophe, 3 letters.
    assert terms == {"здравей", "свят", "ελλάδα", "naïve"}


def test_synthetic_is_fitted_on_the_real_corpus(real, fake, wiki):
    _, _, articles = real["big"]
    folder, manifest, docs = fake["big"]
    verify(folder / "manifest.json", manifest["sha256"])
    assert manifest["kind"] == "synthetic" and manifest["synthetic"] is True and manifest["docs"] == len(docs) == 300
    assert manifest["source"]["sha256"] == real["big"][1]["sha256"]["docs.tsv"]
    vocabulary = {w for *_, body in articles for w in body.split(" ")}
    title_words = {w for _, title, _, _ in articles for w in title.split(" ")}
    assert manifest["fit"]["vocabulary"] == len(vocabulary)
    assert all(set(body.split(" ")) <= vocabulary for *_, body in docs)
    assert all(set(title.split(" ")) <= title_words for _, title, _, _ in docs)
    real_median = np.median([len(body.split(" ")) for *_, body in articles])
    fake_median = np.median([len(body.split(" ")) for *_, body in docs])
    assert real_median / 2 <= fake_median <= real_median * 2
    dates = sorted(d[2] for d in articles)
    assert all(ISO_UTC.fullmatch(d[2]) and dates[0] <= d[2] <= dates[-1] for d in docs)
    assert [d[0] for d in docs] == [str(i) for i in range(1, 301)]
    assert_queries_match(folder, docs, wiki.common)


def test_synthetic_same_seed_same_files_other_seed_other_files(fake):
    assert fake["again"][1]["sha256"] == fake["big"][1]["sha256"]
    assert fake["other"][1]["sha256"]["docs.tsv"] != fake["big"][1]["sha256"]["docs.tsv"]


def test_synthetic_medium_is_chunked_like_the_real_one(fake, wiki):
    folder, manifest, chunks = fake["medium"]
    assert manifest["shape"] == "medium" and manifest["docs"] == len(chunks) == 2000
    for chunk_id, _, _, body in chunks:
        assert re.fullmatch(r"\d+-\d+", chunk_id)
        assert len(body) - len(body.split(" ")[-1]) - 1 < CHUNK
    assert_queries_match(folder, chunks, wiki.common)
