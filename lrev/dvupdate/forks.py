"""The `dvupdate` forks, as rounds of :class:`lrev.fork.Job`: one run covers every version, method and corpus
role, so that ratios between methods (and versions) pair JVMs of the same round. Round r runs one fork of
every (version, role, method) and of the A/A contender, in its own shuffled order.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev import codeinputs, fork, plan
from lrev.dvupdate import layout, results

#: Code a fork runs (its tasks, loaded by name, and all they import): a change to any of it makes earlier fork
#: outputs stale.
CODE = codeinputs.files("lrev/dvupdate/forks.py", "lrev/dvupdate/tasks.py")


def verify_inputs(root: Path, dvupdate: dict[str, Any]) -> None:
    """Every corpus and index the run reads still matches the sha256 its manifest recorded."""
    fork.verify_inputs([layout.corpus_dir(root, c) for c in sorted(set(layout.corpora(dvupdate).values()))],
                       [layout.index_dir(root, *index) for index in layout.indexes(dvupdate)])


def fingerprint(dvupdate: dict[str, Any]) -> str:
    return fork.study_fingerprint("dvupdate", dvupdate, dvupdate["versions"], CODE)


def jobs(root: Path, dvupdate: dict[str, Any]) -> list[fork.Job]:
    def measure(version: str, role: str, contender: str) -> fork.Job:
        name = layout.job_name(version, role, contender)
        payload = {"root": str(root), "version": version, "role": role, "contender": contender, "job": name,
                   "dvupdate": dvupdate}
        return fork.Job(name, lambda r, out: fork.run("dvupdate.measure", version, {**payload, "round": r}, out),
                        contender=contender)

    return [measure(*job) for job in layout.jobs(dvupdate)]


def run(root: Path, dvupdate: dict[str, Any]) -> Path:
    """All rounds of forks (resuming a killed run); returns their folder. The correctness pass is checked
    after every round, so that a method that leaves wrong values stops the run after its first round."""
    verify_inputs(root, dvupdate)
    todo = jobs(root, dvupdate)
    return fork.run_rounds(todo, dvupdate["rounds"], dvupdate["seed"], layout.forks_dir(root),
                           fingerprint(dvupdate), label="dvupdate", after_round=results.collect,
                           expected=plan.fork_seconds(root, "dvupdate", dvupdate, [j.name for j in todo]),
                           only=fork.partial_rounds(dvupdate))
