"""Where a result came from: host, code revision, time. Each study's manifest embeds this."""
from __future__ import annotations

import datetime as dt
import importlib.metadata
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from lrev import notebook, pagecache
from lrev.config import REPO

#: pip's install report of the project's environment (written by lrev.bootstrap): each package's archive sha256.
PIP_REPORT = Path(sys.prefix) / "pip-install-report.json"


def host(path: Path = REPO) -> dict[str, Any]:
    """The machine, and the disk holding ``path`` (where the results are written, beside their indexes)."""
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or "unknown")
    mem_kib = next((int(line.split()[1]) for line in _read("/proc/meminfo").splitlines()
                    if line.startswith("MemTotal:")), 0)
    return {"cpu_model": cpu, "cores": os.cpu_count(), "ram_bytes": mem_kib * 1024,
            "kernel": f"{platform.system()} {platform.release()}", "python": platform.python_version(),
            "disk": pagecache.disk(path),
            # The kernel's choice ("[madvise]" of "always [madvise] never"): whether the JVM's heap and mapped
            # index files may get huge pages, which changes TLB misses on both.
            "transparent_hugepages": _chosen(_read("/sys/kernel/mm/transparent_hugepage/enabled"))}


def _chosen(setting: str) -> str | None:
    """The bracketed choice of a sysfs setting, or None where the kernel has no such setting."""
    found = re.search(r"\[([^\]]+)\]", setting)
    return found.group(1) if found else None


def git() -> dict[str, Any]:
    def out(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    # NUL-separated "XY path" entries, unquoted and not stripped (a leading space is the X of a file changed
    # in the work tree only).
    status = subprocess.run(["git", "status", "--porcelain", "-z", "--untracked-files=no"], cwd=REPO,
                            capture_output=True, text=True)
    changed = [entry[3:] for entry in status.stdout.split("\0") if entry] if status.returncode == 0 else []
    return {"sha": out("rev-parse", "HEAD") or "unknown",
            "dirty": any(not _same_notebook_code(path, out("show", f"HEAD:{path}")) for path in changed)}


def _same_notebook_code(path: str, committed: str) -> bool:
    """Whether ``path`` is a notebook whose code is the committed one (:mod:`lrev.notebook`): what exploring it in
    JupyterLab saves besides (outputs, metadata, an empty last cell) and its markdown change nothing a run computes."""
    if not path.endswith(".ipynb") or not committed or not (REPO / path).is_file():
        return False
    try:
        return notebook.code((REPO / path).read_text()) == notebook.code(committed)
    except (ValueError, KeyError, TypeError):
        return False


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _read(path: str) -> str:
    p = Path(path)
    return p.read_text(errors="replace") if p.is_file() else ""


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def environment() -> dict[str, Any]:
    """The Python that runs this: its version and every installed package's version, with the sha256 of the
    archive it was installed from where pip's install report (:data:`PIP_REPORT`) has it."""
    hashes: dict[str, str] = {}
    if PIP_REPORT.is_file():
        for item in json.loads(PIP_REPORT.read_text()).get("install", []):
            archive = item.get("download_info", {}).get("archive_info", {})
            sha = archive.get("hashes", {}).get("sha256") or archive.get("hash", "").partition("sha256=")[2]
            if sha:
                hashes[_canonical(item["metadata"]["name"])] = sha
    packages = {d.metadata["Name"]: {"version": d.version, "sha256": hashes.get(_canonical(d.metadata["Name"]))}
                for d in sorted(importlib.metadata.distributions(), key=lambda d: d.metadata["Name"].lower())}
    return {"version": platform.python_version(), "implementation": platform.python_implementation(),
            "packages": packages}
