"""The `join` fork task (run by :mod:`lrev.fork`, one JVM each): one contender alone in its JVM. The correctness
gate first, then a closed-loop warm-up on one thread (until steady: it also gives the service time), then the
saturation search: open-loop Poisson steps at increasing fractions of the capacity that service time implies.
Then one step at the saturation rate under Flight Recorder (where the CPU went), a closed loop on the same workers
(the most they complete when no request waits to be offered), and, for the contenders the
config names, the cold runs: the index closed, evicted from the page cache, reopened and loaded at once."""
from __future__ import annotations

import math
import shutil
import time
from pathlib import Path
from typing import Any

import pandas as pd

from lrev import load, pagecache, warmup
from lrev.io import read_json
from lrev.join import engine, layout

#: The warm-up policy (lrev/warmup.py): a load step in which the JIT compilers were busy for more than its quiet
#: share was no steady state. The update loop is a held load: updates flush, merge and reopen as they go; held for
#: 60 s on 10.6.0, a child-alone fork's 1 s iterations moved between 61 and 207 us per update and its compilers
#: stayed above 2% in most of them, so a JIT working at a steady rate counts as steady, as in dvupdate's cells.
JIT_QUIET_SHARE = warmup.JIT_QUIET_SHARE
NS_PER_MS = 1e6
#: A cold run starts with at most this share of the index resident, or it is marked not evicted.
EVICTED_SHARE = 0.05


