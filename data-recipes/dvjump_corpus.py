"""Recipe: the `dvjump` corpus — synthetic web-archive records shaped like the seed's netarchive index.

SYNTHETIC. The seed (000/004) measured one 300M-document collection of the Royal Danish Library's web
archive. This recipe makes records with the same fields, the same kinds of values and the same
structural traits that decide what DocValues cost, and labels them synthetic:

- Records arrive in crawl order, harvest job after harvest job, as a web archive's index does; a job
  has a year, a kind (broad, selective, media) and a mix of content types. So a field's values
  change along the docID axis the way they do in the archive: ``content_length`` of a media job
  needs many more bits per value than that of a job of small pages, which gives the 16,384-value
  blocks of varying bits per value whose offsets jump tables store.
- ``content_language`` exists only for HTML pages, detected from 2010 on and for a sample of them
  in 2008-2009: no values early in the docID space, few in the middle, many at the end. That gives
  IndexedDISI's empty, sparse and dense blocks; ``id`` and the other always-present fields give its
  all-documents blocks.
- ``url_norm`` is unique for about 83% of records (the seed's 250M of 300M); the rest are
  re-harvests of a URL seen before, with its host.
- ``text`` holds filler words plus query terms of exactly known document frequencies: for each
  bucket m (an order of magnitude ``10^m``), ``queries_per_bucket`` terms with frequencies spread
  log-uniformly over ``[10^m, 10^(m+1))`` (capped at the corpus size), and ``hestevogn`` (the seed's
  export query) in a
  fraction ``export_fraction`` of the records. The study indexes ``text`` without norms, so a term's
  score depends on its frequency in the record alone, and every Lucene version ranks alike: in up to
  ``RANKED`` records of each term it occurs 2, 3, … times (a distinct count each, in records drawn at
  random), elsewhere once. The top of a ranking therefore lies in random docID order, as relevance
  does in a real index, and is the same on every version.

Writes into OUT (atomically, as one folder):
  docs.tsv       a header line naming the fields, then one record per line, tab-separated; an empty
                 value means the record has no such field. The line number after the header
                 (0-based) is the row, which is the docID in a single-segment index built in order.
  queries.tsv    ``term<TAB>df<TAB>bucket`` (bucket = m of 10^m), one line per query term
  manifest.json  recipe, parameters, doc count, seed and sha256 of every file

Everything derives from ``seed``: the same parameters give byte-identical files.

    python data-recipes/dvjump_corpus.py --out runs/x/corpora/dvjump/full --settings \
        '{"docs": 2000000, "seed": 1, "buckets": [0, 2, 4, 6], "queries_per_bucket": 3, "export_fraction": 0.0002}'
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from tqdm import tqdm

from lrev import recipe
from lrev.io import atomic_dir, sha256_file, write_json

RECIPE = "dvjump_corpus/1"
FIELDS = ("id", "source_file_s", "url_norm", "host", "domain", "public_suffix", "crawl_year", "crawl_date",
          "content_type_norm", "content_type_served", "content_type_ext", "status_code", "content_length",
          "content_language", "text")
EXPORT_TERM = "hestevogn"
CHUNK = 100_000
FIRST_YEAR, LAST_YEAR = 2005, 2018
#: Share of records that re-harvest a URL seen before (the seed's index: 250M unique of 300M).
REHARVEST = 0.17
#: Records per harvest job: lognormal around this median, so that a job spans several value blocks.
JOB_MEDIAN = 20_000
RECORDS_PER_WARC = 1_000
FILLER_WORDS, FILLER_VOCABULARY, ZIPF_A = 6, 20_000, 1.2
#: Records per query term whose term frequency is above one, each a different one (2, 3, ...).
RANKED = 40

SUFFIXES = np.array(["dk", "com", "org", "net", "de", "se", "no", "eu", "co.uk", "info", "nu", "nl", "fr", "io"])
SUFFIX_WEIGHTS = np.array([55, 20, 5, 4, 3, 3, 2, 2, 2, 1, 1, 1, 0.6, 0.4])
HOST_PREFIXES = np.array(["www.", "", "m.", "shop.", "blog.", "nyheder.", "static."])
HOST_PREFIX_WEIGHTS = np.array([60, 20, 5, 5, 4, 3, 3])
SYLLABLES = np.array(["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "an", "el", "or", "us", "ip", "by", "dr"])
STATUS = np.array([200, 301, 302, 304, 403, 404, 500, 503])
STATUS_WEIGHTS = np.array([85, 4, 4, 1, 1, 3, 1, 1])
LANGUAGES = np.array(["da", "en", "de", "sv", "no", "fr", "es", "nl", "it", "fi"])
LANGUAGE_WEIGHTS = np.array([60, 20, 5, 4, 3, 2, 2, 2, 1, 1])

#: content_type_norm -> (served types, extensions, log-normal mu and sigma of content_length in bytes)
TYPES = {
    "html": (["text/html", "text/html; charset=UTF-8", "text/html; charset=utf-8", "text/html; charset=iso-8859-1",
              "application/xhtml+xml"], ["html", "htm", "php", "asp", "aspx", ""], 9.6, 0.9),
    "image": (["image/jpeg", "image/png", "image/gif", "image/webp"], ["jpg", "png", "gif", "jpeg", "webp"], 10.3, 1.4),
    "pdf": (["application/pdf"], ["pdf"], 12.5, 1.3),
    "text": (["text/plain", "text/plain; charset=UTF-8"], ["txt", ""], 8.5, 1.2),
    "javascript": (["application/javascript", "text/javascript"], ["js"], 9.8, 1.1),
    "css": (["text/css"], ["css"], 9.0, 1.0),
    "xml": (["text/xml", "application/xml", "application/rss+xml"], ["xml", "rss"], 9.2, 1.2),
    "audio": (["audio/mpeg", "audio/ogg"], ["mp3", "ogg"], 14.8, 1.0),
    "video": (["video/mp4", "video/webm", "video/x-flv"], ["mp4", "webm", "flv"], 16.5, 1.2),
    "other": (["application/octet-stream", "application/zip", "application/msword"], ["bin", "zip", "doc", ""], 11.0, 2.0),
}
TYPE_NAMES = np.array(list(TYPES))
#: Content-type mix of each job kind (weights over TYPE_NAMES). A selective job (news sites) fetches small
#: text resources only, a broad crawl documents and images too, a media job mostly audio and video: so the
#: bits a block of content_length values needs differ by some ten between jobs.
JOB_KINDS = {
    "broad": [55, 25, 3, 4, 6, 4, 2, 0, 0, 1],
    "selective": [80, 0, 0, 5, 8, 5, 2, 0, 0, 0],
    "media": [15, 30, 0, 0, 0, 0, 0, 20, 35, 0],
}
JOB_KIND_WEIGHTS = np.array([5, 4, 1])


def _pick(rng: np.random.Generator, weights: np.ndarray, size: int) -> np.ndarray:
    return rng.choice(len(weights), size=size, p=np.asarray(weights, dtype=float) / np.sum(weights))


def query_terms(docs: int, buckets: list[int], queries_per_bucket: int) -> list[tuple[str, int, int]]:
    """(term, document frequency, bucket m) for each bucket m (10^m <= docs): frequencies spread
    log-uniformly over [10^m, min(10^(m+1), docs)), distinct within a bucket. The top bucket of a corpus
    smaller than 10^(m+1) stays below ``docs``: a query matching every document is no bucket's typical one."""
    out = []
    for m in buckets:
        span = math.log10(min(10 ** (m + 1), docs)) - m
        dfs = sorted({round(10 ** (m + span * k / queries_per_bucket)) for k in range(queries_per_bucket)})
        out.extend((f"q{m}n{df}", df, m) for df in dfs)
    return out


