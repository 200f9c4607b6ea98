"""The `join` study's plug-in (:class:`lrev.studies.Study`): query-time join against block join, seed 002."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from lrev import studies
from lrev.config import ConfigError, major, version_key
from lrev.join import layout
from lrev.load import pinning
from lrev.studies import Quantity

BASELINE = layout.BASELINE
AA = layout.AA
#: The contender registry (layout.py): the names the config's schema accepts.
CONTENDERS = (*layout.LUCENE, *layout.SOLR)

#: One row per fork and load: the saturation search's outcome. The closed-loop warm-up's verdict rides along
#: (``stable``): a saturation placed by a service time measured before the JIT settled is withheld.
LOAD = ("workers",)
#: One row per cold run: the index evicted, reopened on a directory and loaded by some workers at once.
COLD = ("directory", "workers")
QUANTITIES = {
    "terms_share": Quantity("saturation", "terms_share", LOAD, converges=False),
    "docfreq_share": Quantity("saturation", "docfreq_share", LOAD, converges=False, share=True),
    "cold_p99_ms": Quantity("cold", "p99_ms", COLD, converges=False),
    "recovery_s": Quantity("cold", "recovery_s", COLD, converges=False),
    "read_kb_per_query": Quantity("cold", "read_kb_per_query", COLD, converges=False),
    "syscall_kb_per_query": Quantity("cold", "syscall_kb_per_query", COLD, converges=False),
    "kb_per_transaction": Quantity("cold", "kb_per_transaction", COLD, converges=False, positive=True),
    "hot_share": Quantity("cold", "hot_share", COLD, converges=False, share=True),
    # The size join-6's mechanism needs: the share terms and postings could reach once the index was opened.
    "hot_share_ceiling": Quantity("cold", "hot_share_ceiling", COLD, converges=False),
    # The size join-4's and join-5's cold mechanisms need: terms and postings left on disk after opening, in
    # read-ahead windows.
    "cold_windows": Quantity("cold", "cold_windows", COLD, converges=False),
    "sweep_service_ms": Quantity("sweep", "service_ms", ("share",), converges=True),
    # The closed loop's service time on each corpus of the size ladder (the main corpus its top rung), and the
    # corpus's documents: the size a claim fitted on the ladder grows with.
    "ladder_service_ms": Quantity("service", "service_ms", ("corpus",), converges=True),
    "corpus_docs": Quantity("service", "docs", ("corpus",), converges=False),
    "update_ms": Quantity("updates", "update_ms", (), converges=True),
    "saturation_rps": Quantity("saturation", "saturation_rps", LOAD, converges=True),
    # The most the same workers complete in a closed loop after the search: the CPU's bound beside the latency's.
    "closed_rps": Quantity("saturation", "closed_rps", LOAD, converges=True, positive=True),
    "low_p50_ms": Quantity("saturation", "low_p50_ms", LOAD, converges=True),
    "low_p99_ms": Quantity("saturation", "low_p99_ms", LOAD, converges=True),
    "cpu_at_saturation": Quantity("saturation", "cpu_at_saturation", LOAD, converges=True),
    # The workers' CPU over the server's CPUs: with the generator pinned apart, what the server had.
    "server_cpu_at_saturation": Quantity("saturation", "server_cpu_at_saturation", LOAD, converges=True),
    "service_ms": Quantity("saturation", "service_ms", LOAD, converges=True),
}


def check_contenders(key: str, version: str, listed: list[str]) -> None:
    """``listed`` can run on Lucene ``version`` (and its Solr release), or a ConfigError names ``key``."""
    early = [c for c in listed if major(version) < layout.SINCE_MAJOR[c]]
    if early:
        raise ConfigError(f"config error at '{key}': Lucene {version} has no {', '.join(early)} (JoinUtil's "
                          "global-ordinals join and Solr's score=none came in 7, method=topLevelDV in Solr 8)")
    solr = [c for c in listed if c in layout.SOLR]
    if solr and layout.solr_release(version) is None:
        raise ConfigError(f"config error at '{key}': {', '.join(solr)} need real Solr, and no Solr release is "
                          f"paired with Lucene {version} (engine/studies/join/build.properties)")


#: Solr's cache classes and the releases that have them: the LRU family until 8.x (deprecated in 8.4, removed in
#: 9.0, SOLR-13817), CaffeineCache from 8.3 (SOLR-8241).
CACHE_CLASSES = {"LRUCache": (None, "9.0.0"), "FastLRUCache": (None, "9.0.0"), "LFUCache": (None, "9.0.0"),
                 "CaffeineCache": ("8.3.0", None)}


def check_caches(join: dict[str, Any]) -> None:
    """Every Solr release the config runs has its caches, and each cache's class exists in that release."""
    for version in join["versions"]:
        release = layout.solr_release(version)
        if release and any(c in layout.SOLR for c in join["contenders"].get(version, [])) \
                and release not in join["solr_caches"]:
            raise ConfigError(f"config error at 'join.solr_caches': nothing listed for Solr {release} (paired with "
                              f"Lucene {version})")
    for release, caches in join["solr_caches"].items():
        for name, attributes in caches.items():
            short = str(attributes["class"]).rsplit(".", 1)[-1]
            if short not in CACHE_CLASSES:
                raise ConfigError(f"config error at 'join.solr_caches.{release}.{name}': unknown cache class "
                                  f"{attributes['class']} (one of {', '.join(CACHE_CLASSES)})")
            since, until = CACHE_CLASSES[short]
            if (since and version_key(release) < version_key(since)) or \
                    (until and version_key(release) >= version_key(until)):
                span = f"from {since}" if since else f"before {until}"
                raise ConfigError(f"config error at 'join.solr_caches.{release}.{name}': Solr {release} has no "
                                  f"{attributes['class']} (it exists {span})")


