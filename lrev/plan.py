"""What a run would cost, before it runs: each job's runtime, memory and disk, from a model fitted on runs on disk.

    python -m lrev.plan [--json OUT] [--fit-scale S ...] [snakemake options]     (./run plan)

The jobs are those a dry run of those options hands Snakemake's loggers (:mod:`lrev.snakejobs`); a study's hook
``lrev/<s>/plan.py`` says which of its rules are ``corpus``, ``index`` and ``run`` jobs (``RULES``), how many
documents a job handles (``docs``) and how many forks a run job starts (``forks``). The cost model is
:data:`MODEL`; the plan names the runs it was fitted on.
"""
from __future__ import annotations

import argparse
import datetime
import importlib
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

import numpy as np
import pandas as pd
import psutil
from scipy.optimize import nnls

from lrev import config, fork, pagecache, snakejobs
from lrev.bridge import size_bytes
from lrev.io import read_json, write_json

REPO = Path(__file__).resolve().parent.parent
GIB = 2 ** 30
#: Where Snakemake's ``benchmark:`` files go, under a run's root (one per job: its wall time and memory).
BENCHMARKS = "benchmarks"
#: The cost model, per study and corpus shape, fitted on every scale under ``outdir`` with results (or the
#: ``--fit-scale`` ones).
MODEL = """
Runtime, per study and corpus shape (each study's hook names its shapes): a run job is its forks x (the
seconds its config sets a fork to warm up and measure, where the study's hook states them, plus the rest of a fork's
time, fitted as a + b x docs over every fork's timing.json, docs being the study's size at that fork's scale); an
index job is a + b x docs over the index manifests' build times of its shape, plus what its rule's Snakemake
benchmarks spend beyond a build; a corpus job a + b x docs over its rule's benchmarks of its shape; every other job
(engine, figures, claims, paper, gallery) the median of its rule's benchmarks, a fixed cost. The fits are
non-negative least squares. A fit on one size charges a fork's other time as a fixed cost and a build per document
(a corpus's beyond the fastest benchmarked job, what any job takes to start); such fits and zero slopes are listed as
degenerate. Disk: the bytes per document of the shape's corpus and index folders on disk x the job's docs; a run job's
results, the median fork folder x its forks. Memory: the configured JVM heap for index and run jobs, plus, for a run
job, the largest index one of its forks maps and keeps resident (bytes per document x docs of its shape). Runtimes
add up one job at a time. A study with a time budget gets a row for the most its rounds can add (:func:`budget_rows`).
"""


class PlanError(RuntimeError):
    """Nothing to fit on, or a dry run that failed: the message says what to run first."""


@dataclass(frozen=True)
class Fit:
    """seconds = a + b * docs, from ``points`` observations at ``sizes`` distinct sizes; ``degenerate`` says why the
    data could not fix both coefficients (None when they could)."""

    a: float
    b: float
    points: int
    sizes: int = 2
    degenerate: str | None = None

    def __call__(self, docs: float) -> float:
        return self.a if self.b == 0 else self.a + self.b * docs  # a fixed cost needs no size (one not configured)


def fit(docs: Sequence[float], seconds: Sequence[float], per_doc: bool = True, start: float = 0.0) -> Fit:
    """a + b * docs by non-negative least squares. With one size the two cannot be told apart: ``per_doc`` charges
    what exceeds ``start`` (what any job takes to start) per document (a build), otherwise all of it as a fixed cost
    (what a fork spends besides its documents)."""
    x, y = np.asarray(docs, dtype=float), np.asarray(seconds, dtype=float)
    sizes = len(np.unique(x))
    if sizes < 2:
        size = f"one size ({int(x[0]):,} docs)" if len(x) else "no size"
        if per_doc:
            a = min(start, float(y.min()))
            return Fit(a, float(x @ (y - a) / (x @ x)), len(x), sizes,
                       f"{size}: " + (f"{a:.1f} s to start, the rest charged per document" if a
                                      else "charged per document"))
        return Fit(float(y.mean()), 0.0, len(x), sizes, f"{size}: charged as a fixed cost")
    (a, b), _ = nnls(np.column_stack([np.ones_like(x), x]), y)
    zero = "zero slope: the larger sizes took no longer; charged as a fixed cost" if b == 0 else None
    return Fit(float(a), float(b), len(x), sizes, zero)


