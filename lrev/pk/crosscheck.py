"""Cross-check the harness against an independent plain-Java loop (``PlainLookupLoop``).

For the default format and the FST-in-RAM format the seed promoted, on the seed's setting (seq ids,
multi-segment, no misses, one thread), each fork runs the pipeline's own run of that condition (every
contender at every thread count interleaved, A/A included; its one-thread samples are compared) with two
plain-loop passes over the same keys on the checked contender's
index after every round (``PkCrossCheck``). The harness's sample and the second plain pass are paired:
their ratio, a geometric mean over rounds and forks with a bootstrap interval, says whether the harness
measures the lookups and not itself. It agrees when within ``TOLERANCE`` of 1. The pipeline's own mean
(its measurement forks, other JVMs, minutes apart) is recorded beside it, to show the spread across JVMs.

Why paired rounds in one JVM: on this kind of VM two JVM starts measured the very same loop up to 1.6x
apart, and one JVM drifted by tens of percent within seconds; comparisons made seconds apart swung
either way (0.65–1.40) before the pairing. One checked contender per fork, because a plain loop whose
seekExact call site had seen another format's terms enum ran slower on the next (the JIT's type profile
is per call site).

    python -m lrev.pk.crosscheck --version 9.12.3 --root runs/default --settings pk.json --out …/crosscheck.json
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pandas as pd
from scipy.stats import gmean

from lrev import fork, provenance, stats
from lrev.io import write_json, write_parquet
from lrev.pk import layout, summary

TOLERANCE = 0.15


def checked_contenders(contenders: list[str]) -> list[str]:
    """The default format and the FST-in-RAM one the seed promoted (Memory where it exists)."""
    fst = next((c for c in ("Memory", "FST50", "FST41") if c in contenders), None)
    return ["default"] + ([fst] if fst else [])


HARNESS, PLAIN, FIRST_PASS = "harness", "plain loop", "plain loop, first pass"


def paired_rates(samples: pd.DataFrame, contender: str) -> pd.DataFrame:
    """Measured lookups/s of ``contender`` per (fork, round), one column per source."""
    mine = samples[(samples["phase"] == "measure") & (samples["contender"] == contender)
                   & (samples["threads"] == layout.SEED_SETTING["threads"])]
    rates = mine.assign(lookups_per_s=mine["ops"] / (mine["nanos"] / 1e9))
    wide = rates.pivot_table(index=["fork", "round"], columns="source", values="lookups_per_s", aggfunc="first")
    return wide.reindex(columns=[HARNESS, PLAIN, FIRST_PASS]).dropna()


def check(samples: pd.DataFrame, contender: str, tolerance: float = TOLERANCE) -> dict[str, Any]:
    """The verdict for one contender: paired ratio harness/plain loop with its interval and both means,
    plus the plain loop's first pass of a round against its second (what following other code costs)."""
    pairs = paired_rates(samples, contender)
    if pairs.empty:
        raise ValueError(f"no paired measured rounds for contender '{contender}'")
    ratio = stats.paired_ratio(pairs[HARNESS], pairs[PLAIN])
    first = stats.paired_ratio(pairs[FIRST_PASS], pairs[PLAIN])
    # Geometric means, so that their quotient is the paired ratio: on bimodal forks medians need not agree.
    return {"contender": contender, "harness_lookups_per_s": float(gmean(pairs[HARNESS])),
            "plain_lookups_per_s": float(gmean(pairs[PLAIN])), "ratio": ratio.value,
            "ratio_low": ratio.low, "ratio_high": ratio.high, "pairs": ratio.n,
            "within_tolerance": bool(abs(ratio.value - 1) <= tolerance),
            "first_pass_ratio": first.value, "first_pass_low": first.low, "first_pass_high": first.high}


def pipeline_means(lookups: pd.DataFrame) -> dict[str, float]:
    """The mean lookups/s per contender on the seed's setting that the pipeline reports (its own forks)."""
    measured = summary.select(lookups[lookups["phase"] == "measure"], **layout.SEED_SETTING)
    return measured.groupby("contender")["lookups_per_s"].mean().to_dict()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--settings", required=True, help="the pk study's effective settings, as JSON")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    pk = json.loads(a.settings)
    contenders = checked_contenders(pk["contenders"][a.version])
    forks_dir = layout.results_dir(a.root, a.version) / "forks"
    parts = []
    for contender in contenders:
        for f in range(pk["forks"]):
            payload = {"root": str(a.root), "version": a.version, "fork": f, "pk": pk, "contender": contender}
            part, jvm = fork.run("pk.crosscheck", a.version, payload, forks_dir / f"crosscheck-{contender}-{f}.parquet")
            parts.append(part.assign(checked=contender, fork=f))
    samples = pd.concat(parts, ignore_index=True)
    samples_file = a.out.with_suffix(".parquet")
    write_parquet(samples_file, samples)
    reported = pipeline_means(pd.read_parquet(layout.results_dir(a.root, a.version) / "lookups.parquet"))
    checks = []
    for contender in contenders:
        checks.append({**check(samples[samples["checked"] == contender], contender),
                       "pipeline_lookups_per_s": reported[contender]})
        c = checks[-1]
        print(f"{a.version} {contender}: harness {c['harness_lookups_per_s']:,.0f}/s, plain loop "
              f"{c['plain_lookups_per_s']:,.0f}/s, paired ratio {c['ratio']:.3f} "
              f"[{c['ratio_low']:.3f}, {c['ratio_high']:.3f}] over {c['pairs']} rounds")
    write_json(a.out, stats.json_safe({
        "version": a.version, "condition": layout.SEED_SETTING, "tolerance": TOLERANCE,
        "forks": pk["forks"], "rounds": pk["crosscheck_rounds"], "checks": checks, "jdk_flags": jvm["flags"],
        "samples": samples_file.name, "finished": provenance.now()}))


if __name__ == "__main__":
    main()
