"""A study is a plug-in, found by its name alone.

Study ``<s>`` is one folder per tier (docs/extending.md, "Adding a study"); the generic code (config, forks,
claims, paper) reaches it only through these conventions:

- ``lrev/<s>/``, the modules :data:`MODULES` lists, ``study.py`` among them, a module satisfying :class:`Study`;
- ``config/schema/<s>.yaml``, the JSON schema of its settings (its config block merged over its
  block in the chosen scale);
- fork tasks ``<s>.<task>``, the functions of ``lrev/<s>/tasks.py`` (:mod:`lrev.fork`);
- ``claims/<s>.yaml``, ``paper/<s>.typ``, ``workflow/rules/<s>.smk`` and ``engine/studies/<s>/``.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence

from lrev.errors import ConfigError

REPO = Path(__file__).resolve().parent.parent
SCHEMA_DIR = REPO / "config" / "schema"

#: The modules every study folder ``lrev/<s>/`` holds: each one's role, and the names the generic code or the
#: pipeline reaches in it (tests/test_studies.py checks every study against this). A study may hold more modules
#: of its own; the ones here are how the rest of the project finds its parts.
MODULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "study.py": ("the plug-in the generic config, claims and paper code calls (:class:`Study`)",
                 ("BASELINE", "AA", "QUANTITIES", "check", "load", "numbers")),
    "layout.py": ("where its files live below a scale's root, and what it runs", ("results_dir",)),
    "engine.py": ("typed Python calls into its Java engine, through JPype", ()),
    "index.py": ("builds one index, in a process and a JVM of its own (``python -m lrev.<s>.index``)", ()),
    "tasks.py": ("its fork tasks: ``<s>.<task>`` runs ``lrev.<s>.tasks.<task>`` in a JVM of its own (:mod:`lrev.fork`)",
                 ()),
    "forks.py": ("its forks as rounds of :class:`lrev.fork.Job`; the code and settings a resumed fork must match",
                 ("CODE", "verify_inputs", "fingerprint", "jobs", "run")),
    "results.py": ("turns its forks into tidy result files (:func:`lrev.manifest.write`)", ("TABLES", "FILES")),
    "summary.py": ("tidy tables of its results, which its figures and numbers read", ()),
    "figures.py": ("its figures: ``write_all(results, settings, out)``, which ``python -m lrev.figures <s>`` calls",
                   ("write_all",)),
    "numbers.py": ("every number and figure path its section of the paper prints", ()),
    "plan.py": ("its plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks",
                ("shape", "sizes", "docs", "forks", "configured")),
}


@dataclass(frozen=True)
class Quantity:
    """A measured quantity that claims can name: the column of a results table, the condition columns
    that select its cells, and whether its samples carry a warm-up verdict (``stable``), in which
    case a judgement on an unconverged fork is withheld (``unconverged``). A ``positive`` quantity is a size
    or rate that cannot reach 0: judged alone, not as a ratio, it is averaged geometrically with the t interval
    of its logs, so that three spread runs do not give it an interval below 0. A ``share`` is a part of a whole:
    judged alone, its interval is cut to [0, 1], which the share cannot leave."""

    table: str
    column: str
    condition: tuple[str, ...]
    converges: bool = False
    positive: bool = False
    share: bool = False


@dataclass(frozen=True)
class Pace:
    """Where a study that drives a load records the rate each fork reached (``achieved``) and the rate it
    was asked for (``asked``), per row of ``table``: a claim part with ``pace`` is judged only where every
    side kept that share of its asked rate."""

    table: str
    achieved: str
    asked: str


class Study(Protocol):
    """What ``lrev/<s>/study.py`` provides."""

    #: The contender ratios are taken against, and the A/A contender (the baseline again, in JVMs of
    #: its own) whose ratio to it is the noise floor. A study that runs more than one A/A also provides
    #: ``aa_of(contender) -> (A/A contender, the contender it repeats)``: the A/A whose noise a ratio
    #: involving ``contender`` carries.
    BASELINE: str
    AA: str
    #: Optional: its contender registry's names, where its settings schema has a ``$defs.contender`` to accept
    #: them (:func:`lrev.config.study_schema`).
    CONTENDERS: Sequence[str]
    #: The quantities its claims registry may name.
    QUANTITIES: Mapping[str, Quantity]
    #: Optional (``PACE = None`` or absent): the rate each fork reached against the rate it was asked for.
    PACE: Pace | None

    def check(self, settings: dict[str, Any]) -> None:
        """Cross-key rules the schema cannot state; raises ``lrev.config.ConfigError`` naming the key."""

    def load(self, results: Path, versions: Sequence[str]) -> Any:
        """The results of ``versions`` below ``results/<s>/``, checked against their manifests; one
        attribute per table (``QUANTITIES[…].table``), rows carrying ``version``, ``contender``, ``round``
        and ``fork``."""

    def numbers(self, results: Path, versions: Sequence[str], figures: Path, claims: dict[str, Any]) -> dict[str, Any]:
        """Every number and figure path its section of the paper uses, formatted."""


def schema_file(name: str) -> Path:
    return SCHEMA_DIR / f"{name}.yaml"


def names() -> list[str]:
    """Every study this checkout has (a settings schema and a plug-in module)."""
    return sorted(p.stem for p in SCHEMA_DIR.glob("*.yaml") if (REPO / "lrev" / p.stem / "study.py").is_file())


def get(name: str) -> Study:
    """The plug-in of study ``name``; a name without one is an error listing those there are."""
    if not (REPO / "lrev" / name / "study.py").is_file():
        raise KeyError(f"unknown study '{name}': no lrev/{name}/study.py (studies: {', '.join(names())})")
    return importlib.import_module(f"lrev.{name}.study")


def results_dir(root: Path, name: str, version: str) -> Path:
    """Where a study's result tables of one version live, below a scale's root."""
    return Path(root) / "results" / name / version


def registry_file(name: str) -> Path:
    """Study ``name``'s claims registry."""
    return REPO / "claims" / f"{name}.yaml"


