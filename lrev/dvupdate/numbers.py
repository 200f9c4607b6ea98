"""Every number and figure path the paper's `dvupdate` section uses (paper/dvupdate.typ), formatted, from the
result files of the configured versions (:func:`numbers`, called through :mod:`lrev.dvupdate.study`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from lrev import rounds
from lrev.dvupdate import figures, layout, summary
from lrev.dvupdate.plan import SEED_GRID, seed_grid_factor
from lrev.paper import fmt, interval, provenance_row
from lrev.tables import by_version, timing_hygiene

#: The seed's table, as it printed it.
SEED_COLUMNS = ("reopen_ms", "update_ms", "total_ms", "perdoc_ms", "queries_per_s")


def parameters_text(p: dict[str, Any]) -> str:
    grid = p["grid"]
    ladder = layout.ladder(p)
    on = f" on {', '.join(ladder['versions'])}" if "versions" in ladder else ""
    rungs = (f"size ladder {', '.join(f'{n:,}' for n in ladder['docs'])} docs{on} ({', '.join(ladder['methods'])}; "
             f"{', '.join(ladder['cells'])}); " if ladder["docs"] else "")
    return (f"corpora {', '.join(f'{role}: {layout.corpus_name(s, role)}' for role, s in p['corpora'].items())}; "
            f"{rungs}"
            f"rates {grid['rates']['low']} and {grid['rates']['high']} docs/s, reopen every "
            f"{grid['intervals_ms']['short']} and {grid['intervals_ms']['long']} ms; warm-up "
            f"{p['warmup_s']:g}-{p['max_warmup_s']:g} s (a DocValues fork's first cell: from "
            f"{max(p['warmup_s'], p['fork_warmup_s']):g} s), then at least {p['measure_s']:g} s and "
            f"{p['min_reopens']} reopens per cell; {p['index_threads']} update and {p['search_threads']} search "
            f"threads; {p['rounds']} rounds; RAM buffer {p['ram_buffer_kb']:g} KiB; seed {p['seed']}")


def corpora(data: summary.DvuResults) -> list[dict[str, Any]]:
    """Each corpus role: its corpus, real or synthetic text, and its documents."""
    m = next(iter(data.manifests.values()))
    return [{"role": role, "name": layout.corpus_name(spec, role), "text": spec["text"],
             "synthetic": spec["text"] == "synthetic",
             "docs": f"{m['corpora'][layout.corpus_name(spec, role)]['docs']:,}"}
            for role, spec in m["parameters"]["corpora"].items()]


def fit(data: summary.DvuResults) -> dict[str, Any] | None:
    """What the synthetic corpora were fitted on: the fragment's articles and their median length in words."""
    m = next(iter(data.manifests.values()))
    fits = [c["fit"] for c in m["corpora"].values() if c["synthetic"]]
    if not fits:
        return None
    return {"articles": fits[0]["articles"], "median_words": f"{fits[0]['length_median']:,.0f}",
            "vocabulary": f"{fits[0]['vocabulary']:,}"}


def seed_table(table: pd.DataFrame) -> list[dict[str, Any]]:
    """The seed's table per version, corpus role, cell and method: each column's mean with its interval."""
    rows = []
    order = {m: i for i, m in enumerate(layout.ordered(table["contender"]))}
    table = table.sort_values(["role", "contender", "rate", "interval_ms"], key=lambda c: c.map(order)
                              if c.name == "contender" else c, kind="stable")
    for r in by_version(table).to_dict(orient="records"):
        rows.append({"version": r["version"], "method": r["contender"], "role": r["role"], "rate": r["rate"],
                     "interval_s": f"{r['interval_ms'] / 1000:g}", "updates": fmt(r["updates_per_reopen"]),
                     "behind": f"{r['behind'] * 100:.0f}%", "achieved": fmt(r["achieved_per_s"]),
                     **{c: fmt(r[c]) for c in SEED_COLUMNS},
                     **{f"{c}_ci": interval(r[f'{c}_low'], r[f'{c}_high']) for c in SEED_COLUMNS}})
    return rows


def ratios(data: summary.DvuResults, a: str, b: str, metrics: Sequence[str]) -> list[dict[str, Any]]:
    """a ÷ b per metric, version, corpus role and cell, paired by round."""
    out = []
    for metric in metrics:
        for r in summary.ratio(data, metric, a, b).to_dict(orient="records"):
            out.append({"metric": metric, "version": r["version"], "role": r["role"], "rate_role": r["rate_role"],
                        "interval_role": r["interval_role"], "value": fmt(r["value"]),
                        "ci": interval(r["low"], r["high"])})
    return out


