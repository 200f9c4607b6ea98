"""Every number and figure path the paper's `pk` section uses (paper/pk.typ), formatted, from the result
files of the configured versions (:func:`numbers`, called through :mod:`lrev.pk.study`)."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from lrev import config, fork, stats
from lrev.io import read_json
from lrev.paper import fmt, interval, provenance_row
from lrev.pk import layout, summary
from lrev.pk import results as pk_results
from lrev.pk.figures import FIGURES
from lrev.pk.layout import SEED_SETTING
from lrev.tables import select, timing_hygiene


def rate(value: float | None) -> str:
    """Lookups/s in thousands or millions, as the seed wrote them (179 K, 509 K)."""
    if value is None or math.isnan(value):
        return "n/a"
    return f"{value / 1e6:.2f} M" if value >= 1e6 else f"{value / 1e3:.0f} K"


def lookups_numbers(data: summary.PkResults) -> dict[str, Any]:
    """Per version, the seed setting's lookups/s per contender and ratio vs default, formatted."""
    table = select(summary.lookups_table(data.lookups), **SEED_SETTING)
    ratios = select(summary.ratio_table(data.lookups), **SEED_SETTING)
    noise = summary.noise_table(summary.ratio_table(data.lookups))
    out: dict[str, Any] = {}
    for version in data.versions:
        mine = table[table["version"] == version]
        ratio = ratios[ratios["version"] == version].set_index("contender")
        floor = select(noise, version=version, **SEED_SETTING)
        ranked = mine.sort_values("value", ascending=False)
        first = ranked["contender"].iloc[0] if len(ranked) else None
        top = ratio.loc[first] if first in ratio.index else None
        out[version] = {
            "noise_floor": fmt(float(floor["floor"].iloc[0])) if len(floor) else "n/a",
            # The fastest contender, and whether its whole CI vs default lies above 1.
            "fastest": ranked["contender"].iloc[0] if len(ranked) else None,
            "fastest_beats_default": bool(top is not None and top["low"] > 1),
            "contenders": [
                {"contender": row.contender, "family": row.family, "rate": rate(row.value),
                 "ci": f"[{rate(row.low)}, {rate(row.high)}]",
                 "ratio": fmt(ratio.loc[row.contender, "value"]) if row.contender in ratio.index else "1.00",
                 "ratio_ci": (interval(ratio.loc[row.contender, "low"], ratio.loc[row.contender, "high"])
                              if row.contender in ratio.index else "")}
                for row in mine.sort_values("value", ascending=False).itertuples()],
        }
    return out


def footprint_numbers(data: summary.PkResults) -> dict[str, Any]:
    table = summary.footprint_table(data.footprint)
    table = table[table["layout"] == "multi"]
    corpora = sorted(table["corpus"].unique())
    out: dict[str, list] = {}
    for version in data.versions:
        mine = table[table["version"] == version]
        rows = []
        for contender in sorted(set(mine["contender"])):
            cell = {"contender": contender}
            for corpus in corpora:
                for metric in ("heap", "mapped", "ram", "disk"):
                    hit = select(mine, contender=contender, corpus=corpus, metric=metric)
                    cell[f"{metric}_{corpus}"] = fmt(float(hit["value"].iloc[0])) if len(hit) else "n/a"
            rows.append(cell)
        out[version] = rows
    return out


def reopen_numbers(data: summary.PkResults) -> dict[str, Any]:
    table = summary.reopen_table(data.reopen)
    return {version: [{"contender": r.contender, "median": fmt(r.value), "ci": interval(r.low, r.high),
                       "p90": fmt(r.p90), "std": fmt(r.std)}
                      for r in table[table["version"] == version].sort_values("value").itertuples()]
            for version in data.versions}