def _registry(name: str) -> dict:
    import yaml

    return yaml.safe_load(registry_file(name).read_text())


def require_baseline(listed: Mapping[str, Sequence[str]], key: str, versions: Sequence[str], baseline: str,
                     noun: str = "contender") -> None:
    """``listed`` (the config's ``key``: version -> names) lists each of ``versions``, each with ``baseline``, which
    ratios are taken against; or a config error names the key."""
    for version in versions:
        if version not in listed:
            raise ConfigError(f"config error at '{key}': nothing listed for Lucene {version}")
        if baseline not in listed[version]:
            raise ConfigError(f"config error at '{key}.{version}': '{baseline}' must be a {noun} "
                              "(ratios are taken against it)")


def ladder_parts(name: str, versions: Sequence[str]) -> list[tuple[str, str, dict]]:
    """(claim id, version, part) of study ``name``'s parts judged at the seed's size from a size ladder (``grows``),
    on ``versions``."""
    from lrev import growth

    return growth.grown_parts(_registry(name), list(versions))


def require_rungs(name: str, versions: Sequence[str], sizes: Sequence[int], top: str) -> None:
    """A config error naming ``<name>.ladder.docs`` where the registry fits claims of study ``name`` on a size ladder
    on one of ``versions`` and the ladder has no rung below ``top``, the corpus at its top."""
    from lrev import growth

    grown = growth.grown(_registry(name), list(versions))
    if grown and not sizes:
        raise ConfigError(f"config error at '{name}.ladder.docs': claims {', '.join(grown)} are fitted on a size "
                          f"ladder, and {top} alone is one size")


def require_on_ladder(name: str, versions: Sequence[str], offered: Mapping[str, Sequence[str]],
                      listed: Sequence[str], key: str) -> None:
    """A config error naming ``key`` where a part of study ``name`` fitted on its size ladder compares a contender
    that its version offers (``offered[version]``) and the ladder's ``listed`` leaves out: that fit would have one
    size."""
    from lrev import growth

    missing = []
    for cid, version, part in ladder_parts(name, versions):
        for side in (part[s] for s in ("a", "b") if s in part):
            contender = growth.side_contender(side, version)
            if contender in offered[version] and contender not in listed and (cid, contender) not in missing:
                missing.append((cid, contender))
    if missing:
        raise ConfigError(f"config error at '{key}': " + "; ".join(
            f"{cid} is fitted on the ladder and compares {contender}" for cid, contender in missing)
            + f", not among {list(listed)}")
