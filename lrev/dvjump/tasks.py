"""The `dvjump` study's fork task (run by :mod:`lrev.fork`, one JVM each): one contender, alone in its JVM."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from lrev import bridge, pagecache, warmup
from lrev.dvjump import engine, layout
from lrev.io import read_json


#: The lockstep stages (:mod:`lrev.turns`) after the timed requests: the answers and the warm reads by position, once
#: every member's requests are done; then the cold export, whose eviction of the index from the page cache must
#: touch no other member's warm reads.
AFTER_STAGE, COLD_STAGE = 1, 2


def queries(root: Path, corpus: str) -> tuple[list[str], list[int], str]:
    """The corpus's query terms and their buckets, and its export term."""
    frame = pd.read_csv(layout.corpus_dir(root, corpus) / "queries.tsv", sep="\t", names=["term", "df", "bucket"],
                        dtype={"term": str})
    manifest = read_json(layout.corpus_dir(root, corpus) / "manifest.json")
    return list(frame["term"]), [int(b) for b in frame["bucket"]], manifest["export_term"]


def spec(root: Path, contender: str, corpus: str, dvjump: dict[str, Any], seed: int) -> engine.Spec:
    c = layout.contender(contender)
    terms, buckets, export_term = queries(root, corpus)
    limits = dvjump["limits"]
    return engine.Spec(
        index_path=str(layout.index_dir(root, c.index_version, corpus, c.index_kind) / "index"), access=c.access,
        workloads=layout.corpus_workloads(dvjump, corpus),
        concurrent_workloads=list(dvjump["concurrent_workloads"]) if corpus == layout.FULL else [], terms=terms,
        buckets=buckets, export_term=export_term, export_bucket=layout.EXPORT_BUCKET,
        variation_bucket=dvjump["variations"]["bucket"], rows=limits["rows"], facets=limits["facets"],
        groups=limits["groups"], iteration_millis=dvjump["iteration_ms"], min_warmup_iterations=dvjump["min_warmup"],
        max_warmup_iterations=dvjump["max_warmup"], stable_window=warmup.WINDOW, stable_cv=dvjump["stable_cv"],
        jit_quiet_share=warmup.JIT_QUIET_SHARE, measure_iterations=dvjump["measure_iterations"], seed=seed)


def measure(root: str, version: str, round: int, contender: str, corpus: str,
            dvjump: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Everything one contender is measured on in ``corpus``, alone in this JVM: its requests (timed, then each
    answered once more for the correctness gate; a ladder corpus runs the ladder's workloads only) and what its
    reader built on first access; on the full corpus, the cost of one read by docID position (per field, and per
    document as each of ``reads.workloads`` reads it), then the seed's export
    test, its first run after the index's files were dropped from the page cache. The A/A contender only times
    requests."""
    root_ = Path(root)
    # One seed for every contender of a round: their series run in one order, so that a lockstep group's samples of
    # a series fall within one turn of each other.
    seed = int(dvjump["seed"]) * 1000 + round * 100
    out: dict[str, list[pd.DataFrame]] = {"latency": [], "warmup": [], "answers": [], "cost": [], "positions": [],
                                          "reads": [], "export": []}
    bench_spec = spec(root_, contender, corpus, dvjump, seed)
    with engine.Bench(bench_spec) as bench:
        iterations = bench.latencies().assign(corpus=corpus)
        measured = iterations["phase"] == "measure"
        out["latency"].append(iterations[measured].drop(columns="phase").reset_index(drop=True))
        out["warmup"].append(iterations[~measured].drop(columns="phase").reset_index(drop=True))
        if not contender.endswith(layout.AA_SUFFIX):
            bridge.turn(AFTER_STAGE)
            out["answers"].append(bench.answers().assign(corpus=corpus))
            out["cost"].append(bench.source_cost().assign(corpus=corpus))
            if corpus == layout.FULL:
                points, repeats = dvjump["positions"]["points"], dvjump["positions"]["repeats"]
                out["positions"].extend(bench.positions(f, points, repeats) for f in dvjump["positions"]["fields"])
                reads = dvjump["reads"]
                out["reads"].extend(bench.reads(w, reads["points"], reads["repeats"]) for w in reads["workloads"])
    if corpus == layout.FULL and not contender.endswith(layout.AA_SUFFIX):
        bridge.turn(COLD_STAGE)
        out["export"].append(_export_cold(bench_spec, dvjump["export_runs"]))
    return {name: pd.concat(parts, ignore_index=True) for name, parts in out.items() if parts}


def _export_cold(bench_spec: engine.Spec, runs: int) -> pd.DataFrame:
    """The export request ``runs`` times on a freshly opened index, the first after its files were evicted
    from the page cache; the resident bytes before the first run are recorded with it."""
    index = Path(bench_spec.index_path)
    pagecache.evict([index])
    resident = pagecache.resident_bytes([index])
    with engine.Bench(bench_spec) as bench:
        table = bench.export_runs(bench_spec.export_term, runs)
    return table.assign(resident_before=resident, index_bytes=sum(p.stat().st_size for p in pagecache.files([index])))
