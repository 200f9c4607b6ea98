"""The `dvjump` block of the config: bad input stops, before any work, with a message naming the key or value."""
from __future__ import annotations

import pytest

from conftest import assert_config_error, assert_snakemake_refuses


@pytest.mark.parametrize("overrides, named", [
    ({"dvjump": {"workloads": ["facet", "exprot"]}}, "exprot"),
    ({"dvjump": {"buckets": [0, 3, 2]}}, "dvjump.buckets"),
    ({"dvjump": {"concurrent_workloads": ["combined", "sorting"]}}, "sorting"),
    ({"dvjump": {"docs": 5000, "buckets": [0, 4]}}, "dvjump.docs"),
    ({"dvjump": {"contenders": ["lucene6", "lucene7-index", "lucene11"]}}, "lucene11"),
    # The walk's reads: of a workload that reads its hits one by one, and run; enough docIDs for a slope.
    ({"dvjump": {"reads": {"workloads": ["facet"], "points": 8, "repeats": 3}}}, "dvjump.reads.workloads"),
    ({"dvjump": {"workloads": ["facet", "export"], "reads": {"workloads": ["retrieve"], "points": 8, "repeats": 3}}},
     "dvjump.reads.workloads"),
    ({"dvjump": {"reads": {"workloads": ["export"], "points": 2, "repeats": 3}}}, "dvjump.reads.points"),
    # The size ladder: sizes that do not increase, or reach the full corpus, or cannot hold its buckets; workloads
    # and buckets the full corpus does not run; one size where the registry fits claims on the ladder.
    ({"dvjump": {"ladder": {"docs": [20000, 10000], "workloads": ["export"], "buckets": [2]}}}, "dvjump.ladder.docs"),
    ({"dvjump": {"ladder": {"docs": [2000000], "workloads": ["export"], "buckets": [2]}}}, "dvjump.ladder.docs"),
    ({"dvjump": {"ladder": {"docs": [500], "workloads": ["export"], "buckets": [2]}}}, "10^2"),
    ({"dvjump": {"ladder": {"docs": [100000], "workloads": ["export"], "buckets": [4, 2]}}}, "dvjump.ladder.buckets"),
    ({"dvjump": {"ladder": {"docs": [100000], "workloads": [], "buckets": [2]}}}, "dvjump.ladder.workloads"),
    ({"dvjump": {"ladder": {"docs": [100000], "workloads": ["exprot"], "buckets": [2]}}}, "dvjump.ladder.workloads"),
    ({"dvjump": {"ladder": {"docs": [100000], "workloads": ["export"], "buckets": [3]}}}, "dvjump.ladder.buckets"),
    ({"dvjump": {"ladder": {"docs": [], "workloads": ["export"], "buckets": [2]}}}, "full corpus alone is one size"),
])
def test_invalid_config_names_the_key_or_value(overrides, named):
    assert_config_error({"studies": ["dvjump"], **overrides}, named)


@pytest.mark.parametrize("option", ["dvjump={workloads: [facet, exprot]}", "dvjump={buckets: [0, 3, 2]}",
                                    "dvjump={docs: 5000}"])
def test_snakemake_stops_before_any_work(tmp_path, option):
    assert_snakemake_refuses(tmp_path, ["studies=[dvjump]", option])


def test_a_contender_added_to_the_registry_alone_is_configured_indexed_forked_drawn_and_claimed(monkeypatch, tmp_path):
    # Adding a dvjump contender touches layout.CONTENDERS (what it runs on and reads, and how), the engine's access
    # class if its way of reading is new, and its claim: nothing else names it.
    import yaml

    from lrev import claims, config
    from lrev.dvjump import figures, forks, layout
    from lrev.config import REPO

    monkeypatch.setitem(layout.CONTENDERS, "dry", layout.Contender("10.6.0", "8.11.4", "dv80", "native",
                                                                   "10.6.0 on 8.11.4's Lucene80 index (dry run)"))
    base = config.load({"scale": "smoke", "studies": ["dvjump"]}).study("dvjump")
    settings = config.load({"scale": "smoke", "studies": ["dvjump"],
                            "dvjump": {"contenders": [*base["contenders"], "dry"],
                                       "versions": sorted({*base["versions"], "8.11.4", "10.6.0"},
                                                          key=config.version_key)}}).study("dvjump")
    assert ("8.11.4", layout.FULL, "dv80") in layout.indexes(settings)
    job = next(j for j in forks.jobs(tmp_path, settings) if j.name == "dry")
    assert job.name == "dry" and layout.contender(job.name).version == "10.6.0"
    assert "dry" in figures._palette(["dry"]) and figures._name("dry") == "dry (10.6.0)"
    registry = yaml.safe_load((REPO / "claims" / "dvjump.yaml").read_text())
    registry["claims"].append({
        "id": "dvjump-dry", "seed": registry["claims"][0]["seed"], "kind": "claim",
        "statement": "A dry-run contender searches as fast as the baseline.", "quote": "(none)", "claimed": "about 1",
        "parts": [{"label": "search, baseline / dry", "quantity": "latency_ms", "statistic": "median",
                   "where": {"corpus": "full", "workload": "search", "bucket": 2, "threads": 1},
                   "a": {"contender": layout.BASELINE, "version": "8.11.4"},
                   "b": {"contender": "dry", "version": "10.6.0"},
                   "expect": {"direction": "greater", "value": 1.0}, "versions": ["10.6.0"]}],
        "not_applicable": {v: "the dry-run contender runs on 10.6.0" for v in registry["versions"] if v != "10.6.0"}})
    claims.validate(registry)


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_every_rung_of_the_ladder_is_timed_in_jvms_of_its_own(tmp_path, scale):
    # A rung timed in the JVM that timed another corpus first reads as that JVM's state, not as its size.
    from lrev import config
    from lrev.dvjump import forks, layout, plan

    settings = config.load({"scale": scale, "studies": ["dvjump"]}).study("dvjump")
    jobs = forks.jobs(tmp_path, settings)
    assert len({j.name for j in jobs}) == len(jobs)
    assert sorted(layout.fork_parts(j.name) for j in jobs) == sorted(
        (c, corpus) for c in layout.timed(settings) for corpus in layout.corpora(settings))
    assert all(j.contender == layout.fork_parts(j.name)[0] for j in jobs), "a budget round runs every rung"
    # The plan charges a fork its own corpus's series only.
    per_series = (settings["min_warmup"] + settings["measure_iterations"]) * settings["iteration_ms"] / 1000
    name = layout.timed(settings)[0]
    for corpus in layout.corpora(settings):
        assert plan.configured(settings, layout.fork_name(name, corpus)) == pytest.approx(
            plan.series(settings, corpus) * per_series)
