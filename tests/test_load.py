"""Open-loop load analysis: reading the engine's interval logs, and the saturation search."""
from __future__ import annotations

import math
import os

import pandas as pd
import pytest
from hdrh.histogram import HdrHistogram

from lrev import load


def _histogram(values: list[int], start_ms: float, end_ms: float) -> HdrHistogram:
    # The engine's Recorders: lowest trackable 1 ns, 3 significant digits.
    h = HdrHistogram(1, 3_600_000_000_000, 3)
    for v in values:
        h.record_value(v)
    h.set_start_time_stamp(start_ms)
    h.set_end_time_stamp(end_ms)
    return h


def _write_log(path, intervals: list[tuple[str, list[int]]], base_ms: float = 1_700_000_000_000.0) -> None:
    """A log laid out as the engine's HistogramLogWriter (HdrHistogram 2.2.2) writes it: tagged
    lines, times relative to a base time, one second per interval of ``intervals``."""
    lines = ["#[Histogram log format version 1.3]",
             f"#[StartTime: {base_ms / 1000:.3f} (seconds since epoch), Tue Nov 14 22:13:20 UTC 2023]",
             f"#[BaseTime: {base_ms / 1000:.3f} (seconds since epoch)]",
             "#values: ns; tags: latency (completion - intended send), service (completion - start)",
             '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"']
    seconds: dict[str, int] = {}
    for tag, values in intervals:
        s = seconds.get(tag, 0)
        seconds[tag] = s + 1
        h = _histogram(values, base_ms + 1000 * s, base_ms + 1000 * (s + 1))
        lines.append(f"Tag={tag},{s:.3f},1.000,{max(values) / 1e6:.3f},{h.encode().decode()}")
    path.write_text("\n".join(lines) + "\n")


def test_the_log_is_read_by_tag_interval_by_interval_and_merged(tmp_path):
    log = tmp_path / "load.hlog"
    _write_log(log, [("latency", list(range(1, 101))), ("service", [5] * 100),
                     ("latency", list(range(1_000, 1_100))), ("service", [7] * 100)])

    frame = load.log_intervals(log)
    assert list(frame["count"]) == [100, 100]
    assert list(frame["start_s"]) == [0.0, 1.0] and list(frame["end_s"]) == [1.0, 2.0]
    assert list(frame["p50_ns"]) == [50, 1_049] and list(frame["max_ns"]) == [100, 1_099]

    merged = load.log_summary(log)
    assert merged["count"] == 200
    assert merged["p50_ns"] == 100 and merged["max_ns"] == 1_099
    assert merged["p99_ns"] == 1_097

    assert load.log_summary(log, skip_s=1.0)["count"] == 100
    assert load.log_summary(log, tag=load.SERVICE)["max_ns"] == 7
    with pytest.raises(ValueError, match="skip_s"):
        load.log_summary(log, skip_s=5.0)
    with pytest.raises(ValueError, match="tagged"):
        load.log_summary(log, tag="absent")


def test_percentile_columns_match_the_engine_summary():
    assert [load.percentile_column(p) for p in load.PERCENTILES] == ["p50_ns", "p90_ns", "p99_ns", "p999_ns"]


class _FakeServer:
    """A server whose queue grows beyond ``capacity`` requests/s and whose p99 jumps from 1 ms to
    10 ms beyond ``knee``."""

    def __init__(self, capacity: float, knee: float = float("inf"), dispatched: int = 1_000):
        self.capacity = capacity
        self.knee = knee
        self.dispatched = dispatched
        self.rates: list[float] = []

    def __call__(self, rate: float) -> dict:
        self.rates.append(rate)
        p99 = 1_000_000 if rate <= self.knee else 10_000_000
        growth = 0 if rate <= self.capacity else int(rate - self.capacity)
        # A few requests of queue noise, under the search's floor, even when keeping up.
        return {"offered_rate": rate, "p99_ns": p99, "backlog_growth": growth + 3,
                "dispatched": self.dispatched, "completion_rate": min(rate, self.capacity)}


def test_stops_at_the_first_step_whose_p99_exceeds_k_times_the_first():
    server = _FakeServer(capacity=10_000, knee=400)
    result = load.saturation_search(server, [100, 200, 400, 800, 1_600], k=3)
    assert server.rates == [100, 200, 400, 800], "no step after the one that failed"
    assert result.status == load.REACHED and result.rate == 400
    assert list(result.steps["stop_reason"]) == ["", "", "", "p99"]
    assert list(result.steps["rate"]) == [100, 200, 400, 800]
    assert "completion_rate" in result.steps.columns


def test_stops_on_a_growing_backlog_even_at_low_latency():
    server = _FakeServer(capacity=500)
    result = load.saturation_search(server, start=100, factor=2, k=3, max_steps=10)
    assert server.rates == [100, 200, 400, 800]
    assert result.rate == 400 and result.steps["stop_reason"].iloc[-1] == "backlog"


