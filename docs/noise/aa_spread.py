"""How much one JVM differs from the next, per JVM setting: the experiment behind docs/noise.md.

    python docs/noise/aa_spread.py --root runs/default --study pk --forks 8 --out docs/noise/pk.csv

Each setting (extra JVM flags through ``$LREV_JVM_FLAGS``, and optionally a CPU pinning of the whole fork with
``taskset``) runs ``--forks`` forks of the study's A/A contender on an index of a finished run, settings interleaved
and shuffled round by round so that host drift hits all alike. A fork's value is its mean over measured iterations
of the study's timed quantity on one series; the spread of a setting is the sample sd of the log fork values
(per series, then the root mean square over series): the per-JVM noise every paired ratio carries twice.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from lrev import bridge, config

#: name -> (extra JVM flags, command prefix)
SETTINGS = {
    "as shipped": ("", []),
    "pinned to one core": ("", ["taskset", "-c", "1"]),
    "1 GC thread, 2 compilers": ("-XX:ParallelGCThreads=1 -XX:CICompilerCount=2", []),
    "AlwaysPreTouch": ("-XX:+AlwaysPreTouch", []),
    "transparent huge pages": ("-XX:+UseTransparentHugePages", []),
    "no class-data sharing": ("-Xshare:off", []),
    "C2 only (no tiers)": ("-XX:-TieredCompilation", []),
}

#: Per study: the A/A task's payload (its settings cut to one short workload), and how to read a fork's values.
STUDIES = {
    "pk": {
        "version": "10.5.1",
        "payload": lambda s: {"contender": "default-aa", "pk": {
            **s, "conditions": [{"corpus": "seq", "layout": "multi", "miss_rate": 0.0, "threads": [1]}]}},
        "table": "lookups",
        "series": ["series"],
        "value": lambda t: t["ops"] / (t["nanos"] / 1e9),
    },
    "dvjump": {
        "version": "8.11.4",
        "payload": lambda s: {"contender": "lucene7-index-aa", "dvjump": {**s, "workloads": ["facet", "sort"]}},
        "table": "latency",
        "series": ["workload", "bucket"],
        "value": lambda t: t["median_nanos"],
    },
}


def run_fork(study: str, version: str, payload: dict, prefix: list[str], flags: str, out: Path) -> pd.DataFrame:
    out.mkdir(parents=True)
    payload_file = out / "payload.json"
    payload_file.write_text(json.dumps(payload))
    env = {**os.environ, bridge.EXTRA_FLAGS_ENV: flags}
    subprocess.run([*prefix, sys.executable, "-m", "lrev.fork", f"{study}.measure", version, str(payload_file),
                    str(out)], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return pd.read_parquet(out / f"{STUDIES[study]['table']}.parquet")


def fork_values(study: str, table: pd.DataFrame) -> pd.Series:
    spec = STUDIES[study]
    if "phase" in table:
        table = table[table["phase"] == "measure"]
    return table.assign(value=spec["value"](table)).groupby(spec["series"])["value"].mean()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, required=True, help="a finished run's <outdir>/<scale> (its indexes)")
    ap.add_argument("--study", choices=sorted(STUDIES), required=True)
    ap.add_argument("--scale", default="default")
    ap.add_argument("--forks", type=int, default=8)
    ap.add_argument("--settings", nargs="*", default=list(SETTINGS), choices=list(SETTINGS))
    ap.add_argument("--out", type=Path, required=True, help="CSV: one row per fork and series")
    a = ap.parse_args(argv)
    spec = STUDIES[a.study]
    settings = config.load({"scale": a.scale}).study(a.study)
    base = {"root": str(a.root.resolve()), "version": spec["version"], **spec["payload"](settings)}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.forks):
            order = list(a.settings)
            random.Random(r).shuffle(order)
            for name in order:
                flags, prefix = SETTINGS[name]
                table = run_fork(a.study, spec["version"], {**base, "round": r}, prefix, flags,
                                 Path(tmp) / f"{r}-{order.index(name)}")
                for series, value in fork_values(a.study, table).items():
                    rows.append({"setting": name, "fork": r, "series": str(series), "value": value})
                print(f"fork {r + 1}/{a.forks}: {name}", file=sys.stderr)
    frame = pd.DataFrame(rows)
    frame.to_csv(a.out, index=False)
    sd = frame.assign(log=np.log(frame["value"])).groupby(["setting", "series"])["log"].std(ddof=1)
    print(sd.pow(2).groupby("setting").mean().pow(0.5).mul(100).round(1).rename("per-JVM sd, %").to_string())


if __name__ == "__main__":
    main()
