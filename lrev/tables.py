"""Helpers for the long-format result tables every study writes (one row per sample or estimate)."""
from __future__ import annotations

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
