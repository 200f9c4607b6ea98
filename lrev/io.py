"""Atomic file writes: a reader never sees a half-written result.

Every writer goes to a temporary file in the target's own directory (same file
system, so the final ``os.replace`` is atomic) and renames it into place only
once it is complete.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pandas as pd


@contextmanager
def atomic_path(target: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``target``; rename it onto ``target`` on success."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix or ".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o644)  # mkstemp makes 0600; results are meant to be shared
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


@contextmanager
def atomic_dir(target: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary directory beside ``target``; move it onto ``target`` on success."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        yield tmp
        os.chmod(tmp, 0o755)
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)


def write_json(target: str | os.PathLike, obj: Any) -> None:
    with atomic_path(target, ".json") as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")


def write_parquet(target: str | os.PathLike, frame: pd.DataFrame) -> None:
    with atomic_path(target, ".parquet") as tmp:
        frame.to_parquet(tmp, index=False)


def read_json(path: str | os.PathLike) -> Any:
    return json.loads(Path(path).read_text())
