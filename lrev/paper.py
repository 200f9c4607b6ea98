"""Assemble the paper: every number the text uses goes into JSON, then Typst compiles.

    python -m lrev.paper study S --results RESULTS --versions V … --figures FIGDIR --claims CLAIMS.json --out S.json
    python -m lrev.paper compile --scale SCALE [--shared] --config CONFIG.json --study S S.json [--study …] --plan P
                                 [--stability AGREEMENT.json] [--benchmarks DIR] --out PDF

``study`` writes one study's numbers: what its plug-in computes (:meth:`lrev.studies.Study.numbers`),
plus its claims, verdicts, versions and verdict matrix (claims × versions). ``compile`` gathers the studies'
numbers into ``<PDF dir>/numbers.json``, under ``studies.<name>`` (with the run's identity and citation under
``meta``, and the counts of all studies' matrices under ``matrix``), and compiles ``paper/lucene-revisited.typ``,
which includes ``paper/<name>.typ`` for each study in it, in the configured order. With ``--stability`` (the
agreement of repeated runs of the scale), every claim row and matrix cell also says in how many runs it got the
same verdict. Both write atomically; the ``.typ`` files hold prose and layout, never a result.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import os
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import pandas as pd
import typst

from lrev import artifact, cite, config, growth, provenance, stats, steady, studies
from lrev.claims import VERDICTS, WITHHELD
from lrev.config import REPO, version_key
from lrev.io import atomic_path, read_json, write_json

SOURCE = REPO / "paper" / "lucene-revisited.typ"
#: Verdicts that decide a cell; the others apply but leave it open.
DECIDED = ("holds", "fails", "answer")
#: A cell's mark in the verdict matrix, beside its colour, so that it reads in grey print too (n/a: left blank).
MARKS = {"holds": "✓", "fails": "✗", "answer": "A", "inconclusive": "?", "untestable": "s", "underpowered": "n",
         "fell-behind": "b", "biased": "≠", "unconverged": "u", "n/a": ""}
#: Which way a withheld verdict's interval leans; leaning "inconclusive" leans neither way and has no mark.
LEANING_MARKS = {"holds": "↑", "fails": "↓", "inconclusive": ""}


def fmt(value: float | None, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, never in exponent form: fixed decimals would print a real 0.0012
    as 0.00, and a 1,234.5 ms latency needs no decimals at all."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if value == 0 or math.isinf(value):
        return "0" if value == 0 else str(value)
    # The magnitude after rounding: 9.996 to three digits is 10.0, not 10.00.
    rounded = float(f"{value:.{digits - 1}e}")
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(rounded))))
    return f"{value:,.{decimals}f}"


def interval(low: float | None, high: float | None, digits: int = 3, n: int | None = None) -> str:
    """``[low, high]``, and ``, n=…`` (the units the interval is over) when given."""
    text = "n/a" if low is None or high is None else f"[{fmt(low, digits)}, {fmt(high, digits)}]"
    return text if n is None else f"{text}, n={n}"


def estimate(e: dict[str, Any], digits: int = 3) -> str:
    """An estimate (:meth:`lrev.stats.Estimate.to_dict`) as ``value [low, high], n=…``."""
    return f"{fmt(e.get('value'), digits)} {interval(e.get('low'), e.get('high'), digits, e.get('n'))}"


def aa_check(part: dict[str, Any]) -> str:
    """What the A/A beside a ratio part said: its interval, and whether it shows a bias; empty for a part that is no
    ratio of two forks."""
    if part.get("pairing") != "paired by round":
        return ""
    aa = part.get("aa")
    if aa is None:
        # The study runs no A/A here: nothing tested the apparatus for a bias.
        return "no A/A"
    named = f"A/A {aa['a']} ÷ {aa['b']} {estimate(aa)}"
    beyond = f"beyond ×{fmt(aa['tolerance'])}"
    return f"{named} ≠ biased {beyond}" if aa["biased"] else f"{named}: no bias {beyond}"


def aa_rows(claims: dict[str, Any]) -> list[dict[str, Any]]:
    """Every A/A the study's claims were checked against, once each (its two contenders, quantity, condition,
    version and statistic), with its estimate, whether it shows a bias, and the claims it withheld as ``biased`` on
    that version."""
    rows: dict[tuple, dict[str, Any]] = {}
    for verdict in claims["verdicts"]:
        for part in verdict["parts"]:
            aa = part.get("aa")
            if not aa:
                continue
            where = ", ".join(f"{k}={v}" for k, v in sorted(part["where_a"].items()))
            key = (part.get("version_b") or verdict["version"], aa["a"], aa["b"], part["quantity"], where,
                   part["statistic"])
            row = rows.setdefault(key, {"version": key[0], "aa": f"{aa['a']} ÷ {aa['b']}", "quantity": key[3],
                                        "where": where, "estimate": estimate(aa), "p": aa.get("p"),
                                        "biased": aa["biased"],
                                        "withheld": []})
            if part["verdict"] == "biased" and verdict["claim"] not in row["withheld"]:
                row["withheld"].append(verdict["claim"])
    return sorted(rows.values(), key=lambda r: (version_key(r["version"]), r["aa"], r["quantity"], r["where"]))


def claim_rows(claims: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per claim x version for the claims table, each part's estimate formatted with its n."""
    rows = []
    for verdict in claims["verdicts"]:
        parts = []
        for part in verdict["parts"]:
            if "answer" in part:
                answer = part["answer"]
                measured = (f"{part['label']}: ×{estimate(answer['ratio'])}" if "ratio" in answer else
                            f"fastest: {answer['contender']}; ×{estimate(answer['margin_vs_runner_up'])} "
                            f"over {answer['runner_up']}")
            else:
                measured = f"{part['label']}: {estimate(part)}"
                check = aa_check(part)
                if check:
                    measured += f"; {check}"
            pace = part.get("pace")
            if pace and not pace.get("reached", pace["kept"]):
                # A side did less work than asked: a verdict the lag could have produced is withheld, one it can only
                # have weakened stands, and says so.
                reached = (f"{pace['slowest']} reached {pace['lowest'] * 100:.0f}% of its asked rate, under the "
                           f"{pace['required'] * 100:.0f}% required")
                if pace.get("bounded"):
                    # Kept because it stands however far a cost in proportion to the work could have moved it.
                    reached += (f"; with each lagging side's cost in proportion to the work asked, "
                                f"[{fmt(pace['bounded']['low'])}, {fmt(pace['bounded']['high'])}]")
                measured += f" ({part['verdict']} although {reached})" if pace["kept"] else f" ({reached})"
            scale = part.get("scale")
            if scale and not scale["kept"]:
                # The run is smaller than the mechanism needs: neither outcome would say anything about it.
                measured += (f" (untestable at this scale: {scale['quantity']} {fmt(scale['lowest'])}, under the "
                             f"{fmt(scale['at_least'])} its mechanism needs: {scale['why']})")
            if part.get("failed_rounds"):
                # Rounds whose statistic (or saving) was not positive are out of the interval's n.
                why = "nothing saved" if part.get("versus_sum") else "nothing measured"
                measured += f" (round {', '.join(map(str, part['failed_rounds']))} failed: {why})"
            if part.get("converged") is False:
                # Says why a decisive-looking interval is still inconclusive.
                measured += " (a series did not converge)"
            jit = (part.get("steadiness") or {}).get("jit_share")
            if jit is not None and jit > JIT_COVARIATE:
                # A covariate beside the verdict, never a gate.
                measured += f" (the JIT compiled for {jit * 100:.1f}% of the steady segments)"
            if "extrapolated" in part:
                measured += f"; {seed_size(part['extrapolated'])}"
            parts.append(measured)
        rows.append({"claim": verdict["claim"], "version": verdict["version"], "verdict": verdict["verdict"],
                     "leaning": verdict.get("leaning"),
                     "measured": "; ".join(parts) if parts else (verdict.get("reason") or ""),
                     "answer": verdict.get("answer", {}).get("contender") if verdict.get("answer") else None,
                     "extrapolated": (verdict.get("extrapolated") or {}).get("verdict")})
    return rows


