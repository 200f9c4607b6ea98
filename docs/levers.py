"""The levers table: what each verdict rule and each measurement decides on one finished run, and what it costs.

    PYTHONPATH=. python docs/levers.py RUN [--before CHECKOUT] [--study S ...]

RUN is a run folder (``runs/default``). Each rule is switched off in turn, cumulatively from the last, and the run's
results are judged again (no fork reruns), so a row's gain is what that rule adds on top of the rows above it. A rule
costs no fork-minute; a ladder costs the minutes of the forks (or the share of a fork's iterations) that measured its
rungs, and the budget the minutes of the rounds it added, read from the forks' ``timing.json``. The rows before the
budget's leave its rounds out and judge at the plain 95% (a budget costs confidence whether or not it adds a round).
``--before CHECKOUT`` adds the first row: the verdicts of another checkout's rules (the rules before issue 65, say) on
the same results, judged by that checkout's own code. ``--study`` judges those studies only (a run of some studies).

A cell is decided when it holds, fails or answers; the last row also counts an untestable cell decided at the seed's
size by a model that three sizes or more checked (lrev.paper.matrix_numbers' ``decided_either``).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

import pandas as pd

from lrev import claims, fork, manifest, stats, steady
from lrev.io import read_json

STUDIES = ("pk", "dvjump", "dvupdate", "join")
DECIDED = ("holds", "fails", "answer")


def budget_rounds(manifests: dict[str, dict]) -> dict[str, set[int]]:
    """Per version, the rounds a budget added (its manifest's ``budget_contenders``)."""
    return {v: set(fork.partial_rounds(m.get("parameters", {}))) for v, m in manifests.items()}


def first_rounds(results):
    """``results`` without the rounds a budget added: the rounds the scale gives."""
    added = budget_rounds(results.manifests)
    kept = {}
    for field in dataclasses.fields(results):
        frame = getattr(results, field.name)
        if isinstance(frame, pd.DataFrame) and {"round", "version"} <= set(frame.columns):
            kept[field.name] = frame[[r not in added.get(v, ()) for v, r in zip(frame["version"], frame["round"])]]
    return dataclasses.replace(results, **kept)


def judge_all(run: Path, budget: bool = True, studies: tuple[str, ...] = STUDIES) -> dict[str, dict]:
    """Every study's claims judged afresh on ``run``'s results, at the looks its claims file was judged at; without
    ``budget``, on the scale's rounds alone and at one look."""
    out = {}
    for study in studies:
        old = read_json(run / "results" / study / "claims.json")
        registry = claims.load_registry(f"claims/{study}.yaml")
        registry = {**registry, "versions": [v for v in registry["versions"] if v in old["versions"]]}
        results = claims.studies.get(study).load(run / "results", registry["versions"])
        out[study] = (claims.evaluate(registry, results, old["looks"]) if budget
                      else claims.evaluate(registry, first_rounds(results), 1))
    return out


def budget_minutes(run: Path, studies: tuple[str, ...] = STUDIES) -> float:
    """The fork-minutes of the rounds the budget added, over every study."""
    seconds = 0.0
    for study in studies:
        manifests = {p.parent.name: read_json(p) for p in (run / "results" / study).glob(f"*/{manifest.NAME}")}
        added = set().union(*budget_rounds(manifests).values())
        seconds += sum(read_json(t)["seconds"] for r in added
                       for t in (run / "results" / study).glob(f"**/forks/round-{r}/*/timing.json"))
    return seconds / 60


def count(verdicts: dict[str, dict], either: bool = False) -> tuple[int, int]:
    """Decided and applicable cells over every study; ``either`` counts a checked extrapolation of an untestable cell."""
    rows = [v for c in verdicts.values() for v in c["verdicts"] if v["verdict"] != "n/a"]
    grown = [v for v in rows if v["verdict"] == "untestable"
             and (v.get("extrapolated") or {}).get("verdict") in DECIDED and v["extrapolated"].get("checked")]
    return sum(v["verdict"] in DECIDED for v in rows) + (len(grown) if either else 0), len(rows)


def before(run: Path, checkout: Path, studies: tuple[str, ...] = STUDIES) -> tuple[int, int]:
    """The decided cells by another checkout's claims step, run in its own folder on ``run``'s results."""
    decided = applicable = 0
    for study in studies:
        old = read_json(run / "results" / study / "claims.json")
        out = Path(f"/tmp/levers-{study}.json")
        subprocess.run([sys.executable, "-m", "lrev.claims", "--registry", f"claims/{study}.yaml", "--results",
                        str(run.resolve() / "results"), "--out", str(out), "--versions", *old["versions"],
                        "--looks", str(old["looks"])], cwd=checkout, check=True,
                       env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"})
        d, a = count({study: json.loads(out.read_text())})
        decided, applicable = decided + d, applicable + a
    return decided, applicable


def harness_flag(frame: pd.DataFrame, series: steady.Series, policy: steady.Policy):
    """The rule before the series were read: the measured rows whole, each with the harness's own flag (a warm-up
    that ended with the JIT quiet)."""
    if frame.empty:
        return frame, pd.DataFrame()
    column, value = series.measured
    kept = frame[frame[column] == value].assign(steady="", steady_jit=float("nan")).reset_index(drop=True)
    return kept, pd.DataFrame()


def withhold_every_lag(verdict, expect, est, moves):
    return moves is not None and verdict in ("holds", "fails")


def each_alone(raw):
    """The A/As' p's unadjusted: each A/A's bias tested as if it were the study's only one."""
    return raw


def never_settles(self, part, quantity, sides, verdict):
    """The rule before bracketing: a cell with too many unsteady forks is withheld whatever their range."""
    return False


def at_every_look(looked, looks, confidence=stats.CONFIDENCE):
    """The budget's rule before the last look's confidence: every interval at the sequential confidence."""
    return stats.sequential_confidence(looks, confidence)


def unbounded(est, word, shares):
    """The pace rule before its bound: a lag could have moved the value any distance."""
    return stats.Estimate(est.value, 0.0, math.inf, est.n)


def no_prior(variances, dfs, confidence):
    return stats.NO_PRIOR, {"cells": len(variances), "d0": 0.0, "s0": 0.0, "used": False, "coverage": None}


def fork_minutes(run: Path, studies: tuple[str, ...] = STUDIES) -> dict[str, float]:
    """The fork-minutes each study's size ladder took: whole ladder forks (join's, dvupdate's) and the ladder's share
    of the iterations of forks that also measured the main corpus (pk's, dvjump's)."""
    res = run / "results"

    def seconds(folder: Path, pick) -> float:
        return sum(read_json(t)["seconds"] for t in folder.glob("round-*/*/timing.json") if pick(t.parent.name))

    def join() -> float:
        return seconds(res / "join" / "forks", lambda n: "_parents-" in n) / 60

    def dvupdate() -> float:
        return seconds(res / "dvupdate" / "forks", lambda n: "_big-" in n) / 60

    def dvjump() -> float:
        latency = pd.concat(pd.read_parquet(p) for p in res.glob("dvjump/*/latency.parquet"))
        return float((latency["corpus"] != "full").mean()) * seconds(res / "dvjump" / "forks", lambda n: True) / 60

    def pk() -> float:
        lookups = pd.concat(pd.read_parquet(p) for p in res.glob("pk/*/lookups.parquet"))
        share = float((lookups["corpus"] != lookups["corpus"].mode().iloc[0]).mean())
        return share * sum(seconds(f, lambda n: n.startswith("alone-")) for f in res.glob("pk/*/forks")) / 60

    ladders = {"join": join, "dvupdate": dvupdate, "dvjump": dvjump, "pk": pk}
    return {s: ladders[s]() for s in studies}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--before", type=Path, help="a checkout whose claims step gives the first row")
    ap.add_argument("--study", action="append", choices=STUDIES, help="judge this study only (repeatable)")
    a = ap.parse_args()
    studies = tuple(a.study or STUDIES)
    rows = []
    if a.before:
        rows.append(("the rules before (" + a.before.name + ")", *before(a.run, a.before, studies), 0.0))
    # Cumulative: each row switches one more rule on, the others as the row above left them.
    alone = mock.patch.object(claims, "family_p", each_alone)
    unbracketed = mock.patch.object(claims._Judge, "settles", never_settles)
    every_look = mock.patch.object(claims, "last_look_confidence", at_every_look)
    unbound = mock.patch.object(claims, "lag_bounds", unbounded)
    switches = [("A/A as a bias test, no noise band", [mock.patch.object(steady, "mark", harness_flag),
                                                       mock.patch.object(claims, "could_produce", withhold_every_lag),
                                                       mock.patch.object(claims, "group_prior", no_prior), alone,
                                                       unbracketed, unbound], False),
                ("+ pace: keep a verdict the lag only weakened", [mock.patch.object(steady, "mark", harness_flag),
                                                                  mock.patch.object(claims, "group_prior", no_prior),
                                                                  alone, unbracketed, unbound], False),
                ("+ steady states read from the series", [mock.patch.object(claims, "group_prior", no_prior), alone,
                                                          unbracketed, unbound], False),
                ("+ variances moderated per study and kind", [alone, unbracketed, unbound], False),
                ("+ a bias beyond chance among the study's A/As", [unbracketed, unbound], False),
                ("+ unsteady forks bracketed by their series' range", [unbound], False),
                ("+ the budget's rounds, every cell at the sequential confidence", [every_look, unbound], True),
                ("+ a cell judged at its last look's confidence", [unbound], True),
                ("+ a lag bounded in proportion to the work (reopen times)", [], True)]
    for label, patches, budget in switches:
        with ExitStack() as stack:
            for p in patches:
                stack.enter_context(p)
            verdicts = judge_all(a.run, budget, studies)
        rows.append((label, *count(verdicts), budget_minutes(a.run, studies) if budget else 0.0))
    minutes = fork_minutes(a.run, studies)
    rows.append(("+ extrapolations a three-rung ladder checked", *count(verdicts, either=True), sum(minutes.values())))
    print("| lever | decided | of | share | fork-minutes |")
    print("|---|---|---|---|---|")
    for label, decided, applicable, cost in rows:
        print(f"| {label} | {decided} | {applicable} | {decided / applicable:.0%} | {cost:.1f} |")
    print()
    print("ladder fork-minutes by study: " + ", ".join(f"{s} {m:.1f}" for s, m in minutes.items()))


if __name__ == "__main__":
    main()
