"""Atomic file writes: a reader never sees a half-written result.

Every writer goes to a temporary file in the target's own directory (same file
system, so the final ``os.replace`` is atomic) and renames it into place only
once it is complete.
"""
from __future__ import annotations

import hashlib
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


class ChecksumError(ValueError):
    """A file no longer matches the sha256 its manifest recorded."""


def sha256_file(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_tree(folder: str | os.PathLike) -> str:
    """One digest of every file below ``folder``: relative paths and contents, in sorted order."""
    folder = Path(folder)
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + sha256_file(path).encode())
    return digest.hexdigest()


def verify(manifest: str | os.PathLike, recorded: dict[str, str], tree: bool = False) -> None:
    """Check files (or, with ``tree``, folders) beside ``manifest`` against the sha256 it recorded.

    Raises :class:`ChecksumError` naming the first file that is missing or differs: a corpus or
    index edited after its recipe ran must never be measured as if it were the recorded one.
    """
    base = Path(manifest).parent
    for name, expected in sorted(recorded.items()):
        path = base / name
        if not path.exists():
            raise ChecksumError(f"{path}: missing (recorded in {manifest})")
        actual = sha256_tree(path) if tree else sha256_file(path)
        if actual != expected:
            raise ChecksumError(f"{path}: sha256 {actual[:12]}… differs from {expected[:12]}… recorded in "
                                f"{manifest}; rebuild it (delete it and rerun the pipeline)")