def check(join: dict[str, Any]) -> None:
    check_caches(join)
    studies.require_baseline(join["contenders"], "join.contenders", join["versions"], BASELINE)
    # Every version listed, run at this scale or not: a name a later scale would meet is wrong now.
    for version, listed in join["contenders"].items():
        check_contenders(f"join.contenders.{version}", version, listed)
    stray = [v for v in join["aa_versions"] if v not in join["versions"]]
    if stray:
        raise ConfigError(f"config error at 'join.aa_versions': {', '.join(stray)} not in join.versions "
                          f"{join['versions']}")
    blocks, parents = join["updates"]["blocks"], join["corpus"]["parents"]
    if blocks > parents:
        raise ConfigError(f"config error at 'join.updates.blocks': {blocks} blocks, more than the corpus's {parents} "
                          "(join.corpus.parents)")
    update_warmup = join["updates"]["warmup"]
    if update_warmup["max_s"] < update_warmup["min_s"]:
        raise ConfigError(f"config error at 'join.updates.warmup.max_s': {update_warmup['max_s']} is below min_s "
                          f"({update_warmup['min_s']})")
    if join["updates"]["measure_s"] * 1000 < update_warmup["probe_ms"]:
        raise ConfigError(f"config error at 'join.updates.measure_s': {join['updates']['measure_s']} s is shorter "
                          f"than one probe ({update_warmup['probe_ms']} ms, join.updates.warmup.probe_ms)")
    sweep = join["sweep"]
    if sweep["version"] not in join["versions"]:
        raise ConfigError(f"config error at 'join.sweep.version': {sweep['version']} is not one of join.versions "
                          f"{join['versions']} (the sweep's results are written with its version's)")
    block = [c for c in sweep["contenders"] if layout.KIND[c] != "query-time"]
    if block:
        raise ConfigError(f"config error at 'join.sweep.contenders': {', '.join(block)} join blocks, not join keys "
                          "(the sweep regroups parents under shared keys, which only query-time joins follow)")
    check_contenders("join.sweep.contenders", sweep["version"], sweep["contenders"])
    check_ladder(join)
    for version, cold in join["cold"]["contenders"].items():
        untimed = [c for c in cold if c not in join["contenders"].get(version, [])] \
            if version in join["versions"] else cold
        if untimed:
            raise ConfigError(f"config error at 'join.cold.contenders.{version}': {', '.join(untimed)} not timed on "
                              f"Lucene {version} (a cold run follows a contender's warm measurement)")
    pinning(join["load"]["pin"], "join.load.pin")
    fractions = join["load"]["fractions"]
    if any(b <= a for a, b in zip(fractions, fractions[1:])):
        raise ConfigError(f"config error at 'join.load.fractions': rates must increase: {fractions}")
    warmup = join["warmup"]
    if warmup["max_warmup"] < warmup["min_warmup"]:
        raise ConfigError(f"config error at 'join.warmup.max_warmup': {warmup['max_warmup']} is below min_warmup "
                          f"({warmup['min_warmup']})")


def check_ladder(join: dict[str, Any]) -> None:
    """The ladder runs on versions that time the crossover's pair, at increasing sizes other than the main
    corpus's, each holding the blocks the update forks change."""
    ladder = join["ladder"]
    for version in ladder["versions"]:
        if version not in join["versions"]:
            raise ConfigError(f"config error at 'join.ladder.versions': {version} is not one of join.versions "
                              f"{join['versions']} (the main corpus's forks are the ladder's own size)")
        if layout.QUERY_TIME not in join["contenders"][version]:
            raise ConfigError(f"config error at 'join.ladder.versions': Lucene {version} does not time "
                              f"'{layout.QUERY_TIME}' (join.contenders.{version}), which gives the ladder the main "
                              "corpus's size")
    parents = ladder["parents"]
    if any(b <= a for a, b in zip(parents, parents[1:])):
        raise ConfigError(f"config error at 'join.ladder.parents': sizes must increase: {parents}")
    if join["corpus"]["parents"] in parents:
        raise ConfigError(f"config error at 'join.ladder.parents': {join['corpus']['parents']} is the main corpus's "
                          "size (join.corpus.parents), which the ladder already holds")
    fitted = sorted({(cid, version) for cid, version, _ in studies.ladder_parts("join", join["versions"])
                     if version not in ladder["versions"]})
    if fitted:
        raise ConfigError("config error at 'join.ladder.versions': " + "; ".join(
            f"{cid} is fitted on the size ladder on {version}" for cid, version in fitted)
            + f", and the ladder runs on {ladder['versions']}")
    if join["updates"]["blocks"] > parents[0]:
        raise ConfigError(f"config error at 'join.ladder.parents': {parents[0]} parents, fewer than the "
                          f"{join['updates']['blocks']} blocks an update fork changes (join.updates.blocks)")


def load(results: Path, versions: Sequence[str]):
    from lrev.join import summary

    return summary.load(results, versions)


def numbers(results: Path, versions: Sequence[str], figures: Path, claims: dict[str, Any]) -> dict[str, Any]:
    from lrev.join import numbers as join_numbers

    return join_numbers.numbers(results, versions, figures, claims)
