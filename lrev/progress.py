"""Progress of a study's forks where the person running it looks: a bar on the terminal and a line per fork in
``<forks>/progress.log``: fork k of N, round r of R, elapsed, and an ETA from the plan's model, then from the forks'
own wall times.

A study's forks run inside a papermill kernel, whose ``sys.stderr`` lands in the executed notebook, not on the
terminal; the bar writes to the process's own stderr file descriptor instead, which is the terminal (or the log)
that ``./run paper`` writes to. The ETA is the forks left times the mean wall time of the forks finished so far,
resumed ones included (their ``timing.json``); before the first, the plan's model of a fork
(:func:`lrev.plan.fork_seconds`), marked "(plan)".
"""
from __future__ import annotations

import datetime as dt
import os
import time
from pathlib import Path

from tqdm import tqdm

LOG = "progress.log"


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    minutes, s = divmod(int(round(seconds)), 60)
    return f"{minutes}m{s:02d}s" if minutes else f"{s}s"


class ForkProgress:
    """Counts the forks of one run of rounds; use as a context manager."""

    def __init__(self, label: str, total: int, rounds: int, folder: Path, expected: float | None = None):
        self.label, self.total, self.rounds, self.log = label, total, rounds, folder / LOG
        self.expected = expected
        self.done, self.seconds, self.started = 0, [], time.monotonic()
        self.stream = os.fdopen(os.dup(2), "w", buffering=1)
        # The state goes in a postfix list: a postfix string would come after tqdm's own ", ".
        self.bar = tqdm(total=total, desc=label, unit="fork", file=self.stream, postfix=[""],
                        bar_format="{desc}: {n_fmt}/{total_fmt} forks |{bar:20}| {postfix[0]}")

    def __enter__(self) -> ForkProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.bar.close()
        self.stream.close()

    def eta(self) -> float | None:
        if self.seconds:
            return (self.total - self.done) * sum(self.seconds) / len(self.seconds)
        return None if self.expected is None else (self.total - self.done) * self.expected

    def _eta(self) -> str:
        return f"ETA {duration(self.eta())}" + ("" if self.seconds or self.expected is None else " (plan)")

    def starting(self, round_: int, job: str) -> None:
        self.bar.postfix[0] = (f"round {round_ + 1}/{self.rounds}: {job}; elapsed "
                               f"{duration(time.monotonic() - self.started)}, {self._eta()}")
        self.bar.refresh()

    def finished(self, round_: int, job: str, seconds: float, resumed: bool) -> None:
        """One fork done (``resumed``: found finished on disk); its wall time feeds the ETA."""
        self.done += 1
        self.seconds.append(seconds)
        self.bar.update()
        line = (f"{dt.datetime.now().isoformat(timespec='seconds')} {self.label}: fork {self.done}/{self.total}, "
                f"round {round_ + 1}/{self.rounds}, {job} {'resumed' if resumed else f'{seconds:.1f} s'}, "
                f"elapsed {duration(time.monotonic() - self.started)}, {self._eta()}")
        with self.log.open("a") as log:
            log.write(line + "\n")
