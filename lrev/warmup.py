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

WINDOW = 3
JIT_QUIET_SHARE = 0.02
JIT_SETTLED_DROP = 0.10
#: A held load's probe, where its study does not configure one (join's updates do).
PROBE_MS = 100


def policy() -> dict[str, float]:
    """The constants above, as a results manifest records them."""
    return {"window": WINDOW, "jit_quiet_share": JIT_QUIET_SHARE, "jit_settled_drop": JIT_SETTLED_DROP,
            "probe_ms": PROBE_MS}
