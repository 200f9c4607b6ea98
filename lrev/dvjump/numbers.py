"""Every number and figure path the paper's `dvjump` section uses (paper/dvjump.typ), formatted, from the
result files of the configured versions (:func:`numbers`, called through :mod:`lrev.dvjump.study`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from lrev import stats
from lrev.dvjump import figures, layout, summary
from lrev.paper import fmt, interval, provenance_row
from lrev.tables import timing_hygiene

#: The requests the production request combines that also run alone.
COCKTAIL_PARTS = ("facet", "group", "retrieve")


def parameters_text(p: dict[str, Any]) -> str:
    ladder = p["ladder"]["docs"]
    return (f"{p['docs']:,} documents in one segment" + (
        f" (and {', '.join(f'{n:,}' for n in ladder)} in the ladder's, for {', '.join(p['ladder']['workloads'])})"
        if ladder else "")) + (
        f"; {p['rounds']} rounds of forks, iterations ≥ {p['iteration_ms']} ms, warm-up {p['min_warmup']}–"
        f"{p['max_warmup']} iterations (stable at CV ≤ {p['stable_cv']}), {p['measure_iterations']} measured; "
        f"buckets 10^{p['buckets'][0]}–10^{p['buckets'][-1]} hits, {p['queries_per_bucket']} queries each; "
        f"export of {p['export_fraction'] * 100:g}% of the documents, {p['export_runs']} runs; seed {p['seed']}")


def export_rows(data: summary.DvjResults, runs: int) -> list[dict[str, Any]]:
    """The seed's export table: each contender's runs 1..n, in ms (geometric mean over forks and its CI)."""
    table = summary.export_table(data.export)
    return [{"version": r["version"], "contender": r["contender"], "label": layout.contender(r["contender"]).label,
             "resident": f"{r['resident_share'] * 100:.0f}%",
             "runs": [f"{fmt(r[f'run{i}'])} {interval(r[f'run{i}_low'], r[f'run{i}_high'])}"
                      for i in range(1, runs + 1)]}
            for _, r in table.iterrows()]


def gains(data: summary.DvjResults) -> list[dict[str, Any]]:
    """Baseline latency ÷ each system's with jump tables, per workload and bucket (full corpus)."""
    base = (layout.contender(layout.BASELINE).version, layout.BASELINE)
    out = []
    for name in ("upgraded", "search-time", "lucene9", "lucene10"):
        if name not in set(data.latency["contender"]):
            continue
        ratio = summary.ratio(data.latency, base, (layout.CONTENDERS[name].version, name))
        for r in ratio[(ratio["corpus"] == "full") & (ratio["threads"] == 1)].itertuples():
            out.append({"contender": name, "workload": r.workload, "bucket": int(r.bucket),
                        "gain": fmt(r.value), "ci": interval(r.low, r.high)})
    return out


def regression(data: summary.DvjResults) -> list[dict[str, Any]]:
    """Lucene 7.7.3's latency ÷ the random-access Lucene 6.6.6's and ÷ the upgraded index's (index-time
    jump tables), for the requests that read DocValues out of docID order (export, retrieval), per bucket
    (full corpus, one request thread): above 1, Lucene 7 is slower."""
    seven = layout.CONTENDERS["lucene7"]
    out = []
    for name in ("lucene6", "upgraded"):
        if not {"lucene7", name} <= set(data.latency["contender"]):
            continue
        ratio = summary.ratio(data.latency, (seven.version, "lucene7"), (layout.CONTENDERS[name].version, name))
        keep = (ratio["corpus"] == "full") & (ratio["threads"] == 1) & ratio["workload"].isin(["export", "retrieve"])
        for r in ratio[keep].itertuples():
            out.append({"against": name, "workload": r.workload, "bucket": int(r.bucket), "ratio": fmt(r.value),
                        "ci": interval(r.low, r.high)})
    return out


def formats(data: summary.DvjResults) -> list[dict[str, Any]]:
    """8.11.4 with every field's DocValues in the Lucene70 format ÷ the same documents in Lucene80, per
    workload and bucket (full corpus, one thread): the jump tables alone, with nothing else changed."""
    version = layout.CONTENDERS["dv70"].version
    if not {"dv70", "dv80"} <= set(data.latency["contender"]):
        return []
    ratio = summary.ratio(data.latency, (version, "dv70"), (version, "dv80"))
    return [{"workload": r.workload, "bucket": int(r.bucket), "ratio": fmt(r.value), "ci": interval(r.low, r.high)}
            for r in ratio[(ratio["corpus"] == "full") & (ratio["threads"] == 1)].itertuples()]


def cocktail(data: summary.DvjResults) -> list[dict[str, Any]]:
    """What the production request saves with jump tables against the sum of what faceting, grouping and
    retrieval save alone (the seed's "cocktail effect"; cardinality never ran alone, there or here)."""
    base = (layout.contender(layout.BASELINE).version, layout.BASELINE)
    out = []
    for name in ("upgraded", "search-time", "lucene9", "lucene10"):
        if name not in set(data.latency["contender"]):
            continue
        table = summary.cocktail(data.latency, base, (layout.CONTENDERS[name].version, name), "combined",
                                 COCKTAIL_PARTS)
        out.extend({"contender": name, "bucket": r.bucket, "whole_ms": fmt(r.whole_ms),
                    "parts_ms": fmt(r.parts_ms), "ratio": fmt(r.value),
                    "ci": interval(r.low, r.high) + (f" ({r.failed} of {r.n + r.failed} rounds saved nothing)"
                                                     if r.failed else "")}
                   for r in table.itertuples())
    return out