def seed_size(grown: dict[str, Any]) -> str:
    """A part's verdict at the seed's size (:meth:`lrev.claims._Judge.extrapolate`): the fit's prediction and
    verdict there, or why it gives none."""
    head = f"at the seed's size ({grown['why']})"
    if "prediction" not in grown:
        return f"{head}: no verdict, {grown['reason']}"
    sizes = ", ".join(f"{s:,.0f}" for s in grown["sizes"])
    fitted = f"{grown['model']} fit through {grown['over']} sizes {sizes}: {estimate(grown['prediction'])}"
    if grown["verdict"] is None:
        return f"{head}: no verdict, {grown['reason']} ({fitted})"
    leaning = f", leans {grown['leaning']}" if grown.get("leaning") else ""
    note = f"; {grown['reason']}" if grown.get("reason") else ""
    return f"{head}: {grown['verdict']}{leaning}, extrapolated ({fitted}{note})"


def growth_rows(claims: dict[str, Any]) -> list[dict[str, Any]]:
    """Each part judged at the seed's size, per version: its measured ratio and verdict, the fit's prediction at the
    seed's size and its verdict there (or why none), and the seed's own number."""
    rows = []
    for verdict in claims["verdicts"]:
        for part in verdict["parts"]:
            grown = part.get("extrapolated")
            if grown is None:
                continue
            predicted = grown.get("prediction")
            rows.append({"claim": verdict["claim"], "version": verdict["version"], "label": part["label"],
                         "measured": estimate(part), "measured_verdict": part["verdict"],
                         "sizes": ", ".join(f"{pt['size']:,.0f}" for pt in grown["points"]),
                         "model": grown["model"], "at": f"{grown['at']:,.0f}",
                         "predicted": estimate(predicted) if predicted else None,
                         "verdict": grown["verdict"], "reason": grown.get("reason"),
                         "claimed": fmt(part.get("claimed")), "band": part.get("band")})
    return rows