def hook(study: str) -> ModuleType:
    """A study's plan hook, ``lrev/<study>/plan.py``: ``RULES`` (rule -> kind), ``shape`` (a corpus name's shape),
    ``sizes`` (shape -> docs), ``docs`` (a job's), ``forks`` (a run job's fork names, every round) and, optionally,
    ``configured`` (the seconds a fork's config sets it to warm up and measure) and ``job_settings`` (the settings
    a run job's forks read, where a job runs a part of the study's settings)."""
    return importlib.import_module(f"lrev.{study}.plan")


def fork_names(jobs: Sequence[Any], settings: dict[str, Any]) -> list[str]:
    """The name of every fork :func:`lrev.fork.run_rounds` starts for ``jobs`` over the settings' ``rounds``, the
    budget's partial rounds (``budget_contenders``) counted as they run."""
    only = fork.partial_rounds(settings)
    return [job.name for r in range(settings["rounds"]) for job in jobs if job.runs_in(r, only)]


def configured(study_hook: ModuleType, settings: dict[str, Any], fork: str) -> float:
    """The seconds ``fork``'s config sets it to warm up and measure; 0 where the hook does not say."""
    return float(study_hook.configured(settings, fork)) if hasattr(study_hook, "configured") else 0.0


def benchmark_path(root: Path, rule: str, wildcards: Sequence[str]) -> Path:
    """``<root>/benchmarks/<rule>/<name=value,...>.tsv``; ``wildcards`` are Snakemake patterns (``{corpus}``)."""
    name = ",".join(f"{w.strip('{}')}={w}" for w in wildcards) or "job"
    return Path(root) / BENCHMARKS / rule / f"{name}.tsv"


def _job_settings(study_hook: ModuleType, settings: dict[str, Any], result: Path, versions: Sequence[str]
                  ) -> dict[str, Any]:
    """The settings the run job that wrote ``result`` (a path below ``results/<study>/``) read: a job of one
    version writes below that version's folder (:func:`lrev.studies.results_dir`)."""
    if not hasattr(study_hook, "job_settings"):
        return settings
    wildcards = {"version": result.parts[0]} if result.parts[0] in versions else {}
    return study_hook.job_settings(settings, wildcards)


def _wildcards(path: Path) -> dict[str, str]:
    return {} if path.stem == "job" else dict(pair.split("=", 1) for pair in path.stem.split(","))


def _shape(study_hook: ModuleType, wildcards: dict[str, str]) -> str:
    name = wildcards.get("corpus", wildcards.get("shape"))
    return "" if name is None else study_hook.shape(name)


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in pagecache.files([folder]))


def _seconds(manifest: dict[str, Any]) -> float:
    start, end = (datetime.datetime.fromisoformat(manifest[k]) for k in ("started", "finished"))
    return (end - start).total_seconds()


COLUMNS = ["study", "scale", "kind", "rule", "shape", "docs", "seconds", "configured", "bytes"]


def observations(outdir: Path, base: dict[str, Any], studies: Sequence[str], scales: Sequence[str]) -> pd.DataFrame:
    """One row per fork, index, corpus and benchmarked job on disk (``kind`` "bench" for the last): study (None for
    a job of no study), scale, kind, rule, shape, docs, seconds, configured (a fork's) and bytes."""
    rows: list[dict[str, Any]] = []
    hooks = {study: hook(study) for study in studies}
    for scale in scales:
        root = outdir / scale
        if not any((root / d).is_dir() for d in ("results", "indexes", BENCHMARKS)):
            continue
        cfg = config.load({"scale": scale, "outdir": str(outdir), "studies": list(studies)}, base=base)
        for study, h in hooks.items():
            settings = cfg.study(study)
            corpora = sorted((root / "corpora" / study).glob("*/manifest.json"))
            size = h.docs(settings, None, {})
            if size is None:  # a size the config leaves open: the run's corpora as built
                size = sum(read_json(m)["docs"] for m in corpora) or None
            for timing in sorted((root / "results" / study).rglob("timing.json")):
                result = timing.relative_to(root / "results" / study)
                job = _job_settings(h, settings, result, cfg.lucene_versions)
                rows.append({"study": study, "scale": scale, "kind": "run", "shape": "", "docs": size,
                             "seconds": read_json(timing)["seconds"], "bytes": _folder_bytes(timing.parent),
                             "configured": configured(h, job, timing.parent.name)})
            for manifest in sorted((root / "indexes" / study).rglob("manifest.json")):
                m = read_json(manifest)
                rows.append({"study": study, "scale": scale, "kind": "index", "docs": m["corpus"]["docs"],
                             "shape": h.shape(Path(m["corpus"]["path"]).name), "seconds": _seconds(m),
                             "bytes": _folder_bytes(manifest.parent)})
            for manifest in corpora:
                rows.append({"study": study, "scale": scale, "kind": "corpus", "docs": read_json(manifest)["docs"],
                             "shape": h.shape(manifest.parent.name), "bytes": _folder_bytes(manifest.parent)})
        for bench in sorted((root / BENCHMARKS).glob("*/*.tsv")):
            rule, wildcards = bench.parent.name, _wildcards(bench)
            study = next((s for s, h in hooks.items() if rule in h.RULES), None)
            docs = shape = None
            if study is not None:
                docs, shape = hooks[study].docs(cfg.study(study), rule, wildcards), _shape(hooks[study], wildcards)
            rows.append({"study": study, "scale": scale, "kind": "bench", "rule": rule, "shape": shape, "docs": docs,
                         "seconds": float(pd.read_csv(bench, sep="\t")["s"].iloc[-1])})
    return pd.DataFrame(rows, columns=COLUMNS)


