"""Every number and figure path the paper's `join` section uses (paper/join.typ), formatted, from the result
files of the configured versions (:func:`numbers`, called through :mod:`lrev.join.study`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from lrev.join import figures, layout, summary
from lrev.paper import fmt, interval, provenance_row


def parameters_text(p: dict[str, Any]) -> str:
    c, w, load = p["corpus"], p["warmup"], p["load"]
    return (f"{c['parents']:,} parents x {c['children']} children, {c['words']} words per parent, acl domain "
            f"{c['acl_domain']:,}, {c['queries']} queries; top {p['top_n']}; {p['directory']} directory; "
            f"{p['workers']} workers; warm-up iterations of {w['iteration_ms']} ms "
            f"({w['min_warmup']}-{w['max_warmup']}, CV {w['stable_cv']:g}), {w['measure_iterations']} measured; "
            f"load steps of {load['step_s']:g} s at "
            f"{', '.join(f'{f:g}' for f in load['fractions'])} x the capacity estimate, p99 limit "
            f"{load['p99_factor']:g}x, backlog limit {load['backlog']}, {load['refine']} bisection steps; "
            f"{p['rounds']} rounds; seed {p['seed']}")


def contender_rows(data: summary.JoinResults) -> list[dict[str, Any]]:
    """Per version and contender: saturation rate, low-load latency, CPU at saturation, service time."""
    rows = []
    for r in summary.contender_table(data).to_dict(orient="records"):
        rows.append({"version": r["version"], "contender": r["contender"], "kind": r["kind"], "system": r["system"],
                     "forks": r["forks"], "stable": bool(r["stable"]), "outcomes": r["outcomes"],
                     "saturation": fmt(r["saturation_rps"], 1),
                     "saturation_ci": interval(r["saturation_rps_low"], r["saturation_rps_high"], 1),
                     "per_min": fmt(r["saturation_rps"] * 60, 0),
                     "p50": fmt(r["low_p50_ms"], 2), "p99": fmt(r["low_p99_ms"], 2),
                     "cpu": f"{r['cpu_at_saturation'] * 100:.0f}%" if r["cpu_at_saturation"] == r["cpu_at_saturation"]
                     else "n/a",
                     "service": fmt(r["service_ms"], 3)})
    return rows


def ratio_rows(data: summary.JoinResults, pairs: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    out = []
    for a, b in pairs:
        for r in summary.ratio(data, "saturation_rps", a, b).to_dict(orient="records"):
            out.append({"version": r["version"], "a": a, "b": b, "value": fmt(r["value"], 1),
                        "ci": interval(r["low"], r["high"], 1)})
    return out


def corpus(manifest: dict[str, Any]) -> dict[str, Any]:
    c = manifest["corpora"][layout.CORPUS]
    return {"docs": f"{c['docs']:,}", "parents": f"{c['parents']:,}", "synthetic": c["synthetic"],
            "acl_match_fraction": f"{c['acl_match_fraction'] * 100:.2g}%",
            "seed_terms": [{"term": t, "parents": f"{w['parents']:,}"} for t, w in c["seed_words"].items()]}


def numbers(results: Path, versions: Sequence[str], figures_dir: Path, claims: dict[str, Any]) -> dict[str, Any]:
    data = summary.load(results, versions)
    first = next(iter(data.manifests.values()))
    p = first["parameters"]
    gate = summary.gated(data)
    return {
        "meta": {"rounds": p["rounds"], "workers": p["workers"], "top_n": p["top_n"], "directory": p["directory"],
                 "step_s": f"{p['load']['step_s']:g}", "p99_factor": f"{p['load']['p99_factor']:g}",
                 "backlog": p["load"]["backlog"], "refine": p["load"]["refine"],
                 "fractions": ", ".join(f"{f:g}" for f in p["load"]["fractions"]),
                 "queries_gated": int(gate["queries"].max()) if len(gate) else 0,
                 "gate_rows": len(data.gate), "steps": len(data.steps)},
        "corpus": corpus(first),
        "contenders": contender_rows(data),
        "ratios": ratio_rows(data, [("solr-parent", "solr-join"), (layout.BASELINE, "scan"),
                                    (layout.BASELINE, "terms"), (layout.BASELINE, "ordinals"),
                                    (layout.AA, layout.BASELINE)]),
        "figures": {name: str((figures_dir / f"{name}.png").resolve()) for name in figures.names()},
        "provenance": [{**provenance_row(v, m), "parameters": parameters_text(m["parameters"])}
                       for v, m in data.manifests.items()],
    }
