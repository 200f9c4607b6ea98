"""Faults a long run meets, each on the real code path: a fork's JVM out of heap, a run interrupted or killed while
it measures, a corrupt index, a full disk. Each stops with an error naming what failed, and loses nothing that
was complete."""
from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import REPO, assert_config_error
from lrev import bridge, config, fork, io, jdk, manifest
from lrev.dvjump import forks as dvjump_forks
from lrev.dvjump import layout as dvjump_layout
from lrev.dvupdate import forks as dvupdate_forks
from lrev.join import forks as join_forks
from lrev.pk import forks as pk_forks
from lrev.pk import layout as pk_layout
from lrev.pk import results as pk_results


def _copy(root: Path, dest: Path, *parts: str) -> None:
    """``root/<part>`` of the session's smoke run into ``dest``, with its files' times (it is never touched)."""
    for part in parts:
        shutil.copytree(root / part, dest / part)


def _mtimes(folders: list[Path]) -> dict[Path, int]:
    return {f: (f / fork.TIMING).stat().st_mtime_ns for f in folders}


# 1. A fork's JVM out of heap.

def test_the_heap_is_a_validated_config_key_read_by_every_jvm(monkeypatch):
    assert config.load().heap == "4g"
    assert_config_error({"heap": "4 GB"}, "heap")
    assert_config_error({"heap": 4}, "heap")
    home = jdk.find_jdk()
    monkeypatch.setenv(bridge.HEAP_ENV, "8g")
    flags = bridge.jvm_flags("10.6.0", home)
    assert {"-Xms8g", "-Xmx8g", f"-Xmn{bridge.YOUNG}", "-XX:+ExitOnOutOfMemoryError"} <= set(flags)
    monkeypatch.setenv(bridge.HEAP_ENV, "96m")
    assert {"-Xmx96m", "-Xmn24576k"} <= set(bridge.jvm_flags("10.6.0", home)), "a small heap gets a quarter of it"
    monkeypatch.setenv(bridge.HEAP_ENV, "lots")
    with pytest.raises(ValueError, match=bridge.HEAP_ENV):
        bridge.jvm_flags("10.6.0", home)


def test_a_g1_jvm_drops_the_parallel_collectors_flags_and_an_unknown_collector_is_named():
    home = jdk.find_jdk()
    g1 = bridge.jvm_flags("10.6.0", home, "g1")
    assert "-XX:+UseG1GC" in g1 and not any("Parallel" in f or f.startswith("-Xmn") for f in g1)
    assert "-XX:+UseParallelGC" in bridge.jvm_flags("10.6.0", home)
    with pytest.raises(ValueError, match="'zgc'"):
        bridge.jvm_flags("10.6.0", home, "zgc")


def test_a_new_heap_reruns_no_finished_job(smoke_run):
    root, _, dry = smoke_run
    assert "Nothing to be done" in dry.stdout + dry.stderr
    again = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2", "--dry-run", "--config", "scale=smoke",
                            f"outdir={root.parent}", "heap=8g"], cwd=REPO, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "Nothing to be done" in again.stdout + again.stderr


def _pk(smoke_root: Path, tmp_path: Path) -> tuple[dict, str, Path]:
    """pk's smoke settings, its last version, and a copy of that version's corpora and indexes."""
    pk = config.load({"scale": "smoke"}).study("pk")
    version = pk["versions"][-1]
    _copy(smoke_root, tmp_path / "smoke", "corpora/pk", f"indexes/pk/{version}")
    return pk, version, tmp_path / "smoke"


def test_a_fork_out_of_heap_stops_naming_it_and_a_larger_heap_runs_only_what_is_missing(smoke_run, tmp_path,
                                                                                       monkeypatch):
    pk, version, root = _pk(smoke_run[0], tmp_path)
    # The A/A contender's fork: the cheapest of the study's real forks (lookups only).
    jobs = [j for j in pk_forks.jobs(root, version, pk) if j.name == pk_results.ALONE + pk_layout.AA]
    out, stamp = tmp_path / "forks", pk_forks.fingerprint(version, pk)
    monkeypatch.setenv(bridge.HEAP_ENV, "64m")
    fork.run_rounds(jobs, 1, pk["seed"], out, stamp)
    finished = _mtimes([out / "round-0" / jobs[0].name])

    monkeypatch.setenv(bridge.HEAP_ENV, "4m")  # too small for any fork: round 1's fails
    with pytest.raises(bridge.OutOfHeapError) as err:
        fork.run_rounds(jobs, 2, pk["seed"], out, stamp)
    for named in ("study pk", "pk.measure", f"Lucene {version}", jobs[0].name, "4m heap", "raise `heap`"):
        assert named in str(err.value)
    assert not list((out / "round-1").iterdir()), "no part of the failed fork is kept"
    assert _mtimes(list(finished)) == finished, "the heap is not in the fingerprint: finished forks are kept"

    monkeypatch.setenv(bridge.HEAP_ENV, "64m")
    fork.run_rounds(jobs, 2, pk["seed"], out, stamp)
    assert _mtimes(list(finished)) == finished, "only the failed fork ran again"
    rerun = out / "round-1" / jobs[0].name
    assert not fork.tables(rerun)["lookups"].empty
    assert "-Xmx64m" in fork.jvm_report(rerun)["flags"]


