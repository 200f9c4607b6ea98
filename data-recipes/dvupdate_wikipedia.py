"""Recipe: the `dvupdate` corpora from a real Wikipedia dump — articles as line docs, in the seed's two shapes.

REAL. The seed's benchmarks ran on English Wikipedia line docs: WIKIBIG (whole articles) and WIKIMEDIUM
(articles cut into 1K-character chunks). This recipe makes both from a ``pages-articles`` XML ``.bz2``,
given by URL or path, or from the real 206-page enwiki fragment that gensim's wheel ships (``"dump": null``:
offline, as here and in CI):

- A URL is downloaded into ``${LREV_CACHE:-~/.cache/lucene-revisited}/wikipedia/``, into a ``.part``
  file that a broken connection or a rerun resumes with HTTP Range. The fragment is fetched there once
  (``pip download`` of the wheel, never installed) and checked against its known sha256.
- The dump is checked against its published sha1 or md5 when one is given, then streamed: bz2 →
  mwxml → mwparserfromhell, one page at a time, never the dump in memory. A truncated or corrupt file,
  a checksum mismatch or a dump without articles stops with an error naming the file, and no corpus.
- Articles are pages of namespace 0 that are not redirects, at their last revision. Their wikitext
  goes through mwparserfromhell's ``strip_code()`` (templates and markup dropped, links kept as their
  text), with file and category links and ``<ref>`` footnotes removed first (they render as images, a
  page footer and notes, not as running text), then whitespace is collapsed to single spaces. Bold and
  italics are not parsed but their quote marks dropped: an unbalanced one made the parser keep the rest
  of the article as raw wikitext. Articles left empty are skipped.
- ``big``: one document per article. ``medium``: each article cut into chunks of at least
  ``chunk_chars`` characters ending at a word boundary (the last one shorter), ids ``<pageid>-<k>``
  from 0, each with the article's title and date.

Writes into OUT (atomically, as one folder):
  docs.tsv       ``id<TAB>title<TAB>modified<TAB>body`` header, then one document per line, in dump order;
                 ``modified`` is the revision's timestamp, ISO-8601 UTC ``YYYY-MM-DDTHH:MM:SSZ``
  queries.tsv    ``term<TAB>df``: the 32 query terms of the search threads, lower-case words of ASCII
                 letters, at least 4 long, with a df in [2%, 20%] of the documents, spread evenly over
                 those terms by (df, term)
  manifest.json  recipe, kind ``real``, shape, source (url or path, file, sha256, the published
                 sha1/md5 given), doc count, parameters and the sha256 of every file

The same dump and parameters give byte-identical files.

    python data-recipes/dvupdate_wikipedia.py --out runs/x/corpora/dvupdate/real-medium \\
        --settings '{"shape": "medium", "chunk_chars": 1000, "dump": null}'
    python data-recipes/dvupdate_wikipedia.py --out runs/x/corpora/dvupdate/real-big --settings \\
        '{"shape": "big", "chunk_chars": 1000, "dump": {"url": "https://…/enwiki-…-pages-articles1.xml-p1p41242.bz2", "sha1": "…"}}'
"""
from __future__ import annotations

import bz2
import hashlib
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from xml.etree.ElementTree import ParseError

import mwparserfromhell
import mwxml
from mwparserfromhell.nodes import Tag, Text, Wikilink
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dvupdate_common as common  # noqa: E402  (data-recipes/ is no package)
from lrev import recipe  # noqa: E402
from lrev.io import ChecksumError, atomic_dir  # noqa: E402