def mechanism(data: summary.DvjResults) -> list[dict[str, Any]]:
    """The cost of one read with a fresh reader near the segment's start (the first position after doc 0)
    and at its end, per contender and field: why a gain depends on the segment's size, and what each kind
    of jump table costs per read (median over forks and repeats, ns)."""
    out = []
    positions = data.positions[data.positions["contender"] != layout.AA]
    for (contender, field), rows in positions.groupby(["contender", "field"], sort=True):
        cost = rows.groupby("doc")["nanos"].median()
        start, end = cost[cost.index > 0].iloc[0], cost.iloc[-1]
        out.append({"contender": contender, "field": field, "start_ns": fmt(start), "end_ns": fmt(end),
                    "growth": fmt(end / start), "end_doc": f"{int(cost.index[-1]):,}"})
    return out


def variations(data: summary.DvjResults, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """The seed's missing variations of request size: the jump tables' gain (baseline ÷ upgraded) at the
    configured size and at each other one, on the variation bucket's queries."""
    base = (layout.contender(layout.BASELINE).version, layout.BASELINE)
    if "upgraded" not in set(data.latency["contender"]):
        return []
    ratio = summary.ratio(data.latency, base, (layout.CONTENDERS["upgraded"].version, "upgraded"))
    ratio = ratio[(ratio["corpus"] == "full") & (ratio["threads"] == 1)
                  & (ratio["bucket"] == settings["variations"]["bucket"])].set_index("workload")
    out = []
    for workload in layout.workloads(settings):
        if "@" in workload and workload in ratio.index and workload.split("@")[0] in ratio.index:
            name, size = workload.split("@")
            at, default = ratio.loc[workload], ratio.loc[name]
            out.append({"workload": name, "size": int(size), "gain": fmt(at["value"]),
                        "ci": interval(at["low"], at["high"]), "default_gain": fmt(default["value"]),
                        "default_ci": interval(default["low"], default["high"])})
    return out


def unconverged(data: summary.DvjResults, p: dict[str, Any], policy: dict[str, Any]) -> dict[str, Any]:
    """How many series (one per fork) never converged, and why, from their last warm-up window (``policy``: the
    warm-up policy the results manifest records)."""
    why = summary.unconverged(data.warmup, data.latency, policy["window"], p["stable_cv"], policy["jit_quiet_share"])
    series = data.latency[["version", "round", "contender", "corpus", "workload", "bucket", "threads"]]
    return {"series": len(why), "of": len(series.drop_duplicates()),
            "compiling": int((why["compiling"] & ~why["spread"]).sum()),
            "spread": int((why["spread"] & ~why["compiling"]).sum()),
            "both": int((why["spread"] & why["compiling"]).sum())}


def numbers(results: Path, versions: Sequence[str], figures_dir: Path, claims: dict[str, Any]) -> dict[str, Any]:
    data = summary.load(results, versions)
    first = next(iter(data.manifests.values()))
    p, policy = first["parameters"], first["warmup"]
    cost = summary.cost_table(data.cost)
    return {
        "meta": {"docs": f"{p['docs']:,}", "ladder_docs": [f"{n:,}" for n in p["ladder"]["docs"]],
                 "ladder_workloads": list(p["ladder"]["workloads"]),
                 "rounds": p["rounds"], "iteration_ms": p["iteration_ms"], "min_warmup": p["min_warmup"],
                 "max_warmup": p["max_warmup"],
                 "stable_cv": p["stable_cv"],
                 "measure_iterations": p["measure_iterations"], "buckets": p["buckets"],
                 "queries_per_bucket": p["queries_per_bucket"], "export_percent": f"{p['export_fraction'] * 100:g}%",
                 "export_runs": p["export_runs"], "workloads": p["workloads"], "limits": p["limits"],
                 "variation_bucket": p["variations"]["bucket"],
                 "converged_share": f"{summary.converged_share(data.latency) * 100:.1f}%",
                 "stable_window": policy["window"], "jit_quiet_share": f"{policy['jit_quiet_share'] * 100:.0f}%",
                 "confidence": f"{stats.CONFIDENCE * 100:.0f}%"},
        "contenders": [{"name": c, "label": layout.CONTENDERS[c].label, "version": layout.CONTENDERS[c].version}
                       for c in p["contenders"]],
        "export": export_rows(data, p["export_runs"]),
        "variations": variations(data, p),
        "concurrency": [{"contender": r.contender, "workload": r.workload, "bucket": int(r.bucket),
                         "ratio": fmt(r.value), "ci": interval(r.low, r.high)}
                        for r in summary.concurrency(data.latency).itertuples() if r.corpus == "full"
                        and r.contender != layout.AA],
        "unconverged": unconverged(data, p, policy),
        "timing_hygiene": timing_hygiene(data.latency),
        "gains": gains(data),
        "regression": regression(data),
        "cocktail": cocktail(data),
        "formats": formats(data),
        "mechanism": mechanism(data),
        "jump_cost": [{"corpus": r.corpus, "build_ms": fmt(r.build_ms), "heap": f"{r.heap_bytes / 1024:,.0f} KiB"}
                      for r in cost.itertuples()],
        "figures": {name: str((figures_dir / f"{name}.png").resolve()) for name in figures.names(p["workloads"])},
        "provenance": [{**provenance_row(v, m), "parameters": parameters_text(m["parameters"])}
                       for v, m in data.manifests.items()],
    }
