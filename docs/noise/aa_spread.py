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
from lrev.pk import layout, plain

#: A pk-only setting: the plain-loop cross-check (lrev/pk/plain.py, a plain JVM, no harness, no JPype) on the
#: default index of the seed's setting, the series the A/A forks time first.
PLAIN = "plain loop (pk)"

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


def plain_values(root: Path, version: str, pk: dict) -> pd.Series:
    cond = layout.seed_condition(pk)
    index = layout.index_path(root, version, cond["corpus"], layout.AA.removesuffix(layout.AA_SUFFIX), cond["layout"])
    table = plain.run(version, index,
                      layout.keys_file(root, cond["corpus"], cond["miss_rate"]), pk["plain"]["warmup_s"],
                      pk["plain"]["measure_s"], pk["batch_size"])
    return pd.Series({layout.condition_label(cond): float(STUDIES["pk"]["value"](table).iloc[0])})


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
    ap.add_argument("--version", help="the Lucene version whose index is read (default: the study's below)")
    ap.add_argument("--forks", type=int, default=8)
    ap.add_argument("--settings", nargs="*", default=list(SETTINGS), choices=[*SETTINGS, PLAIN])
    ap.add_argument("--out", type=Path, required=True, help="CSV: one row per fork and series")
    a = ap.parse_args(argv)
    if PLAIN in a.settings and a.study != "pk":
        ap.error(f"--settings '{PLAIN}' is pk's cross-check; --study is {a.study}")
    spec = STUDIES[a.study]
    settings = config.load({"scale": a.scale}).study(a.study)
    version = a.version or spec["version"]
    base = {"root": str(a.root.resolve()), "version": version, **spec["payload"](settings)}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.forks):
            order = list(a.settings)
            random.Random(r).shuffle(order)
            for name in order:
                if name == PLAIN:
                    values = plain_values(a.root.resolve(), version, settings)
                else:
                    flags, prefix = SETTINGS[name]
                    values = fork_values(a.study, run_fork(a.study, version, {**base, "round": r}, prefix, flags,
                                                           Path(tmp) / f"{r}-{order.index(name)}"))
                for series, value in values.items():
                    rows.append({"setting": name, "fork": r, "series": str(series), "value": value})
                print(f"fork {r + 1}/{a.forks}: {name}", file=sys.stderr)
    frame = pd.DataFrame(rows)
    frame.to_csv(a.out, index=False)
    print(spreads(frame).round(1).to_string())


def spreads(frame: pd.DataFrame) -> pd.DataFrame:
    """Per setting, in %: the sd of the log fork values, and the same with each round's mean over the settings
    taken out (the host's drift between rounds, which a ratio paired by round cancels; k settings per round
    leave k - 1 degrees of freedom, hence the factor)."""
    frame = frame.assign(log=np.log(frame["value"]))
    k = frame["setting"].nunique()
    frame["within_round"] = frame["log"] - frame.groupby(["fork", "series"])["log"].transform("mean")
    by = frame.groupby(["setting", "series"])
    return pd.DataFrame({"per-JVM sd, %": _rms(by["log"].std(ddof=1)),
                         "round drift removed, %": _rms(by["within_round"].std(ddof=1) * np.sqrt(k / (k - 1)))})


def _rms(sd: pd.Series) -> pd.Series:
    """Root mean square over a setting's series, in %."""
    return sd.pow(2).groupby("setting").mean().pow(0.5).mul(100)


if __name__ == "__main__":
    main()