RECIPE = "dvupdate_wikipedia/2"  # 2: query terms of any alphabet; canonical File/Category names hidden
SHAPES = ("big", "medium")
#: What reading a damaged dump raises: bz2's EOFError (truncated) or OSError (corrupt data), expat's
#: ParseError (broken XML), and mwxml's AssertionError (a root element other than <mediawiki>).
READ_ERRORS = (EOFError, OSError, ParseError, AssertionError)
#: Namespaces whose links show no text: Media (-2), File (6), Category (14), by the wiki's own names (its
#: <siteinfo>) and by the canonical English ones, which every wiki accepts too, File's old alias Image included.
HIDDEN_NAMESPACES = (-2, 6, 14)
HIDDEN_ALIASES = ("media", "file", "image", "category")
#: Bold and italics marks (bold first: ''''' is both, and '''' an apostrophe in bold, as MediaWiki renders them).
BOLD, ITALICS = "'''", "''"


def locate(dump: str | None) -> tuple[Path, dict]:
    """The dump as a local file, and how the manifest names its source."""
    if dump is None:
        return common.fragment(), dict(wheel=common.FRAGMENT_WHEEL, member=common.FRAGMENT_MEMBER)
    if dump.startswith(("http://", "https://")):
        return common.download(dump, common.cache_dir()), dict(url=dump)
    return Path(dump), dict(path=dump)


def check(path: Path, published: dict[str, str]) -> str:
    """The dump's sha256, read in the same pass that checks its published digests."""
    if not path.is_file():
        raise common.DumpError(f"{path}: no such file")
    digests = {name: hashlib.new(name) for name in ["sha256", *published]}
    with path.open("rb") as f, tqdm(total=path.stat().st_size, unit="B", unit_scale=True,
                                    desc=f"checksum {path.name}") as bar:
        while block := f.read(common.BLOCK):
            for d in digests.values():
                d.update(block)
            bar.update(len(block))
    for name, expected in published.items():
        actual = digests[name].hexdigest()
        if actual != expected.lower():
            raise ChecksumError(f"{path}: {name} {actual} differs from the published {expected}; a damaged or "
                                f"different dump (delete a downloaded one to fetch it again)")
    return digests["sha256"].hexdigest()


def plain_text(wikitext: str, hidden: set[str]) -> str:
    # Bold and italics are left unparsed: an unbalanced '' or ''' made the parser give up on what followed
    # and keep it as raw wikitext (refs, tables, links) in 15 of the fragment's 106 articles.
    code = mwparserfromhell.parse(wikitext, skip_style_tags=True)
    # What shows no running text is blanked: <ref> footnotes (strip_code would run their citations into
    # the sentence), file and category links, and the quote marks of bold and italics. In place, as
    # Wikicode.remove searches the whole tree for each node, which took twice as long as parsing.
    for node in code.filter(forcetype=(Wikilink, Tag, Text)):
        if isinstance(node, Text):
            node.value = node.value.replace(BOLD, "").replace(ITALICS, "")
        elif isinstance(node, Tag) and node.tag.strip_code().strip().lower() == "ref":
            node.contents = ""
        elif isinstance(node, Wikilink) and _hidden_link(node, hidden):
            node.text = ""
    return common.normalise(code.strip_code())


def _hidden_link(link: Wikilink, hidden: set[str]) -> bool:
    """A link to a file or category: it renders as an image or in the page footer, not as running text
    (strip_code would keep its options: "thumb|upright|…")."""
    prefix, colon, _ = str(link.title).partition(":")
    return bool(colon) and prefix.strip().lower() in hidden


def _articles(dump: mwxml.Dump) -> Iterator[tuple[str, str, str, str]]:
    hidden = {ns.name.lower() for ns in dump.site_info.namespaces if ns.id in HIDDEN_NAMESPACES}
    hidden.update(HIDDEN_ALIASES)
    for page in dump:
        revision = None
        for revision in page:  # pages-articles holds one revision; should a dump hold more, the last is current
            pass
        if page.namespace != 0 or page.redirect or revision is None or not revision.text:
            continue
        body = plain_text(revision.text, hidden)
        if body:
            yield str(page.id), common.normalise(page.title), revision.timestamp.long_format(), body


