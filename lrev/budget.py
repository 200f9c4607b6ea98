"""More rounds where verdicts are undecided, within each study's time budget: the driver of ``./run paper``.

    python -m lrev.budget [snakemake options]     (./run paper)

Snakemake first brings every study's claims up to date with the rounds its scale gives it. Then a study with a
budget (config ``budgets.<scale>.<study>``) gets one more round while

1. one of its cells is undecided where more rounds can help (inconclusive or underpowered, or untestable at the run's
   size with an extrapolation that is: an unconverged series needs a longer warm-up, and a biased A/A a fix to the
   apparatus, not more rounds), and could decide by ``max_rounds`` were its estimate and per-round spread to stay
   (:func:`reachable`): a cell that would need dozens of rounds gets none;
2. it has run fewer than ``max_rounds``;
3. one more round keeps its forks within ``minutes``, the round priced at the mean time its contenders' forks took.

That round runs only the contenders of the undecided cells, and the A/As beside them (:func:`contenders`): the
pipeline reruns with that study's ``rounds`` raised and the round's contenders in its ``budget_contenders`` (a config
file under ``<outdir>/<scale>/budget/``). Finished forks are kept (:func:`lrev.fork.fingerprint` leaves both out), so
only the new forks are measured, and a part reads a partial round only if every contender it reads ran in it
(lrev/claims.py). Once no study gets another round, Snakemake builds the rest, the paper included, and the paper's
path is printed.

Before any of it, one dry run of what the first step would run, with the rounds earlier runs added: it stops the
run when the corpora and indexes to build would not fit in the free disk (:func:`lrev.plan.check_disk`), and when
it lists no job and no study would get another round, there is nothing to do (said, with the paper's path). A
dry run (``-n``) shows Snakemake's own dry run of the whole pipeline once (it measures nothing, so the loop could
never see a round it added) and, when the claims are up to date, the rounds the budget would add next.

Whether a cell goes on is read at the sequential confidence of the looks its budget allows
(:func:`lrev.stats.sequential_confidence`, fixed before any round ran); its verdict at the confidence of its last
look (:func:`lrev.claims.last_look_confidence`), so that stopping once a verdict is reached does not inflate false
verdicts (tests/test_sequential.py).
"""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from lrev import claims, config, plan, stats, studies
from lrev.io import atomic_path, read_json

#: What more rounds can decide.
UNDECIDED = ("inconclusive", "underpowered")


@dataclass(frozen=True)
class Spent:
    """A study's rounds on disk, the wall time of their forks, and each contender's forks' seconds per round (None
    where a fork's timing predates the contender it records)."""

    rounds: int
    seconds: float
    by_contender: dict[str, float] | None = None

    def round_seconds(self, contenders: set[str]) -> float:
        """What one more round of ``contenders`` should take: their forks' mean seconds per round, or a whole
        round's where the timings do not say whose forks they were."""
        if self.by_contender is None:
            return self.seconds / self.rounds
        return sum(s for c, s in self.by_contender.items() if c in contenders)


def spent(root: Path, study: str) -> Spent:
    """Every finished fork of ``study`` below ``root`` (``round-<r>/<job>/timing.json``, :func:`lrev.fork.run_rounds`)."""
    rounds: dict[int, dict[str | None, float]] = {}
    seconds = 0.0
    known = True
    for timing in (root / "results" / study).rglob("round-*/*/timing.json"):
        record = read_json(timing)
        known = known and "contender" in record
        per = rounds.setdefault(int(timing.parent.parent.name.removeprefix("round-")), {})
        per[record.get("contender")] = per.get(record.get("contender"), 0.0) + record["seconds"]
        seconds += record["seconds"]
    by_contender = None
    if known and rounds:
        names = {c for per in rounds.values() for c in per}
        # Over the rounds each contender ran in: a partial round leaves the others out.
        by_contender = {c: sum(per[c] for per in rounds.values() if c in per)
                        / sum(c in per for per in rounds.values()) for c in names if c is not None}
    return Spent(len(rounds), seconds, by_contender)


def undecided(claims_file: Path, upto: int | None = None) -> list[dict[str, Any]]:
    """The cells of a study's claims that more rounds might decide, judged at the sequential confidence (a row's
    ``at_look``): a cell that this look may not stop goes on, and so does one untestable at the run's size whose
    extrapolation this look may not stop (more rounds narrow it too). With ``upto``, only those that could decide by
    ``upto`` rounds (:func:`reachable`)."""
    doc = read_json(claims_file)
    rows = [v for v in doc["verdicts"] if _open(v)]
    if upto is None:
        return rows
    return [v for v in rows if reachable(v, doc.get("confidence", stats.CONFIDENCE), upto)]


def _open(row: dict[str, Any]) -> bool:
    at = row.get("at_look", row["verdict"])
    extrapolated = row.get("at_look_extrapolated", (row.get("extrapolated") or {}).get("verdict"))
    return at in UNDECIDED or (at == "untestable" and extrapolated in UNDECIDED)