def dry_run_jobs(argv: Sequence[str]) -> list[tuple[str, dict[str, str]]]:
    """(rule, wildcards) of every job a run with ``argv`` would execute, as Snakemake hands them to its loggers."""
    try:
        return snakejobs.jobs(config.snakemake_argv(list(argv)), config.REPO)
    except snakejobs.SnakemakeError as exc:
        raise PlanError(f"the dry run failed:\n{str(exc)[-2000:]}") from None


class Model:
    """The fits of one plan, made once per (study, kind, shape) and remembered with what made them degenerate."""

    def __init__(self, obs: pd.DataFrame):
        self.obs, self.fits = obs, {}

    def _rows(self, **match: Any) -> pd.DataFrame:
        mask = np.ones(len(self.obs), dtype=bool)
        for column, value in match.items():
            mask &= (self.obs[column] == value).to_numpy()
        return self.obs[mask]

    def _fit(self, key: tuple[str, ...], docs: pd.Series, seconds: pd.Series, per_doc: bool,
             start: float = 0.0) -> Fit | None:
        if key not in self.fits:
            known = docs.notna().to_numpy() & seconds.notna().to_numpy()  # sizes a config leaves open are unknown
            self.fits[key] = fit(docs[known], seconds[known], per_doc, start) if known.any() else None
        return self.fits[key]

    def fixed(self, rule: str) -> float:
        """The median of a rule's benchmarks: a job whose cost does not grow with the corpus."""
        return float(self._rows(kind="bench", rule=rule).seconds.median())

    def start(self) -> float:
        """What any job takes to start (Python, imports, Snakemake's bookkeeping): the fastest benchmarked job."""
        bench = self._rows(kind="bench").seconds
        return float(bench.min()) if len(bench) else 0.0

    def build(self, study: str, kind: str, rule: str, shape: str, docs: float) -> float:
        """An index job: a fit over the index manifests' build times of its shape, plus what the rule's benchmarks
        spend beyond a build (starting, checksums); a corpus job: a fit over its rule's benchmarks of its shape."""
        if pd.isna(docs):
            return np.nan
        bench = self._rows(kind="bench", rule=rule, shape=shape).dropna(subset=["docs"])
        if kind == "index":
            mine = self._rows(study=study, kind="index", shape=shape)
            fitted = self._fit((study, kind, shape), mine.docs, mine.seconds, per_doc=True)
            beyond = max(0.0, float(bench.seconds.median() - mine.seconds.median())) if len(bench) else 0.0
            return np.nan if fitted is None else fitted(docs) + beyond
        fitted = self._fit((study, rule, shape), bench.docs, bench.seconds, per_doc=True, start=self.start())
        return np.nan if fitted is None else fitted(docs)

    def fork(self, study: str, docs: float) -> float:
        """A fork's seconds besides those its config sets (which the caller adds)."""
        mine = self._rows(study=study, kind="run")
        fitted = self._fit((study, "run", ""), mine.docs, mine.seconds - mine.configured, per_doc=False)
        return np.nan if fitted is None else fitted(docs)

    def run_overhead(self, study: str, rule: str) -> float:
        """A run job's time outside its forks (papermill, checking inputs, collecting results), per job: the median
        over scales of its benchmarks' total less its forks' total; 0 without benchmarks."""
        per_scale = []
        for scale, bench in self._rows(kind="bench", rule=rule).groupby("scale"):
            forks = self._rows(study=study, kind="run", scale=scale).seconds.sum()
            per_scale.append((bench.seconds.sum() - forks) / len(bench))
        return max(0.0, float(np.median(per_scale))) if per_scale else 0.0

    def fork_bytes(self, study: str) -> float:
        """The median bytes a fork folder of ``study`` holds."""
        return float(self._rows(study=study, kind="run").bytes.median())

    def per_doc(self, study: str, kind: str, shape: str) -> float:
        mine = self._rows(study=study, kind=kind, shape=shape)
        return float((mine.bytes / mine.docs).median()) if len(mine) else np.nan

    def degenerate(self) -> list[dict[str, Any]]:
        return [{"study": key[0], "fit": key[1], "shape": key[2], "sizes": f.sizes, "points": f.points,
                 "why": f.degenerate} for key, f in sorted(self.fits.items()) if f is not None and f.degenerate]


