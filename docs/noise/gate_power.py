"""How often the A/A gate can pass, by per-JVM spread and rounds: the arithmetic behind docs/noise.md.

    python docs/noise/gate_power.py

An A/A pair differs only in its JVMs, so its per-round log ratio is normal with mean 0 and sd sqrt(2) x the
per-JVM spread. The gate (lrev/claims.py) passes when the 95% t interval of those log ratios lies within the
registries' tolerance (``aa_tolerance``, the same in every claims/*.yaml). Simulated, 20,000 experiments per cell,
seeded; the interval is :func:`lrev.stats.t_interval`'s, vectorized over the experiments.
"""
from __future__ import annotations

import numpy as np
import scipy.stats

from lrev import claims, stats
from lrev.config import REPO

TOLERANCE = claims.load_registry(REPO / "claims" / "pk.yaml")["aa_tolerance"]
SPREADS = (0.02, 0.03, 0.05, 0.08, 0.13)
ROUNDS = (3, 5, 8, 12)


def pass_rate(spread: float, rounds: int, experiments: int = 20_000, seed: int = 0) -> float:
    logs = np.random.default_rng(seed).normal(0.0, np.sqrt(2) * spread, size=(experiments, rounds))
    half = scipy.stats.t.ppf(0.5 + stats.CONFIDENCE / 2, rounds - 1) * logs.std(axis=1, ddof=1) / np.sqrt(rounds)
    mean = logs.mean(axis=1)
    bound = np.log(TOLERANCE)
    return float(np.mean((mean - half >= -bound) & (mean + half <= bound)))


def main() -> None:
    print("| per-JVM spread | " + " | ".join(f"{r} rounds" for r in ROUNDS) + " |")
    print("|---|" + "---|" * len(ROUNDS))
    for s in SPREADS:
        print(f"| {s:.0%} | " + " | ".join(f"{pass_rate(s, r):.0%}" for r in ROUNDS) + " |")


if __name__ == "__main__":
    main()
