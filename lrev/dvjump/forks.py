"""The `dvjump` forks, as rounds of :class:`lrev.fork.Job`: one run covers every version, so that the
ratios between versions (Lucene 7 against 6, 8 with jump tables against 7's index) pair JVMs of the same
round. Round r runs one fork of every contender and of the A/A contender on every corpus, in its own shuffled order;
the forks of one corpus run as a lockstep group (:mod:`lrev.turns`), so that every contender's sample of a series is
timed within a second of the others': this host's memory speed drifts within seconds (docs/noise.md).

Each rung of the size ladder has JVMs of its own, as each contender has. Timed in one JVM after the full corpus, a
rung ran in a JVM that other series (more workloads and buckets, the cold export) had compiled and profiled, while the
full corpus ran in a fresh one. The paper-scale run of 4458771 timed 2M documents 1.5-2.2 times faster as its JVMs'
second corpus (facet and combined at 10,000-99,999 hits) than the default run of 675f3b5 had as their first (with
iterations of 300 ms against 100, so not the order alone), and on both runs the ladders' top rungs, the full corpora,
bent away from the two rungs below. A line through rungs measured unlike fits the apparatus, not the index.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev import codeinputs, fork, plan
from lrev.dvjump import layout, results

#: Code a fork runs (its tasks, loaded by name, and all they import): a change to any of it makes earlier fork
#: outputs stale.
CODE = codeinputs.files("lrev/dvjump/forks.py", "lrev/dvjump/tasks.py")


def verify_inputs(root: Path, dvjump: dict[str, Any]) -> None:
    """Every corpus and index the run reads still matches the sha256 its manifest recorded."""
    fork.verify_inputs([layout.corpus_dir(root, c) for c in layout.corpora(dvjump)],
                       [layout.index_dir(root, *index) for index in layout.indexes(dvjump)])


def fingerprint(dvjump: dict[str, Any]) -> str:
    versions = [layout.contender(c).version for c in layout.timed(dvjump)]
    return fork.study_fingerprint("dvjump", dvjump, versions, CODE)


def jobs(root: Path, dvjump: dict[str, Any]) -> list[fork.Job]:
    def measure(contender: str, corpus: str) -> fork.Job:
        version = layout.contender(contender).version
        payload = {"root": str(root), "version": version, "contender": contender, "corpus": corpus, "dvjump": dvjump}
        return fork.Job(layout.fork_name(contender, corpus),
                        lambda r, out: fork.run("dvjump.measure", version, {**payload, "round": r}, out),
                        contender=contender, lockstep=corpus)

    return [measure(c, corpus) for c in layout.timed(dvjump) for corpus in layout.corpora(dvjump)]


def run(root: Path, dvjump: dict[str, Any]) -> Path:
    """All rounds of forks (resuming a killed run); returns their folder. The answers are compared after
    every round, so that contenders that disagree stop the run after its first round."""
    verify_inputs(root, dvjump)
    todo = jobs(root, dvjump)
    return fork.run_rounds(todo, dvjump["rounds"], dvjump["seed"], layout.forks_dir(root),
                           fingerprint(dvjump), label="dvjump", after_round=results.collect,
                           expected=plan.fork_seconds(root, "dvjump", dvjump, [j.name for j in todo]),
                           only=fork.partial_rounds(dvjump))
