"""The forks of one Lucene version of the `pk` study, as rounds of :class:`lrev.fork.Job`.

Each round runs, in its own shuffled order:
- ``alone-<contender>``: one JVM per contender (and the A/A contender), which measures only it
  (``pk.measure``);
- ``plain-<contender>``: ``PlainLookupLoop`` alone in a plain JVM, on the seed's setting, right before or
  after ``alone-<contender>`` (a group), since the VM drifts within minutes;
- ``mixed``: every contender in one JVM, the harness's old mode, kept as the experiment that shows
  what sharing a JVM does to a contender; in the first ``mixed_rounds`` rounds only;
- ``rung-<contender>_<corpus>``: a ladder contender on one corpus of the size ladder, in a JVM of its own and as
  cold as the top rung's (``pk.rung``), so that the rungs a line is fitted through differ in size only.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev import codeinputs, fork, plan, tools
from lrev.io import write_parquet
from lrev.pk import layout, plain, results

#: Code a fork runs (its tasks, loaded by name, and all they import): a change to any of it makes earlier fork
#: outputs stale.
CODE = codeinputs.files("lrev/pk/forks.py", "lrev/pk/tasks.py")


def verify_inputs(root: Path, version: str, pk: dict[str, Any]) -> None:
    """Every corpus and index this version reads still matches the sha256 its manifest recorded."""
    fork.verify_inputs([layout.corpus_dir(root, c) for c in layout.corpora(pk)],
                       [layout.index_dir(root, version, c) for c in layout.corpora(pk)])


def fingerprint(version: str, pk: dict[str, Any]) -> str:
    return fork.study_fingerprint("pk", layout.for_version(pk, version), [version], CODE)


def jobs(root: Path, version: str, pk: dict[str, Any]) -> list[fork.Job]:
    payload = {"root": str(root), "version": version, "pk": pk}

    def measure(contender: str) -> fork.Job:
        return fork.Job(results.ALONE + contender, lambda r, out: fork.run(
            "pk.measure", version, {**payload, "round": r, "contender": contender}, out,
            layout.collector(contender), layout.java(contender)), group=contender, contender=contender)

    def plain_loop(contender: str) -> fork.Job:
        cond = layout.seed_condition(pk)
        index = layout.index_path(root, version, cond["corpus"], contender.removesuffix(layout.AA_SUFFIX),
                                  cond["layout"])
        keys = layout.keys_file(root, cond["corpus"], cond["miss_rate"])
        return fork.Job(results.PLAIN + contender, lambda r, out: write_parquet(
            out / "plain.parquet", plain.run(version, index, keys, pk["plain"]["warmup_s"],
                                             pk["plain"]["measure_s"], pk["batch_size"])), group=contender,
                        contender=contender)

    def rung(contender: str, corpus: str) -> fork.Job:
        return fork.Job(results.rung_fork(contender, corpus), lambda r, out: fork.run(
            "pk.rung", version, {**payload, "round": r, "contender": contender, "corpus": corpus}, out,
            layout.collector(contender), layout.java(contender)), contender=contender)

    mixed = fork.Job(results.MIXED, lambda r, out: fork.run("pk.mixed", version, {**payload, "round": r}, out),
                     rounds=pk["mixed_rounds"])
    return ([measure(c) for c in layout.timed_contenders(pk, version)]
            + [plain_loop(c) for c in layout.plain_contenders(pk, version)] + [mixed]
            + [rung(c, cond["corpus"]) for c in layout.timed_contenders(pk, version) if layout.on_ladder(pk, c)
               for cond in layout.ladder_conditions(pk)])


def run(root: Path, version: str, pk: dict[str, Any]) -> Path:
    """All rounds of this version's forks (resuming a killed run), with this version's settings
    (:func:`layout.for_version`: its ladder, if any); returns their folder."""
    pk = layout.for_version(pk, version)
    verify_inputs(root, version, pk)
    # Every other JDK a contender runs on is there before the first fork starts (installed if need be).
    for java in sorted({layout.java(c) for c in layout.timed_contenders(pk, version)} - {None}):
        tools.jdk(java)
    todo = jobs(root, version, pk)
    return fork.run_rounds(todo, pk["rounds"], pk["seed"],
                           layout.results_dir(root, version) / "forks", fingerprint(version, pk),
                           label=f"pk {version}",
                           expected=plan.fork_seconds(root, "pk", pk, [j.name for j in todo]),
                           only=fork.partial_rounds(pk))
