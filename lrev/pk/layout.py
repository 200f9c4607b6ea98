"""Where the `pk` study's files live, below a scale's root (``<outdir>/<scale>``).

    corpora/pk/<corpus>/                    docs.tsv, keys-miss<P>.tsv, manifest.json; <corpus> is seq, rand, uuid
                                            or seq-<n>, a rung of the size ladder (n sequential ids)
    indexes/pk/<version>/<corpus>/          <contender>/{multi,merged}/ Lucene indexes + manifest.json
    results/pk/<version>/                   lookups, mixed, plain, footprint, reopen .parquet, manifest.json,
                                            pk.ipynb, forks/round-<r>/<job>/ (each fork's own output)
    figures/pk/                             <figure>.pdf / .png
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from lrev import studies

#: Contenders that are lookup strategies over another contender's index, not formats of their own.
INDEX_OF = {"GlobalPkMap": "default"}
#: Suffix of a contender that reads its format's index with seekCeil instead of seekExact (the engine's
#: PkContenders.SEEK_CEIL): the seed's second source of gain, measured alone.
SEEK_CEIL = "+seekCeil"
#: Suffix of a contender measured in JVMs that run G1, production's collector, instead of the parallel collector
#: of every other measurement (lrev.bridge.jvm_flags): the same lookups on the same index, another collector.
G1 = "@G1"
#: Suffix of a contender measured in JVMs of another JDK, its feature version after it (``@JDK17``), instead of the
#: default JDK of every other measurement (lrev.jdk.find_jdk): the same lookups on the same index, another JDK.
JDK = "@JDK"
#: A JVM variant's suffix: the same contender in JVMs that differ from every other measurement's.
_VARIANT = re.compile(r"(@G1|@JDK[1-9][0-9]*)$")
#: The index without an id field; subtracting it attributes bytes to the id field.
BASELINE = "baseline"
#: The contender every version runs and every ratio is taken against (lrev.pk.study.BASELINE).
BASELINE_CONTENDER = "default"
#: The default contender measured again in JVMs of its own: the A/A noise floor.
AA_SUFFIX = "-aa"
AA = "default" + AA_SUFFIX

#: What a lookup's rate depends on besides its contender and version, and what a footprint depends on.
CONDITION = ("corpus", "layout", "miss_rate", "threads")
FOOTPRINT_CONDITION = ("corpus", "layout")
LAYOUTS = ("multi", "merged")
#: A size ladder's corpus: ``seq-<n>``, the seed's sequential ids, n of them (see :func:`ladder_conditions`).
LADDER_PREFIX = "seq-"
#: The seed's own setting: sequential ids, several segments, every key present, one thread.
SEED_SETTING = {"corpus": "seq", "layout": "multi", "miss_rate": 0.0, "threads": 1}


def corpus_dir(root: Path, corpus: str) -> Path:
    return Path(root) / "corpora" / "pk" / corpus


def keys_file(root: Path, corpus: str, miss_rate: float) -> Path:
    return corpus_dir(root, corpus) / f"keys-miss{int(round(miss_rate * 100))}.tsv"


def index_dir(root: Path, version: str, corpus: str) -> Path:
    return Path(root) / "indexes" / "pk" / version / corpus


def index_path(root: Path, version: str, corpus: str, contender: str, layout: str) -> Path:
    return index_dir(root, version, corpus) / index_of(contender) / layout


def engine_name(contender: str) -> str:
    """The name the engine knows ``contender`` by: the collector and the JDK are the JVM's, not the engine's."""
    return _VARIANT.sub("", contender)


def jvm_variant(contender: str) -> bool:
    """Whether ``contender`` is another contender timed in JVMs of another collector or JDK."""
    return engine_name(contender) != contender


def collector(contender: str) -> str:
    """The collector (one of lrev.bridge.COLLECTORS) of ``contender``'s JVMs."""
    return "g1" if contender.endswith(G1) else "parallel"


def java(contender: str) -> int | None:
    """The JDK feature version of ``contender``'s JVMs; None: the default JDK."""
    found = re.search(JDK + r"([1-9][0-9]*)$", contender)
    return int(found.group(1)) if found else None


def index_of(contender: str) -> str:
    """The contender whose index ``contender`` reads: itself, unless it is a lookup strategy or a JVM variant."""
    name = engine_name(contender).removesuffix(SEEK_CEIL)
    return INDEX_OF.get(name, name)


def strategy(contender: str) -> bool:
    """Whether ``contender`` reads another contender's index (a lookup strategy, or the same lookups in other JVMs):
    it has no NRT reopen or plain-loop cross-check of its own."""
    return index_of(contender) != contender


def results_dir(root: Path, version: str) -> Path:
    return studies.results_dir(root, "pk", version)


def corpus_docs(pk: dict[str, Any], corpus: str) -> int:
    """Documents of a corpus: ``uuid_docs`` for uuid ids, ``docs`` for seq ids (the seed's setting) and for rand
    ids (compared with seq at the same size), n for a ladder's ``seq-<n>``."""
    if corpus.startswith(LADDER_PREFIX):
        return int(corpus.removeprefix(LADDER_PREFIX))
    return int(pk["uuid_docs"] if corpus == "uuid" else pk["docs"])


def corpus_kind(corpus: str) -> str:
    """The ids a corpus holds (the recipe's ``kind``): a ladder's corpus holds the seed's sequential ones."""
    return "seq" if re.fullmatch(rf"{LADDER_PREFIX}\d+", corpus) else corpus


