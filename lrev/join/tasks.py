"""The `join` fork task (run by :mod:`lrev.fork`, one JVM each): one contender alone in its JVM. The correctness
gate first, then a closed-loop warm-up on one thread (until steady: it also gives the service time), then the
saturation search: open-loop Poisson steps at increasing fractions of the capacity that service time implies."""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pandas as pd

from lrev import load
from lrev.join import engine, layout

#: The closed loop has converged once the JIT compilers were busy for at most this share of its last iterations
#: (what the other studies' warm-ups allow).
JIT_QUIET_SHARE = 0.02
NS_PER_MS = 1e6


def measure(root: str, version: str, round: int, contender: str, out: str,
            join: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Tables: ``gate`` (per query), ``closed`` (the closed loop's iterations), ``steps`` (one row per load step),
    ``intervals`` (the steps' per-second rows) and ``saturation`` (one row: the search's outcome). Each step's
    HdrHistogram interval log is written to ``out/step-<i>.hlog``."""
    root_ = Path(root)
    system = layout.system(contender)
    index = layout.index_dir(root_, version, system) / layout.OPENED[system]
    # The same query stream and arrival times for every contender and version of a round.
    seed = int(join["seed"]) * 1000 + round
    top_n, warmup, plan = join["top_n"], join["warmup"], join["load"]
    with engine.Bench(index, join["directory"], layout.contender(contender),
                      layout.corpus_dir(root_) / "queries.tsv") as bench:
        gate = bench.gate(top_n).rename(columns={"total": "hits"})
        closed = bench.closed_loop(top_n, warmup["iteration_ms"], warmup["min_warmup"], warmup["max_warmup"],
                                   warmup["stable_cv"], JIT_QUIET_SHARE, warmup["measure_iterations"], seed)
        closed = closed.drop(columns="contender")
        measured = closed[closed["phase"] == "measure"]
        service_ns = measured["nanos"].sum() / measured["ops"].sum()
        capacity = os.cpu_count() * 1e9 / service_ns
        intervals: list[pd.DataFrame] = []

        def step(rate: float) -> dict[str, float]:
            i = len(intervals)
            rows, summary = bench.open_loop(top_n, rate, join["workers"], plan["step_s"], seed * 100 + i,
                                            Path(out) / f"step-{i}.hlog")
            intervals.append(rows.rename(columns={"phase": "part"}).assign(step=i))
            return summary

        search = load.saturation_search(step, [f * capacity for f in plan["fractions"]], k=plan["p99_factor"],
                                        min_backlog=plan["backlog"], refine=plan["refine"])
        ordinal_map_ms = bench.ordinal_map_ms()
    steps = search.steps.rename(columns={"rate": "offered_rps"}).assign(
        workers=join["workers"], passed=lambda s: (s["stop_reason"] == "").astype(int),
        fraction=lambda s: s["offered_rps"] / capacity)
    # The CPU share just past saturation: at the lowest rate that failed.
    stopped = steps[steps["stop_reason"].isin(["p99", "backlog", "p99, backlog"])].sort_values("offered_rps")
    first = steps.iloc[0]
    saturation = pd.DataFrame([{
        "workers": join["workers"], "outcome": search.status,
        "saturation_rps": search.rate if search.rate is not None else math.nan,
        "low_p50_ms": first["p50_ns"] / NS_PER_MS, "low_p99_ms": first["p99_ns"] / NS_PER_MS,
        "cpu_at_saturation": stopped["cpu_share"].iloc[0] if len(stopped) else math.nan,
        "service_ms": service_ns / NS_PER_MS, "capacity_rps": capacity,
        "stable": int(closed["stable"].iloc[0]), "ordinal_map_ms": ordinal_map_ms}])
    return {"gate": gate, "closed": closed, "steps": steps, "intervals": pd.concat(intervals, ignore_index=True),
            "saturation": saturation}