#: The columns of :func:`estimate`'s table.
ESTIMATE = ["rule", "wildcards", "study", "kind", "shape", "docs", "forks", "seconds", "memory", "disk"]


def estimate(cfg: config.Config, jobs: Sequence[tuple[str, dict[str, str]]], obs: pd.DataFrame
             ) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """Each job's docs, forks, runtime (s), memory and disk (bytes), NaN where the model has nothing to say (a table
    with these columns and no row when there is no job); and the degenerate fits it used."""
    heap = size_bytes(cfg.heap)
    hooks = {study: hook(study) for study in cfg.studies}
    model = Model(obs)
    rows = []
    for rule, wildcards in jobs:
        study = next((s for s, h in hooks.items() if rule in h.RULES), None)
        row = {"rule": rule, "wildcards": ", ".join(f"{k}={v}" for k, v in wildcards.items()),
               "study": study or wildcards.get("study"), "kind": None, "shape": None, "docs": np.nan,
               "forks": np.nan, "seconds": model.fixed(rule), "memory": np.nan, "disk": np.nan}
        if study is not None:
            h, settings = hooks[study], cfg.study(study)
            kind, shape = h.RULES[rule], _shape(h, wildcards)
            docs = h.docs(settings, rule, wildcards)
            docs = np.nan if docs is None else docs
            row.update(kind=kind, shape=shape, docs=docs)
            if kind == "run":
                settings = h.job_settings(settings, wildcards) if hasattr(h, "job_settings") else settings
                forks = h.forks(cfg.root, settings, wildcards)
                resident = [model.per_doc(study, "index", s) * n for s, n in h.sizes(settings).items() if n]
                row.update(forks=len(forks), disk=len(forks) * model.fork_bytes(study),
                           seconds=sum(configured(h, settings, f) for f in forks)
                           + len(forks) * model.fork(study, docs) + model.run_overhead(study, rule),
                           memory=heap + max(resident, default=np.nan))
            else:
                row.update(seconds=model.build(study, kind, rule, shape, docs),
                           disk=model.per_doc(study, kind, shape) * docs,
                           memory=heap if kind == "index" else np.nan)
        rows.append(row)
    rows.extend(budget_rows(cfg, rows))
    return pd.DataFrame(rows, columns=ESTIMATE), model.degenerate()


def budget_rows(cfg: config.Config, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per study with a budget (lrev/budget.py), the most its rounds can add: the rounds left to ``max_rounds``, each
    priced as a whole round of its run jobs, within what ``minutes`` leaves beside them. A budget round runs only the
    contenders of cells still open, so it usually costs less, and none when every cell is decided."""
    out = []
    for study in cfg.studies:
        budget, runs = cfg.budget(study), [r for r in rows if r["study"] == study and r["kind"] == "run"]
        if budget is None or not runs:
            continue
        rounds = cfg.study(study)["rounds"]
        spent = sum(r["seconds"] for r in runs)
        left = max(budget["max_rounds"] - rounds, 0)
        seconds = max(min(budget["minutes"] * 60 - spent, left * spent / rounds), 0.0)
        out.append({"rule": "budget", "wildcards": f"at most {left} more round{'s' * (left != 1)}", "study": study,
                    "kind": "budget", "shape": None, "docs": np.nan, "forks": np.nan, "seconds": seconds,
                    "memory": np.nan, "disk": np.nan})
    return out


def fork_seconds(root: Path, study: str, settings: dict[str, Any], forks: Sequence[str]) -> float | None:
    """The model's mean seconds per fork of ``forks`` (``study``'s, at ``settings``), fitted on every scale under
    ``root``'s outdir: the ETA a run shows before its first fork ends. None when no fork of the study is on disk."""
    outdir = Path(root).parent
    base = config.load({"outdir": str(outdir), "studies": [study]}).raw
    h = hook(study)
    other = Model(observations(outdir, base, [study], list(base["scales"]))).fork(study, h.docs(settings, None, {}))
    if pd.isna(other) or not forks:
        return None
    return float(other + sum(configured(h, settings, f) for f in forks) / len(forks))


