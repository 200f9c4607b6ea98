"""CITATION.cff: valid CFF (cffconvert), the package's version, and the BibTeX entries the README (the version's)
and the paper (its run's) show."""
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


URL = "https://github.com/lucene-revisited/lucene-revisited"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_citation_file_names_the_repository():
    cff = cite.load()
    for where in (cff, cff["preferred-citation"]):
        assert (where["repository-code"], where["url"]) == (URL, URL)


def test_the_bibtex_entry_is_the_preferred_citation_with_its_version(tmp_path):
    entry = cite.bibtex()
    assert entry.startswith(f"@misc{{lucene-revisited-{cite.version()},")
    assert "author = {{lucene-revisited contributors}}," in entry  # an entity: no surname split
    assert f"url = {{{URL}}}," in entry
    # The authors are a group, not an institution: no field may pretend one.
    assert "institution" not in entry and "note" not in entry
    # Another version in the file gives another key: nothing is typed twice.
    other = tmp_path / "CITATION.cff"
    other.write_text((REPO / "CITATION.cff").read_text().replace(f'version: "{cite.version()}"', 'version: "9.9.9"'))
    assert "@misc{lucene-revisited-9.9.9," in cite.bibtex(other)
    assert "version = {9.9.9}," in cite.bibtex(other)


def test_a_runs_entry_names_its_commit_scale_and_config():
    entry = cite.bibtex(run=cite.Run("smoke", COMMIT, "c0ffee0123456789"))
    assert entry.startswith(f"@misc{{lucene-revisited-{cite.version()}-smoke-{COMMIT[:12]},")
    assert f"note = {{Commit {COMMIT}, scale smoke, config digest c0ffee0123456789}}," in entry
    assert f"url = {{{URL}}}," in entry and "institution" not in entry
    dirty = cite.bibtex(run=cite.Run("smoke", COMMIT, "c0ffee0123456789", dirty=True))
    assert f"note = {{Commit {COMMIT} with uncommitted changes, scale smoke" in dirty


def _key_and_note(entry):
    return entry.splitlines()[0], next(line for line in entry.splitlines() if line.startswith("  note = "))


def test_a_smoke_and_a_default_run_of_one_commit_are_cited_apart():
    smoke = cite.bibtex(run=cite.Run.of("smoke", {"sha": COMMIT, "dirty": False}, "1111111111111111"))
    default = cite.bibtex(run=cite.Run.of("default", {"sha": COMMIT, "dirty": False}, "2222222222222222"))
    assert all(a != b for a, b in zip(_key_and_note(smoke), _key_and_note(default)))
    # And two commits at one scale.
    later = cite.bibtex(run=cite.Run("smoke", "f" * 40, "1111111111111111"))
    assert all(a != b for a, b in zip(_key_and_note(smoke), _key_and_note(later)))
