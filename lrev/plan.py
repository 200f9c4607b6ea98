"""What a run would cost, before it runs: each job's runtime, memory and disk, from a model fitted on runs on disk.

    python -m lrev.plan [--json OUT] [--fit-scale S ...] [snakemake options]     (./run plan)

The jobs are Snakemake's own dry run of those options; a study's hook ``lrev/<s>/plan.py`` says which of its
rules are ``corpus``, ``index`` and ``run`` jobs (``RULES``), how many documents a job handles (``docs``) and
how many forks a run job starts (``forks``). The cost model is :data:`MODEL`; the plan names the runs it was
fitted on.
"""
from __future__ import annotations

import argparse
import datetime
import importlib
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from lrev import config, pagecache
from lrev.bridge import size_bytes
from lrev.io import read_json, write_json

REPO = Path(__file__).resolve().parent.parent
GIB = 2 ** 30
#: The cost model, per study, fitted on every scale under ``outdir`` with results (or the ``--fit-scale`` ones).
MODEL = """
Runtime of a run job: its forks (all rounds) x the seconds of one fork, fitted as a + b x docs by non-negative least
squares over every fork's timing.json, docs being the study's size at that fork's scale; with one size on disk, b x
docs (all of a fork's time charged per document, so fixed costs are over-estimated). Runtime of an index job: the same
fit over the index manifests' started-to-finished times, on their corpus's docs. Corpus jobs record no time and are
not estimated, nor are the size-independent jobs (engine, figures, claims, paper, gallery). Disk: the median bytes per
document of the study's corpus and index folders on disk x the job's docs; a run job's results, the median bytes of a
fork folder x its forks. Memory: the configured JVM heap for index and run jobs, plus, for a run job, its index
(bytes per document x docs), which its forks map and keep resident. Runtimes add up one job at a time.
"""


class PlanError(RuntimeError):
    """Nothing to fit on, or a dry run that failed: the message says what to run first."""


@dataclass(frozen=True)
class Fit:
    """seconds = a + b * docs."""

    a: float
    b: float
    points: int

    def __call__(self, docs: float) -> float:
        return self.a + self.b * docs


def fit(docs: Sequence[float], seconds: Sequence[float]) -> Fit:
    """a + b * docs by non-negative least squares; through the origin when the docs do not vary."""
    x, y = np.asarray(docs, dtype=float), np.asarray(seconds, dtype=float)
    if len(np.unique(x)) < 2:
        return Fit(0.0, float(x @ y / (x @ x)), len(x))
    (a, b), _ = nnls(np.column_stack([np.ones_like(x), x]), y)
    return Fit(float(a), float(b), len(x))


def hook(study: str) -> ModuleType:
    """A study's plan hook, ``lrev/<study>/plan.py``: ``RULES`` (rule -> kind), ``docs`` and ``forks``."""
    return importlib.import_module(f"lrev.{study}.plan")


def forks_total(jobs: Sequence[Any], rounds: int) -> int:
    """The forks :func:`lrev.fork.run_rounds` starts for ``jobs`` over ``rounds``."""
    return sum(job.runs_in(r) for r in range(rounds) for job in jobs)


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in pagecache.files([folder]))


def _seconds(manifest: dict[str, Any]) -> float:
    start, end = (datetime.datetime.fromisoformat(manifest[k]) for k in ("started", "finished"))
    return (end - start).total_seconds()


def observations(outdir: Path, base: dict[str, Any], studies: Sequence[str], scales: Sequence[str]) -> pd.DataFrame:
    """One row per fork, index and corpus on disk: study, scale, kind, docs, seconds (None for corpora), bytes."""
    rows = []
    for scale in scales:
        root = outdir / scale
        if not (root / "results").is_dir() and not (root / "indexes").is_dir():
            continue
        cfg = config.load({"scale": scale, "outdir": str(outdir), "studies": list(studies)}, base=base)
        for study in studies:
            size = hook(study).docs(cfg.study(study), None, {})
            for timing in sorted((root / "results" / study).rglob("timing.json")):
                rows.append({"study": study, "scale": scale, "kind": "run", "docs": size,
                             "seconds": read_json(timing)["seconds"], "bytes": _folder_bytes(timing.parent)})
            for manifest in sorted((root / "indexes" / study).rglob("manifest.json")):
                m = read_json(manifest)
                rows.append({"study": study, "scale": scale, "kind": "index", "docs": m["corpus"]["docs"],
                             "seconds": _seconds(m), "bytes": _folder_bytes(manifest.parent)})
            for manifest in sorted((root / "corpora" / study).glob("*/manifest.json")):
                rows.append({"study": study, "scale": scale, "kind": "corpus", "docs": read_json(manifest)["docs"],
                             "seconds": None, "bytes": _folder_bytes(manifest.parent)})
    return pd.DataFrame(rows, columns=["study", "scale", "kind", "docs", "seconds", "bytes"])


def dry_run_jobs(argv: Sequence[str]) -> list[tuple[str, dict[str, str]]]:
    """(rule, wildcards) of every job Snakemake's dry run of ``argv`` lists."""
    done = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--cores", "1",
                           *config.snakemake_argv(list(argv))], cwd=REPO, capture_output=True, text=True)
    if done.returncode != 0:
        raise PlanError(f"the dry run failed:\n{(done.stderr or done.stdout)[-2000:]}")
    jobs: list[tuple[str, dict[str, str]]] = []
    for line in done.stdout.splitlines():
        if match := re.match(r"^(?:local)?rule (\w+):$", line):
            jobs.append((match.group(1), {}))
        elif jobs and (match := re.match(r"^\s+wildcards: (.*)$", line)):
            jobs[-1][1].update(pair.split("=", 1) for pair in match.group(1).split(", "))
    return jobs


