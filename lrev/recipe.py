"""A corpus recipe's command line (``data-recipes/<s>_*.py``): the corpus's settings as one JSON block, which its
rule builds from the study's config (``corpus_settings`` in ``lrev/<s>/layout.py``), and the folder to write.

    python data-recipes/<s>_corpus.py --settings '{"docs": 1000, "seed": 7, ...}' --out runs/<scale>/corpora/…

A recipe states the settings it takes as JSON-schema properties, every one required: it has no defaults of its own,
so the corpus a run builds is the one its config says. The block is checked before any work; a setting missing,
unknown or out of range stops the recipe with an error naming it.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Sequence

import jsonschema
import numpy as np

INTEGER = {"type": "integer"}
POSITIVE = {"type": "integer", "minimum": 1}


def parser(description: str) -> argparse.ArgumentParser:
    """``--settings`` and ``--out``; a recipe that reads another folder adds its own argument."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--settings", type=json.loads, required=True, help="the corpus's settings, as a JSON object")
    ap.add_argument("--out", type=Path, required=True, help="the corpus folder, written whole or not at all")
    return ap


def parse(ap: argparse.ArgumentParser, properties: dict[str, Any], argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, its ``settings`` checked against ``properties``: each required, none other allowed."""
    args = ap.parse_args(argv)
    schema = {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(args.settings))
    if error is not None:
        where = ".".join(map(str, error.absolute_path))
        ap.error(f"settings error at '{where}': {error.message}" if where else f"settings error: {error.message}")
    return args


def pseudo_words(syllables: Sequence[str], count: int, offset: int = 0) -> np.ndarray:
    """``count`` distinct pseudo-words: the digits of ``offset + rank + 1`` in base ``len(syllables)``, least
    significant first, each spelled as its syllable. A recipe's vocabulary, so its words never collide."""
    out = []
    for rank in range(offset, offset + count):
        digits, n = [], rank + 1
        while n:
            n, d = divmod(n, len(syllables))
            digits.append(syllables[d])
        out.append("".join(digits))
    return np.array(out, dtype=object)
