"""Run one engine task in a fresh process: a fresh JVM, for one Lucene version.

Forks exist because JVM starts differ (JIT, memory layout): timings on this VM were bimodal across
starts, so every measurement is repeated in several processes. Indexing and querying also run in
separate JVMs, since sharing one shifted the timings.

    python -m lrev.fork TASK VERSION PAYLOAD.json OUT.parquet

writes OUT.parquet and OUT.parquet.jvm.json (the engine's own report: Lucene, JDK, flags) atomically.
"""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from lrev.io import read_json, write_json, write_parquet

#: task name -> "module:function"; each function takes the payload's keys and returns a DataFrame.
TASKS = {
    "pk.lookups": "lrev.pk.tasks:lookups",
    "pk.footprint": "lrev.pk.tasks:footprint",
    "pk.reopen": "lrev.pk.tasks:reopen",
    "pk.crosscheck": "lrev.pk.tasks:crosscheck",
}


def run(task: str, version: str, payload: dict[str, Any], out: str | os.PathLike) -> tuple[pd.DataFrame, dict]:
    """Run ``task`` in a child process; return its table and the JVM report. Progress shows on stderr."""
    if task not in TASKS:
        raise KeyError(f"unknown task '{task}' (known: {', '.join(TASKS)})")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=out.parent, delete=False) as f:
        json.dump(payload, f)
    try:
        subprocess.run([sys.executable, "-m", "lrev.fork", task, version, f.name, str(out)], check=True)
    finally:
        os.unlink(f.name)
    return pd.read_parquet(out), read_json(jvm_report_path(out))


def jvm_report_path(out: Path) -> Path:
    return out.with_name(out.name + ".jvm.json")


def main(argv: list[str]) -> int:
    task, version, payload_file, out = argv
    from lrev import bridge

    flags = bridge.start(version)
    module, function = TASKS[task].split(":")
    table = getattr(importlib.import_module(module), function)(**read_json(payload_file))
    write_json(jvm_report_path(Path(out)), {**bridge.engine_info(), "flags": flags})
    write_parquet(out, table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