def estimate(cfg: config.Config, jobs: Sequence[tuple[str, dict[str, str]]], obs: pd.DataFrame) -> pd.DataFrame:
    """Each job's docs, forks, runtime (s), memory and disk (bytes); NaN where the model has nothing to say."""
    heap = size_bytes(cfg.heap)
    hooks = {study: hook(study) for study in cfg.studies}
    rows = []
    for rule, wildcards in jobs:
        study = next((s for s, h in hooks.items() if rule in h.RULES), None)
        row = {"rule": rule, "wildcards": ", ".join(f"{k}={v}" for k, v in wildcards.items()), "study": study,
               "kind": None, "docs": np.nan, "forks": np.nan, "seconds": np.nan, "memory": np.nan, "disk": np.nan}
        if study is not None:
            settings, kind = cfg.study(study), hooks[study].RULES[rule]
            mine = obs[(obs.study == study) & (obs.kind == kind)]
            docs = hooks[study].docs(settings, rule, wildcards)
            row.update(kind=kind, docs=np.nan if docs is None else docs)
            docs = row["docs"]
            per_doc = (mine.bytes / mine.docs).median() if len(mine) else np.nan
            if kind == "run":
                n = hooks[study].forks(cfg.root, settings, wildcards)
                index = obs[(obs.study == study) & (obs.kind == "index")]
                index_per_doc = (index.bytes / index.docs).median() if len(index) else np.nan
                row.update(forks=n, seconds=n * fit(mine.docs, mine.seconds)(docs) if len(mine) else np.nan,
                           disk=n * mine.bytes.median() if len(mine) else np.nan,
                           memory=heap + index_per_doc * docs)
            else:
                row["disk"] = per_doc * docs
            if kind == "index":
                row.update(seconds=fit(mine.docs, mine.seconds)(docs) if len(mine) else np.nan, memory=heap)
        rows.append(row)
    return pd.DataFrame(rows)


def plan(argv: Sequence[str], fit_scales: Sequence[str] = ()) -> dict[str, Any]:
    """The plan of the run ``argv`` (Snakemake options) selects: jobs, totals, the model and what it was fitted on."""
    cfg = config.from_snakemake_args(list(argv))
    outdir = Path(cfg.raw["outdir"])
    scales = list(fit_scales) or list(cfg.raw["scales"])
    obs = observations(outdir, cfg.raw, list(cfg.studies), scales)
    timed = obs[obs.seconds.notna()]
    if timed.empty:
        raise PlanError(f"no runs to fit on: no fork timings or index manifests under {outdir}/"
                        f"{{{','.join(scales)}}}; run `./run paper --config scale=smoke` (or `./run paper`) first")
    table = estimate(cfg, dry_run_jobs(argv), obs)
    fitted = (obs.groupby(["scale", "study", "kind"]).size().rename("files").reset_index())
    return {
        "scale": cfg.scale, "studies": list(cfg.studies), "outdir": str(outdir),
        "model": " ".join(MODEL.split()),
        "fitted_on": fitted.to_dict(orient="records"),
        "unestimated": {rule: int(n) for rule, n in table[table.seconds.isna()].groupby("rule").size().items()},
        "jobs": table.astype(object).where(table.notna(), None).to_dict(orient="records"),
        "totals": {"jobs": len(table), "estimated_jobs": int(table.seconds.notna().sum()),
                   "hours": float(table.seconds.sum() / 3600), "peak_memory_gib": float(table.memory.max() / GIB),
                   "disk_gib": float(table.disk.sum() / GIB)},
    }


def render(result: dict[str, Any]) -> str:
    table = pd.DataFrame(result["jobs"])
    shown = pd.DataFrame({
        "rule": table.rule, "wildcards": table.wildcards, "docs": table.docs.map(_count),
        "forks": table.forks.map(_count), "runtime h": (table.seconds / 3600).map(_num),
        "memory GiB": (table.memory / GIB).map(_num), "disk GiB": (table.disk / GIB).map(_num)})
    fitted = pd.DataFrame(result["fitted_on"])
    t = result["totals"]
    return "\n".join([
        f"Plan of scale '{result['scale']}' ({', '.join(result['studies'])}), from a dry run.",
        "", shown.to_string(index=False), "",
        f"Fitted on (under {result['outdir']}/):", fitted.to_string(index=False), "",
        "Model: " + result["model"], "",
        "Not estimated (jobs): " + (", ".join(f"{rule} ({n})" for rule, n in result["unestimated"].items()) or "none")
        + ".",
        f"Totals: {t['jobs']} jobs ({t['estimated_jobs']} estimated), {t['hours']:.1f} h of runtime one job at a "
        f"time, {t['peak_memory_gib']:.1f} GiB peak memory of a job, {t['disk_gib']:.1f} GiB of disk.",
    ])


def _count(value: float) -> str:
    return "" if pd.isna(value) else f"{int(value):,}"


def _num(value: float) -> str:
    return "" if pd.isna(value) else f"{value:,.2f}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", type=Path, help="also write the plan here (atomically)")
    ap.add_argument("--fit-scale", action="append", default=[], help="fit on this scale only (repeatable)")
    a, rest = ap.parse_known_args(argv)
    try:
        result = plan(rest, a.fit_scale)
    except (PlanError, config.ConfigError) as exc:
        print(f"plan: {exc}", file=sys.stderr)
        return 2
    print(render(result))
    if a.json:
        write_json(a.json, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
