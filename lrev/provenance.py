"""Where a result came from: host, code revision, time. Each study's manifest embeds this."""
from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

from lrev.config import REPO


def host() -> dict[str, Any]:
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or "unknown")
    mem_kib = next((int(line.split()[1]) for line in _read("/proc/meminfo").splitlines()
                    if line.startswith("MemTotal:")), 0)
    return {"cpu_model": cpu, "cores": os.cpu_count(), "ram_bytes": mem_kib * 1024,
            "kernel": f"{platform.system()} {platform.release()}", "python": platform.python_version()}


def git() -> dict[str, Any]:
    def out(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    return {"sha": out("rev-parse", "HEAD") or "unknown",
            "dirty": bool(out("status", "--porcelain", "--untracked-files=no"))}


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _read(path: str) -> str:
    p = Path(path)
    return p.read_text(errors="replace") if p.is_file() else ""