def test_refining_bisects_between_the_last_rate_that_passed_and_the_first_that_failed():
    server = _FakeServer(capacity=700)
    result = load.saturation_search(server, [100, 400, 1_600], refine=2)
    assert server.rates == [100, 400, 1_600, 800, pytest.approx(565.685, rel=1e-4)]
    assert result.status == load.REACHED and result.rate == pytest.approx(565.685, rel=1e-4)
    assert list(result.steps["stop_reason"]) == ["", "", "backlog", "backlog", ""]


def test_a_backlog_within_the_threshold_is_noise():
    one = {"p99_ns": 1, "backlog_growth": 10, "dispatched": 100}
    assert not load.backlog_grew(one), "10 requests is the floor"
    assert load.backlog_grew({**one, "backlog_growth": 11})
    assert not load.backlog_grew({**one, "backlog_growth": 50, "dispatched": 10_000}), "under 1%"
    assert load.backlog_grew({**one, "backlog_growth": 101, "dispatched": 10_000})
    assert load.backlog_grew({"backlog_growth": 11, "completed": 100}), "completed when dispatched is absent"


def test_never_saturating_within_the_steps_is_not_reached():
    server = _FakeServer(capacity=1e9)
    result = load.saturation_search(server, start=10, factor=3, max_steps=4)
    assert result.status == load.NOT_REACHED and result.rate is None
    assert server.rates == pytest.approx([10, 30, 90, 270])
    assert list(result.steps["stop_reason"]) == ["", "", "", load.NO_MORE_STEPS]


def test_an_extended_ladder_goes_on_at_its_last_ratio_until_the_server_saturates():
    server = _FakeServer(capacity=1_000)
    result = load.saturation_search(server, [100, 200, 280], extend=True, max_steps=8)
    assert server.rates == pytest.approx([100, 200, 280, 392, 548.8, 768.32, 1075.648])
    assert result.status == load.REACHED and result.rate == pytest.approx(768.32)


def test_an_extended_ladder_stops_at_max_steps():
    server = _FakeServer(capacity=1e9)
    result = load.saturation_search(server, [100, 200], extend=True, max_steps=4)
    assert server.rates == pytest.approx([100, 200, 400, 800]) and result.status == load.NOT_REACHED


def test_a_backlog_at_the_first_step_is_below_the_first_rate():
    result = load.saturation_search(_FakeServer(capacity=50), [100, 200])
    assert result.status == load.BELOW_FIRST and result.rate is None
    assert len(result.steps) == 1 and result.steps["stop_reason"].iloc[0] == "backlog"


def test_both_reasons_are_named_when_both_hold():
    result = load.saturation_search(_FakeServer(capacity=150, knee=150), [100, 200])
    assert result.steps["stop_reason"].iloc[-1] == "p99, backlog" and result.rate == 100


class _HiccupServer(_FakeServer):
    """A :class:`_FakeServer` whose first step at each rate in ``hiccups`` has a backlog, as a compilation that
    fell in that step would leave."""

    def __init__(self, capacity: float, hiccups: set[float], knee: float = float("inf"), stall_p99: float = 1):
        super().__init__(capacity, knee)
        self.hiccups = set(hiccups)
        self.stall_p99 = stall_p99

    def __call__(self, rate: float) -> dict:
        summary = super().__call__(rate)
        if rate in self.hiccups:
            self.hiccups.discard(rate)
            summary["backlog_growth"] += 500
            summary["p99_ns"] *= self.stall_p99
        return summary


def test_a_failed_step_whose_repeat_passes_does_not_stop_the_search():
    server = _HiccupServer(capacity=700, hiccups={400})
    result = load.saturation_search(server, [100, 400, 1_600], refine=1, confirm=1)
    assert server.rates == [100, 400, 400, 1_600, 1_600, 800, 800]
    assert result.status == load.REACHED and result.rate == 400
    assert list(result.steps["stop_reason"]) == ["", "backlog" + load.OVERTURNED, "", "backlog", "backlog",
                                                 "backlog", "backlog"]
    # The CPU share past saturation is read at the lowest rate that failed every time.
    assert list(load.failed_steps(result.steps)["rate"]) == [800, 800, 1_600, 1_600]
    assert list(load.failed_steps(result.steps)["step"]) == [5, 6, 3, 4]


