"""The plain-loop cross-check, alone in its own JVM: ``PlainLookupLoop``, a plain ``java`` process with no
harness and no JPype, on one contender's index of the seed's setting. The pipeline runs one per contender
per round, among the harness's forks, and compares each contender's ratio to the default with the
harness's ratio for the same rounds."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pandas as pd

from lrev import bridge

MAIN = "org.lucenerevisited.pk.PlainLookupLoop"
_LINE = re.compile(r"^lookups=(\d+) hits=(\d+) seconds=([0-9.]+) warmup_seconds=([0-9.]+) jit_ms=(\d+)$", re.M)


def expected_hits(keys_tsv: Path) -> tuple[int, int]:
    """(keys, keys expected to be found) of a keys file."""
    rows = [line.rsplit("\t", 1)[1] for line in keys_tsv.read_text(encoding="utf-8").splitlines()]
    return len(rows), sum(int(r) >= 0 for r in rows)


def run(version: str, index: Path, keys_tsv: Path, warmup_s: float, measure_s: float, batch_size: int) -> pd.DataFrame:
    """One timed run of the plain loop (warm-up until the JIT settles, at least ``warmup_s``); its hits are
    checked against the keys file before it counts."""
    cmd = bridge.java_command(version, "pk", MAIN, [str(index), str(keys_tsv), str(warmup_s), str(measure_s),
                                              str(batch_size)])
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode == bridge.OUT_OF_HEAP_EXIT:
        raise bridge.OutOfHeapError(f"study pk, {MAIN} on {index}, Lucene {version}: its JVM ran out of its "
                                    f"{bridge.heap()} heap; raise `heap` in the config (e.g. --config heap=8g)")
    match = _LINE.search(done.stdout)
    if done.returncode != 0 or not match:
        raise RuntimeError(f"{MAIN} on {index} failed (exit {done.returncode}): {done.stderr[-2000:]}")
    lookups, hits, seconds = int(match[1]), int(match[2]), float(match[3])
    keys, found = expected_hits(keys_tsv)
    if lookups % keys or hits != found * (lookups // keys):
        raise RuntimeError(f"{MAIN} on {index}: {hits} hits in {lookups} lookups, expected {found} per "
                           f"pass of {keys} keys")
    return pd.DataFrame({"ops": [lookups], "hits": [hits], "nanos": [round(seconds * 1e9)],
                         "warmup_s": [float(match[4])], "jit_ms": [int(match[5])]})