def held_out(obs: pd.DataFrame) -> list[dict[str, Any]]:
    """How well the size fits predict, per (study, kind, shape) whose observations span two sizes or more: the
    largest relative error of the fit on every size it was fitted on, and, from three sizes on, the error of a fit
    on all but the largest size at predicting that one (the way the plan extrapolates to the seeds' sizes). Index
    builds and forks (a fork's time beyond its configured seconds); a corpus's time is in its benchmarks only."""
    timed = obs[obs.kind.isin(["index", "run"]) & obs.docs.notna() & obs.seconds.notna()]
    timed = timed.assign(seconds=timed.seconds - timed.configured.fillna(0.0))
    out = []
    for (study, kind, shape), rows in timed.groupby(["study", "kind", "shape"], sort=True, dropna=False):
        by_size = rows.groupby("docs").seconds.mean().sort_index()
        if len(by_size) < 2 or (by_size <= 0).any():  # a fork no longer than its configured seconds has no error
            continue
        per_doc = kind == "index"
        whole = fit(rows.docs, rows.seconds, per_doc)
        row: dict[str, Any] = {"study": study, "kind": kind, "shape": shape, "sizes": [int(n) for n in by_size.index],
                               "in_sample": float(max(abs(whole(n) / t - 1) for n, t in by_size.items())),
                               "held_out": None}
        if len(by_size) > 2:
            largest = by_size.index[-1]
            smaller = rows[rows.docs < largest]
            predicted = fit(smaller.docs, smaller.seconds, per_doc)(largest)
            row["held_out"] = {"docs": int(largest), "predicted": float(predicted),
                               "measured": float(by_size.iloc[-1]), "error": float(predicted / by_size.iloc[-1] - 1)}
        out.append(row)
    return out


def subtotals(table: pd.DataFrame) -> list[dict[str, Any]]:
    """Per study (jobs of no study under "shared"): jobs, estimated jobs, hours, peak memory and disk."""
    out = []
    for study, part in table.fillna({"study": "shared"}).groupby("study", sort=False):
        out.append({"study": study, "jobs": len(part), "estimated_jobs": int(part.seconds.notna().sum()),
                    "hours": float(part.seconds.sum() / 3600),
                    "peak_memory_gib": float(part.memory.max() / GIB) if part.memory.notna().any() else None,
                    "disk_gib": float(part.disk.sum() / GIB)})
    return out


def plan(argv: Sequence[str], fit_scales: Sequence[str] = ()) -> dict[str, Any]:
    """The plan of the run ``argv`` (Snakemake options) selects: jobs (none when every output is up to date), totals,
    the model and what it was fitted on, and this host against it (:func:`host`)."""
    cfg = config.from_snakemake_args(list(argv))
    outdir = Path(cfg.raw["outdir"])
    scales = list(fit_scales) or list(cfg.raw["scales"])
    obs = observations(outdir, cfg.raw, list(cfg.studies), scales)
    if obs[obs.kind != "corpus"].seconds.dropna().empty:
        raise PlanError(f"no runs to fit on: no fork timings, index manifests or benchmarks under {outdir}/"
                        f"{{{','.join(scales)}}}; run `./run paper --config scale=smoke` (or `./run paper`) first")
    table, degenerate = estimate(cfg, dry_run_jobs(argv), obs)
    fitted = obs.groupby(["scale", "kind"]).size().rename("files").reset_index()
    return {
        "scale": cfg.scale, "studies": list(cfg.studies), "outdir": str(outdir),
        "model": " ".join(MODEL.split()),
        "fitted_on": fitted.to_dict(orient="records"),
        "degenerate": degenerate,
        "errors": held_out(obs),
        "unestimated": {rule: int(n) for rule, n in table[table.seconds.isna()].groupby("rule").size().items()},
        "jobs": table.astype(object).where(table.notna(), None).to_dict(orient="records"),
        "studies_totals": subtotals(table),
        "totals": {"jobs": len(table), "estimated_jobs": int(table.seconds.notna().sum()),
                   "hours": float(table.seconds.sum() / 3600), "peak_memory_gib": float(table.memory.max() / GIB),
                   "disk_gib": float(table.disk.sum() / GIB)},
        "host": host(table, cfg.root, cfg.exclusive),
    }