# 2. A run interrupted (Ctrl-C) or killed outright while it measures.

def _processes() -> dict[int, tuple[int, str]]:
    """Every live process: pid -> (parent pid, command line)."""
    out = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            state, ppid = (proc / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if state != "Z":
            out[int(proc.name)] = (int(ppid), cmdline)
    return out


def _tree(pid: int) -> set[int]:
    """``pid`` and all its descendants, whatever session they started (a notebook's kernel starts its own)."""
    procs, found, todo = _processes(), set(), [pid]
    while todo:
        found.add(p := todo.pop())
        todo.extend(c for c, (ppid, _) in procs.items() if ppid == p)
    return found


def _wait(condition, what: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"timed out after {timeout} s waiting for {what}"
        time.sleep(0.2)


def test_a_fork_dies_with_the_process_that_started_it(smoke_run, tmp_path):
    """Killed outright, the process that runs the forks takes its running fork with it, even one whose output goes
    to a file (no broken pipe to stop it): the fork must not finish its job beside the killed run's rerun."""
    pk, version, root = _pk(smoke_run[0], tmp_path)
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps({"root": str(root), "version": version, "pk": pk, "round": 0,
                                   "contender": pk_layout.AA}))
    out = tmp_path / "out"
    script = ("import json, sys; from lrev import fork; "
              "fork.run('pk.measure', sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3])")
    with open(tmp_path / "log", "w") as log:
        parent = subprocess.Popen([sys.executable, "-c", script, version, str(payload), str(out)], cwd=REPO,
                                  stdout=log, stderr=log)
    _wait(lambda: len(_tree(parent.pid)) > 1, "the fork to start", 60)
    child = max(_tree(parent.pid) - {parent.pid})
    parent.kill()
    parent.wait()
    _wait(lambda: child not in _processes(), "the fork to end", 60)
    assert not list(out.glob("*.parquet")), "the fork stopped with its parent"


def _finished(forks: Path) -> list[Path]:
    return sorted(p.parent for p in forks.glob(f"round-*/[!.]*/{fork.TIMING}"))


def _interrupt(cmd: list[str], forks: Path, scratch: Path, sig: int, log: Path) -> None:
    """Start ``cmd``, send ``sig`` to it and all it started once one more fork has finished, and wait until
    none of its processes is left."""
    before = len(_finished(forks))
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait(lambda: len(_finished(forks)) > before or proc.poll() is not None, "a fork to finish", 180)
        assert proc.poll() is None, f"the run ended before it could be stopped: {log.read_text()[-2000:]}"
        started = _tree(proc.pid)
        # The run's process group, as Ctrl-C or a kill of the job would: the notebook's kernel, in a session
        # of its own, and its fork are not in it; they must not outlive it, nor write anything after it.
        os.killpg(proc.pid, sig)
        stopped = _finished(forks)
        proc.wait(timeout=60)
        _wait(lambda: not started & set(_processes()), "the stopped run's processes to end", 60)
        _wait(lambda: not any(str(scratch) in cmd for _, cmd in _processes().values()), "its forks to end", 60)
        assert _finished(forks) == stopped, "no fork went on measuring after the run was stopped"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def _assert_nothing_half_written(results: Path) -> None:
    """Every visible table and JSON file below ``results`` is whole; hidden ones are only atomic writers'
    temporaries (a fork's folder not yet moved into place)."""
    for path in results.rglob("*"):
        hidden = any(part.startswith(".") for part in path.relative_to(results).parts)
        if path.is_file() and not hidden:
            if path.suffix == ".parquet":
                pd.read_parquet(path)
            elif path.suffix in (".json", ".ipynb"):
                json.loads(path.read_text())
        if hidden:
            assert "forks" in path.relative_to(results).parts, f"a stray temporary file: {path}"


def test_an_interrupted_or_killed_run_redoes_only_the_unfinished_forks(smoke_run, tmp_path):
    # dvjump's run of its fewest contenders (Lucene 7 on its own index, read by 8.11.4 too, and the A/A
    # contender), one round: the cheapest study run with several forks.
    dvjump = {"rounds": 1, "contenders": ["lucene7", "lucene7-index"], "versions": ["7.7.3", "8.11.4"]}
    settings = config.load({"scale": "smoke", "studies": ["dvjump"], "dvjump": dvjump}).study("dvjump")
    root = tmp_path / "smoke"
    _copy(smoke_run[0], root, "corpora/dvjump", "indexes/dvjump")
    notebook = root / "results" / "dvjump" / "dvjump.ipynb"
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--nolock", "--rerun-incomplete", "--allowed-rules",
           "dvjump_run", "--config", "scale=smoke", f"outdir={tmp_path}", "studies=[dvjump]",
           f"dvjump={json.dumps(dvjump)}", "heap=512m", "--", str(notebook)]
    forks = dvjump_layout.forks_dir(root)
    results = root / "results"

    _interrupt(cmd, forks, tmp_path, signal.SIGINT, tmp_path / "sigint.log")
    _assert_nothing_half_written(results)
    kept = _mtimes(_finished(forks))
    assert kept

    _interrupt(cmd, forks, tmp_path, signal.SIGKILL, tmp_path / "sigkill.log")
    _assert_nothing_half_written(results)
    assert _mtimes(list(kept)) == kept, "forks finished before the interrupt were kept"
    kept = _mtimes(_finished(forks))
    assert len(kept) >= 2

    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert _mtimes(list(kept)) == kept, "the rerun ran only the forks that had not finished"
    names = {job.name for job in dvjump_forks.jobs(root, settings)}
    assert {p.name for p in _finished(forks)} == names
    assert not [p for p in forks.rglob(".*")], "the killed run's unfinished fork folders are gone"
    assert all("-Xmx512m" in fork.jvm_report(p)["flags"] for p in _finished(forks)), "the config's heap"
    _assert_nothing_half_written(results)
    tables, _ = manifest.load(results / "dvjump", settings["versions"], ["latency"])  # checksums verified
    assert not tables["latency"].empty


