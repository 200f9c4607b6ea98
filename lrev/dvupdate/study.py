"""The `dvupdate` study's plug-in (:class:`lrev.studies.Study`): updatable DocValues under NRT reopen, seed 003."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from lrev import studies
from lrev.config import ConfigError, version_key
from lrev.dvupdate import layout
from lrev.studies import Pace, Quantity

BASELINE = layout.BASELINE
AA = layout.AA
#: The method registry (layout.py): the names the config's schema accepts, besides ``overlays-<n>``.
CONTENDERS = layout.METHODS
aa_of = layout.aa_of

#: A per-reopen sample is selected by its corpus role and its grid cell's roles.
CELL = ("role", "rate_role", "interval_role")
#: The updates per second each reopen interval applied, against the rate asked for: a method that cannot keep
#: pace applied fewer updates per reopen, and its costs say nothing about the rate asked for.
PACE = Pace("reopens", "achieved_per_s", "rate")
QUANTITIES = {
    # Every sample carries its cell's warm-up verdict (``stable``): a claim on a cell whose warm-up ended
    # with the JIT still busy is withheld.
    **{name: Quantity("reopens", name, CELL, converges=True)
       for name in ("reopen_ms", "update_ms", "total_ms", "queries_per_s", "heap_mb")},
    "behind": Quantity("reopens", "behind", CELL, converges=True, share=True),
    # Only reopens that applied updates have a per-document cost, and only they rewrite a field.
    "perdoc_ms": Quantity("perdoc", "perdoc_ms", CELL, converges=True),
    "applied_reopen_ms": Quantity("perdoc", "reopen_ms", CELL, converges=True),
    # Per fork and cell, the sizes a mechanism needs: documents per update, the RAM buffer's flushes.
    "docs_per_update": Quantity("sizes", "docs_per_update", CELL),
    "flushes": Quantity("sizes", "flushes", CELL),
    "corpus_docs": Quantity("sizes", "docs", CELL),
    # One sample per fork and cell: its slowest reopen.
    "reopen_max_ms": Quantity("worst", "reopen_max_ms", CELL, converges=True),
}


def check(dvupdate: dict[str, Any]) -> None:
    studies.require_baseline(dvupdate["methods"], "dvupdate.methods", dvupdate["versions"], BASELINE, "method")
    for version in dvupdate["versions"]:
        if version not in dvupdate["id_formats"]:
            raise ConfigError(f"config error at 'dvupdate.id_formats': nothing listed for Lucene {version}")
    # Every version listed, run at this scale or not: a method a later scale would meet is wrong now.
    for version, methods in dvupdate["methods"].items():
        for m in methods:
            since = layout.SINCE.get(layout.kind(m))
            if since and version_key(version) < version_key(since[0]):
                raise ConfigError(f"config error at 'dvupdate.methods.{version}': Lucene {version} cannot run {m} "
                                  f"({since[1]})")
    cells = {f"{c['rate']}-{c['interval']}" for c in dvupdate["grid"]["cells"]}
    for role, spec in dvupdate["corpora"].items():
        if (spec["text"] == "synthetic") != ("docs" in spec):
            raise ConfigError(f"config error at 'dvupdate.corpora.{role}': 'docs' is for synthetic corpora, "
                              "and they need it")
        unknown = sorted(set(spec.get("cells", [])) - cells)
        if unknown:
            raise ConfigError(f"config error at 'dvupdate.corpora.{role}.cells': not in grid.cells: "
                              f"{', '.join(unknown)}")
        if role != "big" and BASELINE not in spec.get("methods", [BASELINE]):
            raise ConfigError(f"config error at 'dvupdate.corpora.{role}.methods': '{BASELINE}' must be one")
    if dvupdate["max_warmup_s"] < dvupdate["warmup_s"]:
        raise ConfigError(f"config error at 'dvupdate.max_warmup_s': {dvupdate['max_warmup_s']} s is shorter than "
                          f"warmup_s ({dvupdate['warmup_s']} s)")
    longest = max(dvupdate["grid"]["intervals_ms"].values())
    if dvupdate["max_measure_s"] * 1000 < dvupdate["min_reopens"] * longest:
        raise ConfigError(f"config error at 'dvupdate.max_measure_s': {dvupdate['max_measure_s']} s holds fewer than "
                          f"min_reopens ({dvupdate['min_reopens']}) reopens of {longest} ms")
    if dvupdate["max_measure_s"] < dvupdate["measure_s"]:
        raise ConfigError(f"config error at 'dvupdate.max_measure_s': {dvupdate['max_measure_s']} s is shorter than "
                          f"measure_s ({dvupdate['measure_s']} s)")
    check_ladder(dvupdate, cells)


def check_ladder(dvupdate: dict[str, Any], cells: set[str]) -> None:
    """The ladder's corpora grow and stay below the big corpus (its top rung), time the baseline, run cells of the
    grid, and hold every method and cell of a part the registry fits on the ladder."""
    ladder, big = dvupdate["ladder"], dvupdate["corpora"]["big"]
    sizes = ladder["docs"]
    if sizes != sorted(sizes) or (sizes and "docs" in big and sizes[-1] >= big["docs"]):
        raise ConfigError(f"config error at 'dvupdate.ladder.docs': {sizes} must increase and stay below the big "
                          f"corpus's {big.get('docs', 'documents')}, the ladder's top rung")
    if BASELINE not in ladder["methods"]:
        raise ConfigError(f"config error at 'dvupdate.ladder.methods': '{BASELINE}' must be one (ratios are taken "
                          "against it)")
    unknown = sorted(set(ladder["cells"]) - cells)
    if unknown:
        raise ConfigError(f"config error at 'dvupdate.ladder.cells': not in grid.cells: {', '.join(unknown)}")
    strangers = [v for v in ladder.get("versions", []) if v not in dvupdate["versions"]]
    if strangers:
        raise ConfigError(f"config error at 'dvupdate.ladder.versions': {', '.join(strangers)} not among "
                          f"dvupdate.versions {dvupdate['versions']}")
    studies.require_rungs("dvupdate", dvupdate["versions"], sizes, "the big corpus")
    for cid, _, part in studies.ladder_parts("dvupdate", dvupdate["versions"]):
        for side in (part[s] for s in ("a", "b") if s in part):
            where = {**part["where"], **side.get("where", {})}
            cell = f"{where.get('rate_role')}-{where.get('interval_role')}"
            if cell not in ladder["cells"]:
                raise ConfigError(f"config error at 'dvupdate.ladder.cells': {cid} is fitted on the ladder in cell "
                                  f"{cell}, not among {ladder['cells']}")
    studies.require_on_ladder("dvupdate", dvupdate["versions"], dvupdate["methods"], ladder["methods"],
                              "dvupdate.ladder.methods")


def load(results: Path, versions: Sequence[str]):
    from lrev.dvupdate import summary

    return summary.load(results, versions)


def numbers(results: Path, versions: Sequence[str], figures: Path, claims: dict[str, Any]) -> dict[str, Any]:
    from lrev.dvupdate import numbers as dvupdate_numbers

    return dvupdate_numbers.numbers(results, versions, figures, claims)