def reachable(row: dict[str, Any], confidence: float, upto: int) -> bool:
    """Whether each undecided part of ``row`` could decide by ``upto`` rounds at ``confidence``, if its estimate and
    per-round spread stay as they are (:func:`lrev.claims.rounds_to_decide`): a ratio whose interval needs a hundred
    rounds to leave its threshold gets none of the budget's. A part with no interval to project may."""
    extrapolated = row.get("at_look", row["verdict"]) == "untestable"
    for part in row["parts"]:
        est = (part.get("extrapolated") or {}).get("prediction") if extrapolated else part
        verdict = (part.get("extrapolated") or {}).get("verdict") if extrapolated else part.get("verdict")
        if verdict in ("holds", "fails") or not est or est.get("n") is None or "direction" not in part:
            continue
        if claims.rounds_to_decide(est, part["direction"], part["claimed"], part.get("band"),
                                   part.get("confidence", stats.CONFIDENCE), confidence, upto) is None:
            return False
    return True


def contenders(study: str, cells: list[dict[str, Any]]) -> set[str]:
    """The contenders that feed ``cells``: each part's sides (a, b, c, d; a question's ranking), the A/A beside it,
    and the A/A each of them maps to, so that a round of them judges the cells and tests them for bias."""
    plugin = studies.get(study)
    names: set[str] = set()
    for cell in cells:
        for part in cell["parts"]:
            names |= {part[s] for s in "abcd" if isinstance(part.get(s), str)}
            names |= {part["aa"][s] for s in "ab" if part.get("aa")}
            names |= {r["contender"] for r in (part.get("answer") or {}).get("ranking", [])}
    aa_of = getattr(plugin, "aa_of", None)
    return names | {n for c in names for n in (aa_of(c) if aa_of else (plugin.AA, plugin.BASELINE))}


@dataclass(frozen=True)
class Round:
    """A round the budget adds: its number (``rounds`` then runs one more) and the contenders it runs."""

    rounds: int
    contenders: list[str]


def next_round(cfg: config.Config, study: str) -> Round | None:
    """The round ``study`` should run next, or None when it stops (module docstring)."""
    budget = cfg.budget(study)
    if budget is None:
        return None
    done = spent(cfg.root, study)
    if done.rounds == 0 or done.rounds >= budget["max_rounds"]:
        return None
    cells = undecided(cfg.root / "results" / study / "claims.json", budget["max_rounds"])
    if not cells:
        return None
    names = contenders(study, cells)
    if done.seconds + done.round_seconds(names) > budget["minutes"] * 60:
        return None
    return Round(done.rounds + 1, sorted(names))


def rounds_file(cfg: config.Config) -> Path:
    return cfg.root / "budget" / "rounds.yaml"


def added_rounds(cfg: config.Config) -> dict[str, dict[str, Any]]:
    """The rounds an earlier (or killed) run's budget added, with the contenders of each, kept while their forks are
    on disk: run with fewer, the pipeline would discard them."""
    path = rounds_file(cfg)
    if not path.is_file():
        return {}
    return {s: v for s, v in yaml.safe_load(path.read_text()).items()
            if s in cfg.studies and cfg.budget(s) and spent(cfg.root, s).rounds >= v["rounds"]}


def with_rounds(argv: list[str], path: Path, extra: dict[str, Any]) -> list[str]:
    """``argv`` plus the rounds file ``path`` when the budget added rounds (``extra``)."""
    return [*argv, "--configfile", str(path)] if extra else list(argv)


def grown(cfg: config.Config) -> dict[str, Round]:
    """The studies that get another round now, and that round."""
    return {s: r for s in cfg.studies if (r := next_round(cfg, s)) is not None}


def announce(cfg: config.Config, rounds: dict[str, Round], verb: str) -> None:
    for study, r in rounds.items():
        cells = undecided(cfg.root / "results" / study / "claims.json", cfg.budget(study)["max_rounds"])
        print(f"budget: {study} {verb} round {r.rounds} of at most {cfg.budget(study)['max_rounds']} "
              f"({len(cells)} cells undecided that it could decide), of {len(r.contenders)} contenders: "
              f"{', '.join(r.contenders)}",
              file=sys.stderr)


def added(extra: dict[str, dict[str, Any]], rounds: dict[str, Round]) -> dict[str, dict[str, Any]]:
    """``extra`` (the rounds file's settings per study) with ``rounds`` added: each study's ``rounds`` raised and the
    new round's contenders in its ``budget_contenders`` (keyed by the round's index, from 0)."""
    out = {s: {**v, "budget_contenders": dict(v.get("budget_contenders") or {})} for s, v in extra.items()}
    for study, r in rounds.items():
        entry = out.setdefault(study, {"budget_contenders": {}})
        entry["rounds"] = r.rounds
        entry["budget_contenders"][str(r.rounds - 1)] = r.contenders
    return out


def write_rounds(path: Path, extra: dict[str, dict[str, Any]]) -> None:
    with atomic_path(path, ".yaml") as tmp:
        tmp.write_text(yaml.safe_dump(dict(sorted(extra.items()))))


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
        extra = added(extra, now)
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
