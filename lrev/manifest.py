"""A study's results of one Lucene version: its tables, then a manifest that makes them complete.

``write`` writes each table atomically, then ``manifest.json`` last (a folder with a manifest is a
finished result), holding the provenance every result carries: Lucene and JDK with its flags, the engine's
classpath with each jar's sha256, host and CPU, git revision, the corpora's checksums, the parameters and the
sha256 of every table.
``load`` reads the tables of several versions back after checking each against that sha256.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import pandas as pd

from lrev import engine, provenance, steady, warmup
from lrev.config import version_key
from lrev.io import read_json, sha256_file, verify, write_json, write_parquet

NAME = "manifest.json"


@dataclass(frozen=True)
class Results:
    """A study's results of some versions (:func:`load`): its subclass has one DataFrame per table, rows labelled
    with their version; ``manifests`` holds each version's manifest, oldest version first."""

    manifests: dict[str, dict]
    #: One row per fork's series (:func:`lrev.steady.mark`): its changepoint class, where its steady segment starts,
    #: and the JIT's share of it; a ``table`` column names the table it came from.
    series: pd.DataFrame = field(default_factory=pd.DataFrame, kw_only=True)

    @property
    def versions(self) -> tuple[str, ...]:
        return tuple(self.manifests)


def write(out: Path, *, study: str, scale: str, version: str, tables: dict[str, pd.DataFrame], jvm: dict[str, Any],
          corpora: dict[str, dict[str, Any]], parameters: dict[str, Any], started: str) -> Path:
    """``corpora``: each corpus's own manifest, by name; ``jvm``: a fork's report (:mod:`lrev.fork`)."""
    unlabelled = sorted(c for c, m in corpora.items() if not isinstance(m.get("synthetic"), bool))
    if unlabelled:
        raise ValueError(f"corpus manifests must say whether their text is synthetic: {', '.join(unlabelled)}")
    for name, table in tables.items():
        write_parquet(out / f"{name}.parquet", table)
    write_json(out / NAME, {
        "study": study, "scale": scale, "lucene_version": version,
        "lucene_version_reported": jvm["lucene_version"],
        "jdk": {"home": jvm["java_home"], "version": jvm["java_version"], "vendor": jvm["java_vendor"],
                "flags": jvm["flags"], "jvm_arguments": jvm["jvm_arguments"],
                # Absent from the reports of forks that predate it.
                "vm_options": jvm.get("vm_options")},
        "classpath": classpath(study, version),
        "host": provenance.host(out), "git": provenance.git(),
        # Each corpus's whole manifest: its checksums, recipe, parameters, whether it is synthetic, and whatever
        # else its recipe recorded of it (what a synthetic corpus was fitted on, say).
        "corpora": dict(corpora),
        "sha256": {f"{name}.parquet": sha256_file(out / f"{name}.parquet") for name in tables},
        "parameters": parameters, "warmup": warmup.policy(), "started": started, "finished": provenance.now(),
    })
    return out


def classpath(study: str, version: str) -> list[dict[str, str]]:
    """The jars the study's engine for ``version`` ran on: each one's file name, path (below the Maven repository
    when it lies there) and sha256; the engine's own jar as ``<study>/<version>/engine.jar``."""
    m2 = Path.home() / ".m2" / "repository"
    out = []
    for path in map(Path, engine.classpath(study, version)):
        shown = (f"{study}/{version}/engine.jar" if path.name == "engine.jar"
                 else str(path.relative_to(m2)) if path.is_relative_to(m2) else str(path))
        out.append({"file": path.name, "path": shown, "sha256": sha256_file(path)})
    return out


def write_each(results_dir: Callable[[str], Path], versions: Sequence[str], *, study: str, scale: str,
               tables: dict[str, pd.DataFrame], jvms: dict[str, dict[str, Any]], corpora: dict[str, dict[str, Any]],
               parameters: dict[str, Any], started: str) -> list[Path]:
    """For a run that measured several versions at once: one result folder per version (``results_dir``), each
    holding the rows of every table whose ``version`` is that version, written tables first, manifest last."""
    return [write(results_dir(version), study=study, scale=scale, version=version,
                  tables={name: t[t["version"] == version].reset_index(drop=True) for name, t in tables.items()},
                  jvm=jvms[version], corpora=corpora, parameters=parameters, started=started)
            for version in versions]


def load(base: Path, versions: Sequence[str], tables: Sequence[str], measured_only: bool = True,
         series: Sequence[steady.Series] = (), optional: Sequence[str] = ()
         ) -> tuple[dict[str, pd.DataFrame], dict[str, dict[str, Any]]]:
    """The ``tables`` of ``versions`` (oldest first) below ``base`` (``results/<study>``), each version's
    rows concatenated, and the manifests by version. A missing or altered file is an error naming it.
    With ``measured_only``, rows of a table with a ``phase`` column keep ``phase == "measure"`` only:
    warm-up iterations exist to reach a steady state and would bias every statistic. A table a ``series`` names
    keeps the measured rows of each fork's final steady segment instead (:func:`lrev.steady.mark`, at the policy of
    the results folder above ``base``), and the frames gain ``series``, one row per fork's series. Where a budget ran
    rounds for some contenders only, every table with a round gains ``partial``, true on those rounds' rows. An
    ``optional`` table that a version's manifest does not list (results from before it was kept) reads as empty
    there."""
    ordered = sorted(versions, key=version_key)
    manifests = {}
    for version in ordered:
        path = Path(base) / version / NAME
        if not path.is_file():
            raise FileNotFoundError(f"no results for Lucene {version}: {path} is missing")
        manifests[version] = read_json(path)
        verify(path, manifests[version]["sha256"])

    # Rows of a round a budget ran for some contenders only (the study's ``budget_contenders``): paired by round,
    # a side that did not run it pairs over the others (lrev.rounds).
    partial = {v: {int(r) for r in (m.get("parameters", {}).get("budget_contenders") or {})}
               for v, m in manifests.items()}

    marked = {s.table for s in series}

    def read(name: str) -> pd.DataFrame:
        kept = [v for v in ordered if f"{name}.parquet" in manifests[v]["sha256"] or name not in optional]
        if not kept:
            return pd.DataFrame()
        frame = pd.concat([pd.read_parquet(Path(base) / v / f"{name}.parquet") for v in kept], ignore_index=True)
        if measured_only and "phase" in frame and name not in marked:
            frame = frame[frame["phase"] == "measure"].reset_index(drop=True)
        if any(partial.values()) and {"version", "round"} <= set(frame.columns):
            frame["partial"] = [r in partial.get(v, ()) for v, r in zip(frame["version"], frame["round"])]
        return frame

    frames = {name: read(name) for name in tables}
    if series:
        frames, frames["series"] = steady.mark_all(frames, series, steady.policy(Path(base).parent))
    return frames, manifests