def corpora(pk: dict[str, Any]) -> list[str]:
    return sorted({corpus for corpus, _ in indexed(pk)})


def ladder_conditions(pk: dict[str, Any]) -> list[dict[str, Any]]:
    """The size ladder's conditions: the seed's setting on ``seq-<n>`` for each of ``ladder.docs``; the seed
    setting's own corpus is the ladder's top rung."""
    seed = {k: SEED_SETTING[k] for k in ("layout", "miss_rate")}
    return [{"corpus": f"{LADDER_PREFIX}{n}", **seed, "threads": [SEED_SETTING["threads"]]}
            for n in pk["ladder"]["docs"]]


def conditions(pk: dict[str, Any]) -> list[dict[str, Any]]:
    """Every condition some series measures: the configured ones, then the ladder's."""
    return [*pk["conditions"], *ladder_conditions(pk)]


def on_ladder(pk: dict[str, Any], contender: str) -> bool:
    """Whether ``contender`` is measured on the ladder's corpora too (``ladder.contenders``)."""
    return contender in pk["ladder"]["contenders"]


def miss_rates(pk: dict[str, Any], corpus: str) -> list[float]:
    """Every corpus gets the keys files its conditions use, and always the no-miss file."""
    return sorted({0.0} | {float(c["miss_rate"]) for c in pk["conditions"] if c["corpus"] == corpus})


def corpus_settings(pk: dict[str, Any], corpus: str) -> dict[str, Any]:
    """The settings data-recipes/pk_corpus.py builds ``corpus`` with (lrev/recipe.py), all from the config."""
    return {"kind": corpus_kind(corpus), "docs": corpus_docs(pk, corpus), "seed": pk["seed"],
            "body_words": pk["body_words"], "batch_size": pk["batch_size"], "key_batches": pk["key_batches"],
            "miss_rates": miss_rates(pk, corpus)}


def family(pk: dict[str, Any], contender: str) -> str:
    return pk["families"].get(contender, contender)


def condition_label(cond: dict[str, Any]) -> str:
    """How a condition names its series in the engine's tables: corpus/layout/miss percent."""
    return f"{cond['corpus']}/{cond['layout']}/miss{int(round(float(cond['miss_rate']) * 100))}"


def condition_of(pk: dict[str, Any], label: str) -> dict[str, Any]:
    """The configured condition a series label names; an unknown label is an error, never a guess."""
    for cond in conditions(pk):
        if condition_label(cond) == label:
            return cond
    raise KeyError(f"series '{label}' matches no configured condition")


def seed_condition(pk: dict[str, Any]) -> dict[str, Any]:
    """The configured condition holding the seed's setting; it must be measured."""
    for cond in pk["conditions"]:
        if all(cond[k] == SEED_SETTING[k] for k in ("corpus", "layout", "miss_rate")) \
                and SEED_SETTING["threads"] in cond["threads"]:
            return cond
    raise KeyError(f"no configured condition measures the seed's setting {SEED_SETTING}")


def indexed(pk: dict[str, Any], ladder: bool = True) -> list[tuple[str, str]]:
    """(corpus, layout) pairs some condition reads, plus the multi-segment reopen corpus; without the ladder's
    when ``ladder`` is false."""
    conds = conditions(pk) if ladder else pk["conditions"]
    return sorted({(c["corpus"], c["layout"]) for c in conds} | {(pk["reopen_corpus"], "multi")})


def merged(pk: dict[str, Any], corpus: str) -> bool:
    """Whether ``corpus`` needs force-merged indexes too."""
    return (corpus, "merged") in indexed(pk)


def cold_warmup(pk: dict[str, Any], series: int) -> int:
    """Least warm-up iterations of ``series`` interleaved series in a cold JVM: ``seed_warmup_s`` of wall time."""
    return max(pk["min_warmup"], math.ceil(pk["seed_warmup_s"] * 1000 / (pk["iteration_ms"] * series)))


def timed_contenders(pk: dict[str, Any], version: str) -> list[str]:
    """The configured contenders of ``version`` plus the A/A contender."""
    return [*pk["contenders"][version], AA]


def indexed_contenders(pk: dict[str, Any], version: str, corpus: str | None = None) -> list[str]:
    """The configured contenders the indexer is asked for: a JVM variant reads its format's index; a ladder's
    corpus holds the indexes of the ladder's contenders only."""
    listed = [c for c in pk["contenders"][version] if not jvm_variant(c)]
    if corpus is not None and corpus.startswith(LADDER_PREFIX):
        read = {index_of(c) for c in pk["ladder"]["contenders"]}
        return [c for c in listed if c in read]
    return listed


def plain_contenders(pk: dict[str, Any], version: str) -> list[str]:
    """Contenders the plain loop can cross-check: index formats (its code is seekExact), and the A/A."""
    return [c for c in timed_contenders(pk, version) if not strategy(c)]


def for_version(pk: dict[str, Any], version: str) -> dict[str, Any]:
    """The settings one version's run reads: the other versions' contenders left out, so that editing them
    neither reruns this version's job nor discards its finished forks; the ladder's contenders of this version, and
    no ladder where they are the baseline alone."""
    mine = pk["contenders"][version]
    ladder = [c for c in pk["ladder"]["contenders"] if c in mine]
    # A version whose only ladder contender is the baseline has no ratio to fit on the ladder: no ladder corpora.
    docs = pk["ladder"]["docs"] if set(ladder) - {BASELINE_CONTENDER} else []
    return {**pk, "versions": [version], "contenders": {version: mine},
            "ladder": {"docs": docs, "contenders": ladder if docs else []}}
