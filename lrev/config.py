"""The pipeline's one validated configuration.

``load`` validates the generic keys against ``config/schema.yaml``; then, for each study in
``studies``, merges its block over its block in the chosen scale, validates the result against
``config/schema/<study>.yaml`` and the study's own cross-key rules (:mod:`lrev.studies`). It raises
:class:`ConfigError` naming the offending key or value, before any work starts (the Snakefile calls
it at parse time).
"""
from __future__ import annotations

import copy
import difflib
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from lrev.errors import ConfigError

REPO = Path(__file__).resolve().parent.parent
CONFIG_FILE = REPO / "config" / "config.yaml"
SCHEMA_FILE = REPO / "config" / "schema.yaml"
#: The config reference: every key's allowed values, values and meaning, rendered by lrev/configdoc.py.
REFERENCE_FILE = REPO / "config" / "README.md"
SHIMS_DIR = REPO / "engine" / "shims"
#: The keys of config/schema.yaml; every other top-level key is a study's block.
GENERIC_KEYS = ("scale", "outdir", "heap", "lucene_versions", "exclusive_scales", "studies", "scales", "budgets",
                "steady")


def _key_path(path: Any) -> str:
    return ".".join(str(p) for p in path) or "<top level>"


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Recursive dict merge: ``override`` wins, nested mappings merge key by key."""
    out = copy.deepcopy(dict(base))
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def numbers_restored(value: Any) -> Any:
    """Snakemake's ``--config key='{a: 1}'`` hands nested values over as strings; bring numbers and booleans back
    (``true``/``false`` only: YAML 1.1's ``on``, ``no`` and the like stay strings)."""
    if isinstance(value, Mapping):
        return {k: numbers_restored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [numbers_restored(v) for v in value]
    if isinstance(value, str):
        if value.lower() in ("true", "false"):
            return value.lower() == "true"
        try:
            parsed = yaml.safe_load(value)
        except yaml.YAMLError:
            return value
        if isinstance(parsed, (int, float)) and not isinstance(parsed, bool):
            return parsed
    return value


def major(version: str) -> int:
    return int(version.split(".")[0])


def version_key(version: str) -> tuple[int, ...]:
    """Numeric sort key: "10.5.1" sorts after "9.12.3"."""
    return tuple(int(part) for part in version.split("."))


def digest(resolved: Mapping[str, Any]) -> str:
    """sha256 of a resolved config (:meth:`Config.resolved`) as JSON with sorted keys, first 16 hex digits."""
    text = json.dumps(resolved, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Config:
    """The validated configuration plus each study's effective (scale-merged) settings."""

    raw: dict[str, Any]
    studies: dict[str, dict[str, Any]]

    @property
    def scale(self) -> str:
        return self.raw["scale"]

    @property
    def root(self) -> Path:
        """Everything generated for this scale lives below this folder."""
        return Path(self.raw["outdir"]) / self.scale

    @property
    def heap(self) -> str:
        """Every fork's JVM heap, in java's -Xmx syntax (see :mod:`lrev.bridge`)."""
        return self.raw["heap"]

    @property
    def exclusive(self) -> bool:
        """Whether this scale's measurement jobs run alone on the machine (``exclusive_scales``)."""
        return self.scale in self.raw["exclusive_scales"]

    @property
    def lucene_versions(self) -> list[str]:
        return list(self.raw["lucene_versions"])

    @property
    def steady(self) -> dict[str, Any]:
        """How a fork's series is read for a steady state (``steady``, :class:`lrev.steady.Policy`)."""
        return dict(self.raw["steady"])

    def resolved(self) -> dict[str, Any]:
        """What the run measures: the scale, whether measurements had the machine to themselves, the versions,
        how a series' steady state is read, and each study's effective settings (not where the outputs go)."""
        return {"scale": self.scale, "exclusive": self.exclusive, "lucene_versions": self.lucene_versions,
                "steady": self.steady, "studies": self.studies}

    @property
    def digest(self) -> str:
        """The :func:`digest` of :meth:`resolved`: the paper's title page shows it."""
        return digest(self.resolved())

    def budget(self, name: str) -> dict[str, Any] | None:
        """The time budget of study ``name`` at this scale (``budgets.<scale>.<name>``), or None."""
        return self.raw["budgets"].get(self.scale, {}).get(name)

    def study(self, name: str) -> dict[str, Any]:
        """The effective settings of a study in ``studies``."""
        if name not in self.studies:
            raise KeyError(f"study '{name}' is not in studies ({', '.join(self.studies)})")
        return self.studies[name]


def _validate(value: Any, schema: Mapping[str, Any], where: tuple[str, ...] = ()) -> None:
    # Imported here: jsonschema takes most of a second to import, and every measurement fork
    # imports this module without validating anything.
    import jsonschema

    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(value))
    if errors:
        err = jsonschema.exceptions.best_match(errors)
        raise ConfigError(f"config error at '{_key_path((*where, *err.absolute_path))}': {err.message}")


def shipped() -> dict[str, Any]:
    """config/config.yaml as written: no overrides, not validated."""
    return yaml.safe_load(CONFIG_FILE.read_text())


def schema() -> dict[str, Any]:
    """The schema of the generic keys."""
    return yaml.safe_load(SCHEMA_FILE.read_text())


def study_schema(name: str) -> dict[str, Any]:
    """The schema of study ``name``'s settings. Its contender names (``$defs.contender``, where it has one) are the
    study's registry, ``CONTENDERS`` of its plug-in: the schema file does not spell them again."""
    from lrev import studies

    loaded = yaml.safe_load(studies.schema_file(name).read_text())
    if "contender" in loaded.get("$defs", {}):
        loaded["$defs"]["contender"]["enum"] = list(studies.get(name).CONTENDERS)
    loaded.setdefault("properties", {})["budget_contenders"] = BUDGET_CONTENDERS
    return loaded


#: Every study's setting that the budget driver writes (lrev/budget.py), never set by hand: per round beyond the
#: scale's ``rounds``, the only contenders that round runs (those of cells still undecided, and their A/As).
BUDGET_CONTENDERS = {
    "type": "object", "propertyNames": {"type": "string", "pattern": "^[0-9]+$"},
    "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
    "description": "written by the budget driver: per added round, the only contenders it runs",
}


def validate_raw(raw: Mapping[str, Any]) -> None:
    _validate(raw, schema())


def _check_versions(raw: Mapping[str, Any]) -> None:
    for version in raw["lucene_versions"]:
        shim = SHIMS_DIR / f"lucene{major(version)}"
        if not shim.is_dir():
            raise ConfigError(f"config error at 'lucene_versions': Lucene {version} has no engine shim "
                              f"({shim.relative_to(REPO)} is missing)")


def _resolve(name: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """A study's effective settings: its block over its block in the chosen scale, validated."""
    from lrev import studies

    try:
        plugin = studies.get(name)
    except KeyError as exc:
        raise ConfigError(f"config error at 'studies': {exc.args[0]}") from None
    schema_file = studies.schema_file(name)
    if not schema_file.is_file():
        raise ConfigError(f"config error at 'studies': study '{name}' has no settings schema "
                          f"{schema_file.relative_to(REPO)}")
    settings = merge(raw["scales"][raw["scale"]].get(name, {}), raw.get(name, {}))
    _validate(settings, study_schema(name), (name,))
    if "versions" not in settings:
        raise ConfigError(f"config error at '{name}': no 'versions' (every study names the versions it runs on)")
    known = raw["lucene_versions"]
    for version in settings["versions"]:
        if version not in known:
            raise ConfigError(f"config error at '{name}.versions': unknown Lucene version '{version}' "
                              f"(lucene_versions lists {', '.join(known)})")
    plugin.check(settings)
    return settings


def load(overrides: Mapping[str, Any] | None = None, base: Mapping[str, Any] | None = None) -> Config:
    """Validate ``base`` (default: config/config.yaml) merged with ``overrides``."""
    raw = merge(base if base is not None else shipped(), overrides or {})
    raw = numbers_restored(raw)
    from lrev import studies

    # Before the schema: a misspelt key would otherwise be judged as a study's block ("not of type 'object'").
    _check_known(raw, [*GENERIC_KEYS, *studies.names()])
    validate_raw(raw)
    _check_versions(raw)
    unknown = [f"scales.{scale}.{key}" for scale, block in raw["scales"].items() for key in block
               if key not in studies.names()]
    if unknown:
        raise ConfigError(f"config error at '{unknown[0]}': not a setting and not a study "
                          f"(studies: {', '.join(studies.names())})")
    cfg = Config(raw=raw, studies={name: _resolve(name, raw) for name in raw["studies"]})
    _check_budgets(cfg)
    return cfg


def _check_known(raw: Mapping[str, Any], known: Sequence[str]) -> None:
    """Every top-level key is a setting or a study; an unknown one is named, with the nearest known key."""
    for key in raw:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1)
            hint = f"; did you mean '{near[0]}'?" if near else f" (settings and studies: {', '.join(known)})"
            raise ConfigError(f"config error at '{key}': unknown key '{key}'{hint}")


def _check_budgets(cfg: Config) -> None:
    """A budget names a study and allows at least the rounds the study runs anyway."""
    from lrev import studies

    for name, budget in cfg.raw["budgets"].get(cfg.scale, {}).items():
        key = f"budgets.{cfg.scale}.{name}"
        if name not in studies.names():
            raise ConfigError(f"config error at '{key}': not a study (studies: {', '.join(studies.names())})")
        if name not in cfg.studies:
            continue  # a study the run leaves out keeps its budget for runs that include it
        if budget["max_rounds"] < cfg.study(name)["rounds"]:
            raise ConfigError(f"config error at '{key}.max_rounds': {budget['max_rounds']} is fewer than the "
                              f"{cfg.study(name)['rounds']} rounds {name} runs anyway")


def snakemake_argv(argv: list[str]) -> list[str]:
    """``argv`` with its ``--config``/``-C`` groups joined into one, last, and likewise its ``--configfile`` groups:
    Snakemake keeps only the last group given, so ``--config scale=paper --config studies=[...]`` would silently
    run the default scale."""
    rest: list[str] = []
    groups: dict[str, list[str]] = {"--configfile": [], "--config": []}
    names = {"--config": "--config", "-C": "--config", "--configfile": "--configfile", "--configfiles": "--configfile"}
    group = None
    for arg in argv:
        name, _, value = arg.partition("=")
        if name in names and value:
            groups[names[name]].append(value)
            group = None
        elif arg in names:
            group = names[arg]
        elif group and not arg.startswith("-"):
            groups[group].append(arg)
        else:
            rest.append(arg)
            group = None
    return rest + [x for name, values in groups.items() if values for x in (name, *values)]


def from_snakemake_args(argv: list[str]) -> Config:
    """The configuration a Snakemake command line selects: config.yaml, then each ``--configfile``,
    then ``--config`` values, merged in Snakemake's order and parsed by Snakemake's own parser."""
    import argparse

    from snakemake.cli import parse_config

    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--configfile", "--configfiles", nargs="+", default=[])
    ap.add_argument("--config", "-C", nargs="*", default=[])
    known, _ = ap.parse_known_args(snakemake_argv(argv))
    raw = shipped()
    for path in known.configfile:
        if not Path(path).is_file():
            raise ConfigError(f"config error at '--configfile': {path} is not a file")
        raw = merge(raw, yaml.safe_load(Path(path).read_text()))
    return load(parse_config(known.config), base=raw)


def dry_run(argv: list[str]) -> bool:
    """Whether Snakemake, given ``argv``, would only dry-run (``-n``, ``--dry-run``, ``-np``: its own parser says)."""
    from snakemake import cli

    return bool(cli.parse_args(snakemake_argv(argv))[1].dryrun)


def paper_pdf(cfg: Config) -> Path:
    """The paper PDF of the run ``cfg`` selects (the Snakefile's ``PAPER``)."""
    return (cfg.root / "paper" / "lucene-revisited.pdf").resolve()


def paper_line(cfg: Config, argv: list[str]) -> str:
    """What ``./run paper`` and ``./run cluster`` print last: the paper's path, or, after a dry run, where it would
    be."""
    pdf = paper_pdf(cfg)
    return f"paper: dry run, nothing was built; the paper would be {pdf}" if dry_run(argv) else f"paper: {pdf}"


def main(argv: list[str]) -> int:
    """``python -m lrev.config [snakemake options]``: validate and print the effective settings; with
    ``--snakemake-argv`` first, validate, then print the options as Snakemake must get them (:func:`snakemake_argv`),
    NUL-separated: the run script's first step for every command that takes them, so that a bad key stops before
    Snakemake starts; with ``--paper-pdf`` first, print :func:`paper_line`. A config error exits 2."""
    mode = argv[0] if argv[:1] in (["--snakemake-argv"], ["--paper-pdf"]) else None
    options = argv[1:] if mode else argv
    try:
        cfg = from_snakemake_args(options)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if mode == "--snakemake-argv":
        sys.stdout.write("".join(f"{arg}\0" for arg in snakemake_argv(options)))
    elif mode == "--paper-pdf":
        print(paper_line(cfg, options))
    else:
        print(yaml.safe_dump({"scale": cfg.scale, "root": str(cfg.root), "studies": cfg.studies}, sort_keys=False))
    return 0


if __name__ == "__main__":
    # Through the imported module: run as __main__, this file would be a second module beside the lrev.config
    # that the studies' checks call.
    from lrev import config

    raise SystemExit(config.main(sys.argv[1:]))
