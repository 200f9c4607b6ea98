"""Forks: every timed contender runs in a fresh process with a JVM of its own, in rounds.

Why a JVM per contender: the JIT compiles a call site for the classes it has seen there. Timed
one after another in one JVM, postings formats share the lookup's call sites, and a format timed
after the others ran measured a third of its speed alone (FST50 on 9.12.3: 0.34x the default
mixed, 0.94-1.02x alone, same index). JMH and luceneutil fork per benchmark for this reason.

Why rounds: this VM drifts by tens of percent over minutes and JVM starts are bimodal. Round r
runs one fork of every job in an order shuffled for that round, so drift hits every contender
alike and ratios pair fork by fork within a round.

Why lockstep groups: the drift has seconds in it too, which forks timed one after another cannot pair away.
Jobs of one ``lockstep`` group run at once, each JVM timing a sample only while it holds the group's turn
(:mod:`lrev.turns`), so that the same series of every member is timed within a second of the others'.

    python -m lrev.fork TASK VERSION PAYLOAD.json OUTDIR [COLLECTOR [JAVA]]

runs task ``<study>.<name>``, the function ``name`` of ``lrev.<study>.tasks``, which takes the
payload's keys and returns ``{table: DataFrame}``; the child writes ``OUTDIR/<table>.parquet`` and
``OUTDIR/jvm.json`` (the engine's own report: Lucene, JDK, flags).
"""
from __future__ import annotations

import ctypes
import hashlib
import importlib
import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Iterator, Mapping, Sequence

import pandas as pd

from lrev import bridge, engine, turns
from lrev.config import REPO
from lrev.io import atomic_dir, read_json, sha256_file, verify, write_json, write_parquet
from lrev.progress import ForkProgress

JVM_REPORT = "jvm.json"
#: The pid of the process that started a fork (see :func:`_die_with_parent`); prctl's option number.
_PARENT_ENV = "LREV_FORK_PARENT"
_PR_SET_PDEATHSIG = 1
#: Each finished job's wall time, written into its folder: what sizes a scale to its time budget.
TIMING = "timing.json"
#: What a fork printed, in its folder.
FORK_LOG = "fork.log"
#: The lockstep turn of the fork this thread starts (:func:`run`), set by :func:`run_rounds` for a group's member.
_turn = threading.local()
#: The process that started this one (for a notebook's kernel, the pipeline's job): once it is gone the run was killed.
_STARTED_BY = os.getppid()


def task_function(task: str) -> Callable[..., dict[str, pd.DataFrame]]:
    """``<study>.<name>`` -> ``lrev.<study>.tasks.<name>``, found by convention."""
    study, _, name = task.partition(".")
    try:
        module = importlib.import_module(f"lrev.{study}.tasks")
    except ModuleNotFoundError:
        raise KeyError(f"unknown task '{task}': no module lrev.{study}.tasks") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise KeyError(f"unknown task '{task}': lrev.{study}.tasks has no function '{name}'")
    return function


def run(task: str, version: str, payload: dict[str, Any], out: str | os.PathLike,
        collector: str = bridge.PARALLEL, java: int | None = None) -> None:
    """Run ``task`` in a child process (its own JVM, under ``collector``: :func:`lrev.bridge.jvm_flags`, on the JDK
    of feature version ``java``, the default JDK if None), writing
    its tables into the folder ``out`` and everything it prints (its progress bars, the JVM's warnings) into
    ``out/fork.log``: the terminal and the executed notebook show one progress line per study
    (:mod:`lrev.progress`), not each fork's. A failure quotes the log's end."""
    task_function(task)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=out, delete=False) as f:
        json.dump(payload, f)
    env = {**os.environ, _PARENT_ENV: str(os.getpid())}
    flag = lockstep_flag()
    if flag is not None:  # a member of a lockstep group: its JVM takes turns with the group's other members
        env[bridge.EXTRA_FLAGS_ENV] = f"{env.get(bridge.EXTRA_FLAGS_ENV, '')} {flag}".strip()
    try:
        with open(out / FORK_LOG, "w") as log:
            jvm = [collector, *([] if java is None else [str(java)])]
            proc = subprocess.Popen([sys.executable, "-m", "lrev.fork", task, version, f.name, str(out), *jvm],
                                    env=env, stdout=log, stderr=subprocess.STDOUT)
            group = getattr(_turn, "procs", None)
            if group is not None:  # a lockstep group's runner kills its members' forks when it is stopped
                group.append(proc)
            try:
                returncode = proc.wait()
            except BaseException:  # stopped (Ctrl-C): the fork measures no further, as subprocess.run does
                proc.kill()
                proc.wait()
                raise
    finally:
        os.unlink(f.name)
    if returncode == bridge.OUT_OF_HEAP_EXIT:
        raise bridge.OutOfHeapError(f"study {task.partition('.')[0]}, task {task}, Lucene {version}: the fork's JVM "
                                    f"ran out of its {bridge.heap()} heap; raise `heap` in the config (e.g. --config "
                                    f"heap=8g): forks already finished are kept")
    if returncode != 0:
        tail = (out / FORK_LOG).read_text(errors="replace")[-4000:]
        raise ForkError(f"task {task}, Lucene {version}: the fork exited with status {returncode}; the end of "
                        f"its output ({out / FORK_LOG}):\n{tail}")


