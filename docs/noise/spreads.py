"""The per-round spreads of one run's judged cells: the observed mix that tests/test_moderation_coverage.py draws its
true spreads from.

    python docs/noise/spreads.py --root runs/default > docs/noise/spreads-default.csv

For every claim part judged on a log scale (a ratio paired by round, or a positive quantity alone: the groups of
:func:`lrev.claims.kind`), the sd of its per-round log values that its plain t interval implies
(:func:`lrev.stats.log_spread`), once per measured cell however many claims share it. The committed file's first
lines, ``#`` comments, say which run it came from and how quiet the machine was. A run written before the
moderation (no ``moderation`` in its parts) gives its own intervals; a later one gives the plain interval it kept.
"""
from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path

from lrev import claims, stats, studies
from lrev.io import read_json

COLUMNS = ["study", "group", "quantity", "claim", "version", "label", "n", "sd"]


def cells(root: Path) -> list[dict]:
    out, seen = [], set()
    for path in sorted(root.glob("results/*/claims.json")):
        judged = read_json(path)
        quantities = studies.get(judged["study"]).QUANTITIES
        for row in judged["verdicts"]:
            for part in row["parts"]:
                if "answer" in part or part.get("low") is None:
                    continue
                group = claims.kind(part["pairing"], quantities[part["quantity"]])
                plain = (part.get("moderation") or {}).get("plain") or part
                est = stats.Estimate(part["value"], plain["low"], plain["high"], part["n"])
                sd = stats.log_spread(est, judged["confidence"])
                key = (judged["study"], part["quantity"], part["value"], plain["low"], plain["high"])
                if group is None or math.isnan(sd) or key in seen:
                    continue
                seen.add(key)
                out.append({"study": judged["study"], "group": group, "quantity": part["quantity"],
                            "claim": row["claim"], "version": row["version"], "label": part["label"],
                            "n": part["n"], "sd": f"{sd:.6g}"})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="a run's folder, e.g. runs/default")
    args = parser.parse_args()
    writer = csv.DictWriter(sys.stdout, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(cells(args.root))


if __name__ == "__main__":
    main()