def rewrite(data: summary.DvuResults) -> list[dict[str, Any]]:
    """Whether a version still rewrites the whole field at each reopen: numeric's reopen time at the high ÷ the
    low rate (about 1 if the cost does not follow the number of updates), and on the medium ÷ the big corpus
    (above 1 if it follows the segments' size), paired by round, short interval."""
    rows = data.reopens[(data.reopens["contender"] == "numeric") & (data.reopens["interval_role"] == "short")]
    out = []
    for version, mine in rows.groupby("version", sort=False):
        def side(**where: str) -> pd.DataFrame:
            cell = mine
            for k, v in where.items():
                cell = cell[cell[k] == v]
            return cell

        entry: dict[str, Any] = {"version": version}
        for key, a, b in (("rate", side(role="big", rate_role="high"), side(role="big", rate_role="low")),
                          ("size", side(role="medium", rate_role="high"), side(role="big", rate_role="high"))):
            if a.empty or b.empty:
                entry[key], entry[f"{key}_ci"] = "n/a", "n/a"
                continue
            est = rounds.ratio(a, b, "reopen_ms")
            entry[key], entry[f"{key}_ci"] = fmt(est.value), interval(est.low, est.high)
        out.append(entry)
    return out


def ram_buffer(data: summary.DvuResults) -> list[dict[str, Any]]:
    """The RAM buffer against numeric updates: reopen time and heap, and how often it flushed into Lucene."""
    out = []
    for r in summary.ratio(data, "reopen_ms", "ram-buffer", "numeric").to_dict(orient="records"):
        mine = data.reopens[(data.reopens["version"] == r["version"]) & (data.reopens["contender"] == "ram-buffer")
                            & (data.reopens["role"] == r["role"]) & (data.reopens["rate_role"] == r["rate_role"])
                            & (data.reopens["interval_role"] == r["interval_role"])]
        out.append({"version": r["version"], "role": r["role"], "rate_role": r["rate_role"],
                    "interval_role": r["interval_role"], "reopen": fmt(r["value"]), "ci": interval(r["low"], r["high"]),
                    "flushes": int(mine["flushed"].sum()), "reopens": len(mine),
                    "buffer_kib": fmt(mine["ram_buffer_bytes"].mean() / 1024)})
    return out


def overlays(data: summary.DvuResults) -> list[dict[str, Any]]:
    """Lucene's DocValues overlays against overlays off (numeric): reopen time and queries/s, per cell."""
    out = []
    found = [m for m in layout.ordered(data.reopens["contender"]) if layout.kind(m) == "overlays"]
    for m in found:
        for r in summary.ratio(data, "reopen_ms", m, "numeric").to_dict(orient="records"):
            q = summary.ratio(data, "queries_per_s", m, "numeric")
            q = q[(q["version"] == r["version"]) & (q["role"] == r["role"]) & (q["rate_role"] == r["rate_role"])
                  & (q["interval_role"] == r["interval_role"])]
            out.append({"method": m, "version": r["version"], "role": r["role"], "rate_role": r["rate_role"],
                        "interval_role": r["interval_role"], "reopen": fmt(r["value"]),
                        "ci": interval(r["low"], r["high"]),
                        "qps": fmt(q["value"].iloc[0]) if len(q) else "n/a",
                        "qps_ci": interval(q["low"].iloc[0], q["high"].iloc[0]) if len(q) else ""})
    return out


def jit_shares(data: summary.DvuResults) -> list[dict[str, Any]]:
    """Per version and method, the JIT compilers' time over the measured time, as a percentage of one core."""
    r = data.reopens
    out = []
    for (version, method), g in r[~r["contender"].map(layout.is_aa)].groupby(["version", "contender"], sort=False):
        out.append({"version": version, "method": method,
                    "share": f"{g['jit_ms'].sum() * 1e6 / g['elapsed_ns'].sum() * 100:.0f}%"})
    return out


