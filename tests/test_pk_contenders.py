"""The contender registry (lrev/pk/contenders.yaml) and the engines it is generated from."""
from __future__ import annotations

import pytest

from lrev import config
from lrev.pk import contenders

# The registry covers the versions pk runs on at any scale (the paper's are all of them); 6.6.6 is a dvjump-only
# version.
VERSIONS = config.load({"scale": "paper"}).study("pk")["versions"]


@pytest.mark.parametrize("version", VERSIONS)
def test_engine_available_matches_registry(version):
    """Starts a JVM per version; needs the engines built with PkContenders.main (``./run test`` does).
    A missing engine or one without that main fails here, it is not skipped."""
    try:
        names = contenders.engine_available(version)
    except (FileNotFoundError, RuntimeError) as exc:
        pytest.fail(f"cannot ask the Lucene {version} engine for its contenders: {exc}")
    assert sorted(names) == contenders.available(version), (
        f"lrev/pk/contenders.yaml is stale for Lucene {version}; "
        f"regenerate it: python -m lrev.pk.contenders --update {version}")


def test_unknown_names_only_the_missing_ones():
    assert contenders.unknown("9.12.3", ["default", "NoSuchFormat", "FST50"]) == ["NoSuchFormat"]


def test_aa_contender_is_not_allowed_in_config():
    assert contenders.unknown("9.12.3", ["default-aa"]) == ["default-aa"]


def test_memory_exists_only_on_old_versions():
    assert contenders.unknown("9.12.3", ["Memory"]) == ["Memory"]
    assert contenders.unknown("4.10.4", ["Memory"]) == []


def test_missing_version_raises_key_error_naming_it():
    with pytest.raises(KeyError, match=r"1\.2\.3.*--update 1\.2\.3"):
        contenders.available("1.2.3")


def test_registry_covers_configured_versions_and_contenders():
    pk = config.load().study("pk")
    for version in VERSIONS:
        assert contenders.available(version) == sorted(contenders.available(version))
    for version in pk["versions"]:
        assert contenders.unknown(version, pk["contenders"][version]) == []


def test_render_round_trips(tmp_path):
    import yaml

    registry = {"10.0.0": ["b", "A"], "9.1.0": ["default", "true", "x y"]}
    text = contenders.render(registry)
    assert text.startswith("#")
    assert list(yaml.safe_load(text)) == ["9.1.0", "10.0.0"]
    assert yaml.safe_load(text)["9.1.0"] == ["default", "true", "x y"]


def test_a_format_with_seek_ceil_reads_its_format_index_and_the_map_has_none():
    from lrev.pk import layout
    assert contenders.unknown("10.6.0", ["default+seekCeil", "FST50+seekCeil"]) == []
    assert contenders.unknown("10.6.0", ["GlobalPkMap+seekCeil", "Nope+seekCeil"]) == ["GlobalPkMap+seekCeil",
                                                                                        "Nope+seekCeil"]
    assert layout.index_of("default+seekCeil") == "default" and layout.index_of("GlobalPkMap") == "default"
    assert layout.strategy("Memory+seekCeil") and layout.strategy("GlobalPkMap") and not layout.strategy("Memory")


def test_a_g1_contender_is_its_format_under_another_collector():
    from lrev.pk import layout
    assert contenders.unknown("10.6.0", ["FST50@G1", "default+seekCeil@G1", "GlobalPkMap@G1"]) == []
    assert contenders.unknown("10.6.0", ["Nope@G1", "GlobalPkMap+seekCeil@G1"]) == ["Nope@G1",
                                                                                    "GlobalPkMap+seekCeil@G1"]
    assert layout.index_of("FST50@G1") == "FST50" and layout.engine_name("FST50+seekCeil@G1") == "FST50+seekCeil"
    assert (layout.collector("FST50@G1"), layout.collector("FST50")) == ("g1", "parallel")
    assert layout.strategy("FST50@G1")
    pk = {"contenders": {"10.6.0": ["default", "FST50", "FST50@G1", "default+seekCeil"]}}
    assert layout.indexed_contenders(pk, "10.6.0") == ["default", "FST50", "default+seekCeil"]


def test_a_jdk_contender_is_its_format_on_another_jdk():
    from lrev.pk import layout
    assert contenders.unknown("4.10.4", ["default@JDK17", "Memory+seekCeil@JDK17"]) == []
    assert contenders.unknown("4.10.4", ["Nope@JDK17"]) == ["Nope@JDK17"]
    assert (layout.engine_name("Memory+seekCeil@JDK17"), layout.index_of("default@JDK17")) == ("Memory+seekCeil",
                                                                                                "default")
    assert (layout.java("default@JDK17"), layout.java("default@G1"), layout.java("default")) == (17, None, None)
    assert layout.collector("default@JDK17") == "parallel" and layout.strategy("default@JDK17")
    assert [layout.jvm_variant(c) for c in ("default@JDK17", "FST50@G1", "default+seekCeil")] == [True, True, False]
    pk = {"contenders": {"4.10.4": ["default", "default@JDK17", "Memory@G1"]}}
    assert layout.indexed_contenders(pk, "4.10.4") == ["default"]