def tally(verdicts: Iterable[str]) -> dict[str, Any]:
    """The counts a matrix of cells gives: every cell, those that apply (not n/a), those decided (holds, fails,
    answer), and each verdict's; the decided share is of the applicable cells."""
    by_verdict = dict.fromkeys(VERDICTS, 0)
    for v in verdicts:
        if v not in by_verdict:
            raise ValueError(f"unknown verdict {v!r} (known: {', '.join(VERDICTS)})")
        by_verdict[v] += 1
    cells = sum(by_verdict.values())
    applicable = cells - by_verdict["n/a"]
    decided = sum(by_verdict[v] for v in DECIDED)
    share = decided / applicable if applicable else None
    return {"cells": cells, "applicable": applicable, "decided": decided, "decided_share": share,
            "decided_percent": "n/a" if share is None else f"{share * 100:.0f}%", "by_verdict": by_verdict}


def matrix(claims: dict[str, Any]) -> dict[str, Any]:
    """The study's verdict matrix: its claims in registry order × its versions in release order, each cell its
    verdict, which way a withheld verdict leans, and its mark; with the cells' counts."""
    versions = sorted(claims["versions"], key=version_key)
    judged = {(r["claim"], r["version"]): r for r in claims["verdicts"]}
    rows = []
    for c in claims["claims"]:
        cells = []
        for version in versions:
            r = judged[(c["id"], version)]
            leaning = r.get("leaning")
            grown = (r.get("extrapolated") or {}).get("verdict")
            # Untestable where no size ladder can reach the mechanism of one of its untestable parts (its registry
            # entry says why): a ladder for another part cannot decide the cell while that part stays untestable.
            unladderable = r["verdict"] == "untestable" and any((p.get("scale") or {}).get("unladderable")
                                                                for p in r.get("parts", [])
                                                                if p.get("verdict") == "untestable")
            cells.append({"version": version, "verdict": r["verdict"], "leaning": leaning,
                          "mark": MARKS[r["verdict"]] + (LEANING_MARKS[leaning] if leaning else ""),
                          "extrapolated": grown, "extrapolated_mark": MARKS[grown] if grown else None,
                          "extrapolated_checked": bool((r.get("extrapolated") or {}).get("checked")),
                          "unladderable": unladderable})
        rows.append({"claim": c["id"], "kind": c["kind"], "cells": cells})
    # Verdicts at the seeds' sizes sit beside the measured ones and are counted apart from them.
    return {"versions": versions, "rows": rows,
            "counts": tally(c["verdict"] for row in rows for c in row["cells"]),
            "extrapolated_counts": tally(c["extrapolated"] for row in rows for c in row["cells"] if c["extrapolated"])}


