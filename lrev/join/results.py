"""Turn the `join` forks into the study's tidy result files, one folder per Lucene version.

    gate.parquet        the correctness gate, before any timing: per query, the total hits, the sha256 of the
                        sorted ids of every matching parent, and the top hits' ids
    closed.parquet      the closed-loop warm-up and measurement (one thread, the query stream in turn):
                        iterations of ops, nanos, jit_ms and gc_ms, ``stable`` = the warm-up converged
    steps.parquet       the saturation search: one row per open-loop step (offered rate, achieved rate,
                        latency percentiles from the intended send time, CPU share, backlog growth, verdict,
                        jit_ms and gc_ms over its duration_ns, ``quiet`` = the JIT compiled for at most
                        lrev.warmup.JIT_QUIET_SHARE of it, ``overturned`` = a repeat of its rate passed)
    intervals.parquet   each step's per-second intervals (the timelines)
    saturation.parquet  one row per fork: the saturation rate, the first step's latency, the CPU share at the
                        lowest rate whose every run failed, the closed-loop service time, ``closed_rps`` (the most the
                        same workers completed in a closed loop after the search, and ``closed_jit_ms``),
                        ``stable`` (the closed loop converged and every step was quiet; the loaders read it
                        from the closed loop's series instead, lrev.steady), and the shares of the profiled
                        step's CPU samples under each mark of layout.MARKS (the terms dictionary, docFreq); the
                        open-loop warm-up's steps, the JIT share of its last, and whether that one was quiet
    frames.parquet      the profiled step's hottest frames (JFR execution samples), by self and inclusive count
    cold.parquet        one row per cold run (a contender the config names, reopened on an evicted index and
                        loaded at once): directory, workers, latency, recovery, bytes read per query (process
                        and device counters), what was resident afterwards, and ``hot_share_ceiling``: the
                        share of resident bytes terms and postings could reach at best, given what the other
                        files held once the index was opened (join-6's mechanism needs it above 90%)
    cold_intervals.parquet  the cold runs' timelines (short intervals)
    residency.parquet   per cold run and index file extension: bytes, bytes resident once the index was opened
                        and bytes resident afterwards
    sweep_gate.parquet  the unique-join-values sweep's gate: as gate.parquet, per corpus
    sweep.parquet       one row per sweep fork: the corpus's parents per join key, its join keys, the
                        closed-loop service time
    sweep_closed.parquet  per sweep fork, its closed loop's iterations (as closed.parquet, with the corpus)
    update_gate.parquet per update fork and updated block: its children, how many of its ids were found
                        exactly once, how many children hold the acl last written, and whether the block is
                        still adjacent (block join's design; 1 for the child-alone design)
    update_probes.parquet  per update fork, the update loop's probes: warm-up or measured, updates, time, and the
                        JIT's and collectors' time in each
    updates.parquet     one row per update fork: the time per child update over its measured time, NRT reopens
                        and merges included; the warm-up's and the measured time, the JIT's share of the latter,
                        whether the warm-up ended with the JIT quiet or settled, and that rule's window and shares
    ladder_gate.parquet the size ladder's gate: as gate.parquet, per ladder corpus
    ladder.parquet      one row per closed-loop fork of the size ladder: the corpus, its documents, the service time
    ladder_closed.parquet  per closed-loop fork of the size ladder, its closed loop's iterations
    ladder_update_gate.parquet, ladder_update_probes.parquet, ladder_updates.parquet
                        the size ladder's update forks: as the three tables above, per ladder corpus
    manifest.json       provenance, and the sha256 of every table above

Rows carry ``version``, ``round``, ``fork`` (the job) and ``contender`` (or the A/A contender).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from lrev import fork, manifest
from lrev.io import read_json
from lrev.join import layout

TABLES = ("gate", "closed", "steps", "intervals", "saturation", "frames", "cold", "cold_intervals", "residency",
          "sweep_gate", "sweep", "sweep_closed", "update_gate", "update_probes", "updates", "ladder_gate", "ladder",
          "ladder_closed", "ladder_update_gate", "ladder_update_probes", "ladder_updates")
#: The tables results from before the loaders read the closed loops' series lack: read as empty there.
SINCE_SERIES = ("sweep_closed", "ladder_closed")
FILES = (*(f"{t}.parquet" for t in TABLES), "manifest.json")


class AnswerMismatch(ValueError):
    """Two contenders of one version answered a query differently."""


def labels(job: str) -> dict[str, str]:
    """A fork's version, contender and the system (Lucene or Solr) the contender runs on."""
    version, contender, _ = layout.parse_job(job)
    return {"version": version, "contender": contender, "system": layout.system(contender)}


def collect(forks_dir: Path) -> tuple[dict[str, pd.DataFrame], dict[str, dict]]:
    """Every table from the forks' folders, each row labelled with its version, round, fork and contender; and
    one fork's JVM report per version. Raises :class:`AnswerMismatch` when the gate finds two answers."""
    out, jvms = fork.collect_tables(forks_dir, labels)
    check_answers(out["gate"])
    if "sweep_gate" in out:
        check_answers(out["sweep_gate"], ["corpus"])
    if "ladder_gate" in out:
        check_answers(out["ladder_gate"], ["corpus"])
    for name in ("update_gate", "ladder_update_gate"):
        if name in out:
            check_updates(out[name])
    return out, jvms


def check_updates(gate: pd.DataFrame) -> None:
    """Every updated block of every update fork reads back as written: each id found once, each child's acl the
    last one written, block join's block still adjacent. Raises naming the first block that does not."""
    wrong = gate[(gate["found"] != gate["children"] + 1) | (gate["acl_ok"] != gate["children"])
                 | (gate["adjacent"] != 1)]
    if len(wrong):
        r = wrong.iloc[0]
        raise AnswerMismatch(f"update fork {r['fork']} (round {r['round']}) left block {r['parent']} other than "
                             f"written: {r['found']} of {r['children'] + 1} ids found once, {r['acl_ok']} of "
                             f"{r['children']} acls as written, adjacent {r['adjacent']} ({len(wrong)} blocks in all)")


def check_answers(gate: pd.DataFrame, by: list[str] | None = None) -> None:
    """Within a version (and each of the ``by`` columns), every contender matched the same parents for every
    query, in every round; and contenders reading the same index returned the same top hits. Raises naming the
    first query that differs."""
    by = by or []
    for keys, column in ((["version", *by, "query"], "parents_sha256"),
                         (["version", *by, "system", "query"], "top")):
        answers = gate.groupby(keys)[column].nunique()
        if (answers > 1).any():
            key = answers[answers > 1].index[0]
            rows = gate.set_index(keys).loc[key]
            answered = rows.groupby("contender")[column].first().to_dict()
            what = "parent sets" if column == "parents_sha256" else "top hits"
            where = "".join(f", {b} {v}" for b, v in zip(by, key[1:]))
            raise AnswerMismatch(f"contenders disagree on the {what} of query {key[-1]} on Lucene {key[0]}{where}: "
                                 f"{answered} "
                                 f"({int((answers > 1).sum())} queries differ in all)")


def write(root: Path, scale: str, join: dict[str, Any], tables: dict[str, pd.DataFrame],
          jvms: dict[str, dict[str, Any]], started: str) -> list[Path]:
    """One result folder per version, each written tables first and manifest last."""
    corpus = {c: read_json(layout.corpus_dir(root, c) / "manifest.json") for c in layout.corpora(join)}
    return manifest.write_each(lambda v: layout.results_dir(root, v), join["versions"], study="join", scale=scale,
                               tables=tables, jvms=jvms, corpora=corpus, parameters=join, started=started)