def host(table: pd.DataFrame, root: Path, exclusive: bool) -> dict[str, Any]:
    """This host against the jobs of ``table`` (:func:`estimate`'s): its cores, RAM and the free disk under ``root``;
    the hours the jobs take on its cores with every core busy (a lower bound: a measurement job of an ``exclusive``
    scale runs alone, every other job on one core); and, in ``exceeds``, each of disk and memory that would not fit,
    named: all the disk the jobs write against the free bytes, the largest job's memory against the RAM."""
    cores, ram, free = psutil.cpu_count() or 1, psutil.virtual_memory().total, free_bytes(root)
    seconds = table.seconds.fillna(0.0)
    alone = table.kind.eq("run") & exclusive
    exceeds = []
    disk = float(table.disk.sum())
    if disk > free:
        exceeds.append(f"disk: the jobs write about {disk / GIB:.1f} GiB, and {root} has {free / GIB:.1f} GiB free")
    if table.memory.notna().any():
        peak = table.loc[table.memory.idxmax()]
        if peak.memory > ram:
            job = f"{peak.rule} ({peak.wildcards})" if peak.wildcards else peak.rule
            exceeds.append(f"memory: {job} peaks at about {peak.memory / GIB:.1f} GiB, and this host has "
                           f"{ram / GIB:.1f} GiB of RAM")
    return {"cores": cores, "memory_gib": ram / GIB, "root": str(root), "free_disk_gib": free / GIB,
            "hours_all_cores": float(seconds[alone].sum() + seconds[~alone].sum() / cores) / 3600,
            "exclusive": exclusive, "exceeds": exceeds}


def free_bytes(root: Path) -> int:
    """Free bytes on the file system that holds ``root`` (or, before it exists, its nearest existing parent)."""
    root = Path(root).absolute()
    while not root.exists():
        root = root.parent
    return shutil.disk_usage(root).free


def shortfall(table: pd.DataFrame, free: float, root: Path) -> str | None:
    """Why the corpora and indexes a run still has to build (``table``, :func:`estimate`'s) would not fit in
    ``free`` bytes, naming the largest of them; None when they fit, or when the model knows none of their sizes."""
    builds = table[table.kind.isin(["corpus", "index"]) & table.disk.notna()]
    need = float(builds.disk.sum())
    if builds.empty or need <= free:
        return None
    largest = builds.loc[builds.disk.idxmax()]
    return (f"the corpora and indexes this run builds take about {need / GIB:.1f} GiB at the plan's bytes per "
            f"document, and {root} has {free / GIB:.1f} GiB free; the largest is {largest.rule} "
            f"({largest.wildcards}): {largest.docs:,.0f} documents, {largest.disk / GIB:.1f} GiB. Lower that size "
            f"(a ladder's top rung, or the study's docs) or free space")


def check_disk(cfg: config.Config, jobs: Sequence[tuple[str, dict[str, str]]]) -> str | None:
    """:func:`shortfall` of ``jobs`` (a dry run's, of the run ``cfg`` selects), before anything is built; None, too,
    when there is no job, or no run on disk gives bytes per document yet (the first run of a clone)."""
    if not jobs:
        return None
    obs = observations(Path(cfg.raw["outdir"]), cfg.raw, list(cfg.studies), list(cfg.raw["scales"]))
    if obs[obs.kind.isin(["corpus", "index"])].empty:
        return None
    table, _ = estimate(cfg, jobs, obs)
    return shortfall(table, free_bytes(cfg.root), cfg.root)


