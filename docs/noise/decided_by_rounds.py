"""How many verdicts more rounds could decide, projected from one run's verdicts: the arithmetic behind
docs/noise.md's "Decided share by rounds".

    python docs/noise/decided_by_rounds.py --root runs/default

Every part's interval (and the A/A interval beside it) is narrowed to what n rounds would give at the same
per-round spread: its log half-width times (t(n-1)/sqrt(n)) / (t(n0-1)/sqrt(n0)), around the same point estimate.
The parts are then judged again with lrev/claims.py's own rules, in two ways:

- ``as built``: the A/A gate at the registry's tolerance, the noise band, the convergence flags as measured;
- ``A/A at 1``: the same, each A/A interval centred on 1 (its value by construction: contenders run in a shuffled
  order every round), as if the A/A estimates that sit beyond the tolerance by chance had moved back;
- ``bare``: no gate, no band, convergence ignored: the most any gate design could decide at that n.

Holding a part's point estimate fixed assumes it is where more rounds would leave it; the projection bounds, it
does not predict.
"""
from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path

import scipy.stats

from lrev import claims, stats
from lrev.io import read_json

ROUNDS = (3, 5, 8, 12)
MODES = ("as built", "A/A at 1", "bare")


def factor(n0: int, n: int) -> float:
    t = lambda k: scipy.stats.t.ppf(0.5 + stats.CONFIDENCE / 2, k - 1) / math.sqrt(k)  # noqa: E731
    return t(n) / t(n0)


def narrowed(d: dict, n: int, centre: float | None = None) -> stats.Estimate:
    """``d``'s interval as n rounds would give it, moved to ``centre`` if given; undefined intervals stay
    undefined."""
    low, high, value, n0 = (d.get(k) for k in ("low", "high", "value", "n"))
    if not (low and high and value and n0 and n0 >= 2 and low > 0):
        return stats.Estimate(math.nan, math.nan, math.nan, n)
    k, c = factor(n0, n), math.log(value)
    shift = 0.0 if centre is None else math.log(centre) - c
    return stats.Estimate(value, math.exp(c + shift - (c - math.log(low)) * k),
                          math.exp(c + shift + (math.log(high) - c) * k), n)


def part_verdict(p: dict, n: int, mode: str) -> str:
    if "answer" in p:
        return "answer"
    est, aa, noise, passes = narrowed(p, n), p.get("aa"), 1.0, None
    if aa and mode != "bare":
        a = narrowed(aa, n, 1.0 if mode == "A/A at 1" else None)
        passes = bool(1 / aa["tolerance"] <= a.low and a.high <= aa["tolerance"])
        if passes:
            noise = stats.noise_floor(a.low, a.high) ** (2 if "c" in p else 1)
    leaning = claims.judge(est, p["direction"], p["claimed"], p.get("band"), noise)
    return claims.withhold(leaning, n, passes, p["converged"] or mode == "bare")


def shares(root: Path, n: int, mode: str) -> Counter:
    counts: Counter = Counter()
    for path in sorted(root.glob("results/*/claims.json")):
        for v in read_json(path)["verdicts"]:
            if v["verdict"] == "n/a":
                continue
            if v["kind"] == "question":
                # A question is withheld at too few rounds or an unconverged series, as a claim is.
                counts[claims.answered(n, v["parts"][0]["converged"] or mode == "bare")["verdict"]] += 1
            else:
                counts[claims.combine([part_verdict(p, n, mode) for p in v["parts"]])] += 1
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, required=True, help="a run folder: <outdir>/<scale>")
    root = ap.parse_args().root
    print("| rounds | judged | decided | inconclusive | noise-limited | unconverged |")
    print("|---|---|---|---|---|---|")
    for n in ROUNDS:
        for mode in MODES:
            c = shares(root, n, mode)
            total = sum(c.values())
            decided = c["holds"] + c["fails"] + c["answer"]
            print(f"| {n} | {mode} | {decided / total:.0%} | {c['inconclusive'] / total:.0%} "
                  f"| {c['noise-limited'] / total:.0%} | {c['unconverged'] / total:.0%} |")


if __name__ == "__main__":
    main()
