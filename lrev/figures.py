"""A study's figures, for its rule: ``python -m lrev.figures <study> --results RESULTS --settings JSON --out DIR``.

It calls ``write_all(results, settings, out)`` of ``lrev/<study>/figures.py``, which writes each of its figures as
PDF and PNG (:func:`lrev.plots.save`); ``settings`` is the study's effective config block, as its rule passes it.
"""
from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from typing import Sequence

import matplotlib

from lrev import studies


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", choices=studies.names())
    parser.add_argument("--results", type=Path, required=True, help="the results folder (holds <study>/<version>/)")
    parser.add_argument("--settings", type=json.loads, required=True, help="the study's settings, as JSON")
    parser.add_argument("--out", type=Path, required=True, help="the study's figure folder")
    args = parser.parse_args(argv)
    matplotlib.use("Agg")  # files only, whatever display there is
    importlib.import_module(f"lrev.{args.study}.figures").write_all(args.results, args.settings, args.out)


if __name__ == "__main__":
    main()