def render(result: dict[str, Any]) -> str:
    if not result["jobs"]:
        return (f"plan: nothing to plan: every output of this run under {result['outdir']}/{result['scale']} is up "
                f"to date; add --forceall to plan the whole run again")
    table = pd.DataFrame(result["jobs"])
    shown = pd.DataFrame({
        "rule": table.rule, "wildcards": table.wildcards, "docs": table.docs.map(_count),
        "forks": table.forks.map(_count), "runtime h": (table.seconds / 3600).map(_num),
        "memory GiB": (table.memory / GIB).map(_num), "disk GiB": (table.disk / GIB).map(_num)})
    per_study = pd.DataFrame(result["studies_totals"])
    per_study = per_study.assign(**{c: per_study[c].map(_num) for c in ("hours", "peak_memory_gib", "disk_gib")})
    degenerate = [f"- {d['study']} {d['fit']} {d['shape'] or ''} ({d['points']} points): {d['why']}".replace("  ", " ")
                  for d in result["degenerate"]]
    fitted = pd.DataFrame(result["fitted_on"])
    t = result["totals"]
    return "\n".join([
        f"Plan of scale '{result['scale']}' ({', '.join(result['studies'])}), from a dry run.",
        "", shown.to_string(index=False), "",
        f"Fitted on (under {result['outdir']}/):", fitted.to_string(index=False), "",
        "Model: " + result["model"], "",
        *(["Degenerate fits (too few sizes on disk to fix both coefficients):", *degenerate, ""] if degenerate else []),
        *(["Errors of the fits (in sample: the worst size it was fitted on; held out: the largest size predicted "
           "from the smaller):", *(_error(e) for e in result["errors"]), ""] if result["errors"] else []),
        "Not estimated (jobs): " + (", ".join(f"{rule} ({n})" for rule, n in result["unestimated"].items()) or "none")
        + ".", "",
        "Per study:", per_study.to_string(index=False), "",
        f"Totals: {t['jobs']} jobs ({t['estimated_jobs']} estimated), {t['hours']:.1f} h of runtime one job at a "
        f"time, {t['peak_memory_gib']:.1f} GiB peak memory of a job, {t['disk_gib']:.1f} GiB of disk.",
        "", _host(result["host"], t["hours"]),
    ])


def _host(h: dict[str, Any], hours: float) -> str:
    alone = "a measurement job runs alone, " if h["exclusive"] else ""
    fits = ("Would not fit this host: " + "; ".join(h["exceeds"]) + "." if h["exceeds"]
            else "Fits this host's disk and memory.")
    return (f"This host: {h['cores']} cores, {h['memory_gib']:.1f} GiB of RAM, {h['free_disk_gib']:.1f} GiB free "
            f"under {h['root']}. On its cores: {hours:.1f} h one job at a time, at least {h['hours_all_cores']:.1f} h "
            f"with every core busy ({alone}every other job on one core). {fits}")


def _error(e: dict[str, Any]) -> str:
    sizes = ", ".join(f"{n:,}" for n in e["sizes"])
    held = e["held_out"]
    tail = (f"; held out {held['docs']:,} docs: {held['predicted']:.1f} s predicted, {held['measured']:.1f} s "
            f"measured ({held['error'] * 100:+.0f}%)" if held else "; two sizes: none held out")
    return f"- {e['study']} {e['kind']} {e['shape'] or ''} (sizes {sizes}): in sample {e['in_sample'] * 100:.0f}%{tail}"


def _count(value: float) -> str:
    return "" if pd.isna(value) else f"{int(value):,}"


def _num(value: float) -> str:
    return "" if pd.isna(value) else f"{value:,.2f}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", type=Path, help="also write the plan here (atomically)")
    ap.add_argument("--fit-scale", action="append", default=[], help="fit on this scale only (repeatable)")
    ap.add_argument("--check-disk", action="store_true",
                    help="only stop (exit 2) when what the run builds would not fit on the disk, naming it")
    a, rest = ap.parse_known_args(argv)
    try:
        if a.check_disk:
            short = check_disk(config.from_snakemake_args(rest), dry_run_jobs(rest))
            if short:
                print(f"plan: {short}", file=sys.stderr)
            return 2 if short else 0
        result = plan(rest, a.fit_scale)
    except config.ConfigError as exc:
        print(exc, file=sys.stderr)  # "config error at '<key>': ..."
        return 2
    except PlanError as exc:
        print(f"plan: {exc}", file=sys.stderr)
        return 2
    print(render(result))
    if a.json:
        write_json(a.json, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
