"""Writing a study's figures: every format the paper and readers use, atomically, byte-stable on rerun."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import seaborn as sns

from lrev import io

FORMATS = ("pdf", "png")


def theme() -> None:
    """The one look of every figure, in the pipeline and in the notebooks alike."""
    sns.set_theme(context="paper", style="whitegrid")


def save(fig: plt.Figure, out: Path, name: str) -> list[Path]:
    """Write ``out/<name>.<fmt>`` for every format; PDFs without a creation date. Closes the figure."""
    written = []
    for fmt in FORMATS:
        target = Path(out) / f"{name}.{fmt}"
        with io.atomic_path(target, suffix=f".{fmt}") as tmp:
            fig.savefig(tmp, format=fmt, dpi=200, metadata={"CreationDate": None} if fmt == "pdf" else None)
        written.append(target)
    plt.close(fig)
    return written