def crosscheck_numbers(data: summary.PkResults) -> list[dict[str, Any]]:
    """Harness vs PlainLookupLoop alone, each as a ratio to the default of the same rounds."""
    table = summary.crosscheck_table(data.lookups, data.plain)
    return [{"version": r.version, "contender": r.contender, "harness": rate(r.harness_lookups_per_s),
             "plain": rate(r.plain_lookups_per_s), "harness_range": f"{rate(r.harness_min)}–{rate(r.harness_max)}",
             "plain_range": f"{rate(r.plain_min)}–{rate(r.plain_max)}", "harness_ratio": fmt(r.harness_ratio),
             "plain_ratio": fmt(r.plain_ratio), "agreement": fmt(r.value),
             "ci": interval(r.low, r.high), "within": r.within} for r in table.itertuples()]


def jvm_spread(data: summary.PkResults) -> dict[str, Any] | None:
    """The widest fastest/slowest ratio between one contender's plain-loop JVMs: the same loop, code, index
    and flags in every one of them, so the spread is the JVMs' own."""
    table = summary.crosscheck_table(data.lookups, data.plain)
    if table.empty:
        return None
    spread = table["plain_max"] / table["plain_min"]
    worst = table.loc[spread.idxmax()]
    return {"version": worst["version"], "contender": worst["contender"], "low": rate(worst["plain_min"]),
            "high": rate(worst["plain_max"]), "factor": fmt(float(spread.max()))}


def crosscheck_power(data: summary.PkResults) -> dict[str, Any] | None:
    """How many rows of the cross-check noise alone leaves within its tolerance, and the rounds it would take."""
    power = summary.crosscheck_power(data.lookups, data.plain)
    if power is None:
        return None
    return {"rounds": power.rounds, "harness_sd": f"{power.harness_sd * 100:.1f}%",
            "plain_sd": f"{power.plain_sd * 100:.1f}%", "agreement_sd": f"{power.agreement_sd * 100:.1f}%",
            "expected_within": f"{power.expected_within * 100:.0f}%", "rounds_for_95": power.rounds_for_95}


def mixed_numbers(data: summary.PkResults) -> dict[str, Any]:
    """The mixed-JVM penalty: each contender's lookups/s in a JVM shared with the others ÷ alone."""
    table = summary.mixed_table(data.lookups, data.mixed)
    table = table[table["contender"] != layout.AA]
    worst = table.loc[table["value"].idxmin()] if len(table) else None
    return {"worst": None if worst is None else {"version": worst["version"], "contender": worst["contender"],
                                                 "ratio": fmt(worst["value"]),
                                                 "ci": interval(worst["low"], worst["high"])},
            "below": int((table["high"] < 1).sum()), "above": int((table["low"] > 1).sum()), "total": len(table)}


def jdk_numbers(data: summary.PkResults, results: Path) -> list[dict[str, Any]]:
    """Each contender timed on another JDK too: its lookups/s on the default JDK ÷ on that one, seed setting, with
    the build of that JDK as its first fork reported it (the manifest's JDK is the default one)."""
    return [{"version": r.version, "contender": r.contender, "java": int(r.java),
             "build": _fork_java(results, r.version, r.variant), "ratio": fmt(r.value),
             "ci": interval(r.low, r.high, n=int(r.n))}
            for r in summary.jdk_table(data.lookups).itertuples()]


def _fork_java(results: Path, version: str, contender: str) -> str:
    forks = layout.results_dir(results.parent, version) / "forks"
    report = min(forks.glob(f"round-*/{pk_results.ALONE}{contender}/{fork.JVM_REPORT}"))
    return read_json(report)["java_version"]


def parameters_text(p: dict[str, Any]) -> str:
    """The measurement parameters of one version's run, in a sentence, for the provenance appendix."""
    return (f"{p['rounds']} rounds of forks (the mixed JVM in the first {p['mixed_rounds']}), iterations ≥ {p['iteration_ms']} ms, warm-up "
            f"{p['min_warmup']}–{p['max_warmup']} iterations (stable at CV ≤ {p['stable_cv']}; the "
            f"seed setting, first in a cold JVM, at least {p['seed_warmup_s']} s), "
            f"{p['measure_iterations']} measured iterations per fork, key files of "
            f"{p['key_batches']} × {p['batch_size']} keys, a segment flushed every "
            f"{p['segment_docs']:,} docs, {p['body_words']}-word bodies, plain loop "
            f"{p['plain']['warmup_s']} s warm-up + {p['plain']['measure_s']} s, seed {p['seed']}")


