"""The config reference, config/README.md, is the rendering of the schemas and config/config.yaml, and every schema
property has a description to render."""
from __future__ import annotations

import shutil

import pytest

from lrev import config, configdoc, studies


def test_the_committed_reference_is_the_rendering():
    committed = config.REFERENCE_FILE.read_text() if config.REFERENCE_FILE.is_file() else ""
    assert committed == configdoc.render(), \
        f"{config.REFERENCE_FILE.name} is out of date: run {configdoc.COMMAND} and commit config/README.md"


@pytest.mark.parametrize("name", ["<generic>", *studies.names()])
def test_every_schema_property_has_a_description(name):
    schema = config.schema() if name == "<generic>" else config.study_schema(name)
    assert configdoc.undescribed(schema) == [], f"schema of {name}: properties without a description"


def test_a_property_without_a_description_is_found_nested_behind_refs_items_and_maps():
    schema = {
        "$defs": {"cell": {"type": "object", "properties": {"rate": {"type": "integer"}}}},
        "type": "object",
        "properties": {
            "rounds": {"type": "integer", "description": "rounds of forks"},
            "cells": {"type": "array", "description": "cells", "items": {"$ref": "#/$defs/cell"}},
            "by_version": {"type": "object", "description": "per version",
                           "additionalProperties": {"type": "object", "properties": {"docs": {"description": " "}}}},
            "pin": {"description": "CPUs", "oneOf": [{"type": "null"}, {"type": "object",
                                                                        "properties": {"server": {"type": "array"}}}]},
        },
    }
    assert configdoc.undescribed(schema) == ["cells[].rate", "by_version.<name>.docs", "pin.server"]


def test_check_names_the_file_when_it_differs(tmp_path, capsys):
    assert configdoc.main(["--check"]) == 0
    copy = tmp_path / "README.md"
    shutil.copy(config.REFERENCE_FILE, copy)
    assert configdoc.check(copy) == 0
    copy.write_text(copy.read_text().replace("| `scale` |", "| `scael` |"))
    assert configdoc.check(copy) == 1
    assert str(copy) in capsys.readouterr().err
    copy.unlink()
    assert configdoc.check(copy) == 1


def test_a_value_the_top_level_block_overrides_shows_the_value_in_effect():
    shipped = {"scales": {"smoke": {"s": {"n": 2, "m": 1}}}, "s": {"n": 3}}
    schema = {"type": "object", "properties": {"n": {"type": "integer", "description": "n"},
                                               "m": {"type": "integer", "description": "m"}}}
    rows = configdoc.study_section("s", schema, shipped).splitlines()
    assert "| `n` | integer | `3` | `2` (in effect: `3`) | n |" in rows
    assert "| `m` | integer |  | `1` | m |" in rows
