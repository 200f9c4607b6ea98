"""paper/references.yml, the paper's bibliography: every seed in it with author, title, date and address, each
study section citing its seed, every @key of the paper resolving, and Typst reading the file."""
from __future__ import annotations

import re

import typst
import yaml

from lrev.config import REPO

PAPER = REPO / "paper"
REFERENCES = PAPER / "references.yml"
SEEDS = {"pk": ["mccandless-2011"], "dvjump": ["eskildsen-2019", "eskildsen-2018"], "join": ["khludnev-2013"],
         "dvupdate": ["erera-2014"]}


def _entries() -> dict:
    return yaml.safe_load(REFERENCES.read_text())


def _prose(typ: str) -> str:
    # Raw text (`…`) cites and labels nothing: `<format>@G1` there is a contender's name.
    return re.sub(r"`[^`]*`", "", typ)


def _cited(typ: str) -> set[str]:
    # Typst leaves a trailing "." or ":" out of a reference: "@method:" refers to <method>.
    return {key.rstrip(".:") for key in re.findall(r"(?<![\w@])@([\w.:-]+)", _prose(typ))}


def _labels(typ: str) -> set[str]:
    return set(re.findall(r"<([\w.:-]+)>", _prose(typ)))


def test_every_seed_has_author_title_date_and_address():
    entries = _entries()
    for key in (k for keys in SEEDS.values() for k in keys):
        assert {"author", "title", "date", "url"} <= set(entries[key]), key
        assert entries[key]["url"].startswith("https://"), key


def test_each_study_section_cites_its_seed():
    for study, seeds in SEEDS.items():
        assert set(seeds) <= _cited((PAPER / f"{study}.typ").read_text()), study


def test_every_reference_in_the_paper_resolves_to_a_label_or_an_entry():
    texts = [p.read_text() for p in PAPER.glob("*.typ")]
    labels = set().union(*map(_labels, texts))
    keys = set(_entries())
    assert not keys & labels, "a bibliography key that is also a label is ambiguous"
    assert set().union(*map(_cited, texts)) - labels - keys == set()


def test_typst_reads_every_entry(tmp_path):
    doc = tmp_path / "references.typ"
    doc.write_text(" ".join(f"@{key}" for key in _entries()) + f'\n#bibliography("{REFERENCES}")\n')
    out = tmp_path / "references.pdf"
    typst.compile(str(doc), output=str(out), root="/")
    assert out.read_bytes().startswith(b"%PDF")