def lockstep_flag() -> str | None:
    """The JVM flag that makes the fork this thread starts a member of its lockstep group (:func:`run_rounds`), or
    None outside a group."""
    return getattr(_turn, "flag", None)


class ForkError(RuntimeError):
    """A fork that failed: the message quotes the end of what it printed."""


def tables(out: str | os.PathLike) -> dict[str, pd.DataFrame]:
    """The tables a finished job wrote into ``out``."""
    return {p.stem: pd.read_parquet(p) for p in sorted(Path(out).glob("*.parquet"))}


def round_jobs(forks_dir: str | os.PathLike) -> Iterator[tuple[int, Path]]:
    """(round, job folder) of every job :func:`run_rounds` left in ``forks_dir``, rounds in order, jobs by name."""
    rounds = sorted(Path(forks_dir).glob("round-*"), key=lambda p: int(p.name.removeprefix("round-")))
    for round_dir in rounds:
        for job in sorted(p for p in round_dir.iterdir() if p.is_dir()):
            yield int(round_dir.name.removeprefix("round-")), job


def jvm_report(out: str | os.PathLike) -> dict[str, Any]:
    return read_json(Path(out) / JVM_REPORT)


def collect_tables(forks_dir: str | os.PathLike, labels: Callable[[str], dict[str, Any]]
                   ) -> tuple[dict[str, pd.DataFrame], dict[str, dict[str, Any]]]:
    """Every table the finished jobs under ``forks_dir`` wrote, concatenated by name, each row labelled with its
    version, round and fork, then the rest of ``labels(job name)`` (which holds the version); and the first job's
    JVM report of each version. Raises FileNotFoundError when no job finished."""
    parts: dict[str, list[pd.DataFrame]] = {}
    jvms: dict[str, dict[str, Any]] = {}
    for r, job in round_jobs(forks_dir):
        own = labels(job.name)
        jvms.setdefault(own["version"], jvm_report(job))
        head = {"version": own["version"], "round": r, "fork": job.name, **own}
        for name, table in tables(job).items():
            table = table.copy()
            for i, (col, value) in enumerate(head.items()):
                table.insert(i, col, value)
            parts.setdefault(name, []).append(table)
    if not jvms:
        raise FileNotFoundError(f"no finished forks under {forks_dir}")
    return {name: pd.concat(p, ignore_index=True) for name, p in parts.items()}, jvms


@dataclass(frozen=True)
class Job:
    """One fork of a round: ``run(round, folder)`` writes its output files into ``folder``. Jobs of one
    ``group`` run back to back (in a shuffled order), so that two measurements meant to be compared
    with each other, such as a contender and its cross-check, see the same minute of host drift.
    Jobs of one ``lockstep`` group run at once, taking turns (:mod:`lrev.turns`): each must call
    :func:`run` once, and its JVM must take a turn for all it does after starting up (the engine's
    ``InterleavedRunner`` takes one per sample). ``rounds`` limits a job to the first rounds (None:
    every round), for an experiment that needs fewer samples than the timed contenders."""

    name: str
    run: Callable[[int, Path], None]
    group: str = ""
    rounds: int | None = None
    #: The contender the job times (its results' ``contender``), or None for a job that times none of them alone.
    contender: str | None = None
    lockstep: str = ""

    def runs_in(self, round_: int, only: Mapping[int, Collection[str]] | None = None) -> bool:
        """Whether the job runs in ``round_``: within its ``rounds``, and, in a round the budget added for some
        contenders only (``only``, :func:`partial_rounds`), one of theirs."""
        if only and round_ in only and self.contender not in only[round_]:
            return False
        return self.rounds is None or round_ < self.rounds


