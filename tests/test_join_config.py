"""The `join` block of the config: bad input stops, before any work, with a message naming the key or value."""
from __future__ import annotations

import pytest

from conftest import assert_config_error, assert_snakemake_refuses
from lrev import config
from lrev.join import layout


@pytest.mark.parametrize("overrides, named", [
    ({"join": {"contenders": {"10.6.0": ["block", "hash"]}}}, "hash"),
    ({"join": {"contenders": {"10.6.0": ["scan"]}}}, "'block' must be a contender"),
    ({"join": {"contenders": {"4.10.4": ["block", "ordinals"]}}}, "join.contenders.4.10.4"),
    ({"join": {"contenders": {"7.7.3": ["block", "solr-topdv"]}, "versions": ["7.7.3"]}}, "join.contenders.7.7.3"),
    ({"join": {"contenders": {"10.6.0": ["block", "solr-join"]}}}, "no Solr release is paired with Lucene 10.6.0"),
    # A version the scale does not run is checked too (the default scale runs 4.10.4, 9.12.3 and 10.6.0).
    ({"scale": "default", "join": {"contenders": {"7.7.3": ["block", "solr-topdv"]}}}, "join.contenders.7.7.3"),
    ({"join": {"workers": 0}}, "join.workers"),
    ({"join": {"load": {"fractions": [0.5, 0.0]}}}, "join.load.fractions"),
    ({"join": {"load": {"fractions": [0.8, 0.4]}}}, "rates must increase"),
    ({"join": {"load": {"p99_factor": 1}}}, "join.load.p99_factor"),
    ({"join": {"load": {"min_requests": 0}}}, "join.load.min_requests"),
    ({"join": {"load": {"confirm": -1}}}, "join.load.confirm"),
    ({"join": {"directory": "ram"}}, "join.directory"),
    ({"join": {"corpus": {"acl_domain": 5}}}, "join.corpus.acl_domain"),
    ({"join": {"warmup": {"min_warmup": 5, "max_warmup": 2}}}, "join.warmup.max_warmup"),
    ({"join": {"versions": ["4.10.4", "6.6.6"]}}, "join.contenders"),
    ({"join": {"cold": {"contenders": {"10.6.0": ["ordinals"]}}}}, "join.cold.contenders.10.6.0"),
    ({"join": {"cold": {"contenders": {"7.7.3": ["solr-join"]}}}}, "not timed on Lucene 7.7.3"),
    ({"join": {"cold": {"runs": [{"directory": "mmap", "workers": 0}]}}}, "join.cold.runs.0.workers"),
    ({"join": {"cold": {"fraction": 0}}}, "join.cold.fraction"),
    ({"join": {"cold": {"runs": [{"directory": "hdfs", "workers": 4}]}}}, "hdfs"),
    ({"join": {"sweep": {"version": "7.7.3"}}}, "join.sweep.version"),
    ({"join": {"sweep": {"contenders": ["block"]}}}, "join.sweep.contenders"),
    ({"join": {"sweep": {"contenders": ["solr-join"]}}}, "no Solr release is paired with Lucene 10.6.0"),
    ({"join": {"sweep": {"shares": [1]}}}, "join.sweep.shares"),
    ({"join": {"updates": {"per_reopen": 0}}}, "join.updates.per_reopen"),
    ({"join": {"updates": {"warmup": {"min_s": 5, "max_s": 1}}}}, "join.updates.warmup.max_s"),
    ({"join": {"updates": {"measure_s": 0.01}}}, "'join.updates.measure_s': 0.01 s is shorter than one probe"),
    ({"join": {"updates": {"warmup": {"probe_ms": 10}}}}, "join.updates.warmup.probe_ms"),
    ({"join": {"updates": {"blocks": 10**9}}}, "'join.updates.blocks': 1000000000 blocks, more than the corpus's"),
    # The default scale: a main corpus of 100,000 parents, update forks over 1,000 blocks.
    ({"join": {"ladder": {"parents": [10000, 5000]}}}, "'join.ladder.parents': sizes must increase"),
    ({"join": {"ladder": {"parents": [100000]}}}, "'join.ladder.parents': 100000 is the main corpus's size"),
    ({"join": {"ladder": {"parents": [500]}}}, "'join.ladder.parents': 500 parents, fewer than the 1000 blocks"),
    ({"join": {"ladder": {"versions": ["7.7.3"]}}}, "'join.ladder.versions': 7.7.3 is not one of join.versions"),
    ({"join": {"ladder": {"query_rates": [0]}}}, "join.ladder.query_rates"),
    # join-2 is fitted on the ladder on 10.6.0: a ladder elsewhere leaves it one size.
    ({"join": {"ladder": {"versions": ["9.12.3"]}}},
     "'join.ladder.versions': join-2 is fitted on the size ladder on 10.6.0"),
    ({"join": {"contenders": {"10.6.0": ["block", "terms"]}, "cold": {"contenders": {"10.6.0": []}}}},
     "'join.ladder.versions': Lucene 10.6.0 does not time 'scan'"),
    ({"join": {"profile": {"period_ms": 0}}}, "join.profile.period_ms"),
    ({"join": {"aa_versions": ["7.7.3"]}}, "join.aa_versions"),
    ({"join": {"load": {"pin": {"generator": [1], "server": [1]}}}}, "'join.load.pin': CPU 1 is both"),
    ({"join": {"load": {"pin": {"generator": [], "server": [0]}}}}, "join.load.pin.generator"),
    ({"join": {"load": {"pin": {"generator": [4096], "server": [0]}}}}, "'join.load.pin.generator': CPU 4096 is not"),
    ({"join": {"load": {"pin": {"generator": "1"}}}}, "join.load.pin"),
    # A cache class the Solr release does not have: CaffeineCache came in 8.3, the LRU family left in 9.0.
    ({"join": {"solr_caches": {"7.7.3": {"documentCache": {"class": "solr.CaffeineCache"}}}}},
     "'join.solr_caches.7.7.3.documentCache': Solr 7.7.3 has no solr.CaffeineCache"),
    ({"join": {"solr_caches": {"9.10.1": {"perSegFilter": {"class": "solr.search.LRUCache"}}}}},
     "'join.solr_caches.9.10.1.perSegFilter': Solr 9.10.1 has no solr.search.LRUCache"),
    ({"join": {"solr_caches": {"9.10.1": {"documentCache": {"class": "solr.HashCache"}}}}}, "solr.HashCache"),
])
def test_invalid_config_names_the_key_or_value(overrides, named):
    assert_config_error({"studies": ["join"], **overrides}, named)


