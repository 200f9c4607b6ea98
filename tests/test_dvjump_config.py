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