def legend(counts: dict[str, Any]) -> list[dict[str, Any]]:
    """The matrix's legend: each verdict with its mark and how many cells have it, in the verdicts' order."""
    return [{"verdict": v, "mark": MARKS[v], "count": counts["by_verdict"][v]} for v in VERDICTS]


def with_stability(numbers: dict[str, Any], agreement: dict[str, Any]) -> dict[str, Any]:
    """The numbers with each claim row and matrix cell's agreement across repeated runs (``agree`` of ``of`` runs
    gave the same verdict, ``flip`` when any differed), or None for a cell those runs did not judge; and the runs'
    summary under ``stability``."""
    if agreement["scale"] != numbers["meta"]["scale"]:
        raise ValueError(f"the stability runs are of scale {agreement['scale']!r}, this paper of "
                         f"{numbers['meta']['scale']!r}")
    by_cell = {(c["study"], c["claim"], c["version"]): {k: c[k] for k in ("agree", "of", "flip")}
               for c in agreement["cells"]}
    merged = {}
    for name, S in numbers["studies"].items():
        rows = [{**r, "stability": by_cell.get((name, r["claim"], r["version"]))} for r in S["claim_rows"]]
        grid = {**S["matrix"], "rows": [
            {**row, "cells": [{**c, "stability": by_cell.get((name, row["claim"], c["version"]))}
                              for c in row["cells"]]} for row in S["matrix"]["rows"]]}
        merged[name] = {**S, "claim_rows": rows, "matrix": grid}
    summary = agreement["summary"]
    return {**numbers, "studies": merged, "stability": {
        "runs": agreement["runs"], "applicable": summary["applicable"], "agreeing": summary["agreeing"],
        "percent": f"{summary['share'] * 100:.0f}%", "flips": summary["flips"],
        "config_digest": agreement["config_digest"],
        "same_config": agreement["config_digest"] == numbers["meta"]["config_digest"]}}


def provenance_row(version: str, manifest: dict[str, Any]) -> dict[str, Any]:
    """What a result manifest (:mod:`lrev.manifest`) says about where one version's results came from; what an older
    manifest did not record (the disk, transparent huge pages, the JVM's ergonomic options) is None."""
    m = manifest
    host = m["host"]
    disk = host.get("disk")
    return {
        "version": version, "reported": m["lucene_version_reported"],
        "jdk": f"{m['jdk']['vendor']} {m['jdk']['version']}", "flags": " ".join(m["jdk"]["flags"]),
        "cpu": host["cpu_model"], "cores": host["cores"],
        "ram": f"{host['ram_bytes'] / 2**30:.1f} GiB", "kernel": host["kernel"],
        "disk": None if disk is None else
        (f"{disk['device']}{' (' + disk['model'] + ')' if disk['model'] else ''}, "
         f"{'rotational' if disk['rotational'] else 'non-rotational'} as the kernel reports it, "
         f"read-ahead {disk['read_ahead_kb']:,} KiB"),
        "thp": host.get("transparent_hugepages"),
        "vm_options": m["jdk"].get("vm_options"),
        "sha": m["git"]["sha"], "dirty": m["git"]["dirty"],
        "corpora": [{"name": name, "docs": f"{c['docs']:,}", "sha256": c["sha256"]["docs.tsv"]}
                    for name, c in sorted(m["corpora"].items())],
        "started": m["started"], "finished": m["finished"],
    }