def warmups(data: summary.DvuResults, min_reopens: int) -> dict[str, Any]:
    """How the cells' warm-ups ended: how many of the forks' cells converged, and their median length; the fewest
    reopens a cell measured, and how many cells measured fewer than ``min_reopens``."""
    cells = summary.warmups(data)
    policy = next(iter(data.manifests.values()))["warmup"]
    return {"jit_quiet_share": f"{policy['jit_quiet_share'] * 100:g}%",
            "quiet_window_s": f"{policy['probe_ms'] * policy['window'] / 1000:g}",
            "jit_settled_drop": f"{policy['jit_settled_drop'] * 100:g}", "jit_share": jit_shares(data),
            "cells": len(cells), "cells_converged": int(cells["stable"].sum()),
            "reopens_fewest": int(cells["reopens"].min()) if len(cells) else 0,
            "cells_short": int((cells["reopens"] < min_reopens).sum()),
            "warmup_median_s": f"{cells['warmup_ms'].median() / 1000:.2g}" if len(cells) else "n/a"}


def numbers(results: Path, versions: Sequence[str], figures_dir: Path, claims: dict[str, Any]) -> dict[str, Any]:
    data = summary.without_ladder(summary.load(results, versions))
    p = next(iter(data.manifests.values()))["parameters"]
    ladder = layout.ladder(p)
    table = summary.cell_table(data)
    checks = summary.verified(data)
    return {
        "meta": {"measure_s": f"{p['measure_s']:g}", "warmup_s": f"{p['warmup_s']:g}",
                 "min_reopens": p["min_reopens"], "max_measure_s": f"{p['max_measure_s']:g}",
                 "max_warmup_s": f"{p['max_warmup_s']:g}", "fork_warmup_s": f"{p['fork_warmup_s']:g}",
                 "fork_warmed": p["fork_warmup_s"] > p["warmup_s"], "rounds": p["rounds"],
                 "index_threads": p["index_threads"], "search_threads": p["search_threads"], "top_n": p["top_n"],
                 "rates": p["grid"]["rates"], "cells_run": len(p["grid"]["cells"]),
                 "seed_cells": len(SEED_GRID["rates"]) * len(SEED_GRID["intervals_ms"]),
                 "seed_grid_factor": f"{seed_grid_factor(p):.0f}",
                 "intervals_s": {k: f"{v / 1000:g}" for k, v in p["grid"]["intervals_ms"].items()},
                 "ram_buffer_kb": f"{p['ram_buffer_kb']:g}", "behind_s": f"{p['behind_s']:g}",
                 # The share of its asked rate a method must reach for a claim on a cost at that rate.
                 "pace": sorted({f"{part['pace']['required'] * 100:g}%" for v in claims["verdicts"]
                                 for part in v["parts"] if part.get("pace")}),
                 "id_formats": [{"version": v, "format": p["id_formats"][v]} for v in data.versions],
                 "verify_updates": p["verify"]["updates"], "verify_reopens": p["verify"]["reopens"],
                 "ladder_docs": [f"{n:,}" for n in ladder["docs"]], "ladder_methods": ladder["methods"],
                 "ladder_cells": ladder["cells"], "ladder_versions": ladder.get("versions", p["versions"]),
                 "checks": int(checks["checks"].sum()), "reopens": len(data.reopens),
                 **warmups(data, p["min_reopens"])},
        "corpora": corpora(data),
        "fit": fit(data),
        "seed_table": seed_table(table[~table["contender"].map(layout.is_aa)]),
        "vs_reindex": {m: ratios(data, m, layout.BASELINE, ("update_ms", "reopen_ms", "total_ms", "perdoc_ms",
                                                             "queries_per_s"))
                       for m in layout.ordered(data.reopens["contender"])
                       if m != layout.BASELINE and not layout.is_aa(m)},
        "aa": [{"method": base, "ratios": ratios(data, base + layout.AA_SUFFIX, base, ("total_ms", "reopen_ms"))}
               for base in layout.AA_BASES if base + layout.AA_SUFFIX in set(data.reopens["contender"])],
        "rewrite": rewrite(data),
        "ram_buffer": ram_buffer(data),
        "overlays": overlays(data),
        # A reopen's row covers the time since the previous reopen.
        "timing_hygiene": timing_hygiene(data.reopens, nanos="elapsed_ns"),
        "figures": {name: str((figures_dir / f"{name}.png").resolve()) for name in figures.names()},
        "provenance": [{**provenance_row(v, m), "parameters": parameters_text(m["parameters"])}
                       for v, m in data.manifests.items()],
    }
