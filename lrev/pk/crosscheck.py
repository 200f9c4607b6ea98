"""Cross-check the harness against an independent plain-Java loop (``PlainLookupLoop``).

For the default format and the FST-in-RAM format the seed promoted, on the seed's setting (seq ids,
multi-segment, no misses, one thread), a fork per checked contender alternates the pipeline's
interleaved lookup run (all contenders) with the plain loop on that contender's index, in the same
JVM. Agreement of the medians within ``TOLERANCE`` says the harness measures the lookups and not
itself. Same JVM on purpose: two JVM starts on this kind of VM measured the very same loop up to 1.6x
apart. One contender per fork, because a plain loop that had run another format's terms enum at its
seekExact call site ran slower on the next (the JIT's type profile is per call site).

    python -m lrev.pk.crosscheck --version 9.12.3 --root runs/default --settings pk.json --out …/crosscheck.json
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from lrev import fork, provenance
from lrev.io import write_json, write_parquet
from lrev.pk import layout

TOLERANCE = 0.15
ALTERNATIONS = 3


def checked_contenders(contenders: list[str]) -> list[str]:
    """The default format and the FST-in-RAM one the seed promoted (Memory where it exists)."""
    fst = next((c for c in ("Memory", "FST50", "FST41") if c in contenders), None)
    return ["default"] + ([fst] if fst else [])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--settings", required=True, help="the pk study's effective settings, as JSON")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    pk = json.loads(a.settings)
    contenders = checked_contenders(pk["contenders"][a.version])
    parts = []
    for i, contender in enumerate(contenders):
        payload = {"root": str(a.root), "version": a.version, "fork": i, "pk": pk, "contenders": [contender],
                   "alternations": ALTERNATIONS, "seconds": pk["crosscheck_seconds"]}
        forks_dir = layout.results_dir(a.root, a.version) / "forks"
        part, jvm = fork.run("pk.crosscheck", a.version, payload, forks_dir / f"crosscheck-{contender}.parquet")
        parts.append(part)
    samples = pd.concat(parts, ignore_index=True)
    samples_file = a.out.with_suffix(".parquet")
    write_parquet(samples_file, samples)
    medians = samples.groupby(["contender", "source"])["lookups_per_s"].median().unstack()
    checks = []
    for contender in contenders:
        ratio = medians.loc[contender, "harness"] / medians.loc[contender, "plain loop"]
        checks.append({"contender": contender, "harness_lookups_per_s": medians.loc[contender, "harness"],
                       "plain_lookups_per_s": medians.loc[contender, "plain loop"], "ratio": ratio,
                       "within_tolerance": bool(abs(ratio - 1) <= TOLERANCE)})
        print(f"{a.version} {contender}: harness {checks[-1]['harness_lookups_per_s']:,.0f}/s, "
              f"plain loop {checks[-1]['plain_lookups_per_s']:,.0f}/s, ratio {ratio:.3f}")
    write_json(a.out, {"version": a.version, "condition": layout.SEED_SETTING,
                       "tolerance": TOLERANCE, "alternations": ALTERNATIONS,
                       "plain_loop_seconds": pk["crosscheck_seconds"], "checks": checks, "jdk_flags": jvm["flags"],
                       "samples": samples_file.name, "finished": provenance.now()})


if __name__ == "__main__":
    main()
