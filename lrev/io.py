"""Atomic file writes: a reader never sees a half-written result.

Every writer goes to a temporary file in the target's own directory (same file
system, so the final ``os.replace`` is atomic) and renames it into place only
once it is complete.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pandas as pd


class DiskFullError(OSError):
    """A write that found no space left on its file system (its temporary file is removed)."""


@contextmanager
def _naming_full_disk(target: Path) -> Iterator[None]:
    """Re-raise a full disk as :class:`DiskFullError` naming ``target``: the bare ``ENOSPC`` of a writer names a
    temporary file, or nothing at all (pyarrow only says it could not write bytes)."""
    try:
        yield
    except OSError as err:
        if isinstance(err, DiskFullError) or not (err.errno in (errno.ENOSPC, errno.EDQUOT)
                                                  or "No space left on device" in str(err)):
            raise
        raise DiskFullError(errno.ENOSPC, f"the disk is full: no space left to write {target} (on "
                                          f"{target.parent}); nothing of it was kept, and files already written "
                                          f"are intact: free space and rerun", str(target)) from err


@contextmanager
def atomic_path(target: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``target``; rename it onto ``target`` on success."""
    target = Path(target)
    with _naming_full_disk(target):
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
    with _naming_full_disk(target):
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


def sha256_files(folder: str | os.PathLike) -> dict[str, str]:
    """The sha256 of every file below ``folder``, by relative path, in sorted order (the order of the folder's one
    digest, :func:`_tree_digest`)."""
    folder = Path(folder)
    return {str(p.relative_to(folder)): sha256_file(p) for p in sorted(p for p in folder.rglob("*") if p.is_file())}


def _tree_digest(files: dict[str, str]) -> str:
    """One digest of a folder: relative paths and contents, in :func:`sha256_files`' order."""
    digest = hashlib.sha256()
    for name, sha in files.items():
        digest.update(name.encode() + b"\0" + sha.encode())
    return digest.hexdigest()


#: A manifest's record of each file of the folders its ``sha256`` holds one digest for: what lets :func:`verify`
#: name the file of a folder that changed.
FILES = "files"


def tree_checksums(base: str | os.PathLike, names: list[str]) -> dict[str, dict[str, Any]]:
    """A manifest's checksum entries for the folders ``names`` below ``base``: ``sha256``, one digest per folder,
    and :data:`FILES`, the digest of each file in it."""
    files = {name: sha256_files(Path(base) / name) for name in names}
    return {"sha256": {name: _tree_digest(listing) for name, listing in files.items()}, FILES: files}


def _changed_file(folder: Path, recorded: dict[str, str], actual: dict[str, str]) -> str | None:
    """What differs in ``folder`` from the files its manifest recorded: the first changed, missing or added one."""
    for name in sorted(set(recorded) | set(actual)):
        if name not in actual:
            return f"{folder / name}: missing"
        if name not in recorded:
            return f"{folder / name}: added since"
        if actual[name] != recorded[name]:
            return f"{folder / name}: sha256 {actual[name][:12]}… differs from {recorded[name][:12]}…"
    return None


def verify(manifest: str | os.PathLike, recorded: dict[str, str], tree: bool = False) -> None:
    """Check files (or, with ``tree``, folders) beside ``manifest`` against the sha256 it recorded.

    Raises :class:`ChecksumError` naming the first file that is missing or differs (in a folder, the file in
    it, when the manifest lists them: :data:`FILES`): a corpus or index edited after its recipe ran must never
    be measured as if it were the recorded one.
    """
    base = Path(manifest).parent
    for name, expected in sorted(recorded.items()):
        path = base / name
        if not path.exists():
            raise ChecksumError(f"{path}: missing (recorded in {manifest})")
        files = sha256_files(path) if tree else {}
        actual = _tree_digest(files) if tree else sha256_file(path)
        if actual != expected:
            listing = read_json(manifest).get(FILES, {}).get(name) if tree else None
            what = (listing and _changed_file(path, listing, files)) or \
                f"{path}: sha256 {actual[:12]}… differs from {expected[:12]}…"
            raise ChecksumError(f"{what} (recorded in {manifest}); rebuild it (delete it and rerun the pipeline)")
