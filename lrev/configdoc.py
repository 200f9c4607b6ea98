"""The config reference, config/README.md: every key of the schemas with its allowed values, its values in
config/config.yaml and its description, rendered from those files so that it cannot drift from them.

    python -m lrev.configdoc            writes config/README.md
    python -m lrev.configdoc --check    exits 1, naming the file, if it is not the rendering

tests/test_configdoc.py holds the committed file to the rendering, and every schema property to a description.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from lrev import config, studies
from lrev.io import atomic_path

COMMAND = "python -m lrev.configdoc"
#: A row's path for the items of a list, and for any key of a map.
ITEMS, ANY_KEY = "[]", "<name>"
#: A value longer than this is shown abridged (config/config.yaml has it whole).
WIDTH = 150


@dataclass(frozen=True)
class Key:
    """A property of a schema: its dotted path, its schema ($ref resolved) and whether config values are shown at
    it (not where its children's rows show them, nor below a list's items or a map's keys)."""

    path: str
    node: dict[str, Any]
    valued: bool


def resolved(node: Mapping[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    """``node`` with its ``$ref`` (``#/$defs/<name>``) replaced by the definition; its own keywords win."""
    if "$ref" not in node:
        return dict(node)
    target = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return {**resolved(target, root), **{k: v for k, v in node.items() if k != "$ref"}}


def _alternatives(node: Mapping[str, Any], root: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``node`` and the schemas of its ``anyOf``/``oneOf``, resolved: where its properties may be."""
    return [node, *(resolved(alt, root) for alt in node.get("anyOf", []) + node.get("oneOf", []))]


def _join(path: str, name: str) -> str:
    return f"{path}{name}" if not path or name == ITEMS else f"{path}.{name}"


def keys(schema: Mapping[str, Any]) -> list[Key]:
    """Every property of ``schema``, nested ones included, in the schema's order, each after its parent."""
    return list(_walk(schema, schema, ""))


def _walk(node: Mapping[str, Any], root: Mapping[str, Any], path: str) -> Iterator[Key]:
    for alt in _alternatives(resolved(node, root), root):
        for name, child in alt.get("properties", {}).items():
            child = resolved(child, root)
            split = any("properties" in a for a in _alternatives(child, root))
            at = _join(path, name)
            yield Key(at, child, not split and ITEMS not in at and ANY_KEY not in at)
            yield from _walk(child, root, at)
        if isinstance(alt.get("items"), Mapping):
            yield from _walk(alt["items"], root, _join(path, ITEMS))
        if isinstance(alt.get("additionalProperties"), Mapping):
            yield from _walk(alt["additionalProperties"], root, _join(path, ANY_KEY))


def undescribed(schema: Mapping[str, Any]) -> list[str]:
    """The paths of ``schema``'s properties without a description."""
    return [key.path for key in keys(schema) if not str(key.node.get("description", "")).strip()]


def allowed(node: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    """What a value may be, in words: its type with its bounds, pattern or allowed values."""
    node = resolved(node, root)
    alternatives = node.get("anyOf", []) + node.get("oneOf", [])
    if alternatives:
        return ", or ".join(allowed(alt, root) for alt in alternatives)
    if "enum" in node:
        return _either([_code(v) for v in node["enum"]])
    if isinstance(node["type"], list):
        return _either(node["type"])
    if node["type"] == "array":
        return f"list of {allowed(node['items'], root)}{_counts(node, 'Items', 'item')}"
    if node["type"] == "object":
        return _object(node, root)
    return _scalar(node)


def _object(node: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    values = node.get("additionalProperties")
    if "properties" in node or not isinstance(values, Mapping):
        return "object"
    names = node.get("propertyNames")
    keys_ = f" from {allowed(names, root)}" if names else ""
    return f"map{_counts(node, 'Properties', 'key')}{keys_} to {allowed(values, root)}"


def _counts(node: Mapping[str, Any], what: str, unit: str) -> str:
    """The bounds on a list's items or a map's keys (``what``: Items or Properties), e.g. `` (at least 1 item,
    distinct)``."""
    least = node.get(f"min{what}")
    parts = [] if least is None else [f"at least {least} {unit}{'s' * (least != 1)}"]
    parts += ["distinct"] if node.get("uniqueItems") else []
    return f" ({', '.join(parts)})" if parts else ""


#: A scalar's bounds, as the table says them.
BOUNDS = {"minimum": "≥", "exclusiveMinimum": ">", "maximum": "≤", "exclusiveMaximum": "<"}


def _scalar(node: Mapping[str, Any]) -> str:
    parts = [f"{sign} {node[k]}" for k, sign in BOUNDS.items() if k in node]
    if "minLength" in node:
        parts.append(f"of at least {node['minLength']} character{'s' * (node['minLength'] != 1)}")
    if "pattern" in node:
        parts.append(f"matching {_code(node['pattern'])}")
    return " ".join([node["type"], ", ".join(parts)]).strip()


def _either(choices: list[str]) -> str:
    return " or ".join([", ".join(choices[:-1]), choices[-1]] if len(choices) > 1 else choices)


def _code(value: Any) -> str:
    return f"`{value}`"


def shown(value: Any) -> str:
    """A config value as the table shows it: JSON (YAML reads it back); past WIDTH characters a map shows its keys
    and a list the items that fit."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= WIDTH:
        return _code(text)
    if isinstance(value, Mapping):
        return _code("{" + ", ".join(f"{json.dumps(k)}: …" for k in value) + "}")
    items = [json.dumps(v, ensure_ascii=False) for v in value]
    fit = next(n for n in range(len(items), -1, -1) if len(", ".join(items[:n])) <= WIDTH)
    return _code("[" + ", ".join([*items[:fit], f"… {len(items)} items in all"]) + "]")


#: What a path has no value at.
UNSET = object()


def value_at(block: Any, path: str) -> Any:
    """The value at dotted ``path`` below ``block``, or UNSET."""
    for part in path.split("."):
        if not isinstance(block, Mapping) or part not in block:
            return UNSET
        block = block[part]
    return block


def _cell(text: str) -> str:
    """``text`` as one cell of a Markdown table: on one line, its pipes escaped, and its ``<`` outside code spans too
    (``<outdir>`` would read as an HTML tag)."""
    parts = " ".join(text.split()).replace("|", "\\|").split("`")
    return "`".join(part if i % 2 else part.replace("<", "\\<") for i, part in enumerate(parts))


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = [header, ["---"] * len(header), *rows]
    return "\n".join("| " + " | ".join(_cell(c) for c in line) + " |" for line in lines)


def _link(path: Path) -> str:
    """A Markdown link from the reference to ``path``."""
    to = path.relative_to(config.REFERENCE_FILE.parent).as_posix() + "/" * path.is_dir()
    return f"[{to}]({to})"


def generic_section(schema: Mapping[str, Any], shipped: Mapping[str, Any]) -> str:
    rows = [[_code(k.path), allowed(k.node, schema), _shown_if_set(value_at(shipped, k.path)) if k.valued else "",
             k.node.get("description", "")] for k in keys(schema)]
    return "\n\n".join([
        "## Generic keys",
        f"Schema: {_link(config.SCHEMA_FILE)}. Every other top-level key is a study's block (below).",
        _table(["key", "allowed values", "value", "description"], rows)])


def study_section(name: str, schema: Mapping[str, Any], shipped: Mapping[str, Any]) -> str:
    top, scales = shipped.get(name, {}), {s: block.get(name, {}) for s, block in shipped["scales"].items()}
    rows = [[_code(k.path), allowed(k.node, schema), *_values(k, top, scales), k.node.get("description", "")]
            for k in keys(schema)]
    return "\n\n".join([
        f"## `{name}`",
        f"Schema: {_link(studies.schema_file(name))}; its blocks `{name}:` and `scales.<scale>.{name}` in "
        f"{_link(config.CONFIG_FILE)}.",
        _table(["key", "allowed values", "every scale", *scales, "description"], rows)])


def _values(key: Key, top: Mapping[str, Any], scales: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """A key's cells: the top-level block's value, then each scale's, with the value in effect where the top-level
    block's wins over it (lrev.config merges the block over the scale's)."""
    if not key.valued:
        return [""] * (1 + len(scales))
    cells = [_shown_if_set(value_at(top, key.path))]
    for block in scales.values():
        mine, used = value_at(block, key.path), value_at(config.merge(block, top), key.path)
        cells.append(_shown_if_set(mine) + (f" (in effect: {shown(used)})" if mine is not UNSET and mine != used
                                            else ""))
    return cells


def _shown_if_set(value: Any) -> str:
    return "" if value is UNSET else shown(value)


def intro(names: list[str], scales: list[str]) -> str:
    sections = ", ".join(f"[`{n}`](#{n})" for n in names)
    return f"""# Configuration reference

Generated by `{COMMAND}` from {_link(config.SCHEMA_FILE)}, the studies' schemas in {_link(studies.SCHEMA_DIR)}
and {_link(config.CONFIG_FILE)}: do not edit it by hand. After changing any of them, run `{COMMAND}`;
tests/test_configdoc.py fails while this file differs from what the command writes.

A run reads config.yaml, and Snakemake's options override any key: `./run paper --config scale=smoke`,
`./run paper --config '<study>={{<key>: <value>}}'`, or `--configfile mine.yaml`;
`python -m lrev.config [options]` prints the settings they give. `scale` chooses one of the scales
({", ".join(f"`{s}`" for s in scales)}), which size each study.

Each study has a block of its own, `<study>:` at the top level, and one per scale, `scales.<scale>.<study>`
(studies: {sections}). Its settings are the top-level block merged over the chosen scale's, key by key: a value
in the top-level block (or given with `--config`) holds at every scale and wins over the scale's. The merged
settings are checked against the study's schema and its own cross-key rules (`lrev/<study>/study.py`) before any
work starts.

In the tables, `a.b` is key `b` of `a`'s value, `a[]` an item of list `a`, and `<name>` any key of a map. The
value columns show config.yaml's values as JSON, which `--config` accepts: the top-level block's under "every
scale", each scale's block's under the scale's name, with the value in effect where the top-level one wins over
it. A value longer than {WIDTH} characters is abridged (a map to its keys); config.yaml has it whole, with the
reasons for the sizes chosen."""


def render() -> str:
    """The config reference, as config/README.md holds it."""
    shipped = config.shipped()
    names = studies.names()
    parts = [intro(names, list(shipped["scales"])), generic_section(config.schema(), shipped),
             *(study_section(name, config.study_schema(name), shipped) for name in names)]
    return "\n\n".join(parts) + "\n"


def write(target: Path) -> None:
    with atomic_path(target, ".md") as tmp:
        tmp.write_text(render())
    print(f"configdoc: wrote {target}", file=sys.stderr)


def check(target: Path) -> int:
    """0 if ``target`` holds the rendering; else 1, saying so on stderr."""
    if target.is_file() and target.read_text() == render():
        return 0
    print(f"configdoc: {target} differs from the schemas and config/config.yaml; run {COMMAND}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help=f"exit 1 if {config.REFERENCE_FILE.name} is not the rendering")
    if ap.parse_args(argv).check:
        return check(config.REFERENCE_FILE)
    write(config.REFERENCE_FILE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
