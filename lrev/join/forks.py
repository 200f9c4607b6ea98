"""The `join` forks, as rounds of :class:`lrev.fork.Job`: one run covers every version and contender, so that
ratios between contenders (and versions) pair JVMs of the same round. Round r runs one fork of every
(version, contender), the A/A contender included, one of every update design, one of every (contender, corpus) of
the unique-join-values sweep and of the size ladder, in its own shuffled order.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev import codeinputs, fork, plan
from lrev.join import layout, results

#: Code a fork runs (its tasks, loaded by name, and all they import): a change to any of it makes earlier fork
#: outputs stale.
CODE = codeinputs.files("lrev/join/forks.py", "lrev/join/tasks.py")


def verify_inputs(root: Path, join: dict[str, Any]) -> None:
    """The corpus and every index the run reads still match the sha256 their manifests recorded."""
    fork.verify_inputs([layout.corpus_dir(root, c) for c in layout.corpora(join)],
                       [layout.index_dir(root, *index) for index in layout.indexes(join)])


def fingerprint(join: dict[str, Any]) -> str:
    return fork.study_fingerprint("join", join, join["versions"], CODE)


def jobs(root: Path, join: dict[str, Any]) -> list[fork.Job]:
    def job(task: str, version: str, name: tuple[str, ...], **args: str) -> fork.Job:
        """A fork of ``join.<task>`` on ``version``, named by ``name`` after the version (layout.job_name); the
        contender it times is the first of ``name``."""
        payload = {"root": str(root), "version": version, **args, "join": join}
        return fork.Job(layout.job_name(version, *name), lambda r, out: fork.run(
            f"join.{task}", version, {**payload, "round": r, "out": str(out)}, out), contender=name[0])

    def ladder(version: str, contender: str, corpus: str) -> fork.Job:
        if contender in layout.UPDATE_DESIGNS:
            return job("ladder_updates", version, (contender, corpus), design=contender, corpus=corpus)
        return job("ladder", version, (contender, corpus), contender=contender, corpus=corpus)

    return ([job("measure", v, (c,), contender=c) for v, c in layout.jobs(join)]
            + [job("sweep", v, (c, corpus), contender=c, corpus=corpus) for v, c, corpus in layout.sweep_jobs(join)]
            + [job("updates", v, (d,), design=d) for v, d in layout.update_jobs(join)]
            + [ladder(*spec) for spec in layout.ladder_jobs(join)])


def run(root: Path, join: dict[str, Any]) -> Path:
    """All rounds of forks (resuming a killed run); returns their folder. The gate is compared across
    contenders after every round, so that a contender with other answers stops the run after its first round."""
    verify_inputs(root, join)
    todo = jobs(root, join)
    return fork.run_rounds(todo, join["rounds"], join["seed"], layout.forks_dir(root),
                           fingerprint(join), label="join", after_round=results.collect,
                           expected=plan.fork_seconds(root, "join", join, [j.name for j in todo]),
                           only=fork.partial_rounds(join))
