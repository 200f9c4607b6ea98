"""The warm-up policy every study's timed loops share. The Java harness applies it (``InterleavedRunner`` to
iterated series, ``WarmupMonitor`` to held loads); each study's tasks pass it these constants, and every results
manifest records them (:mod:`lrev.manifest`), where the paper reads them.

An iterated series is warm once its last :data:`WINDOW` iterations agree within the study's ``stable_cv`` and the
JIT compilers worked for at most :data:`JIT_QUIET_SHARE` of their time: a window in which code was still being
compiled is not a steady state, however flat its rates. A held load (flushes, merges and reopens are what it
measures) is probed at regular times, and is warm once the compilers' share of the last :data:`WINDOW`
probes was at most :data:`JIT_QUIET_SHARE`, or fell by at most :data:`JIT_SETTLED_DROP` from the probes before:
some loads keep a compiler busy at a steady rate for as long as they run (docs/jit.md).
"""
from __future__ import annotations

from dataclasses import dataclass

WINDOW = 3
JIT_QUIET_SHARE = 0.02
JIT_SETTLED_DROP = 0.10
#: A held load's probe, where its study does not configure one (join's updates do).
PROBE_MS = 100


@dataclass
class Iterated:
    """The iterated series of a study's spec, as the Java harness (``InterleavedRunner``) takes them: iterations of
    ``iteration_millis``, warmed up for ``min_warmup_iterations`` to ``max_warmup_iterations`` until the last
    ``stable_window`` agree within ``stable_cv`` with the JIT quiet (``jit_quiet_share``), then
    ``measure_iterations`` measured. A study's spec extends it with its own fields."""

    iteration_millis: int
    min_warmup_iterations: int
    max_warmup_iterations: int
    stable_window: int
    stable_cv: float
    jit_quiet_share: float
    measure_iterations: int


def policy() -> dict[str, float]:
    """The constants above, as a results manifest records them."""
    return {"window": WINDOW, "jit_quiet_share": JIT_QUIET_SHARE, "jit_settled_drop": JIT_SETTLED_DROP,
            "probe_ms": PROBE_MS}
