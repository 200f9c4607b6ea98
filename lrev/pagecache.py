"""The page cache's hold on files: how much of them is resident, and dropping them from it.

A cold run needs the files it reads out of the page cache first. ``evict`` asks the kernel to drop
their pages (``posix_fadvise(POSIX_FADV_DONTNEED)``), which it does for clean pages no process has
mapped: close readers before evicting. ``resident_bytes`` counts the pages present (``mincore`` over a
read-only mapping, which itself faults nothing in), so a result can record that the eviction worked.
"""
from __future__ import annotations

import ctypes
import mmap
import os
from pathlib import Path
from typing import Iterable

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
_libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
_libc.mincore.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_ubyte))
_MAP_FAILED = ctypes.c_void_p(-1).value


def files(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """The files below each path (a path may be a file)."""
    out: list[Path] = []
    for path in map(Path, paths):
        out.extend(sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path])
    return out


def evict(paths: Iterable[str | os.PathLike]) -> None:
    for path in files(paths):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def resident_bytes(paths: Iterable[str | os.PathLike]) -> int:
    total = 0
    page = mmap.PAGESIZE
    for path in files(paths):
        size = path.stat().st_size
        if size == 0:
            continue
        fd = os.open(path, os.O_RDONLY)
        try:
            addr = _libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
            if addr in (None, _MAP_FAILED):
                raise OSError(ctypes.get_errno(), f"mmap of {path} failed")
            try:
                pages = (size + page - 1) // page
                vec = (ctypes.c_ubyte * pages)()
                if _libc.mincore(addr, size, vec) != 0:
                    raise OSError(ctypes.get_errno(), f"mincore of {path} failed")
                total += sum(b & 1 for b in vec) * page
            finally:
                _libc.munmap(addr, size)
        finally:
            os.close(fd)
    return total


def resident_by_extension(paths: Iterable[str | os.PathLike]) -> dict[str, tuple[int, int]]:
    """Per file extension (``tim``, ``doc``, ...; a file without one keeps its name): (bytes, resident bytes)."""
    out: dict[str, tuple[int, int]] = {}
    for path in files(paths):
        ext = path.suffix.lstrip(".") or path.name
        size, resident = out.get(ext, (0, 0))
        out[ext] = (size + path.stat().st_size, resident + resident_bytes([path]))
    return out


def process_io() -> dict[str, int]:
    """This process's I/O counters (``/proc/self/io``): ``rchar`` bytes returned by read calls, ``syscr`` read
    calls, ``read_bytes`` bytes it made the kernel fetch from storage (page faults on mapped files included)."""
    counters = {}
    for line in Path("/proc/self/io").read_text().splitlines():
        key, value = line.split(":")
        counters[key] = int(value)
    return counters


def device_reads(path: str | os.PathLike) -> tuple[int, int] | None:
    """(reads completed, bytes read) so far by the block device holding ``path`` (its ``stat`` in sysfs, what
    iostat reads), or None when the file system has no block device (tmpfs, overlay)."""
    dev = os.stat(path).st_dev
    stat = Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}/stat")
    if not stat.is_file():
        return None
    fields = stat.read_text().split()
    return int(fields[0]), int(fields[2]) * 512


def _disk_node(path: str | os.PathLike) -> Path | None:
    """The sysfs folder of the whole disk holding ``path`` (a partition's queue is its disk's), or None when the file
    system has no block device (tmpfs, overlay)."""
    dev = os.stat(path).st_dev
    node = Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")
    if not node.exists():
        return None
    node = node.resolve()
    return node if (node / "queue").is_dir() else node.parent if (node.parent / "queue").is_dir() else None


def read_ahead_kb(path: str | os.PathLike) -> int | None:
    """The read-ahead of the block device holding ``path`` (KiB; the kernel's read-around of an mmap page fault is
    as large), or None without a block device."""
    node = _disk_node(path)
    return None if node is None else int((node / "queue" / "read_ahead_kb").read_text())


def disk(path: str | os.PathLike) -> dict[str, object] | None:
    """The block device holding ``path``, as the kernel describes it: its name, model (virtual disks have none), the
    rotational flag (a virtual disk often reports 1 whatever backs it) and read-ahead; None without a device."""
    node = _disk_node(path)
    if node is None:
        return None
    model = node / "device" / "model"
    return {"device": node.name, "model": model.read_text().strip() if model.is_file() else None,
            "rotational": (node / "queue" / "rotational").read_text().strip() == "1",
            "read_ahead_kb": int((node / "queue" / "read_ahead_kb").read_text())}
