"""The join paper's numbers that come from the run's manifests alone."""
from lrev.join import numbers


def manifest(version: str, contenders: list[str], jars: list[str]) -> dict:
    return {"parameters": {"contenders": {version: contenders}}, "classpath": [{"file": jar} for jar in jars]}


def test_the_solr_releases_are_those_whose_solr_contenders_ran_in_version_order():
    manifests = {
        "9.12.3": manifest("9.12.3", ["block", "solr-join"], ["engine.jar", "solr-core-9.10.1.jar"]),
        "4.10.4": manifest("4.10.4", ["solr-parent"], ["lucene-core-4.10.4.jar", "solr-core-4.10.4.jar"]),
        # The engine carries Solr, but this run timed Lucene's joins on it only.
        "8.11.4": manifest("8.11.4", ["block", "scan"], ["solr-core-8.11.4.jar"]),
        "10.6.0": manifest("10.6.0", ["block", "scan"], ["lucene-core-10.6.0.jar"]),
    }
    assert numbers.solr_releases(manifests) == ["4.10.4", "9.10.1"]
