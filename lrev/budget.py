"""More rounds where verdicts are undecided, within each study's time budget: the driver of ``./run paper``.

    python -m lrev.budget [snakemake options]

Snakemake first brings every study's claims up to date with the rounds its scale gives it. Then a study with a
budget (config ``budgets.<scale>.<study>``) gets one more round while

1. one of its cells is undecided where more rounds can help (inconclusive, underpowered or noise-limited: an
   unconverged series needs a longer warm-up, not more rounds);
2. it has run fewer than ``max_rounds``;
3. one more round, at the mean wall time of its rounds so far, keeps its forks within ``minutes``.

The pipeline then reruns with that study's ``rounds`` raised (a config file under ``<outdir>/<scale>/budget/``):
finished forks are kept (:func:`lrev.fork.fingerprint` leaves rounds out), so only the new round is measured. Once no
study gets another round, Snakemake builds the rest, the paper included.

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

from lrev import config
from lrev.io import atomic_path, read_json

#: What more rounds can decide.
UNDECIDED = ("inconclusive", "underpowered", "noise-limited")


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


def write_rounds(path: Path, rounds: dict[str, int]) -> None:
    with atomic_path(path, ".yaml") as tmp:
        tmp.write_text(yaml.safe_dump({study: {"rounds": r} for study, r in sorted(rounds.items())}))


def command(argv: list[str], targets: list[str]) -> list[str]:
    """Snakemake's command line; the targets come first, since ``--config`` takes every word after it as a value."""
    return [sys.executable, "-m", "snakemake", *targets, *config.snakemake_argv(argv)]


def snakemake(argv: list[str], targets: list[str]) -> None:
    subprocess.run(command(argv, targets), check=True)


def main(argv: list[str]) -> int:
    cfg = config.from_snakemake_args(argv)
    path = rounds_file(cfg)
    extra: dict[str, int] = {}
    # The rounds an earlier (or killed) run's budget added are kept while their forks are on disk; run with fewer,
    # the pipeline would discard them.
    if path.is_file():
        extra = {s: v["rounds"] for s, v in yaml.safe_load(path.read_text()).items()
                 if s in cfg.studies and cfg.budget(s) and spent(cfg.root, s).rounds >= v["rounds"]}
    while True:
        args = [*argv, "--configfile", str(path)] if extra else list(argv)
        cfg = config.from_snakemake_args(args)
        snakemake(args, [str(cfg.root / "results" / s / "claims.json") for s in cfg.studies])
        grown = {s: r for s in cfg.studies if (r := next_rounds(cfg, s)) is not None}
        if not grown:
            break
        for study, r in grown.items():
            cells = undecided(cfg.root / "results" / study / "claims.json")
            print(f"budget: {study} gets round {r} of at most {cfg.budget(study)['max_rounds']} "
                  f"({len(cells)} cells undecided)", file=sys.stderr)
        extra.update(grown)
        write_rounds(path, extra)
    snakemake(args, [])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