def test_the_p99_yardstick_is_the_first_rate_s_run_that_passed():
    # A stall at the first rate: a backlog, and a p99 a hundred times the server's. Were it the yardstick, the
    # knee at 400 would never fail on p99.
    server = _HiccupServer(capacity=1e9, hiccups={100}, knee=400, stall_p99=100)
    result = load.saturation_search(server, [100, 200, 400, 800, 1_600], k=3, confirm=1)
    assert server.rates == [100, 100, 200, 400, 800, 800]
    assert result.rate == 400 and list(result.steps["stop_reason"]) == ["backlog" + load.OVERTURNED, "", "", "",
                                                                         "p99", "p99"]


def test_without_confirm_one_hiccup_stops_the_search():
    result = load.saturation_search(_HiccupServer(capacity=700, hiccups={400}), [100, 400, 1_600], confirm=0)
    assert result.rate == 100 and list(result.steps["stop_reason"]) == ["", "backlog"]


def test_a_first_rate_that_fails_every_repeat_is_below_the_first_rate():
    server = _FakeServer(capacity=50)
    result = load.saturation_search(server, [100, 200], confirm=2)
    assert server.rates == [100, 100, 100]
    assert result.status == load.BELOW_FIRST and result.rate is None
    overturned = load.saturation_search(_HiccupServer(capacity=150, hiccups={100}), [100, 200], confirm=1)
    assert overturned.status == load.REACHED and overturned.rate == 100


def test_max_steps_cuts_a_list_of_rates():
    server = _FakeServer(capacity=1e9)
    result = load.saturation_search(server, [1, 2, 3, 4], max_steps=2)
    assert server.rates == [1, 2] and result.status == load.NOT_REACHED


@pytest.mark.parametrize("kwargs, named", [
    ({"rates": [100, 200], "k": 1}, "k"),
    ({"rates": [100, 200], "k": 0.5}, "k"),
    ({"rates": []}, "rates"),
    ({"rates": [200, 100]}, "rates"),
    ({"rates": [0, 100]}, "rates"),
    ({"rates": [100], "start": 10, "factor": 2}, "rates or start"),
    ({"start": 10}, "start and factor"),
    ({"start": 10, "factor": 1}, "factor"),
    ({"rates": [100], "max_steps": 0}, "max_steps"),
    ({"rates": [100], "refine": -1}, "refine"),
    ({"rates": [100], "confirm": -1}, "confirm"),
    ({"rates": [100], "confirm": 1.5}, "confirm"),
])
def test_bad_arguments_are_refused_naming_them(kwargs, named):
    server = _FakeServer(capacity=1e9)
    with pytest.raises(ValueError, match=named):
        load.saturation_search(server, **kwargs)
    assert server.rates == [], "refused before any step ran"


def test_a_first_step_without_latency_cannot_be_a_reference():
    with pytest.raises(ValueError, match="p99_ns"):
        load.saturation_search(lambda rate: {"p99_ns": 0, "backlog_growth": 0}, [1, 2])


def test_steps_frame_is_a_dataframe_with_one_row_per_step():
    result = load.saturation_search(_FakeServer(capacity=250), [100, 200, 300])
    assert isinstance(result.steps, pd.DataFrame)
    assert list(result.steps["step"]) == [0, 1, 2]


def test_failed_steps_are_those_over_the_limit_lowest_rate_first():
    steps = pd.DataFrame({"rate": [10, 40, 30, 20, 50], "stop_reason": ["", load.NO_MORE_STEPS, "p99", "",
                                                                         "p99, backlog"]})
    assert load.failed_steps(steps)["rate"].tolist() == [30, 50]


def test_pinning_gives_taskset_lists_and_counts_the_servers_cpus():
    pin = load.pinning({"generator": [1], "server": [0]}, "x.pin")
    assert (pin.generator, pin.server, pin.server_cpus) == ("1", "0", 1)
    assert load.server_cpus(pin) == 1
    assert load.pinning(None, "x.pin") is None
    assert load.server_cpus(None) == len(os.sched_getaffinity(0))


def test_a_step_at_a_low_rate_lasts_until_it_has_offered_its_fewest_requests():
    # 7.5 req/s for 0.8 s offers 6 requests, so its p99 would be the slowest of six: it runs 100 / 7.5 s instead.
    assert load.step_seconds(7.5, 0.8, 100) == pytest.approx(100 / 7.5)
    # At a rate that offers them within step_s the step keeps its length.
    assert load.step_seconds(1000.0, 0.8, 100) == 0.8
    assert load.step_seconds(125.0, 0.8, 100) == 0.8


@pytest.mark.parametrize("args, named", [((0.0, 0.8, 100), "rate"), ((math.inf, 0.8, 100), "rate"),
                                         ((10.0, 0.0, 100), "step_s"), ((10.0, 0.8, 0), "min_requests"),
                                         ((10.0, 0.8, 2.5), "min_requests")])
def test_a_step_length_from_bad_arguments_is_refused_naming_them(args, named):
    with pytest.raises(ValueError, match=named):
        load.step_seconds(*args)