# 3. A corrupt index: one byte flipped.

RUNS = {
    "pk": lambda root, s: pk_forks.run(root, s["versions"][-1], s),
    "dvjump": dvjump_forks.run,
    "join": join_forks.run,
    "dvupdate": dvupdate_forks.run,
}


@pytest.mark.parametrize("study", sorted(RUNS))
def test_a_flipped_byte_in_an_index_stops_the_run_before_any_timing_naming_the_file(smoke_run, tmp_path, study):
    settings = config.load({"scale": "smoke"}).study(study)
    root = tmp_path / "smoke"
    indexes = [f"indexes/{study}/{settings['versions'][-1]}"] if study == "pk" else [f"indexes/{study}"]
    _copy(smoke_run[0], root, f"corpora/{study}", *indexes)
    index = sorted((root / indexes[0]).rglob("manifest.json"))[-1]
    folder, listing = next(iter(io.read_json(index)[io.FILES].items()))
    name = max(listing, key=lambda f: (index.parent / folder / f).stat().st_size)
    target = index.parent / folder / name
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    with pytest.raises(io.ChecksumError) as err:
        RUNS[study](root, settings)
    assert str(target) in str(err.value)
    assert not list((root / "results").rglob(fork.TIMING)), "nothing was timed"


# 4. A full disk while results are written.

@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB file system (tmpfs), unmounted afterwards."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)], capture_output=True,
                             text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill (needs root): {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_a_full_disk_stops_the_write_naming_the_file_and_damages_nothing_written(small_disk):
    frame = pd.DataFrame({"x": np.random.default_rng(0).random(4000)})  # about 32 KB, incompressible
    written: dict[Path, bytes] = {}
    with pytest.raises(io.DiskFullError) as err:
        for i in range(64):
            target = small_disk / f"t{i}.parquet"
            io.write_parquet(target, frame)
            written[target] = target.read_bytes()
    assert written and err.value.errno == errno.ENOSPC
    assert f"the disk is full: no space left to write {target}" in str(err.value)
    assert {p: p.read_bytes() for p in written} == written, "files written before are intact"
    assert sorted(small_disk.iterdir()) == sorted(written), "no temporary file is left behind"

    with pytest.raises(io.DiskFullError, match="manifest.json"):
        io.write_json(small_disk / "manifest.json", {"values": list(range(100_000))})
    with pytest.raises(io.DiskFullError, match="round-0/job"):
        with io.atomic_dir(small_disk / "round-0" / "job") as tmp:
            (tmp / "out.bin").write_bytes(bytes(300_000))
    results = small_disk / "results" / "10.6.0"
    with pytest.raises(io.DiskFullError, match="latency.parquet"):
        manifest.write(results, study="s", scale="smoke", version="10.6.0", tables={"latency": frame},
                       jvm={"lucene_version": "10.6.0", "java_home": "", "java_version": "", "java_vendor": "",
                            "flags": [], "jvm_arguments": []},
                       corpora={"c": {"synthetic": True}}, parameters={}, started="")
    with pytest.raises(FileNotFoundError, match="manifest.json"):
        manifest.load(results.parent, ["10.6.0"], ["latency"])
    assert sorted(p for p in small_disk.rglob("*") if p.is_file()) == sorted(written)
    assert {p: p.read_bytes() for p in written} == written
