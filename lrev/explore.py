"""What a study's notebook shows when someone opens it (JupyterLab, ``./run lab``) rather than the pipeline
running it: the results of the latest run of that study, at whatever scale, or, when there are none yet, the
study's smoke run, made on the spot by the pipeline.

The notebooks' ``scale`` parameter is ``"latest"`` by default (:func:`scale`); ``outdir`` defaults to
``$LREV_OUTDIR``, else ``runs``. The pipeline always passes an explicit scale.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lrev.config import REPO

LATEST = "latest"
SMOKE = "smoke"


def result_manifests(study: str, outdir: str | Path, scale_: str) -> list[Path]:
    return sorted((REPO / outdir / scale_ / "results" / study).glob("**/manifest.json"))


def scale(study: str, requested: str, outdir: str | Path) -> str:
    """``requested``, unless it is ``"latest"``: then the scale under ``outdir`` whose results of ``study`` were
    written last, or ``"smoke"`` when there are none."""
    if requested != LATEST:
        return requested
    runs = [(max(m.stat().st_mtime for m in found), folder.name) for folder in sorted((REPO / outdir).glob("*"))
            if folder.is_dir() and (found := result_manifests(study, outdir, folder.name))]
    return max(runs)[1] if runs else SMOKE


def ensure_smoke_results(study: str, outdir: str | Path, first_look: dict | None = None) -> None:
    """Run the pipeline for ``study`` at smoke scale (engines, corpora, indexes, the study's notebook), unless its
    results are there; Snakemake's progress is printed as it goes.

    ``first_look`` narrows the smoke settings (for example to one round, or to the version the notebook names), so
    that opening a notebook on a new clone shows figures in about a minute rather than the full smoke run's several:
    every contender still runs alone in its JVM, which sets the floor. A later full smoke run keeps the first look's
    forks where only the number of rounds differed (:func:`lrev.fork.fingerprint`), and measures the rest anew."""
    if result_manifests(study, outdir, SMOKE):
        return
    target = Path(outdir) / SMOKE / "results" / study / "claims.json"
    cmd = [sys.executable, "-m", "snakemake", str(target), "--cores", "2", "--config", f"scale={SMOKE}",
           f"outdir={outdir}", f"studies=[{study}]"]
    if first_look:
        cmd.append(f"{study}={json.dumps(first_look)}")
    print(f"no {study} results yet: running a first look at its smoke scale ({' '.join(cmd[1:])}); "
          f"`./run paper --config scale={SMOKE}` runs all of it", flush=True)
    with subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        for line in proc.stdout:
            print(line, end="", flush=True)
    if proc.returncode != 0:
        raise RuntimeError(f"the smoke run of {study} failed (exit {proc.returncode}); its log is above")
