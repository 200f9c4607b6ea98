"""Open-loop load results, for any study: the HdrHistogram interval logs the engine's ``OpenLoop``
writes, and the search for the rate at which a server saturates.

Latencies in the logs run from a request's intended send time to its completion (nanoseconds), so
queueing counts; each interval is logged twice, tagged ``latency`` and ``service`` (completion
minus start). Percentiles come from the ``hdrhistogram`` package, never from our own arithmetic.

Saturation: an open-loop server keeps up with an offered rate as long as its queue does not grow;
past that, latency is the queue's and grows with the run's length. A step is therefore over the
limit when its backlog grew or when its p99 exceeds ``k`` times the p99 of the first (low-load)
step; the saturation rate is the highest offered rate below the first rate over the limit (in every run of
it, where a failed step is repeated).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

import pandas as pd
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader

from lrev.config import ConfigError

LATENCY = "latency"
SERVICE = "service"
PERCENTILES = (50.0, 90.0, 99.0, 99.9)

REACHED = "reached"
NOT_REACHED = "not reached"
BELOW_FIRST = "below the first rate"

PASS = ""
"""``stop_reason`` of a step that stayed under the limit and was not the last."""
NO_MORE_STEPS = "no more steps"
OVERTURNED = " (passed when repeated)"
"""Appended to the ``stop_reason`` of a step over the limit whose rate then passed when run again."""


def percentile_column(p: float) -> str:
    """``p50_ns``, ``p99_ns``, ``p999_ns``: the summary's names, digits of ``p`` without the point."""
    return "p" + f"{p:g}".replace(".", "") + "_ns"


def read_log(path: str | Path, tag: str = LATENCY) -> list[HdrHistogram]:
    """The interval histograms tagged ``tag`` of an interval log, in order; their start and end time
    stamps are absolute (ms since the epoch)."""
    reader = HistogramLogReader(str(path), None)
    try:
        out = []
        while (h := reader.get_next_interval_histogram()) is not None:
            if h.get_tag() == tag:
                out.append(h)
        return out
    finally:
        reader.close()


def merge(histograms: Sequence[HdrHistogram]) -> HdrHistogram:
    """One histogram holding every value of ``histograms`` (at least one)."""
    if not histograms:
        raise ValueError("histograms: nothing to merge")
    first = histograms[0]
    highest = max(2, max(h.get_max_value() for h in histograms))
    total = HdrHistogram(1, highest, first.significant_figures)
    for h in histograms:
        total.add(h)
    return total


def percentiles(histogram: HdrHistogram, ps: Sequence[float] = PERCENTILES) -> dict[str, int]:
    """``count``, one ``p<q>_ns`` per percentile and ``max_ns`` (0 for an empty histogram)."""
    out = {"count": int(histogram.get_total_count())}
    for p in ps:
        out[percentile_column(p)] = int(histogram.get_value_at_percentile(p))
    out["max_ns"] = int(histogram.get_max_value())
    return out


def log_intervals(path: str | Path, tag: str = LATENCY, ps: Sequence[float] = PERCENTILES) -> pd.DataFrame:
    """One row per logged interval: ``start_s`` and ``end_s`` (seconds since the log's first
    interval began), then :func:`percentiles`."""
    hs = read_log(path, tag)
    origin = hs[0].get_start_time_stamp() if hs else 0.0
    rows = [{"start_s": (h.get_start_time_stamp() - origin) / 1000.0,
             "end_s": (h.get_end_time_stamp() - origin) / 1000.0,
             **percentiles(h, ps)} for h in hs]
    return pd.DataFrame(rows, columns=["start_s", "end_s", "count", *map(percentile_column, ps), "max_ns"])


def log_summary(path: str | Path, tag: str = LATENCY, skip_s: float = 0.0,
                ps: Sequence[float] = PERCENTILES) -> dict[str, int]:
    """:func:`percentiles` over every interval of the log that starts at least ``skip_s`` seconds after
    its first one (e.g. to leave out a warm-up that was logged)."""
    hs = read_log(path, tag)
    if not hs:
        raise ValueError(f"{path}: no interval tagged {tag!r}")
    origin = hs[0].get_start_time_stamp()
    kept = [h for h in hs if (h.get_start_time_stamp() - origin) / 1000.0 >= skip_s]
    if not kept:
        raise ValueError(f"skip_s={skip_s} leaves no interval of {path}")
    return percentiles(merge(kept), ps)


@dataclass(frozen=True)
class Pinning:
    """The CPUs of a load's generator (its dispatcher and the thread recording its intervals) and of the server's
    worker threads, as taskset's CPU lists (``OpenLoop.withPinning``)."""

    generator: str
    server: str

    @property
    def server_cpus(self) -> int:
        return len(self.server.split(","))


