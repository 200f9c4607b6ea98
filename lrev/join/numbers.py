"""Every number and figure path the paper's `join` section uses (paper/join.typ), formatted, from the result
files of the configured versions (:func:`numbers`, called through :mod:`lrev.join.study`)."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from lrev import growth, rounds, stats
from lrev.config import version_key
from lrev.join import figures, layout, summary
from lrev.paper import fmt, interval, provenance_row
from lrev.tables import timing_hygiene


def parameters_text(p: dict[str, Any]) -> str:
    c, w, load, cold, sweep = p["corpus"], p["warmup"], p["load"], p["cold"], p["sweep"]
    runs = ", ".join(f"{r['directory']} x {r['workers']}" for r in cold["runs"])
    return (f"{c['parents']:,} parents x {c['children']} children, {c['words']} words per parent, acl domain "
            f"{c['acl_domain']:,}, {c['queries']} queries; top {p['top_n']}; {p['directory']} directory; "
            f"{p['workers']} workers; {pin_text(load['pin'])}; warm-up iterations of {w['iteration_ms']} ms "
            f"({w['min_warmup']}-{w['max_warmup']}, CV {w['stable_cv']:g}), {w['measure_iterations']} measured; "
            f"load steps of {load['step_s']:g} s (at least {load['min_requests']} requests) at "
            f"{', '.join(f'{f:g}' for f in load['fractions'])} x the capacity estimate, p99 limit "
            f"{load['p99_factor']:g}x, backlog limit {load['backlog']}, a failed step repeated up to "
            f"{load.get('confirm', 0)} {'time' if load.get('confirm', 0) == 1 else 'times'}, {load['refine']} "
            f"bisection steps; "
            f"profiled step of {p['profile']['seconds']:g} s, JFR every {p['profile']['period_ms']} ms; cold runs of {cold['seconds']:g} s at "
            f"{cold['fraction']:g} x the saturation rate for "
            f"{'; '.join(f'{v}: ' + ', '.join(cold['contenders'][v]) for v in sorted(cold['contenders'], key=version_key))} ({runs}); sweep on "
            f"{sweep['version']}: {', '.join(sweep['contenders'])} at "
            f"{', '.join(str(k) for k in sweep['shares'])} parents per key; child updates over "
            f"{p['updates']['blocks']:,} blocks, an NRT reopen every {p['updates']['per_reopen']}; "
            f"Solr caches: {solr_caches_text(p)}; "
            f"{p['rounds']} rounds; seed {p['seed']}")


def pin_text(pin: dict[str, list[int]] | None) -> str:
    if not pin:
        return "load generator unpinned"
    return (f"load generator on CPU {', '.join(map(str, pin['generator']))}, workers on CPU "
            f"{', '.join(map(str, pin['server']))}")


def pinning(saturation: pd.DataFrame) -> dict[str, Any]:
    """Where the forks' load generators and workers ran, as they recorded it: ``pinned`` (every fork pinned the
    same way), ``generator_cpus`` and ``server_cpus`` (taskset's lists, empty when unpinned)."""
    pairs = saturation[["generator_cpus", "server_cpus"]].drop_duplicates()
    if len(pairs) != 1:
        raise ValueError(f"the forks were pinned in {len(pairs)} different ways: {pairs.to_dict(orient='records')}")
    generator, server = pairs.iloc[0]
    return {"pinned": bool(server), "generator_cpus": generator, "server_cpus": server}


def solr_caches_text(p: dict[str, Any]) -> str:
    """Each Solr release's caches: name, class and size (filter and query-result caches off, as in the seed)."""
    return "; ".join(f"{release} " + ", ".join(f"{name} {a['class']} ({a.get('size', 'default')})"
                                              for name, a in caches.items())
                     for release, caches in sorted(p.get("solr_caches", {}).items(), key=lambda kv: version_key(kv[0])))


def contender_rows(data: summary.JoinResults) -> list[dict[str, Any]]:
    """Per version and contender: saturation rate, low-load latency, CPU at saturation, service time."""
    rows = []
    for r in summary.contender_table(data).to_dict(orient="records"):
        rows.append({"version": r["version"], "contender": r["contender"], "kind": r["kind"], "system": r["system"],
                     "forks": r["forks"], "stable": bool(r["stable"]), "outcomes": r["outcomes"],
                     "saturation": fmt(r["saturation_rps"]),
                     "saturation_ci": interval(r["saturation_rps_low"], r["saturation_rps_high"]),
                     "per_min": fmt(r["saturation_rps"] * 60),
                     "p50": fmt(r["low_p50_ms"]), "p99": fmt(r["low_p99_ms"]),
                     "cpu": percent(r["cpu_at_saturation"]), "server_cpu": percent(r["server_cpu_at_saturation"]),
                     "service": fmt(r["service_ms"]), "cpu_per_request": fmt(r["cpu_per_request_ms"]),
                     "terms_share": percent(r["terms_share"]),
                     "docfreq_share": percent(r["docfreq_share"])})
    return rows


def load_overhead(data: summary.JoinResults) -> dict[str, str]:
    """Per kind of join (block, query-time): the median over forks of the CPU per request at saturation ÷ the
    closed loop's service time, minus one: what the load's machinery and concurrency add to a request's CPU."""
    s = data.saturation.assign(kind=data.saturation["contender"].map(lambda c: layout.KIND[layout.contender(c)]))
    ratio = (s["cpu_per_request_ms"] / s["service_ms"] - 1).groupby(s["kind"]).median()
    return {kind.replace("-", "_"): percent(ratio.get(kind, float("nan"))) for kind in ("block", "query-time")}


def percent(x: float) -> str:
    return f"{x * 100:.0f}%" if x == x else "n/a"


def cold_rows(data: summary.JoinResults) -> list[dict[str, Any]]:
    """Per version, contender, directory and workers: the cold runs' means."""
    return [{"version": r["version"], "contender": r["contender"], "directory": r["directory"],
             "workers": r["workers"], "runs": r["runs"], "evicted": r["evicted"], "recovered": r["recovered"],
             "rate": fmt(r["offered_rps"]), "p99": fmt(r["p99_ms"]), "recovery": fmt(r["recovery_s"]),
             "read_calls_kb": fmt(r["syscall_kb_per_query"]), "storage_kb": fmt(r["read_kb_per_query"]),
             "kb_per_transaction": fmt(r["kb_per_transaction"]), "hot_share": percent(r["hot_share"]),
             "hot_share_ceiling": percent(r["hot_share_ceiling"]), "cold_windows": fmt(r["cold_windows"])}
            for r in summary.cold_table(data).to_dict(orient="records")]


def index_numbers(data: summary.JoinResults) -> dict[str, Any]:
    """The indexes' sizes in MB (all files; terms and postings files), as ranges over versions and systems."""
    table = summary.index_table(data)
    if table.empty:
        return {"known": False}

    def mb(column: str) -> str:
        return f"{table[column].min() / 1e6:,.0f}-{table[column].max() / 1e6:,.0f}"

    return {"known": True, "total_mb": mb("bytes"), "terms_and_postings_mb": mb("terms_and_postings"),
            "rows": [{"version": r["version"], "system": r["system"], "mb": f"{r['bytes'] / 1e6:,.0f}",
                      "terms_and_postings_mb": f"{r['terms_and_postings'] / 1e6:,.0f}"}
                     for r in table.to_dict(orient="records")]}


def frame_rows(data: summary.JoinResults, top: int = 3) -> list[dict[str, Any]]:
    """The hottest frames (self samples) of each contender, with the class's package shortened."""
    return [{"version": r["version"], "contender": r["contender"], "frame": short(r["name"]),
             "share": percent(r["share"])}
            for r in summary.hot_frames(data, "self", top).to_dict(orient="records")]


def short(frame: str) -> str:
    """``org.apache.lucene.codecs.blocktree.SegmentTermsEnum.next`` -> ``SegmentTermsEnum.next``."""
    parts = frame.split(".")
    return ".".join(parts[-2:])


def sweep_rows(data: summary.JoinResults) -> list[dict[str, Any]]:
    return [{"version": r["version"], "contender": r["contender"], "share": r["share"],
             "join_keys": f"{r['join_keys']:,}", "service": fmt(r["service_ms"]),
             "ci": interval(r["service_ms_low"], r["service_ms_high"]), "stable": bool(r["stable"])}
            for r in summary.sweep_table(data).to_dict(orient="records")]


#: Update rates the break-even is given at: the dvupdate grid's, in updates per second.
UPDATE_RATES = (1, 10, 100, 1000)


def update_rows(data: summary.JoinResults) -> list[dict[str, Any]]:
    """Per version: the time per child update of each design, and the query rate at which block join's cheaper
    queries repay its dearer updates, at each of UPDATE_RATES. Per round, (block's update time - the child's)
    ÷ (the term-scan join's closed-loop service time - block join's): queries per second per update per second,
    with a t interval over rounds; where block join's queries were not cheaper in some round, "none"."""
    out = []
    for version in sorted(set(data.updates["version"]), key=version_key):
        paired = summary.update_costs(data.updates, data.saturation, version).dropna()
        est = {d: rounds.location(data.updates[(data.updates["version"] == version)
                                              & (data.updates["contender"] == d)], "update_ms")
               for d in layout.UPDATE_DESIGNS}
        converged = {d: data.updates[(data.updates["version"] == version) & (data.updates["contender"] == d)]["stable"]
                     for d in layout.UPDATE_DESIGNS}
        row = {"version": version, **{f"{d.removeprefix('update-')}_ms": fmt(e.value) for d, e in est.items()},
               **{f"{d.removeprefix('update-')}_stable": f"{int(s.sum())}/{len(s)}" for d, s in converged.items()},
               **{f"{d.removeprefix('update-')}_ci": interval(e.low, e.high) for d, e in est.items()},
               "rounds": len(paired),
               "break_even": [{"rate": u, "qps": "none", "ci": "(block join's queries not cheaper)"}
                              for u in UPDATE_RATES]}
        if len(paired) and (paired["saved"] > 0).all():
            each = rounds.location((paired["extra"] / paired["saved"]).rename("qps").reset_index()
                                   .assign(fork="break-even"), "qps")
            row["break_even"] = [{"rate": u, "qps": fmt(u * each.value),
                                  "ci": interval(u * each.low, u * each.high)} for u in UPDATE_RATES]
        out.append(row)
    return out


def inside(docs: float, sizes: pd.Index) -> bool:
    """Within the measured sizes, up to rounding (a crossover at a measured size is that size)."""
    return bool(sizes.min() * (1 - 1e-9) <= docs <= sizes.max() * (1 + 1e-9))


#: Why :func:`crossover` gives no size, beyond :func:`summary.ladder_fit`'s reasons.
NOT_OUTGROWN = "(at this query rate, block join's saving does not outgrow its extra update cost with size)"
EVERY_SIZE = "(block join pays at every size: the lines meet at or below zero documents)"
UNBOUNDED = "(no bounds: the saving's growth cannot be told from the update cost's)"
#: What the lack-of-fit check said of the sides' lines (:attr:`lrev.growth.Fit.describes`).
FIT_CHECK = {True: "no bend found on either side", None: "unchecked: two sizes fit any line"}


def crossover(fit: growth.Fit, queries_per_update: float) -> stats.Estimate | str:
    """The index size in documents from which block join's cheaper queries repay its dearer updates at
    ``queries_per_update`` (k, a query rate over an update rate), or why there is none. Each round's lines
    (:func:`summary.ladder_fit`: extra = e1 n + e0, saved = s1 n + s0) meet k saved = extra at
    n = (e0 - k s0) / (k s1 - e1); the size is the ratio of those terms' means over rounds, with Fieller's interval
    (:func:`lrev.growth.fieller`), as join-2's ratio of two lines is judged. A root below zero documents means block
    join pays at every size: the estimate and interval are clipped at zero, and an interval wholly below it gives
    :data:`EVERY_SIZE`."""
    e1, e0, s1, s0 = np.array(fit.lines).T
    k = queries_per_update
    above, below = e0 - k * s0, k * s1 - e1
    if not below.mean() > 0:
        return NOT_OUTGROWN
    # Fieller's interval takes a positive numerator; a negative one is the mirror image of its negation's.
    sign = 1.0 if above.mean() > 0 else -1.0
    root = growth.fieller(sign * above, below)
    low, high = sorted((sign * root.low, sign * root.high))
    if high < 0:
        return EVERY_SIZE
    return stats.Estimate(max(sign * root.value, 0.0), max(low, 0.0), high, root.n)


def crossover_rows(data: summary.JoinResults, p: dict[str, Any]) -> list[dict[str, Any]]:
    """Per ladder version: the break-even queries per update at each size, how fast it still falls at the largest
    (d ln ÷ d ln documents of the fitted lines), and :func:`crossover` at each of UPDATE_RATES and the ladder's query
    rates, marked extrapolated where it lies outside the measured sizes."""
    out = []
    for version in sorted(set(data.ladder["version"]), key=version_key):
        extra, saved = summary.ladder_sides(data, p, version)
        costs = summary.break_even(extra, saved)
        sizes = [{"docs": f"{n:,}", "queries_per_update": fmt(e.value), "ci": interval(e.low, e.high)}
                 for n, e in ((n, summary.geometric(costs[n].dropna())) for n in costs.columns)]
        fit = summary.ladder_fit(extra, saved)
        crossings = []
        for u in UPDATE_RATES:
            for q in p["ladder"]["query_rates"]:
                n = fit if isinstance(fit, str) else crossover(fit, q / u)
                cell = {"rate": u, "qps": fmt(q), "docs": "none", "ci": n, "extrapolated": False}
                if n == EVERY_SIZE:
                    cell["docs"] = "every size"
                elif isinstance(n, stats.Estimate):
                    bounded = not (math.isnan(n.low) or math.isnan(n.high))
                    cell.update(docs=fmt(n.value) if n.value > 0 else "every size",
                                ci=interval(n.low, n.high) if bounded else UNBOUNDED,
                                extrapolated=n.value > 0 and not inside(n.value, costs.columns))
                crossings.append(cell)
        slope = stats.Estimate(math.nan, math.nan, math.nan, 0) if isinstance(fit, str) else fit.slope
        out.append({"version": version, "sizes": sizes, "rounds": len(growth.complete(costs)),
                    "slope": fmt(slope.value), "slope_ci": interval(slope.low, slope.high),
                    "fit": fit if isinstance(fit, str) else FIT_CHECK[fit.describes], "crossover": crossings})
    return out


def ratio_rows(data: summary.JoinResults, pairs: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    out = []
    for a, b in pairs:
        for r in summary.ratio(data, "saturation_rps", a, b).to_dict(orient="records"):
            out.append({"version": r["version"], "a": a, "b": b, "value": fmt(r["value"]),
                        "ci": interval(r["low"], r["high"])})
    return out


#: The four readings of one mechanism, each as how many times faster a is than b: (metric, which side is the
#: numerator). A rate's ratio is a ÷ b; a time's is b ÷ a.
READINGS = (("saturation_rps", "a"), ("closed_rps", "a"), ("service_ms", "b"), ("low_p50_ms", "b"))


def reading_rows(data: summary.JoinResults, pairs: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Per pair and version, the four readings of how much faster a is than b, paired by round: the open-loop
    saturation rate, the closed loop's most on the same workers, the single-thread service time, the p50 at the
    lowest offered rate ("n/a" where the run did not measure one: results from before the closed loop)."""
    out = []
    for a, b in pairs:
        found: dict[str, dict[str, str]] = {}
        for metric, top in READINGS:
            if metric not in data.saturation:
                continue
            num, den = (a, b) if top == "a" else (b, a)
            for r in summary.ratio(data, metric, num, den).to_dict(orient="records"):
                found.setdefault(r["version"], {})[metric] = f"{fmt(r['value'])} {interval(r['low'], r['high'])}"
        for version, cells in sorted(found.items(), key=lambda kv: version_key(kv[0])):
            out.append({"version": version, "a": a, "b": b,
                        **{metric: cells.get(metric, "n/a") for metric, _ in READINGS}})
    return out


def corpus(manifest: dict[str, Any]) -> dict[str, Any]:
    c = manifest["corpora"][layout.CORPUS]
    return {"docs": f"{c['docs']:,}", "parents": f"{c['parents']:,}", "synthetic": c["synthetic"],
            "acl_match_fraction": f"{c['acl_match_fraction'] * 100:.2g}%",
            "seed_terms": [{"term": t, "parents": f"{w['parents']:,}"} for t, w in c["seed_words"].items()]}


#: The jar whose version is the Solr release an engine carries.
SOLR_CORE = "solr-core-"


def solr_releases(manifests: dict[str, dict]) -> list[str]:
    """The Solr releases the run's Solr contenders ran on: the ``solr-core`` jar on the recorded classpath of each
    version that ran one, in version order."""
    ran = (m for version, m in manifests.items()
           if set(m["parameters"]["contenders"].get(version, [])) & set(layout.SOLR))
    jars = (entry["file"] for m in ran for entry in m["classpath"])
    return sorted({jar.removeprefix(SOLR_CORE).removesuffix(".jar") for jar in jars if jar.startswith(SOLR_CORE)},
                  key=version_key)


def numbers(results: Path, versions: Sequence[str], figures_dir: Path, claims: dict[str, Any]) -> dict[str, Any]:
    data = summary.load(results, versions)
    first = next(iter(data.manifests.values()))
    p = first["parameters"]
    gate = summary.gated(data)
    return {
        "meta": {"rounds": p["rounds"], "workers": p["workers"], "top_n": p["top_n"], "directory": p["directory"],
                 "step_s": f"{p['load']['step_s']:g}", "min_requests": p["load"]["min_requests"],
                 "p99_factor": f"{p['load']['p99_factor']:g}",
                 "backlog": p["load"]["backlog"], "refine": p["load"]["refine"],
                 "confirm": p["load"].get("confirm", 0),
                 "fractions": ", ".join(f"{f:g}" for f in p["load"]["fractions"]),
                 "queries_gated": int(gate["queries"].max()) if len(gate) else 0,
                 "gate_rows": len(data.gate) + len(data.sweep_gate) + len(data.ladder_gate), "steps": len(data.steps),
                 "profile_ms": p["profile"]["period_ms"], "cold_s": f"{p['cold']['seconds']:g}",
                 "cold_fraction": f"{p['cold']['fraction']:g}", "cold_interval_ms": p["cold"]["interval_ms"],
                 "sweep_version": p["sweep"]["version"],
                 "solr_releases": solr_releases(data.manifests),
                 "update_blocks": f"{p['updates']['blocks']:,}", "per_reopen": p["updates"]["per_reopen"],
                 "update_probe_ms": p["updates"]["warmup"]["probe_ms"],
                 "update_min_s": f"{p['updates']['warmup']['min_s']:g}",
                 "update_max_s": f"{p['updates']['warmup']['max_s']:g}",
                 "update_measure_s": f"{p['updates']['measure_s']:g}",
                 "update_forks": len(data.updates), "update_stable": int(data.updates["stable"].sum()),
                 "update_jit_low": percent(data.updates["jit_share"].min()),
                 "update_jit_high": percent(data.updates["jit_share"].max()),
                 "update_window": int(data.updates["window"].max()),
                 "update_quiet": percent(data.updates["jit_quiet_share"].max()),
                 "update_settled_drop": f"{data.updates['jit_settled_drop'].max() * 100:g}",
                 "warmup": p["warmup"],
                 "open_warmup_steps": p["load"]["warmup_steps"],
                 "open_warmup_step_s": f"{p['load']['warmup_step_s']:g}",
                 "open_warmup_fraction": f"{p['load']['warmup_fraction']:g}",
                 "open_warmup_quiet": int(data.saturation["open_warmup_quiet"].sum()),
                 "forks": len(data.saturation), **pinning(data.saturation),
                 "read_ahead_kb": f"{int(data.cold['read_ahead_kb'].max()):,}",
                 "shares": ", ".join(str(k) for k in p["sweep"]["shares"]),
                 "ladder_versions": p["ladder"]["versions"],
                 "ladder_parents": [f"{n:,}" for n in p["ladder"]["parents"]],
                 "ladder_sizes": len(p["ladder"]["parents"]) + 1},
        "corpus": corpus(first),
        "contenders": contender_rows(data),
        "load_overhead": load_overhead(data),
        "ratios": ratio_rows(data, [("solr-parent", "solr-join"), (layout.BASELINE, "scan"),
                                    (layout.BASELINE, "terms"), (layout.BASELINE, "ordinals"),
                                    (layout.AA, layout.BASELINE)]),
        "readings": reading_rows(data, [("solr-parent", "solr-join"), (layout.BASELINE, "scan")]),
        # None: results from before the closed loop on the load's workers.
        "closed_s": f"{p['load']['closed_s']:g}" if "closed_s" in p["load"] else None,
        "cold": cold_rows(data),
        "indexes": index_numbers(data),
        "frames": frame_rows(data),
        "sweep": sweep_rows(data),
        "updates": update_rows(data),
        "update_rates": list(UPDATE_RATES),
        "crossover": crossover_rows(data, p),
        "query_rates": [fmt(q) for q in p["ladder"]["query_rates"]],
        "timing_hygiene": timing_hygiene(summary.measured_time(data)),
        "cold_runs": {"all": len(data.cold), "evicted": int(data.cold["evicted"].sum()),
                      "recovered": int(data.cold["recovered"].sum())},
        "figures": {name: str((figures_dir / f"{name}.png").resolve()) for name in figures.names()},
        "provenance": [{**provenance_row(v, m), "parameters": parameters_text(m["parameters"])}
                       for v, m in data.manifests.items()],
    }