def order(jobs: Sequence[Job], round_: int, seed: int) -> list[Job]:
    """The jobs of one round in that round's own seeded shuffle: groups shuffled, then jobs within each."""
    rng = random.Random(f"{seed}/{round_}")
    groups: dict[str, list[Job]] = {}
    for job in jobs:
        groups.setdefault(f"lockstep:{job.lockstep}" if job.lockstep else job.group or job.name, []).append(job)
    keys = list(groups)
    rng.shuffle(keys)
    out: list[Job] = []
    for key in keys:
        members = groups[key]
        rng.shuffle(members)
        out.extend(members)
    return out


def partial_rounds(settings: dict[str, Any]) -> dict[int, set[str]]:
    """The rounds the budget added for some contenders only, and theirs (``budget_contenders``)."""
    return {int(r): set(names) for r, names in (settings.get("budget_contenders") or {}).items()}


def fingerprint(settings: dict[str, Any], files: Iterable[str | os.PathLike]) -> str:
    """What a study's forks were made with: its settings and the content of ``files`` (engine jars, fork code).
    The number of ``rounds`` and the budget's partial rounds are left out: a run given more rounds keeps the rounds
    it has and measures only the new ones."""
    digest = hashlib.sha256(json.dumps({k: v for k, v in settings.items() if k not in ("rounds", "budget_contenders")},
                                       sort_keys=True).encode())
    for path in files:
        digest.update(sha256_file(path).encode())
    return digest.hexdigest()


def study_fingerprint(study: str, settings: dict[str, Any], versions: Iterable[str], code: Iterable[str]) -> str:
    """:func:`fingerprint` of a study's ``settings``, its engine jar of each of ``versions`` and its fork ``code``
    (repository paths): outputs made under another are not resumed."""
    jars = [engine.classpath(study, version)[0] for version in sorted(set(versions))]
    return fingerprint(settings, [*jars, *(REPO / path for path in code)])


def verify_inputs(corpora: Iterable[Path], indexes: Iterable[Path]) -> None:
    """Every corpus folder and index folder a run reads still matches the sha256 its manifest recorded: an input
    changed since it was built stops the run before its first fork."""
    for folder, tree in [*((c, False) for c in corpora), *((i, True) for i in indexes)]:
        manifest = Path(folder) / "manifest.json"
        verify(manifest, read_json(manifest)["sha256"], tree=tree)


def run_rounds(jobs: Sequence[Job], rounds: int, seed: int, out: str | os.PathLike, fingerprint: str,
               label: str = "forks", after_round: Callable[[Path], object] | None = None,
               expected: float | None = None, only: Mapping[int, Collection[str]] | None = None) -> Path:
    """Every job once per round, rounds in turn; each job's output in ``out/round-<r>/<job>/``.

    A job's folder appears only once complete, so a killed run resumes where it stopped: finished
    jobs are kept, each with its wall time in ``timing.json``. ``fingerprint`` names the settings the
    outputs were made with; folders made with other settings are discarded first, and so are rounds
    beyond ``rounds`` (see :func:`fingerprint`). ``after_round(out)``
    runs after each round, over the rounds so far: a check that raises (answers that disagree) stops
    the run after one round, not after the last. ``expected``: a fork's seconds by the plan's model, the ETA
    shown before the first fork ends. ``only``: the rounds the budget added for some contenders only
    (:func:`partial_rounds`), each running the jobs of those contenders; the progress and its ETA count them.
    """
    names = [job.name for job in jobs]
    if len(set(names)) != len(names):
        raise ValueError(f"job names must be unique within a round: {names}")
    out = Path(out)
    stamp = out / "fingerprint.txt"
    if out.exists() and (not stamp.is_file() or stamp.read_text() != fingerprint):
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    stamp.write_text(fingerprint)
    for extra in out.glob("round-*"):  # a run given fewer rounds than it has
        if int(extra.name.removeprefix("round-")) >= rounds:
            shutil.rmtree(extra)
    for unfinished in out.glob("round-*/.*"):  # a killed run's job folders, never moved into place
        shutil.rmtree(unfinished)
    total = sum(job.runs_in(r, only) for r in range(rounds) for job in jobs)
    with ForkProgress(label, total, rounds, out, expected) as progress:
        for r in range(rounds):
            ordered = order([j for j in jobs if j.runs_in(r, only)], r, seed)
            units = [list(g) for _, g in itertools.groupby(ordered, key=lambda j: (True, j.lockstep) if j.lockstep else (False, j.name))]
            for unit in units:
                todo = [job for job in unit if not (out / f"round-{r}" / job.name).is_dir()]
                for job in unit:
                    progress.starting(r, job.name)
                if len(todo) == 1 and not todo[0].lockstep:
                    _run_job(todo[0], r, out, label)
                elif todo:
                    _run_lockstep(todo, r, out, label)
                for job in unit:
                    progress.finished(r, job.name, read_json(out / f"round-{r}" / job.name / TIMING)["seconds"],
                                      job not in todo)
            if after_round is not None:
                after_round(out)
    return out


