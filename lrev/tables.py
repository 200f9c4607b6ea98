"""Helpers for the long-format result tables every study writes (one row per sample or estimate)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from lrev import stats
from lrev.config import version_key


def select(frame: pd.DataFrame, **where: object) -> pd.DataFrame:
    """Rows matching all ``column == value`` conditions (float-safe for float values)."""
    mask = np.ones(len(frame), dtype=bool)
    for column, value in where.items():
        col = frame[column]
        if isinstance(value, float):
            mask &= np.isclose(col.to_numpy(dtype=float), value)
        else:
            mask &= (col == value).to_numpy()
    return frame[mask]


def by_version(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows sorted by numeric version, so tables and figures read oldest to newest."""
    if frame.empty:
        return frame
    return frame.sort_values("version", key=lambda s: s.map(version_key), kind="stable").reset_index(drop=True)


def estimate_columns(est: stats.Estimate) -> dict[str, float | int]:
    return {"value": est.value, "low": est.low, "high": est.high, "n": est.n}


def timing_hygiene(measured: pd.DataFrame, nanos: str = "nanos") -> dict[str, Any]:
    """The share of measured wall time (column ``nanos``) during which the JIT compiled (``jit_ms``, summed over
    compiler threads, so it can pass 100%) and the collectors ran (``gc_ms``), over all of ``measured`` and per
    version: ``compile_share`` and ``gc_share`` as percentages, their fractions in ``*_raw``, and the same per
    version under ``by_version`` (oldest first). NaN (``n/a``) where nothing was measured."""
    def shares(rows: pd.DataFrame) -> dict[str, Any]:
        wall_ms = rows[nanos].sum() / 1e6
        raw = {k: float(rows[c].sum() / wall_ms) if wall_ms > 0 else float("nan")
               for k, c in (("compile_share", "jit_ms"), ("gc_share", "gc_ms"))}
        return {**{k: f"{v * 100:.1f}%" if v == v else "n/a" for k, v in raw.items()},
                **{f"{k}_raw": v for k, v in raw.items()}}

    versions = sorted(measured["version"].unique(), key=version_key)
    return {**shares(measured), "by_version": {v: shares(measured[measured["version"] == v]) for v in versions}}