def _distinct(values: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(v for v in values if v is not None))


def machine_numbers(per_study: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What the title page says of the machine and the JVMs, over every study's provenance rows: each field's
    distinct values (one, on a run of one machine and one JDK), and per study its versions and corpus sizes."""
    rows = [p for S in per_study.values() for p in S["provenance"]]
    options = _distinct(tuple(sorted(p["vm_options"].items())) for p in rows if p.get("vm_options"))
    return {
        **{key: _distinct(p.get(key) for p in rows) for key in ("cpu", "cores", "ram", "kernel", "disk", "thp",
                                                              "jdk", "flags")},
        "vm_options": [dict(o) for o in options],
        "studies": {name: {"versions": sorted(S["versions"], key=version_key),
                           "corpora": [{"name": n, "docs": d} for n, d in
                                       _distinct((c["name"], c["docs"]) for p in S["provenance"] for c in p["corpora"])]}
                    for name, S in per_study.items()},
    }


def run_time(benchmarks: Path) -> dict[str, Any] | None:
    """How long the run's jobs took, from Snakemake's ``benchmark:`` files below ``benchmarks`` (one per job, its last
    execution): the sum of their wall times, and the span from the first one's start to the last one's end (longer
    when jobs waited or a killed run was resumed later). None when no job was benchmarked."""
    records = sorted(benchmarks.glob("*/*.tsv"))
    if not records:
        return None
    seconds = {f: float(pd.read_csv(f, sep="\t")["s"].iloc[-1]) for f in records}
    start = min(f.stat().st_mtime - s for f, s in seconds.items())
    end = max(f.stat().st_mtime for f in records)
    return {"jobs": len(records), "hours": fmt(sum(seconds.values()) / 3600), "span_hours": fmt((end - start) / 3600)}


def method_numbers(claims: dict[str, Any]) -> dict[str, Any]:
    """How a study's verdicts were drawn, from its claims file: the interval's confidence and rounds, the A/As'
    bias checks and the per-JVM spread they imply, the ratios judged without an A/A beside them (a quantity or
    release the study runs no A/A on), and how many judged parts rest on converged series."""
    parts = [p for v in claims["verdicts"] for p in v["parts"] if "answer" not in p]
    checked = aa_rows(claims)
    spreads = [p["aa"]["jvm_sd"] for p in parts if p.get("aa") and p["aa"].get("jvm_sd") is not None]
    ratios = [p for p in parts if p.get("pairing") != "single"]
    no_aa = [p for p in ratios if not p.get("aa")]
    rounds = sorted({p["n"] for p in parts if p.get("n")})
    # Each part's is its cell's last look's (lrev.claims.last_look_confidence).
    levels = sorted({p.get("confidence", claims["confidence"]) for p in parts}) or [claims["confidence"]]
    return {"confidence": "-".join(dict.fromkeys(f"{c * 100:.1f}%" for c in (levels[0], levels[-1]))),
            "looks": claims["looks"],
            "min_rounds": claims["min_rounds"], "aa_tolerance": f"×{fmt(claims['aa_tolerance'])}",
            "rounds": f"{rounds[0]}" if len(rounds) == 1 else f"{rounds[0]}-{rounds[-1]}" if rounds else "n/a",
            "aa_checked": len(checked), "aa_biased": sum(r["biased"] for r in checked),
            "aa_withheld": sum(v["verdict"] == "biased" for v in claims["verdicts"]),
            "aa_jvm_sd": f"{float(np.median(spreads)) * 100:.1f}%" if spreads else "n/a",
            "ratios": len(ratios), "no_aa": len(no_aa), "no_aa_quantities": sorted({p["quantity"] for p in no_aa}),
            "parts": len(parts),
            "converged": sum(p.get("converged") is not False for p in parts),
            "moderation": moderation_rows(claims)}


def moderation_rows(claims: dict[str, Any]) -> list[dict[str, Any]]:
    """Each group's variance prior (lrev.claims.group_prior), as the methods table prints it: its cells, d0 and s0
    (the sd of a cell's per-round log value it centres on, as a percentage), the simulated coverage it was checked
    by, whether it was used, and how many of its cells kept their own interval as hypervariable."""
    rows = []
    for group, prior in (claims.get("priors") or {}).items():
        parts = [p for v in claims["verdicts"] for p in v["parts"] if (p.get("moderation") or {}).get("group") == group]
        coverage = prior.get("coverage")
        rows.append({"group": group, "cells": prior["cells"],
                     "d0": "∞" if prior["d0"] is None else fmt(prior["d0"]),
                     "s0": f"{prior['s0'] * 100:.1f}%" if prior["cells"] else "n/a",
                     "coverage": "n/a" if coverage is None else
                     f"{coverage['overall'] * 100:.1f}% / {coverage['noisiest'] * 100:.1f}%",
                     "used": prior["used"],
                     "hypervariable": sum(p["moderation"]["hypervariable"] for p in parts if prior["used"])})
    return rows


#: A JIT share of a steady segment above this is listed among the threats: a covariate, never a gate.
JIT_COVARIATE = 0.02


def steady_numbers(series: pd.DataFrame, claims: dict[str, Any]) -> dict[str, Any]:
    """How a study's series settled (:mod:`lrev.steady`): how many forks' series fell in each class, the median
    length of their steady segments' measured part, the verdicts withheld as unconverged and those kept since the
    unsteady forks' range gives them too (bracketed, measured or at the seed's size), and the judged cells whose
    sides' steady segments the JIT compiled through for more than :data:`JIT_COVARIATE` of their time."""
    counts = {c: int((series["steady"] == c).sum()) if len(series) else 0 for c in steady.CLASSES}
    jit = []
    for row in claims["verdicts"]:
        shares = [p["steadiness"]["jit_share"] for p in row["parts"] if p.get("steadiness")]
        if shares and max(shares) > JIT_COVARIATE:
            jit.append({"claim": row["claim"], "version": row["version"], "verdict": row["verdict"],
                        "jit_share": f"{max(shares) * 100:.1f}%"})
    return {"series": len(series), "classes": counts,
            "words": [{"class": c, "count": n} for c, n in counts.items() if n],
            "unconverged": sum(v["verdict"] == "unconverged" for v in claims["verdicts"]),
            "bracketed": sum(any((p.get("steadiness") or {}).get("bracketed") or (p.get("extrapolated") or {}).get(
                "bracketed") for p in v["parts"]) for v in claims["verdicts"]),
            "jit_cells": jit, "jit_limit": f"{JIT_COVARIATE * 100:g}%"}


def study_numbers(name: str, results: Path, versions: list[str], figures: Path, claims_file: Path) -> dict[str, Any]:
    """One study's numbers: its plug-in's, plus its claims and verdicts, judged on its own versions."""
    claims = read_json(claims_file)
    if claims["study"] != name:
        raise ValueError(f"{claims_file} holds the claims of study '{claims['study']}', not '{name}'")
    grid = matrix(claims)
    numbers = studies.get(name).numbers(results, versions, figures, claims)
    run = results.resolve().parent
    grown_rows = growth_rows(claims)
    grown = list(dict.fromkeys(r["claim"] for r in grown_rows))
    numbers["figures"].update({growth.figure_name(c): figures / f"{growth.figure_name(c)}.png" for c in grown})
    # Below the run's folder, not absolute: these numbers are archived, and no build path belongs in them.
    numbers["figures"] = {k: Path(os.path.relpath(Path(v).resolve(), run)).as_posix()
                          for k, v in numbers["figures"].items()}
    return {
        **numbers,
        "growth": [{"claim": c, "figure": growth.figure_name(c)} for c in grown],
        "growth_rows": grown_rows,
        "versions": claims["versions"],
        "claims": claims["claims"],
        "claim_rows": claim_rows(claims),
        "matrix": grid,
        "verdict_counts": grid["counts"]["by_verdict"],
        "method": method_numbers(claims),
        "aa_rows": aa_rows(claims),
        "steady": steady_numbers(studies.get(name).load(results, claims["versions"]).series, claims),
    }


def matrix_numbers(per_study: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The counts over all studies' matrices (what the abstract states), with the legend and every version any
    study ran, in release order."""
    grids = [S["matrix"] for S in per_study]
    counts = tally(c["verdict"] for m in grids for row in m["rows"] for c in row["cells"])
    grown = tally(c["extrapolated"] for m in grids for row in m["rows"] for c in row["cells"] if c.get("extrapolated"))
    cells = [c for m in grids for row in m["rows"] for c in row["cells"]]
    # Decided, measured or extrapolated: a measured decision, or one at the seed's size by a model its ladder checked.
    either = sum(c["verdict"] in DECIDED or (c["verdict"] == "untestable" and c.get("extrapolated") in DECIDED
                                             and c.get("extrapolated_checked", False)) for c in cells)
    unladderable = sum(bool(c.get("unladderable")) for c in cells)
    return {**counts, "withheld": sum(counts["by_verdict"][v] for v in WITHHELD), "legend": legend(counts),
            "decided_either": either,
            "decided_either_percent": f"{either / counts['applicable'] * 100:.0f}%" if counts["applicable"] else "n/a",
            "unladderable": unladderable,
            "versions": sorted({v for m in grids for v in m["versions"]}, key=version_key),
            "extrapolated": {"cells": grown["cells"], "words": [{"verdict": v, "count": n}
                                                              for v, n in grown["by_verdict"].items() if n]}}


def plan_numbers(plan: dict[str, Any]) -> dict[str, Any]:
    """The totals of a plan (:mod:`lrev.plan`), per study and whole, formatted; what its model was fitted on and
    which of its fits were degenerate."""
    totals = plan["totals"]
    fitted: dict[str, int] = {}
    for row in plan["fitted_on"]:
        fitted[row["kind"]] = fitted.get(row["kind"], 0) + row["files"]
    studies = {row["study"]: fmt(row["hours"]) for row in plan["studies_totals"] if row["study"] != "shared"}
    return {"scale": plan["scale"], "jobs": totals["jobs"], "estimated": totals["estimated_jobs"],
            "hours": fmt(totals["hours"]), "memory_gib": fmt(totals["peak_memory_gib"]),
            "disk_gib": fmt(totals["disk_gib"]), "forks": fitted.get("run", 0), "indexes": fitted.get("index", 0),
            "benchmarks": fitted.get("bench", 0), "study_hours": studies,
            "degenerate": len(plan["degenerate"]),
            "scales": sorted({row["scale"] for row in plan["fitted_on"]}), "unestimated": plan["unestimated"],
            "errors": [{"study": e["study"], "kind": "forks" if e["kind"] == "run" else "index builds",
                        "sizes": ", ".join(f"{n:,}" for n in e["sizes"]), "in_sample": f"{e['in_sample'] * 100:.0f}%",
                        "held_out": None if e["held_out"] is None else
                        {"docs": f"{e['held_out']['docs']:,}", "error": f"{e['held_out']['error'] * 100:+.0f}%"}}
                       for e in plan.get("errors", [])]}


def compile_pdf(numbers_file: Path, out: Path) -> None:
    """The paper from ``<run>/paper/numbers.json``; figures are read below ``<run>``."""
    run = numbers_file.resolve().parent.parent
    with atomic_path(out, ".pdf") as tmp:
        typst.compile(str(SOURCE), output=str(tmp), root="/",
                      sys_inputs={"numbers": str(numbers_file.resolve()), "run_root": str(run)})


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    one = sub.add_parser("study", help="one study's numbers")
    one.add_argument("name")
    one.add_argument("--results", type=Path, required=True)
    one.add_argument("--versions", nargs="+", required=True)
    one.add_argument("--figures", type=Path, required=True, help="the study's figure folder")
    one.add_argument("--claims", type=Path, required=True)
    one.add_argument("--out", type=Path, required=True)
    whole = sub.add_parser("compile", help="the paper, from the studies' numbers")
    whole.add_argument("--scale", required=True)
    whole.add_argument("--shared", action="store_true",
                       help="the measurement jobs shared the machine (a scale not in exclusive_scales)")
    whole.add_argument("--config", type=Path, required=True, dest="resolved",
                       help="the run's resolved config as JSON (lrev.config.Config.resolved): its digest identifies "
                            "the run, and the paper prints it whole")
    whole.add_argument("--benchmarks", type=Path,
                       help="the run's Snakemake benchmark folder: the title page gives the time its jobs took")
    whole.add_argument("--study", nargs=2, action="append", required=True, metavar=("NAME", "NUMBERS"))
    whole.add_argument("--plan", type=Path, required=True, help="the seed scale's plan (lrev.plan --json)")
    whole.add_argument("--stability", type=Path,
                       help="the agreement of repeated runs of this scale (<outdir>/<scale>/stability/agreement.json)")
    whole.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    if a.command == "study":
        write_json(a.out, stats.json_safe(study_numbers(a.name, a.results, a.versions, a.figures, a.claims)))
        return
    numbers_file = a.out.with_name("numbers.json")
    per_study = {name: read_json(path) for name, path in a.study}
    resolved = read_json(a.resolved)
    git, digest = provenance.git(), config.digest(resolved)
    numbers = {
        "meta": {"scale": a.scale, "exclusive": not a.shared, "git": git,
                 "built": provenance.now(), "confidence": f"{stats.CONFIDENCE * 100:.0f}%",
                 "error_rate": 1 - stats.CONFIDENCE, "config_digest": digest,
                 # Every study the project has, whether or not this run ran it: related work cites all their seeds.
                 "studies": studies.names(), "config": resolved,
                 # How the series were read for a steady state (a resolved config from before it had one: the
                 # defaults the loaders used).
                 "steady": resolved.get("steady") or dataclasses.asdict(steady.Policy()),
                 "machine": machine_numbers(per_study),
                 # The archive `./run artifact` packs this run into: the PDF names it, so that its links to the
                 # gallery still lead somewhere when the PDF travels alone.
                 "archive": artifact.name(a.scale),
                 "time": run_time(a.benchmarks) if a.benchmarks else None,
                 "citation": cite.identity(cite.Run.of(a.scale, git, digest)),
                 # The Python environment the run was made in, as the run's archive locks it (lrev.artifact).
                 "environment": provenance.environment()},
        "order": list(per_study),
        "plan": plan_numbers(read_json(a.plan)),
        "matrix": matrix_numbers(per_study.values()),
        "studies": per_study,
        # None: no repeated runs on disk, and the paper says nothing about stability.
        "stability": None,
    }
    if a.stability:
        numbers = with_stability(numbers, read_json(a.stability))
    write_json(numbers_file, numbers)
    compile_pdf(numbers_file, a.out)


if __name__ == "__main__":
    main()
