"""Forks in lockstep against forks one after another: the experiment behind docs/noise.md's lockstep section.

    python docs/noise/lockstep.py --root runs/default --rounds 6 --out /tmp/lockstep

Each round runs dvjump's forks of three contenders on the full corpus of a finished default run (lucene7-index,
upgraded and the A/A contender lucene7-index-aa, all 8.11.4) twice, in an order alternating by round: once as a
lockstep group (lrev/turns.py), once one after another, each through ``lrev.fork.run_rounds`` as the study runs
them. It prints, per series and arm, the sd over rounds of the log ratio of two forks' medians (the A/A pair and
the seed's Solr 7 / Solr 8r1 pair): the spread a paired ratio carries.
"""
from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd

from lrev import config, fork
from lrev.dvjump import forks

CONTENDERS = ("lucene7-index", "upgraded", "lucene7-index-aa")
PAIRS = {"A/A": ("lucene7-index", "lucene7-index-aa"), "Solr 7 / Solr 8r1": ("lucene7-index", "upgraded")}


def run(root: Path, rounds: int, out: Path) -> None:
    settings = config.load({"studies": ["dvjump"]}).study("dvjump")
    jobs = [j for j in forks.jobs(root, settings) if j.name in CONTENDERS]
    arms = {"lockstep": jobs, "one after another": [dataclasses.replace(j, lockstep="") for j in jobs]}
    for r in range(rounds):
        for arm in sorted(arms, reverse=bool(r % 2)):
            # Rounds 0..r: the earlier ones are on disk (resumed), so each call runs round r alone.
            fork.run_rounds(arms[arm], r + 1, settings["seed"], out / arm.replace(" ", "-"), arm, label=arm)


def spread(out: Path) -> pd.DataFrame:
    rows = []
    for arm_dir in sorted(p for p in out.iterdir() if p.is_dir()):
        for r, job in fork.round_jobs(arm_dir):
            d = pd.read_parquet(job / "latency.parquet")
            for (workload, bucket), v in d.groupby(["workload", "bucket"])["median_nanos"].median().items():
                rows.append((arm_dir.name, r, job.name, f"{workload} {bucket}", v))
    df = pd.DataFrame(rows, columns=["arm", "round", "contender", "series", "median"])
    wide = df.pivot_table(index=["arm", "round", "series"], columns="contender", values="median")
    out_rows = []
    for pair, (a, b) in PAIRS.items():
        lr = np.log(wide[a] / wide[b]).rename("lr").reset_index()
        sd = lr.groupby(["arm", "series"])["lr"].std().unstack("arm")
        out_rows.append(sd.assign(pair=pair))
    return pd.concat(out_rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("runs/default"))
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--analyse-only", action="store_true")
    args = parser.parse_args()
    if not args.analyse_only:
        run(args.root, args.rounds, args.out)
    table = spread(args.out)
    print(table.round(3).to_string())
    print(table.groupby("pair").median(numeric_only=True).round(3).to_string())


if __name__ == "__main__":
    main()