def numbers(results: Path, versions: Sequence[str], figures: Path, claims: dict[str, Any]) -> dict[str, Any]:
    """``figures``: the folder of this study's figures."""
    data = summary.load(results, versions)
    first = next(iter(data.manifests.values()))
    p = first["parameters"]
    crosscheck = crosscheck_numbers(data)
    paper_scale = config.load({"scale": "paper", "studies": ["pk"]}).study("pk")
    return {
        "meta": {"docs": f"{p['docs']:,}", "uuid_docs": f"{p['uuid_docs']:,}",
                 "corpora": [k for k in ("seq", "rand", "uuid") if k in {c["corpus"] for c in p["conditions"]}],
                 "rounds": p["rounds"], "mixed_rounds": p["mixed_rounds"], "iteration_ms": p["iteration_ms"],
                 "measure_iterations": p["measure_iterations"], "max_warmup": p["max_warmup"],
                 "seed_warmup_s": p["seed_warmup_s"],
                 "batch_size": f"{p['batch_size']:,}", "keys": f"{p['batch_size'] * p['key_batches']:,}",
                 "converged_share": f"{summary.converged_share(data.lookups) * 100:.1f}%",
                 "jit_share": f"{summary.jit_share(data.lookups) * 100:.2f}%",
                 "jit_quiet_share": f"{first['warmup']['jit_quiet_share'] * 100:.0f}%",
                 "stable_window": first["warmup"]["window"], "confidence": f"{stats.CONFIDENCE * 100:.0f}%",
                 "segments": segment_layout(results, first),
                 "paper_docs": f"{paper_scale['docs'] / 1e6:.1f} M",
                 "reopen": p["reopen"],
                 "reopen_rate": f"{p['reopen']['updates_per_reopen'] * 1000 // p['reopen']['interval_ms']:,}",
                 "plain": p["plain"], "conditions": p["conditions"],
                 # Each version's run records its own ladder (layout.for_version); a run from before the ladder, none.
                 "ladder_docs": [f"{n:,}" for n in sorted({n for m in data.manifests.values()
                                                           for n in m["parameters"].get("ladder", {}).get("docs", [])})],
                 "ladder_contenders": list(dict.fromkeys(c for m in data.manifests.values()
                                                         for c in m["parameters"].get("ladder", {}).get("contenders", []))),
                 # Each version's own: a version's run records only the contenders it ran (layout.for_version).
                 "contenders": {v: m["parameters"]["contenders"][v] for v, m in data.manifests.items()},
                 "crosscheck_tolerance": f"{summary.CROSSCHECK_TOLERANCE * 100:.0f}%",
                 "aa_tolerance": f"{summary.AA_TOLERANCE * 100:.0f}%"},
        "lookups": lookups_numbers(data),
        "footprint": footprint_numbers(data),
        "reopen": reopen_numbers(data),
        "crosscheck": crosscheck,
        "crosscheck_within": sum(c["within"] for c in crosscheck),
        "jvm_spread": jvm_spread(data),
        "crosscheck_power": crosscheck_power(data),
        "mixed": mixed_numbers(data),
        "jdk": jdk_numbers(data, results),
        # Every measured iteration, alone and in the mixed JVM.
        "timing_hygiene": timing_hygiene(pd.concat([data.lookups, data.mixed], ignore_index=True)),
        "figures": {name: str((figures / f"{name}.png").resolve()) for name in FIGURES},
        "provenance": [{**provenance_row(v, m), "parameters": parameters_text(m["parameters"])}
                       for v, m in data.manifests.items()],
    }


def segment_layout(results: Path, manifest: dict[str, Any]) -> str:
    """Segment sizes of the seed setting's multi-segment index, as its index manifest records them."""
    index = (results.parent / "indexes" / "pk" / manifest["lucene_version"] / layout.SEED_SETTING["corpus"]
             / "manifest.json")
    built = read_json(index)["indexes"]
    sizes = next(r["segment_docs"] for r in built if r["contender"] == "default" and r["layout"] == "multi")
    return ", ".join(f"{int(n):,}" for n in sizes.split(","))