def pinning(pin: Mapping[str, Sequence[int]] | None, key: str) -> Pinning | None:
    """The pinning a config block ``{generator: [cpus], server: [cpus]}`` asks for (None: unpinned), or a ConfigError
    naming ``key`` when a list is empty, the two overlap, or a CPU is not one this process may run on."""
    if pin is None:
        return None
    available = os.sched_getaffinity(0)
    for side in ("generator", "server"):
        cpus = pin[side]
        if not cpus:
            raise ConfigError(f"config error at '{key}.{side}': no CPU listed")
        missing = sorted(set(cpus) - available)
        if missing:
            raise ConfigError(f"config error at '{key}.{side}': CPU {', '.join(map(str, missing))} is not one this "
                              f"process may run on ({', '.join(map(str, sorted(available)))})")
    shared = sorted(set(pin["generator"]) & set(pin["server"]))
    if shared:
        raise ConfigError(f"config error at '{key}': CPU {', '.join(map(str, shared))} is both the generator's and "
                          "the server's")
    return Pinning(",".join(map(str, sorted(pin["generator"]))), ",".join(map(str, sorted(pin["server"]))))


def server_cpus(pin: Pinning | None) -> int:
    """The CPUs the server's workers may use: the pinned ones, or every one this process may run on."""
    return pin.server_cpus if pin else len(os.sched_getaffinity(0))


@dataclass(frozen=True)
class Saturation:
    """The outcome of :func:`saturation_search`. ``rate`` is the highest offered rate that passed
    (None unless ``status`` is "reached"); ``steps`` has one row per step run."""

    rate: float | None
    status: str
    steps: pd.DataFrame


def backlog_grew(summary: Mapping[str, float], min_backlog: int = 10, backlog_share: float = 0.01) -> bool:
    """Whether a step's backlog grew: by more than ``min_backlog`` requests and more than
    ``backlog_share`` of the requests it dispatched (or completed, without a ``dispatched`` count).

    A server that keeps up still has a queue that comes and goes with Poisson arrivals, so a few
    requests more at the end than after the first interval is noise; the floor keeps that from
    reading as saturation, the share scales it to long or fast steps."""
    requests = summary.get("dispatched", summary.get("completed", 0))
    return summary["backlog_growth"] > max(min_backlog, backlog_share * requests)


def step_seconds(rate: float, step_s: float, min_requests: int) -> float:
    """The length of an open-loop step at ``rate`` (requests/s): ``step_s``, or as long as it takes to offer
    ``min_requests`` requests where that is longer. A p99 of fewer than 100 requests is their slowest one, and the
    first step's p99 is the yardstick of every later step (:func:`saturation_search`): at the lowest rate a short
    step would hold a handful of requests, and its maximum would set where the search stops."""
    if not (rate > 0 and math.isfinite(rate)):
        raise ValueError(f"rate must be finite and > 0, got {rate}")
    if not step_s > 0:
        raise ValueError(f"step_s must be > 0, got {step_s}")
    if not (isinstance(min_requests, int) and min_requests >= 1):
        raise ValueError(f"min_requests must be an int >= 1, got {min_requests}")
    return max(float(step_s), min_requests / rate)


def failed_steps(steps: pd.DataFrame, rate: str = "rate") -> pd.DataFrame:
    """The steps of a :func:`saturation_search` that went over the limit (p99, backlog or both) at a rate that no
    repeat overturned, lowest ``rate`` first (in the order they ran within a rate)."""
    over = ~steps["stop_reason"].isin(["", NO_MORE_STEPS]) & ~steps["stop_reason"].str.endswith(OVERTURNED)
    return steps[over].sort_values(rate, kind="stable")