def articles(path: Path) -> Iterator[tuple[str, str, str, str]]:
    """(page id, title, modified, plain text) of every article, streamed from the dump."""
    with bz2.open(path) as stream, tqdm(unit="page", desc=path.name) as bar:
        # Only reading the dump raises here: an error of the consumer (a full disk, say) is raised in its
        # own frame, not at the yield.
        try:
            for article in _articles(mwxml.Dump.from_file(stream)):
                bar.update()
                yield article
        except mwxml.errors.MalformedXML as e:
            if "siteinfo" in str(e):
                raise common.DumpError(f"{path}: no <siteinfo>, which names the wiki's namespaces (an export of "
                                       "single pages can lack it); use a dump from dumps.wikimedia.org, or an "
                                       "export that has one") from e
            raise common.DumpError(f"{path}: malformed dump ({e})") from e
        except READ_ERRORS as e:
            raise common.DumpError(f"{path}: truncated or corrupt dump ({type(e).__name__}: {e})") from e


def shaped(articles: Iterable[tuple[str, str, str, str]], shape: str,
           chunk_chars: int) -> Iterator[tuple[str, str, str, str]]:
    for page_id, title, modified, body in articles:
        if shape == "big":
            yield page_id, title, modified, body
        else:
            for k, chunk in enumerate(common.chunks(body, chunk_chars)):
                yield f"{page_id}-{k}", title, modified, chunk


def counted(docs: Iterable[tuple[str, str, str, str]], df: Counter) -> Iterator[tuple[str, str, str, str]]:
    """The documents unchanged, each one's query-eligible terms counted once into ``df``."""
    for doc in docs:
        df.update(common.query_terms(doc[3]))
        yield doc


def build(out: Path, shape: str, dump: str | None, chunk_chars: int, max_docs: int | None = None,
          sha1: str | None = None, md5: str | None = None) -> dict:
    """The corpus of ``dump`` (a URL or path; None: the gensim fragment) in ``out``; returns its manifest."""
    published = {name: value for name, value in (("sha1", sha1), ("md5", md5)) if value}
    path, source = locate(dump)
    source.update(file=path.name, sha256=check(path, published), **published)
    params = dict(shape=shape, chunk_chars=chunk_chars, max_docs=max_docs)
    df = Counter()
    with atomic_dir(out) as tmp:
        docs = common.write_docs(tmp / "docs.tsv",
                                 counted(islice(shaped(articles(path), shape, chunk_chars), max_docs), df))
        if docs == 0:
            raise common.DumpError(f"{path}: no articles (pages of namespace 0 with text, not redirects)")
        common.write_queries(tmp / "queries.tsv", common.choose_queries(df, docs, path))
        return common.write_manifest(tmp, recipe=RECIPE, kind="real", shape=shape, source=source, docs=docs,
                                     parameters=params, queries=common.QUERIES)


#: The settings the recipe takes (lrev/recipe.py), as lrev/dvupdate/layout.py's real_settings gives them: the dump
#: (null: the fragment in gensim's wheel) with its published digest and a cap on its articles, if any.
SETTINGS = {"shape": {"enum": list(SHAPES)}, "chunk_chars": recipe.POSITIVE,
            "dump": {"oneOf": [{"type": "null"},
                               {"type": "object", "required": ["url"], "additionalProperties": False,
                                "properties": {"url": {"type": "string"}, "sha1": {"type": "string"},
                                               "md5": {"type": "string"}, "max_docs": recipe.POSITIVE},
                                "not": {"required": ["sha1", "md5"]}}]}}


def main() -> None:
    a = recipe.parse(recipe.parser(__doc__.split("\n")[0]), SETTINGS)
    dump = a.settings["dump"] or {}
    try:
        build(a.out, a.settings["shape"], dump.get("url"), a.settings["chunk_chars"], dump.get("max_docs"),
              dump.get("sha1"), dump.get("md5"))
    except (common.DumpError, ChecksumError) as e:
        sys.exit(f"error: {e}")


if __name__ == "__main__":
    main()
