"""How many cells more rounds could decide, projected from one run's verdicts by the claims step's own rules:

    PYTHONPATH=. python docs/noise/decided_by_rounds.py --root runs/default

Each measured part's interval is narrowed to what n rounds would give at the same per-round spread and point
estimate: its log half-width times (t(df_n)/sqrt(n)) / (t(df_0)/sqrt(n0)) at the part's own confidence, df the
degrees of freedom its moderation gave (d0 + n - 1; n - 1 where nothing was borrowed). A part withheld for a reason
more rounds do not change (untestable, fell-behind, biased, unconverged) keeps its verdict, and a question its
answer. A laddered part's prediction at the seed's size narrows as a t interval over the rounds' lines does (its
bend test is left as it was; a ratio-linear fit is not projected), and decides an untestable cell as the claims step
would, where the ladder was checked. Holding the point estimate fixed
assumes more rounds would leave it there: the projection bounds what rounds can buy, it does not predict which cells.
Beside each n, the fork-minutes those rounds add: a round of every contender, at the mean of the run's first three
rounds (every fork's ``timing.json``).
"""
from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path

import scipy.stats

from lrev import claims, stats
from lrev.paper import DECIDED
from lrev.io import read_json

ROUNDS = (3, 4, 5, 6, 8, 12)
#: Verdicts that more rounds of the same forks leave as they are.
KEPT = ("untestable", "fell-behind", "biased", "unconverged")


def narrowed(p: dict, n: int, df0: float, log: bool = True) -> stats.Estimate:
    """``p``'s interval (over ``df0`` degrees of freedom) as n rounds would give it, in logs or as it is; one that is
    undefined stays undefined."""
    low, high, value, n0 = (p.get(k) for k in ("low", "high", "value", "n"))
    if None in (low, high, value) or not n0 or n0 < 2 or (log and not low > 0):
        return stats.Estimate(math.nan, math.nan, math.nan, n)
    d0 = df0 - (n0 - 1)
    q = 0.5 + (p.get("confidence") or stats.CONFIDENCE) / 2
    k = (scipy.stats.t.ppf(q, d0 + n - 1) / math.sqrt(n)) / (scipy.stats.t.ppf(q, df0) / math.sqrt(n0))
    f, b = (math.log, math.exp) if log else (float, float)
    c = f(value)
    return stats.Estimate(value, b(c - (c - f(low)) * k), b(c + (f(high) - c) * k), n)


def part_verdict(p: dict, n: int) -> str:
    if p["verdict"] in KEPT:
        return p["verdict"]
    df0 = (p.get("moderation") or {}).get("df") or p["n"] - 1
    return claims.judge(narrowed(p, n, df0), p["direction"], p["claimed"], p.get("band"))


def at_seed(p: dict, n: int) -> str | None:
    """A laddered part's verdict at the seed's size with n rounds: each round's line predicts once, so its interval
    narrows as a plain t interval does (a ratio-linear fit's Fieller interval is left as it is)."""
    g = p["extrapolated"]
    if g["verdict"] in (None, *KEPT) or g["model"] not in ("loglog", "linear"):
        return g["verdict"]
    prediction = {**g["prediction"], "confidence": p.get("confidence")}
    estimate = narrowed(prediction, n, prediction["n"] - 1, log=g["model"] == "loglog")
    return claims.judge(estimate, p["direction"], p["claimed"], p.get("band"))


def cell(v: dict, n: int) -> str:
    """``decided``, or the verdict that keeps the cell from it, with n rounds."""
    if v["kind"] == "question":
        return "decided" if v["verdict"] in DECIDED else v["verdict"]
    measured = claims.combine([part_verdict(p, n) for p in v["parts"]])
    ex = v.get("extrapolated") or {}
    if measured == "untestable" and ex.get("checked"):
        grown = [at_seed(p, n) if "extrapolated" in p else part_verdict(p, n) for p in v["parts"]]
        if None not in grown and claims.combine(grown) in DECIDED:
            return "decided"
    return "decided" if measured in DECIDED else measured


def round_minutes(root: Path) -> float:
    """Fork-minutes of one round of every contender: the run's first three rounds' mean."""
    seconds = sum(read_json(t)["seconds"] for r in range(3)
                  for t in root.glob(f"results/**/forks/round-{r}/*/timing.json"))
    return seconds / 3 / 60


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, required=True, help="a run folder: <outdir>/<scale>")
    root = ap.parse_args().root
    rows = [v for path in sorted(root.glob("results/*/claims.json")) for v in read_json(path)["verdicts"]
            if v["verdict"] != "n/a"]
    per_round = round_minutes(root)
    print("| rounds | decided | share | inconclusive | fork-minutes added |")
    print("|---|---|---|---|---|")
    for n in ROUNDS:
        c = Counter(cell(v, n) for v in rows)
        print(f"| {n} | {c['decided']} | {c['decided'] / len(rows):.0%} | {c['inconclusive']} "
              f"| {max(n - 3, 0) * per_round:.0f} |")


if __name__ == "__main__":
    main()