def _run_job(job: Job, r: int, out: Path, label: str, share: int = 1) -> None:
    """One job into ``out/round-<r>/<job>``, with its wall time divided by ``share`` (the members of its lockstep
    group, which ran in the same wall time) in ``timing.json``."""
    with atomic_dir(out / f"round-{r}" / job.name) as tmp:
        start = time.monotonic()
        try:
            job.run(r, tmp)
        except bridge.OutOfHeapError as err:
            raise bridge.OutOfHeapError(f"{label}: job {job.name} (round {r}): {err}") from None
        # The contender too: a budget prices a round of some contenders by their forks' times.
        write_json(tmp / TIMING, {"seconds": round((time.monotonic() - start) / share, 3),
                                  "contender": job.contender})
        stop = getattr(_turn, "stop", None)
        if stop is not None and stop.is_set():  # its group was stopped: nothing of it is kept
            raise ForkError(f"{label}: job {job.name} (round {r}) was stopped with its lockstep group")
        # Killed outright, a run leaves its notebook's kernel (a session of its own) alive until ipykernel's poll of
        # its parent, up to a second: a fork that ends in that second, as a lockstep group's members all do at
        # once, measured after the kill and is not kept.
        if os.getppid() != _STARTED_BY:
            raise ForkError(f"{label}: job {job.name} (round {r}) ended after the run that started it was killed")


def _run_lockstep(members: Sequence[Job], r: int, out: Path, label: str) -> None:
    """The jobs of one lockstep group at once, each in a thread of its own, under one :class:`lrev.turns.Conductor`.
    A member that fails lets the others finish, then its error is raised."""
    errors: list[BaseException] = []
    procs: list[subprocess.Popen] = []
    stop = threading.Event()
    with turns.Conductor(len(members)) as conductor:
        def member(i: int, job: Job) -> None:
            _turn.flag, _turn.procs, _turn.stop = conductor.flag(i), procs, stop
            try:
                _run_job(job, r, out, label, share=len(members))
            except BaseException as err:
                errors.append(err)
            finally:
                conductor.exited(i)

        threads = [threading.Thread(target=member, args=(i, job), name=job.name) for i, job in enumerate(members)]
        try:
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        except BaseException:  # stopped (Ctrl-C): no member measures on, and none is kept
            stop.set()
            for proc in list(procs):
                proc.kill()
            for t in threads:
                t.join()
            raise
    if errors:
        raise errors[0]
    if conductor.error is not None:
        raise RuntimeError(f"{label}: the lockstep turns of round {r} failed: {conductor.error}")


def _die_with_parent() -> None:
    """Ask Linux to kill this fork when the process that started it dies: a run killed outright (SIGKILL of the
    pipeline, the notebook's kernel gone) must leave no fork measuring on beside its rerun."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.environ.get(_PARENT_ENV, str(os.getppid())) != str(os.getppid()):  # it died before the request
        os._exit(1)


def main(argv: list[str]) -> int:
    task, version, payload_file, out, *jvm = argv
    _die_with_parent()
    function = task_function(task)
    collector = jvm[0] if jvm else bridge.PARALLEL
    java = int(jvm[1]) if len(jvm) > 1 else None
    flags = bridge.start(version, task.partition(".")[0], collector, java)
    result = function(**read_json(payload_file))
    for name, table in result.items():
        write_parquet(Path(out) / f"{name}.parquet", table)
    write_json(Path(out) / JVM_REPORT, {**bridge.engine_info(), "flags": flags})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
