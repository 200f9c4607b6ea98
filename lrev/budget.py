"""More rounds where verdicts are undecided, within each study's time budget: the driver of ``./run paper``.

    python -m lrev.budget [snakemake options]     (./run paper)

Snakemake first brings every study's claims up to date with the rounds its scale gives it. Then a study with a
budget (config ``budgets.<scale>.<study>``) gets one more round while

1. one of its cells is undecided where more rounds can help (inconclusive or underpowered: an unconverged series
   needs a longer warm-up, and a biased A/A a fix to the apparatus, not more rounds);
2. it has run fewer than ``max_rounds``;
3. one more round, at the mean wall time of its rounds so far, keeps its forks within ``minutes``.

The pipeline then reruns with that study's ``rounds`` raised (a config file under ``<outdir>/<scale>/budget/``):
finished forks are kept (:func:`lrev.fork.fingerprint` leaves rounds out), so only the new round is measured. Once no
study gets another round, Snakemake builds the rest, the paper included, and the paper's path is printed.

Before any of it, one dry run of what the first step would run, with the rounds earlier runs added: it stops the
run when the corpora and indexes to build would not fit in the free disk (:func:`lrev.plan.check_disk`), and when
it lists no job and no study would get another round, there is nothing to do (said, with the paper's path). A
dry run (``-n``) shows Snakemake's own dry run of the whole pipeline once (it measures nothing, so the loop could
never see a round it added) and, when the claims are up to date, the rounds the budget would add next.

A study with a budget is judged at the sequential confidence of the looks its budget allows
(:func:`lrev.stats.sequential_confidence`, fixed before any round ran), so that stopping once a verdict is reached
does not inflate false verdicts (tests/test_sequential.py).
"""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from lrev import config, plan
from lrev.io import atomic_path, read_json

#: What more rounds can decide.
UNDECIDED = ("inconclusive", "underpowered")


@dataclass(frozen=True)
class Spent:
    """A study's rounds on disk and the wall time of their forks."""

    rounds: int
    seconds: float


def spent(root: Path, study: str) -> Spent:
    """Every finished fork of ``study`` below ``root`` (``round-<r>/<job>/timing.json``, :func:`lrev.fork.run_rounds`)."""
    rounds: set[int] = set()
    seconds = 0.0
    for timing in (root / "results" / study).rglob("round-*/*/timing.json"):
        rounds.add(int(timing.parent.parent.name.removeprefix("round-")))
        seconds += read_json(timing)["seconds"]
    return Spent(len(rounds), seconds)


def undecided(claims_file: Path) -> list[dict[str, Any]]:
    """The cells of a study's claims that more rounds might decide."""
    return [v for v in read_json(claims_file)["verdicts"] if v["verdict"] in UNDECIDED]


def next_rounds(cfg: config.Config, study: str) -> int | None:
    """The rounds ``study`` should run next, or None when it stops (module docstring)."""
    budget = cfg.budget(study)
    if budget is None:
        return None
    done = spent(cfg.root, study)
    if done.rounds == 0 or done.rounds >= budget["max_rounds"]:
        return None
    if not undecided(cfg.root / "results" / study / "claims.json"):
        return None
    if done.seconds + done.seconds / done.rounds > budget["minutes"] * 60:
        return None
    return done.rounds + 1


def rounds_file(cfg: config.Config) -> Path:
    return cfg.root / "budget" / "rounds.yaml"


def added_rounds(cfg: config.Config) -> dict[str, int]:
    """The rounds an earlier (or killed) run's budget added, kept while their forks are on disk: run with fewer, the
    pipeline would discard them."""
    path = rounds_file(cfg)
    if not path.is_file():
        return {}
    return {s: v["rounds"] for s, v in yaml.safe_load(path.read_text()).items()
            if s in cfg.studies and cfg.budget(s) and spent(cfg.root, s).rounds >= v["rounds"]}


def with_rounds(argv: list[str], path: Path, extra: dict[str, int]) -> list[str]:
    """``argv`` plus the rounds file ``path`` when the budget added rounds (``extra``)."""
    return [*argv, "--configfile", str(path)] if extra else list(argv)


def grown(cfg: config.Config) -> dict[str, int]:
    """The studies that get another round now, and the rounds each then runs."""
    return {s: r for s in cfg.studies if (r := next_rounds(cfg, s)) is not None}


def announce(cfg: config.Config, rounds: dict[str, int], verb: str) -> None:
    for study, r in rounds.items():
        cells = undecided(cfg.root / "results" / study / "claims.json")
        print(f"budget: {study} {verb} round {r} of at most {cfg.budget(study)['max_rounds']} "
              f"({len(cells)} cells undecided)", file=sys.stderr)


def write_rounds(path: Path, rounds: dict[str, int]) -> None:
    with atomic_path(path, ".yaml") as tmp:
        tmp.write_text(yaml.safe_dump({study: {"rounds": r} for study, r in sorted(rounds.items())}))


def command(argv: list[str], targets: list[str]) -> list[str]:
    """Snakemake's command line; the targets come first, since ``--config`` takes every word after it as a value."""
    return [sys.executable, "-m", "snakemake", *targets, *config.snakemake_argv(argv)]


def snakemake(argv: list[str], targets: list[str]) -> None:
    subprocess.run(command(argv, targets), check=True)


def drive(argv: list[str]) -> int:
    """The loop of the module docstring, after its dry run; returns the exit code."""
    cfg = config.from_snakemake_args(argv)
    path = rounds_file(cfg)
    extra = added_rounds(cfg)
    args = with_rounds(argv, path, extra)
    cfg = config.from_snakemake_args(args)
    jobs = plan.dry_run_jobs(args)
    short = plan.check_disk(cfg, jobs)
    if short:
        print(f"plan: {short}", file=sys.stderr)
        return 2
    # Claims are read only once the dry run says they are up to date.
    now = {} if jobs else grown(cfg)
    if not jobs and not now:
        print(f"paper: nothing to do, every output is up to date: {config.paper_pdf(cfg)}")
        return 0
    if config.dry_run(argv):
        announce(cfg, now, "would get")
        snakemake(args, [])
        print(config.paper_line(cfg, argv))
        return 0
    while True:
        snakemake(args, [str(cfg.root / "results" / s / "claims.json") for s in cfg.studies])
        now = grown(cfg)
        if not now:
            break
        announce(cfg, now, "gets")
        extra.update(now)
        write_rounds(path, extra)
        args = with_rounds(argv, path, extra)
        cfg = config.from_snakemake_args(args)
    snakemake(args, [])
    print(config.paper_line(cfg, argv))
    return 0


def main(argv: list[str]) -> int:
    try:
        return drive(argv)
    except config.ConfigError as exc:
        print(exc, file=sys.stderr)  # "config error at '<key>': ..."
        return 2
    except plan.PlanError as exc:
        print(f"paper: {exc}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as exc:
        return exc.returncode  # Snakemake said why


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
