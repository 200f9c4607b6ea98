"""Assemble the paper: every number the text uses goes into JSON, then Typst compiles.

    python -m lrev.paper study S --results RESULTS --versions V … --figures FIGDIR --claims CLAIMS.json --out S.json
    python -m lrev.paper compile --scale SCALE [--shared] --config-digest D --study S S.json [--study …] --out PDF

``study`` writes one study's numbers: what its plug-in computes (:meth:`lrev.studies.Study.numbers`),
plus its claims, verdicts and versions. ``compile`` gathers the studies' numbers into
``<PDF dir>/numbers.json``, under ``studies.<name>`` (with the run's identity and citation under ``meta``), and compiles ``paper/lucene-revisited.typ``,
which includes ``paper/<name>.typ`` for each study in it, in the configured order. Both write
atomically; the ``.typ`` files hold prose and layout, never a result.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import typst

from lrev import cite, provenance, stats, studies
from lrev.config import REPO
from lrev.io import atomic_path, read_json, write_json

SOURCE = REPO / "paper" / "lucene-revisited.typ"
VERDICT_ORDER = ("holds", "fails", "inconclusive", "answer", "n/a")


def fmt(value: float | None, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:,.{digits}f}"


def interval(low: float | None, high: float | None, digits: int = 2) -> str:
    return "n/a" if low is None or high is None else f"[{fmt(low, digits)}, {fmt(high, digits)}]"


def claim_rows(claims: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per claim x version for the claims table, each part's estimate formatted."""
    rows = []
    for verdict in claims["verdicts"]:
        parts = []
        for part in verdict["parts"]:
            if part.get("verdict") == "answer":
                answer = part["answer"]
                margin = answer["margin_vs_runner_up"]
                measured = (f"fastest: {answer['contender']}; ×{fmt(margin['value'])} over {answer['runner_up']} "
                            f"{interval(margin['low'], margin['high'])}")
            else:
                measured = f"{part['label']}: {fmt(part.get('value'))} {interval(part.get('low'), part.get('high'))}"
            if part.get("converged") is False:
                # Says why a decisive-looking interval is still inconclusive.
                measured += " (a series did not converge)"
            parts.append(measured)
        rows.append({"claim": verdict["claim"], "version": verdict["version"], "verdict": verdict["verdict"],
                     "measured": "; ".join(parts) if parts else (verdict.get("reason") or ""),
                     "answer": verdict.get("answer", {}).get("contender") if verdict.get("answer") else None})
    return rows


def provenance_row(version: str, manifest: dict[str, Any]) -> dict[str, Any]:
    """What a result manifest (:mod:`lrev.manifest`) says about where one version's results came from."""
    m = manifest
    return {
        "version": version, "reported": m["lucene_version_reported"],
        "jdk": f"{m['jdk']['vendor']} {m['jdk']['version']}", "flags": " ".join(m["jdk"]["flags"]),
        "cpu": m["host"]["cpu_model"], "cores": m["host"]["cores"],
        "ram": f"{m['host']['ram_bytes'] / 2**30:.1f} GiB", "kernel": m["host"]["kernel"],
        "sha": m["git"]["sha"], "dirty": m["git"]["dirty"],
        "corpora": [{"name": name, "docs": f"{c['docs']:,}", "sha256": c["sha256"]["docs.tsv"]}
                    for name, c in sorted(m["corpora"].items())],
        "started": m["started"], "finished": m["finished"],
    }


def study_numbers(name: str, results: Path, versions: list[str], figures: Path, claims_file: Path) -> dict[str, Any]:
    """One study's numbers: its plug-in's, plus its claims and verdicts, judged on its own versions."""
    claims = read_json(claims_file)
    if claims["study"] != name:
        raise ValueError(f"{claims_file} holds the claims of study '{claims['study']}', not '{name}'")
    return {
        **studies.get(name).numbers(results, versions, figures, claims),
        "versions": claims["versions"],
        "claims": claims["claims"],
        "claim_rows": claim_rows(claims),
        "verdict_counts": {v: sum(r["verdict"] == v for r in claims["verdicts"]) for v in VERDICT_ORDER},
    }


def plan_numbers(plan: dict[str, Any]) -> dict[str, Any]:
    """The totals of a plan (:mod:`lrev.plan`), formatted, and what its model was fitted on."""
    totals = plan["totals"]
    fitted: dict[str, int] = {}
    for row in plan["fitted_on"]:
        fitted[row["kind"]] = fitted.get(row["kind"], 0) + row["files"]
    return {"scale": plan["scale"], "jobs": totals["jobs"], "estimated": totals["estimated_jobs"],
            "hours": fmt(totals["hours"], 1), "memory_gib": fmt(totals["peak_memory_gib"], 1),
            "disk_gib": fmt(totals["disk_gib"], 0), "forks": fitted.get("run", 0), "indexes": fitted.get("index", 0),
            "scales": sorted({row["scale"] for row in plan["fitted_on"]}), "unestimated": plan["unestimated"]}


def compile_pdf(numbers_file: Path, out: Path) -> None:
    with atomic_path(out, ".pdf") as tmp:
        typst.compile(str(SOURCE), output=str(tmp), root="/", sys_inputs={"numbers": str(numbers_file.resolve())})


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
    whole.add_argument("--config-digest", required=True, help="the resolved config's digest (lrev.config)")
    whole.add_argument("--study", nargs=2, action="append", required=True, metavar=("NAME", "NUMBERS"))
    whole.add_argument("--plan", type=Path, required=True, help="the seed scale's plan (lrev.plan --json)")
    whole.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    if a.command == "study":
        write_json(a.out, stats.json_safe(study_numbers(a.name, a.results, a.versions, a.figures, a.claims)))
        return
    numbers_file = a.out.with_name("numbers.json")
    write_json(numbers_file, {
        "meta": {"scale": a.scale, "exclusive": not a.shared, "git": provenance.git(),
                 "built": provenance.now(), "confidence": f"{stats.CONFIDENCE * 100:.0f}%",
                 "config_digest": a.config_digest,
                 "citation": cite.identity()},
        "order": [name for name, _ in a.study],
        "plan": plan_numbers(read_json(a.plan)),
        "studies": {name: read_json(path) for name, path in a.study},
    })
    compile_pdf(numbers_file, a.out)


if __name__ == "__main__":
    main()