@pytest.mark.parametrize("option", ["join={workers: 0}", "join={load: {fractions: [-1, 1]}}"])
def test_snakemake_stops_before_any_work(tmp_path, option):
    assert_snakemake_refuses(tmp_path, ["studies=[join]", option])


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_every_scale_runs_the_seeds_pair_on_every_version_and_the_aa_contender_where_asked(scale):
    settings = config.load({"scale": scale, "studies": ["join"]}).study("join")
    assert settings["aa_versions"]
    for version in settings["versions"]:
        timed = layout.contenders(settings, version)
        assert (layout.AA in timed) == (version in settings["aa_versions"]) and {"block", "scan"} <= set(timed)
    assert any("solr-join" in settings["contenders"][v] for v in settings["versions"])


def test_solr_contenders_read_solrs_own_index():
    settings = config.load({"scale": "smoke", "studies": ["join"]}).study("join")
    systems = {(v, s) for v, s, _ in layout.indexes(settings)}
    assert ("4.10.4", "solr") in systems and ("10.6.0", "solr") not in systems
    assert layout.system("solr-join") == "solr" and layout.system("block-aa") == "lucene"


def test_a_job_name_gives_back_its_version_contender_and_sweep_corpus():
    assert layout.parse_job(layout.job_name("10.6.0", "block-aa")) == ("10.6.0", "block-aa", None)
    assert layout.parse_job(layout.job_name("9.12.3", "solr-join-none")) == ("9.12.3", "solr-join-none", None)
    assert layout.parse_job(layout.job_name("10.6.0", "scan", "share-10")) == ("10.6.0", "scan", "share-10")


def test_the_sweep_reads_one_index_per_share_and_the_main_one_for_a_share_of_one():
    settings = config.load({"scale": "smoke", "studies": ["join"]}).study("join")
    sweep = settings["sweep"]
    assert {(v, c) for v, c, _ in layout.sweep_jobs(settings)} == {(sweep["version"], c) for c in sweep["contenders"]}
    assert {layout.share(c) for _, _, c in layout.sweep_jobs(settings)} == set(sweep["shares"])
    assert (sweep["version"], "lucene", layout.CORPUS) in layout.indexes(settings)
    assert layout.index_dir("r", "10.6.0", "lucene", "share-10").name == "lucene-share-10"
    assert layout.index_dir("r", "10.6.0", "lucene") == layout.index_dir("r", "10.6.0", "lucene", layout.CORPUS)


def test_the_ladder_reads_a_lucene_index_of_each_size_and_runs_the_pair_and_both_designs_on_it():
    settings = config.load({"scale": "smoke", "studies": ["join"]}).study("join")
    ladder = settings["ladder"]
    jobs = layout.ladder_jobs(settings)
    assert {(v, c) for v, c, _ in jobs} == {(v, c) for v in ladder["versions"]
                                            for c in ("block", "scan", "update-block", "update-child")}
    assert sorted({layout.docs(settings, c) for _, _, c in jobs}) == [n * 6 for n in ladder["parents"]]
    for version, _, corpus in jobs:
        assert (version, "lucene", corpus) in layout.indexes(settings) and corpus in layout.corpora(settings)
        assert layout.parse_job(layout.job_name(version, "update-block", corpus))[2] == corpus
    assert layout.share(layout.ladder_corpus(500)) == 1 and layout.parents(settings, layout.CORPUS) == 2000


def test_solr_gets_its_releases_stock_caches_without_the_two_the_seed_turned_off():
    settings = config.load({"scale": "default", "studies": ["join"]}).study("join")
    old, new = layout.solr_caches(settings, "4.10.4"), layout.solr_caches(settings, "9.12.3")
    assert old.startswith('<documentCache class="solr.LRUCache" size="512"') and \
        '<cache name="perSegFilter" class="solr.search.LRUCache" size="10"' in old
    assert '<cache name="perSegFilter" class="solr.CaffeineCache"' in new
    for caches in (old, new):
        assert "filterCache" not in caches and "queryResultCache" not in caches
    assert layout.solr_caches(settings, "10.6.0") == "", "no Solr is paired with 10.6.0"