def measure(root: str, version: str, round: int, contender: str, out: str,
            join: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Tables: ``gate`` (per query), ``closed`` (the closed loop's iterations), ``steps`` (one row per load step),
    ``intervals`` (the steps' per-second rows), ``saturation`` (one row: the search's outcome and the profiled
    step's shares), ``frames`` (the profiled step's hottest frames); for a contender with cold runs, ``cold``
    (one row per run), ``cold_intervals`` and ``residency`` (per file extension after each run). Each step's
    HdrHistogram interval log is written to ``out/step-<i>.hlog``, the recording to ``out/hot.jfr``."""
    root_ = Path(root)
    system = layout.system(contender)
    index = layout.index_dir(root_, version, system) / layout.OPENED[system]
    queries = layout.corpus_dir(root_) / "queries.tsv"
    # The same query stream and arrival times for every contender and version of a round.
    seed = int(join["seed"]) * 1000 + round
    top_n, plan = join["top_n"], join["load"]
    pin = load.pinning(plan["pin"], "join.load.pin")
    with engine.Bench(index, join["directory"], layout.contender(contender), queries,
                      layout.solr_caches(join, version), pin) as bench:
        gate, closed, service_ns = gate_and_warm_up(bench, join, seed)
        capacity = load.server_cpus(pin) * 1e9 / service_ns
        open_warmup = warm_up_open_loop(bench, plan["warmup_fraction"] * capacity, join, seed)
        intervals: list[pd.DataFrame] = []

        def step(rate: float) -> dict[str, float]:
            i = len(intervals)
            seconds = load.step_seconds(rate, plan["step_s"], plan["min_requests"])
            rows, summary = bench.open_loop(top_n, rate, join["workers"], seconds, seed * 100 + i,
                                            Path(out) / f"step-{i}.hlog")
            intervals.append(rows.rename(columns={"phase": "part"}).assign(step=i))
            return summary

        search = load.saturation_search(step, [f * capacity for f in plan["fractions"]], k=plan["p99_factor"],
                                        min_backlog=plan["backlog"], refine=plan["refine"], extend=True,
                                        confirm=plan["confirm"])
        steps = search.steps.rename(columns={"rate": "offered_rps"})
        # The highest rate that passed (the first rate when none did).
        passed = steps[steps["stop_reason"] == ""]["offered_rps"]
        hot_rate = float(passed.max()) if len(passed) else float(steps["offered_rps"].min())
        frames = profile(bench, top_n, hot_rate, join, seed, Path(out))
        # Warm by now: the most the same workers complete with no request ever waiting to be offered.
        closed_max = bench.closed_throughput(top_n, join["workers"], plan["closed_s"])
        ordinal_map_ms = bench.ordinal_map_ms()
    steps = steps.assign(workers=join["workers"], passed=lambda s: (s["stop_reason"] == "").astype(int),
                         fraction=lambda s: s["offered_rps"] / capacity,
                         quiet=lambda s: (s["jit_ms"] * NS_PER_MS <= JIT_QUIET_SHARE * s["duration_ns"]).astype(int),
                         overturned=lambda s: s["stop_reason"].str.endswith(load.OVERTURNED).astype(int))
    # The CPU share just past saturation: at the lowest rate that failed.
    stopped = load.failed_steps(steps, "offered_rps")
    # The low-load step: the first rate's last run, the one that passed where a repeat overturned a stall.
    first = steps[steps["offered_rps"] == steps["offered_rps"].iloc[0]].iloc[-1]
    marks = frames[frames["kind"] == "mark"].set_index("name")
    saturation = pd.DataFrame([{
        "workers": join["workers"], "outcome": search.status,
        "saturation_rps": search.rate if search.rate is not None else math.nan,
        "low_p50_ms": first["p50_ns"] / NS_PER_MS, "low_p99_ms": first["p99_ns"] / NS_PER_MS,
        "cpu_at_saturation": stopped["cpu_share"].iloc[0] if len(stopped) else math.nan,
        "server_cpu_at_saturation": stopped["worker_cpu_share"].iloc[0] if len(stopped) else math.nan,
        "service_ms": service_ns / NS_PER_MS, "capacity_rps": capacity,
        "closed_rps": closed_max["throughput_rps"], "closed_jit_ms": closed_max["jit_ms"],
        "generator_cpus": pin.generator if pin else "", "server_cpus": pin.server if pin else "",
        # A saturation rate found while the JIT was still compiling is flagged as an unconverged warm-up is.
        "stable": int(closed["stable"].iloc[0] and steps.loc[steps["overturned"] == 0, "quiet"].all()),
        "ordinal_map_ms": ordinal_map_ms,
        "open_warmup_steps": len(open_warmup), "open_warmup_jit_share": open_warmup[-1],
        "open_warmup_quiet": int(open_warmup[-1] <= JIT_QUIET_SHARE),
        "profiled_rps": hot_rate, "profile_samples": int(frames["total"].iloc[0]) if len(frames) else 0,
        **{f"{mark}_share": mark_share(marks, name) for mark, name in layout.MARKS.items()}}])
    tables = {"gate": gate, "closed": closed, "steps": steps,
              "intervals": pd.concat(intervals, ignore_index=True), "saturation": saturation, "frames": frames}
    if contender in join["cold"]["contenders"].get(version, []):
        rate = join["cold"]["fraction"] * hot_rate
        tables.update(cold(root_, version, contender, rate, first["p99_ns"], join, seed, Path(out)))
    return tables


def warm_up_open_loop(bench: engine.Bench, rate: float, join: dict[str, Any], seed: int) -> list[float]:
    """Open-loop steps at ``rate`` until one in which the JIT compilers were busy for at most JIT_QUIET_SHARE of
    it (at most ``load.warmup_steps`` of ``load.warmup_step_s``); nothing of them is kept. The closed loop warms
    up one thread; the load's dispatcher, queue and concurrent workers run code it never ran, and without this
    their compilation fell in the first measured step (up to 94% of it on the compiler threads). Returns each
    step's JIT share."""
    plan = join["load"]
    shares = []
    for i in range(plan["warmup_steps"]):
        _, summary = bench.open_loop(join["top_n"], rate, join["workers"], plan["warmup_step_s"], seed * 100 + 90 + i,
                                     None)
        shares.append(summary["jit_ms"] * NS_PER_MS / summary["duration_ns"])
        if shares[-1] <= JIT_QUIET_SHARE:
            break
    return shares


def sweep(root: str, version: str, round: int, contender: str, corpus: str, out: str,
          join: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """A fork of the unique-join-values sweep: the gate and the closed loop on one sweep corpus. Tables
    ``sweep_gate`` (per query), ``sweep`` (one row: the corpus's join keys and the service time) and
    ``sweep_closed`` (the closed loop's iterations, whose steady state the loaders read)."""
    gate, row, closed = closed_on(Path(root), version, round, contender, corpus, join)
    return {"sweep_gate": gate, "sweep": pd.DataFrame([{**row, "share": layout.share(corpus)}]),
            "sweep_closed": closed}


def ladder(root: str, version: str, round: int, contender: str, corpus: str, out: str,
           join: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """A closed-loop fork of the size ladder: the gate and the closed loop on one ladder corpus. Tables
    ``ladder_gate`` (per query), ``ladder`` (one row: the corpus's documents and the service time) and
    ``ladder_closed`` (the closed loop's iterations)."""
    gate, row, closed = closed_on(Path(root), version, round, contender, corpus, join)
    return {"ladder_gate": gate, "ladder": pd.DataFrame([{**row, "docs": layout.docs(join, corpus)}]),
            "ladder_closed": closed}


def closed_on(root: Path, version: str, round: int, contender: str, corpus: str,
              join: dict[str, Any]) -> tuple[pd.DataFrame, dict[str, Any], pd.DataFrame]:
    """The gate and the closed loop of ``contender`` on ``corpus``'s index: (the gate with its corpus, one row of
    the corpus's join keys, the service time and whether the loop converged, the loop's iterations)."""
    system = layout.system(contender)
    index = layout.index_dir(root, version, system, corpus) / layout.OPENED[system]
    keys = read_json(layout.corpus_dir(root, corpus) / "manifest.json")["join_keys"]
    with engine.Bench(index, join["directory"], contender, layout.corpus_dir(root, corpus) / "queries.tsv",
                      layout.solr_caches(join, version), None) as bench:
        gate, closed, service_ns = gate_and_warm_up(bench, join, int(join["seed"]) * 1000 + round)
    row = {"corpus": corpus, "join_keys": keys, "service_ms": service_ns / NS_PER_MS,
           "hits": int(gate["hits"].sum()), "stable": int(closed["stable"].iloc[0])}
    return gate.assign(corpus=corpus), row, closed.assign(corpus=corpus)


def updates(root: str, version: str, round: int, design: str, out: str, join: dict[str, Any],
            corpus: str = layout.CORPUS) -> dict[str, pd.DataFrame]:
    """A fork of the child-update measurement: ``design`` (layout.UPDATE_DESIGNS) changes one child's acl at a
    time on a copy of the version's Lucene index of ``corpus``, one thread back to back, held until the JIT is quiet
    or settled and then for ``updates.measure_s`` (``updates.warmup``); then every updated block is checked. Tables
    ``update_gate`` (per updated block), ``update_probes`` (the loop's probes) and ``updates`` (one row: the time per
    update over the measured time, reopens and merges included)."""
    root_ = Path(root)
    settings = join["updates"]
    held = settings["warmup"]
    copy = Path(out) / "index"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(layout.index_dir(root_, version, "lucene", corpus) / layout.OPENED["lucene"], copy)
    try:
        with engine.ChildUpdates(copy, layout.corpus_dir(root_, corpus), layout.UPDATE_DESIGNS[design],
                                 settings["blocks"], join["corpus"]["acl_domain"], settings["per_reopen"]) as bench:
            probes = bench.held_loop(held["probe_ms"], held["min_s"], held["max_s"], warmup.WINDOW,
                                     JIT_QUIET_SHARE, warmup.JIT_SETTLED_DROP, settings["measure_s"])
            gate = bench.verify()
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    measured = probes[probes["phase"] == "measure"]
    warm = probes[probes["phase"] == "warmup"]
    row = {"corpus": corpus, "docs": layout.docs(join, corpus), "per_reopen": settings["per_reopen"],
           "blocks": settings["blocks"],
           "update_ms": measured["nanos"].sum() / measured["ops"].sum() / NS_PER_MS,
           "updates": int(probes["ops"].sum()), "warmup_s": warm["nanos"].sum() / 1e9,
           "measured_s": measured["nanos"].sum() / 1e9,
           "jit_share": measured["jit_ms"].sum() * NS_PER_MS / measured["nanos"].sum(),
           "stable": int(probes["stable"].iloc[0]), "window": warmup.WINDOW, "jit_quiet_share": JIT_QUIET_SHARE,
           "jit_settled_drop": warmup.JIT_SETTLED_DROP}
    return {"update_gate": gate.assign(per_reopen=settings["per_reopen"]), "update_probes": probes,
            "updates": pd.DataFrame([row])}


def ladder_updates(root: str, version: str, round: int, design: str, corpus: str, out: str,
                   join: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """An update fork of the size ladder: :func:`updates` on a ladder corpus, its tables prefixed ``ladder_``
    (the main corpus's update forks are the claims'; these place the crossover)."""
    return {f"ladder_{name}": table for name, table in updates(root, version, round, design, out, join, corpus).items()}


def gate_and_warm_up(bench: engine.Bench, join: dict[str, Any], seed: int) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """The correctness gate, then the closed loop until steady: (gate, the loop's iterations, the service time in
    ns from its measured iterations)."""
    loop = join["warmup"]
    gate = bench.gate(join["top_n"]).rename(columns={"total": "hits"})
    closed = bench.closed_loop(join["top_n"], loop["iteration_ms"], loop["min_warmup"], loop["max_warmup"],
                               loop["stable_cv"], JIT_QUIET_SHARE, loop["measure_iterations"], seed)
    closed = closed.drop(columns="contender")
    measured = closed[closed["phase"] == "measure"]
    return gate, closed, measured["nanos"].sum() / measured["ops"].sum()


def mark_share(marks: pd.DataFrame, name: str) -> float:
    if name not in marks.index or not marks.loc[name, "total"]:
        return math.nan
    return float(marks.loc[name, "samples"] / marks.loc[name, "total"])


def profile(bench: engine.Bench, top_n: int, rate: float, join: dict[str, Any], seed: int,
            out: Path) -> pd.DataFrame:
    """One load step at ``rate`` (the saturation rate) under Flight Recorder: its hottest frames."""
    settings = join["profile"]
    recording = engine.HotFrames(settings["period_ms"])
    try:
        bench.open_loop(top_n, rate, join["workers"], settings["seconds"], seed * 100 + 99, None)
        return recording.stop(out / "hot.jfr", settings["top"], list(layout.MARKS.values()))
    finally:
        recording.close()


def cold(root: Path, version: str, contender: str, rate: float, warm_p99_ns: float, join: dict[str, Any],
         seed: int, out: Path) -> dict[str, pd.DataFrame]:
    """The index's files dropped from the page cache, the contender reopened on each configured directory and
    loaded at ``rate`` with each configured number of workers at once. A run recovered when its last interval's
    p99 was within ``load.p99_factor`` x the warm first step's; its recovery time ends the last interval above."""
    settings = join["cold"]
    system = layout.system(contender)
    index = layout.index_dir(root, version, system) / layout.OPENED[system]
    files = layout.index_dir(root, version, system) / layout.FILES[system]
    index_bytes = sum(p.stat().st_size for p in pagecache.files([files]))
    threshold = join["load"]["p99_factor"] * warm_p99_ns
    read_ahead = pagecache.read_ahead_kb(files) or 0
    pin = load.pinning(join["load"]["pin"], "join.load.pin")
    rows, timelines, residency = [], [], []
    for i, run in enumerate(settings["runs"]):
        engine.release_mappings()
        time.sleep(0.5)  # the reference handler unmaps collected buffers on its own thread
        pagecache.evict([files])
        resident = pagecache.resident_bytes([files])
        io_start, dev_start = pagecache.process_io(), pagecache.device_reads(files)
        with engine.Bench(index, run["directory"], layout.contender(contender), layout.corpus_dir(root) / "queries.tsv",
                          layout.solr_caches(join, version), pin) as bench:
            io_open = pagecache.process_io()
            opened = pagecache.resident_by_extension([files])
            intervals, summary = bench.open_loop(join["top_n"], rate, run["workers"], settings["seconds"],
                                                 seed * 100 + 50 + i, out / f"cold-{i}.hlog",
                                                 interval_s=settings["interval_ms"] / 1000)
            io_end, dev_end = pagecache.process_io(), pagecache.device_reads(files)
        loaded = intervals[intervals["phase"] == "load"]
        above = loaded[loaded["p99_ns"] > threshold]
        completed = max(int(summary["completed"]), 1)
        by_ext = pagecache.resident_by_extension([files])
        hot = sum(r for ext, (_, r) in by_ext.items() if ext in layout.TERMS_AND_POSTINGS)
        after = sum(r for _, r in by_ext.values())
        # Opening reads every file's header, and its page fault reads around it: what the other files hold then
        # is resident whatever the queries read. The share terms and postings could reach at best, were they
        # read whole: a run whose ceiling is below join-6's threshold cannot test it.
        hot_size = sum(size for ext, (size, _) in by_ext.items() if ext in layout.TERMS_AND_POSTINGS)
        other_open = sum(r for ext, (_, r) in opened.items() if ext not in layout.TERMS_AND_POSTINGS)
        dev_reads = (dev_end[0] - dev_start[0]) if dev_start and dev_end else 0
        rows.append({
            "directory": run["directory"], "workers": run["workers"], "offered_rps": rate, "read_ahead_kb": read_ahead,
            "evicted": int(resident <= EVICTED_SHARE * index_bytes), "resident_before": resident,
            "index_bytes": index_bytes, "resident_after": after, "hot_share": hot / after if after else math.nan,
            "hot_share_ceiling": hot_size / (hot_size + other_open) if hot_size else math.nan,
            "completed": int(summary["completed"]), "unfinished": int(summary["unfinished"]),
            "p50_ms": summary["p50_ns"] / NS_PER_MS, "p99_ms": summary["p99_ns"] / NS_PER_MS,
            "max_ms": summary["max_ns"] / NS_PER_MS,
            "recovered": int(len(loaded) > 0 and loaded["p99_ns"].iloc[-1] <= threshold),
            "recovery_s": float(above["t_ms"].max()) / 1000 if len(above) else 0.0,
            # Storage reads count from the reopening on: MMap's read-around at open is part of its cost.
            "open_read_bytes": io_open["read_bytes"] - io_start["read_bytes"],
            "read_kb_per_query": (io_end["read_bytes"] - io_start["read_bytes"]) / completed / 1024,
            "syscall_kb_per_query": (io_end["rchar"] - io_open["rchar"]) / completed / 1024,
            "device_reads": dev_reads,
            "kb_per_transaction": ((dev_end[1] - dev_start[1]) / dev_reads / 1024) if dev_reads else math.nan})
        timelines.append(intervals.rename(columns={"phase": "part"}).assign(directory=run["directory"],
                                                                            workers=run["workers"]))
        residency.extend({"directory": run["directory"], "workers": run["workers"], "extension": ext,
                          "bytes": size, "resident_at_open": opened.get(ext, (0, 0))[1], "resident_bytes": r}
                         for ext, (size, r) in sorted(by_ext.items()))
    return {"cold": pd.DataFrame(rows), "cold_intervals": pd.concat(timelines, ignore_index=True),
            "residency": pd.DataFrame(residency)}
