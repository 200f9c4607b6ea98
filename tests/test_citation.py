"""CITATION.cff: valid CFF (cffconvert), the package's version, and the BibTeX entry the README and the paper show."""
from __future__ import annotations

import re

import pytest

from lrev import cite
from lrev.config import REPO


def test_citation_file_is_valid_cff_1_2_0():
    assert "valid according to schema version 1.2.0" in cite.validate()


def test_an_invalid_citation_file_is_refused_naming_it(tmp_path):
    bad = tmp_path / "CITATION.cff"
    bad.write_text((REPO / "CITATION.cff").read_text().replace('cff-version: 1.2.0', 'cff-version: 1.2.0\nrelease: x'))
    with pytest.raises(ValueError, match=re.escape(str(bad))):
        cite.validate(bad)


def test_citation_version_is_the_package_version():
    cff = cite.load()
    assert cff["version"] == cite.version()
    assert cff["preferred-citation"]["version"] == cite.version()
    assert cff["preferred-citation"]["type"] == "report"


def test_the_readme_shows_the_generated_bibtex():
    readme = (REPO / "README.md").read_text()
    block = re.search(r"## Cite\n.*?```bibtex\n(.*?)```", readme, re.S)
    assert block is not None, "README.md has no Cite section with a bibtex block"
    assert block.group(1) == cite.bibtex()


def test_the_bibtex_entry_is_the_preferred_citation_with_its_version(tmp_path):
    entry = cite.bibtex()
    assert entry.startswith(f"@techreport{{lucene-revisited-{cite.version()},")
    assert "author = {{lucene-revisited contributors}}," in entry  # an entity: no surname split
    # Another version in the file gives another key and number: nothing is typed twice.
    other = tmp_path / "CITATION.cff"
    other.write_text((REPO / "CITATION.cff").read_text().replace(f'version: "{cite.version()}"', 'version: "9.9.9"'))
    assert "@techreport{lucene-revisited-9.9.9," in cite.bibtex(other)
    assert "number = {Version 9.9.9}," in cite.bibtex(other)