def saturation_search(step: Callable[[float], Mapping[str, float]], rates: Sequence[float] | None = None, *,
                      start: float | None = None, factor: float | None = None, k: float = 3.0,
                      max_steps: int = 12, min_backlog: int = 10,
                      backlog_share: float = 0.01, refine: int = 0, extend: bool = False,
                      confirm: int = 0) -> Saturation:
    """Runs ``step(rate)`` (the summary of one open-loop step: at least ``p99_ns`` and
    ``backlog_growth``) at increasing rates, either ``rates`` or ``start * factor**i``, at most
    ``max_steps`` rates (repeats not counted), and stops at the first rate over the limit: its p99 exceeds ``k``
    times the first rate's or its backlog grew (:func:`backlog_grew`).

    With ``extend``, a list of ``rates`` whose last step still passed goes on at the ratio of its last two rungs,
    up to ``max_steps`` steps in all: a ladder placed by an estimate of the capacity runs out below a server that
    estimate undersold, and a search that never saturated has no rate to compare.

    Past the first step over the limit, ``refine`` more steps bisect (geometrically) between the highest
    rate that passed and the lowest that did not: the saturation rate of a ladder of rates is only as
    fine as its rungs, and forks of one contender would otherwise differ by a whole rung.

    A step over the limit is run again at its rate, up to ``confirm`` more times, and the rate fails only when
    every run of it does: a server saturated at a rate fails it each time, while a compilation or a collection
    that fell in one short step fails it once. A rate at the edge of the capacity then passes if any of its runs
    does, which raises every contender's saturation rate a little; ratios of them pair forks that searched alike.
    The runs a repeat overturned keep their reasons, with :data:`OVERTURNED` appended. The p99 yardstick is the
    first rate's run that passed (its last run), so a stall that a repeat overturned does not set it.

    The steps frame has a ``step`` and a ``rate`` column, then the summary's keys, then
    ``stop_reason``: empty for steps that passed; "p99", "backlog" or "p99, backlog" for a step over the
    limit (the last of the ladder, and any bisection step that failed), with :data:`OVERTURNED` appended where
    a repeat of its rate passed; "no more steps" on the last row of a ladder that never saturated."""
    if not k > 1:
        raise ValueError(f"k must be > 1 (a multiple of the low-load p99), got {k}")
    if not (isinstance(max_steps, int) and max_steps >= 1):
        raise ValueError(f"max_steps must be an int >= 1, got {max_steps}")
    schedule = _rates(rates, start, factor, max_steps)

    if not (isinstance(refine, int) and refine >= 0):
        raise ValueError(f"refine must be an int >= 0, got {refine}")
    if not (isinstance(confirm, int) and confirm >= 0):
        raise ValueError(f"confirm must be an int >= 0, got {confirm}")
    rows: list[dict] = []
    reference = None

    def once(rate: float) -> str:
        nonlocal reference
        summary = dict(step(rate))
        if len(tried) == 1:
            reference = summary["p99_ns"]
            if not reference > 0:
                raise ValueError(f"the first step (rate {rate}) has p99_ns={reference}: no low-load latency to scale")
        reasons = []
        if summary["p99_ns"] > k * reference:
            reasons.append("p99")
        if backlog_grew(summary, min_backlog, backlog_share):
            reasons.append("backlog")
        rows.append({"step": len(rows), "rate": float(rate), **summary, "stop_reason": ", ".join(reasons)})
        return rows[-1]["stop_reason"]

    def run(rate: float) -> str:
        first = len(rows)
        reason = once(rate)
        for _ in range(confirm):
            if not reason:
                break
            reason = once(rate)
        if not reason:
            for row in rows[first:-1]:
                row["stop_reason"] += OVERTURNED
        return reason

    if extend and rates is not None and len(schedule) >= 2:
        growth = schedule[-1] / schedule[-2]
        schedule += [schedule[-1] * growth ** i for i in range(1, max_steps - len(schedule) + 1)]
    tried: list[float] = []
    for rate in schedule:
        tried.append(rate)
        if run(rate):
            break
    else:
        rows[-1]["stop_reason"] = NO_MORE_STEPS
        return Saturation(None, NOT_REACHED, pd.DataFrame(rows))
    if len(tried) == 1:
        return Saturation(None, BELOW_FIRST, pd.DataFrame(rows))
    passed, failed = tried[-2], tried[-1]
    for _ in range(refine):
        middle = math.sqrt(passed * failed)
        if run(middle):
            failed = middle
        else:
            passed = middle
    return Saturation(passed, REACHED, pd.DataFrame(rows))


def _rates(rates: Sequence[float] | None, start: float | None, factor: float | None,
           max_steps: int) -> list[float]:
    """The offered rates to step through, checked: positive and increasing."""
    if rates is not None:
        if start is not None or factor is not None:
            raise ValueError("give either rates or start and factor, not both")
        out = [float(r) for r in rates][:max_steps]
        if not out:
            raise ValueError("rates must not be empty")
    else:
        if start is None or factor is None:
            raise ValueError("give rates, or both start and factor")
        if not factor > 1:
            raise ValueError(f"factor must be > 1, got {factor}")
        out = [float(start) * float(factor) ** i for i in range(max_steps)]
    if not all(r > 0 and math.isfinite(r) for r in out):
        raise ValueError(f"rates must be finite and > 0, got {out}")
    if any(b <= a for a, b in zip(out, out[1:])):
        raise ValueError(f"rates must increase, got {out}")
    return out