class Archive:
    """The structure behind the records: hosts with their domains, and harvest jobs in crawl order."""

    def __init__(self, rng: np.random.Generator, docs: int):
        self.docs = docs
        n_domains = max(50, docs // 80)
        domain_words = recipe.pseudo_words(SYLLABLES, n_domains, offset=FILLER_VOCABULARY)
        suffix = SUFFIXES[_pick(rng, SUFFIX_WEIGHTS, n_domains)]
        self.domains = np.array([f"{w}.{s}" for w, s in zip(domain_words, suffix)], dtype=object)
        self.domain_suffix = suffix
        n_hosts = max(100, docs // 40)
        self.host_domain = rng.integers(0, n_domains, size=n_hosts)
        prefixes = HOST_PREFIXES[_pick(rng, HOST_PREFIX_WEIGHTS, n_hosts)]
        self.hosts = np.array([p + self.domains[d] for p, d in zip(prefixes, self.host_domain)], dtype=object)
        # Harvest jobs: sizes log-normal around JOB_MEDIAN, years non-decreasing along the crawl.
        sizes = []
        while sum(sizes) < docs:
            sizes.append(max(1, int(rng.lognormal(math.log(JOB_MEDIAN), 0.8))))
        sizes[-1] -= sum(sizes) - docs
        self.job_sizes = np.array(sizes)
        starts = np.concatenate([[0], np.cumsum(self.job_sizes)[:-1]])
        self.job_year = FIRST_YEAR + (starts * (LAST_YEAR - FIRST_YEAR + 1)) // docs
        self.job_kind = _pick(rng, JOB_KIND_WEIGHTS, len(sizes))
        # Each job crawls from its own starting second of its year.
        year_start = np.array([_epoch(y) for y in self.job_year])
        self.job_start = year_start + rng.integers(0, 300 * 86_400, size=len(sizes))
        self.job_of_row = np.repeat(np.arange(len(sizes)), self.job_sizes)
        self.row_in_job = np.arange(docs) - np.repeat(starts, self.job_sizes)


def _epoch(year: int) -> int:
    return (np.datetime64(f"{year}-01-01", "s") - np.datetime64("1970-01-01", "s")).astype(int).item()


def _language_presence(year: np.ndarray) -> np.ndarray:
    """Probability that an HTML record has a detected language: none before 2008, a 4% sample in
    2008-2009, 90% from 2010 on."""
    return np.where(year < 2008, 0.0, np.where(year < 2010, 0.04, 0.9))


def _query_pairs(docs: int, terms: list[tuple[str, int, int]],
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, term index, term frequency) triples, sorted by row: each term in exactly its df rows, drawn
    without replacement, the first RANKED of them (a random subset) with frequencies 2, 3, …"""
    rows = [rng.choice(docs, size=df, replace=False) for _, df, _ in terms]
    freqs = [np.concatenate([np.arange(2, 2 + min(df, RANKED)), np.ones(max(0, df - RANKED), dtype=np.int64)])
             for _, df, _ in terms]
    term = np.concatenate([np.full(df, i) for i, (_, df, _) in enumerate(terms)])
    rows, freqs = np.concatenate(rows), np.concatenate(freqs)
    order = np.lexsort((term, rows))
    return rows[order], term[order], freqs[order]


def write_docs(path: Path, docs: int, queries: list[tuple[str, int, int]], export_fraction: float,
               rng: np.random.Generator) -> None:
    archive = Archive(rng, docs)
    terms = [*queries, (EXPORT_TERM, max(1, round(docs * export_fraction)), -1)]
    pair_rows, pair_terms, pair_freqs = _query_pairs(docs, terms, rng)
    term_names = np.array([t for t, _, _ in terms], dtype=object)
    filler = recipe.pseudo_words(SYLLABLES, FILLER_VOCABULARY)
    kind_mix = [np.array(JOB_KINDS[k], dtype=float) / sum(JOB_KINDS[k]) for k in JOB_KINDS]
    mu = np.array([TYPES[t][2] for t in TYPE_NAMES])
    sigma = np.array([TYPES[t][3] for t in TYPE_NAMES])
    # Ids in random order relative to the crawl (an odd multiplier is a bijection of 64-bit integers), so
    # that sorting by id reads records in random docID order, as the seed's export did.
    ids = rng.permutation(docs).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    # Every record's host and path id, kept so that a re-harvest can copy an earlier record's URL.
    host_of = np.empty(docs, dtype=np.int64)
    path_of = np.arange(docs, dtype=np.int64)
    with path.open("w", encoding="utf-8", newline="\n") as out, \
            tqdm(total=docs, unit="doc", desc="dvjump corpus") as bar:
        out.write("\t".join(FIELDS) + "\n")
        for start in range(0, docs, CHUNK):
            stop = min(docs, start + CHUNK)
            n, row = stop - start, np.arange(start, stop)
            job = archive.job_of_row[start:stop]
            year, kind = archive.job_year[job], archive.job_kind[job]
            ctype = np.empty(n, dtype=np.int64)
            for k, mix in enumerate(kind_mix):
                mine = kind == k
                ctype[mine] = rng.choice(len(TYPE_NAMES), size=int(mine.sum()), p=mix)
            # Hosts are Zipf-popular; a selective job keeps to five hosts of its own.
            host = np.minimum(rng.zipf(1.3, size=n), len(archive.hosts)) - 1
            selective = kind == list(JOB_KINDS).index("selective")
            host[selective] = (job[selective] * 7919 + rng.integers(0, 5, size=int(selective.sum()))) % len(archive.hosts)
            host_of[start:stop] = host
            again = (rng.random(n) < REHARVEST) & (row > 0)
            earlier = (rng.random(int(again.sum())) * row[again]).astype(np.int64)
            for r, e in zip(row[again], earlier):  # in row order, so an earlier record is final when copied
                host_of[r], path_of[r] = host_of[e], path_of[e]
            host, path_id = host_of[start:stop], path_of[start:stop]
            status = STATUS[_pick(rng, STATUS_WEIGHTS, n)]
            crawl_date = archive.job_start[job] + archive.row_in_job[start:stop] * 3 + rng.integers(0, 3, size=n)
            length = np.where(status == 200, np.exp(rng.normal(mu[ctype], sigma[ctype])),
                              rng.integers(0, 600, size=n)).astype(np.int64)
            has_lang = (TYPE_NAMES[ctype] == "html") & (rng.random(n) < _language_presence(year))
            lang = LANGUAGES[_pick(rng, LANGUAGE_WEIGHTS, n)]
            served_pick, ext_pick = rng.random(n), rng.random(n)
            filler_len = rng.poisson(FILLER_WORDS - 1, size=n) + 1
            filler_ends = np.cumsum(filler_len)
            tokens = filler[np.minimum(rng.zipf(ZIPF_A, size=int(filler_ends[-1])), FILLER_VOCABULARY) - 1]
            text = [list(tokens[e - k:e]) for k, e in zip(filler_len, filler_ends)]
            lo, hi = np.searchsorted(pair_rows, [start, stop])
            for r, t, f in zip(pair_rows[lo:hi] - start, term_names[pair_terms[lo:hi]], pair_freqs[lo:hi]):
                text[r].extend([t] * int(f))
            lines = []
            for i in range(n):
                t, h, d, j, k = TYPE_NAMES[ctype[i]], host[i], archive.host_domain[host[i]], job[i], archive.row_in_job[start + i]
                served, exts = TYPES[t][0], TYPES[t][1]
                lines.append("\t".join((
                    f"sha1:{int(ids[start + i]):016x}",
                    f"job{j:05d}-{archive.job_year[j]}-{k // RECORDS_PER_WARC:05d}.warc.gz@{(k % RECORDS_PER_WARC) * 4093}",
                    f"http://{archive.hosts[h]}/p{path_id[i]:x}", archive.hosts[h], archive.domains[d],
                    archive.domain_suffix[d], str(year[i]), str(crawl_date[i]), t,
                    served[int(served_pick[i] * len(served))], exts[int(ext_pick[i] * len(exts))], str(status[i]),
                    str(length[i]), lang[i] if has_lang[i] else "", " ".join(text[i]))))
            out.write("\n".join(lines) + "\n")
            bar.update(n)


def write_queries(path: Path, queries: list[tuple[str, int, int]]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.writelines(f"{term}\t{df}\t{bucket}\n" for term, df, bucket in queries)


def build(out: Path, docs: int, seed: int, buckets: list[int], queries_per_bucket: int,
          export_fraction: float) -> dict:
    params = dict(docs=docs, seed=seed, buckets=list(buckets), queries_per_bucket=queries_per_bucket,
                  export_fraction=export_fraction)
    queries = query_terms(docs, buckets, queries_per_bucket)
    with atomic_dir(out) as tmp:
        rng = np.random.default_rng(seed)
        write_docs(tmp / "docs.tsv", docs, queries, export_fraction, rng)
        write_queries(tmp / "queries.tsv", queries)
        files = sorted(p.name for p in tmp.iterdir())
        manifest = dict(recipe=RECIPE, synthetic=True, parameters=params, docs=docs, fields=list(FIELDS),
                        export_term=EXPORT_TERM, sha256={name: sha256_file(tmp / name) for name in files})
        write_json(tmp / "manifest.json", manifest)
    return manifest


#: The settings the recipe takes (lrev/recipe.py), as lrev/dvjump/layout.py's corpus_settings gives them.
SETTINGS = {"docs": recipe.POSITIVE, "seed": recipe.INTEGER,
            "buckets": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 0},
                        "description": "orders of magnitude m of 10^m hits"},
            "queries_per_bucket": recipe.POSITIVE,
            "export_fraction": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}}


def main() -> None:
    ap = recipe.parser(__doc__.split("\n")[0])
    a = recipe.parse(ap, SETTINGS)
    buckets = a.settings["buckets"]
    if buckets != sorted(set(buckets)) or 10 ** buckets[-1] > a.settings["docs"]:
        ap.error(f"settings error at 'buckets': they must increase, with 10^largest <= docs; got {buckets}")
    build(a.out, **a.settings)


if __name__ == "__main__":
    main()
