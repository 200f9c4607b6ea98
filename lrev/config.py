"""The pipeline's one validated configuration.

``load`` merges the chosen scale's values under each study's own, validates the whole against
``config/schema.yaml`` and a few cross-key rules, and raises :class:`ConfigError` naming the
offending key or value. It runs before any work starts (the Snakefile calls it at parse time).
"""
from __future__ import annotations

import copy
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import yaml

REPO = Path(__file__).resolve().parent.parent
CONFIG_FILE = REPO / "config" / "config.yaml"
SCHEMA_FILE = REPO / "config" / "schema.yaml"
SHIMS_DIR = REPO / "engine" / "shims"

#: Keys every study needs after its scale block is merged in.
PK_REQUIRED = ("versions", "contenders", "conditions", "reopen_corpus", "batch_size", "body_words", "seed",
               "docs", "uuid_docs", "segment_docs", "key_batches", "rounds", "iteration_ms", "min_warmup", "max_warmup",
               "seed_warmup_s", "measure_iterations", "stable_cv", "plain", "reopen")


class ConfigError(ValueError):
    """A configuration problem, stated with the key path it concerns."""


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
    """Snakemake's ``--config key='{a: 1}'`` hands nested values over as strings; bring numbers back."""
    if isinstance(value, Mapping):
        return {k: numbers_restored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [numbers_restored(v) for v in value]
    if isinstance(value, str):
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
    def lucene_versions(self) -> list[str]:
        return list(self.raw["lucene_versions"])

    def study(self, name: str) -> dict[str, Any]:
        return self.studies[name]


def _validate(value: Any, schema: Mapping[str, Any], where: tuple[str, ...] = ()) -> None:
    # Imported here: jsonschema takes most of a second to import, and every measurement fork
    # imports this module without validating anything.
    import jsonschema

    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(value))
    if errors:
        err = jsonschema.exceptions.best_match(errors)
        raise ConfigError(f"config error at '{_key_path((*where, *err.absolute_path))}': {err.message}")


def _schema() -> dict[str, Any]:
    return yaml.safe_load(SCHEMA_FILE.read_text())


def validate_raw(raw: Mapping[str, Any]) -> None:
    _validate(raw, _schema())


def _check_versions(raw: Mapping[str, Any]) -> None:
    for version in raw["lucene_versions"]:
        shim = SHIMS_DIR / f"lucene{major(version)}"
        if not shim.is_dir():
            raise ConfigError(f"config error at 'lucene_versions': Lucene {version} has no engine shim "
                              f"({shim.relative_to(REPO)} is missing)")


def _resolve_pk(raw: Mapping[str, Any]) -> dict[str, Any]:
    scale_values = raw["scales"][raw["scale"]].get("pk", {})
    pk = merge(scale_values, raw.get("pk", {}))
    missing = [k for k in PK_REQUIRED if k not in pk]
    if missing:
        raise ConfigError(f"config error at 'pk': missing {', '.join(missing)} "
                          f"(neither pk nor scales.{raw['scale']}.pk sets it)")
    schema = _schema()
    scale_schema = {**schema["$defs"]["pk_scale"], "$defs": schema["$defs"]}
    _validate({k: v for k, v in pk.items() if k in scale_schema["properties"]}, scale_schema, ("pk",))
    from lrev.pk import contenders as pk_contenders

    known = raw["lucene_versions"]
    for version in pk["versions"]:
        if version not in known:
            raise ConfigError(f"config error at 'pk.versions': unknown Lucene version '{version}' "
                              f"(lucene_versions lists {', '.join(known)})")
        if version not in pk["contenders"]:
            raise ConfigError(f"config error at 'pk.contenders': no contenders listed for Lucene {version}")
        if "default" not in pk["contenders"][version]:
            raise ConfigError(f"config error at 'pk.contenders.{version}': 'default' must be a contender "
                              "(ratios are taken against it)")
        try:
            bad = pk_contenders.unknown(version, pk["contenders"][version])
        except KeyError as exc:
            raise ConfigError(f"config error at 'pk.contenders.{version}': {exc.args[0]}") from None
        if bad:
            raise ConfigError(f"config error at 'pk.contenders.{version}': unknown contender "
                              f"{', '.join(repr(b) for b in bad)} (Lucene {version} has: "
                              f"{', '.join(pk_contenders.available(version))})")
    if pk["min_warmup"] > pk["max_warmup"]:
        raise ConfigError("config error at 'pk.min_warmup': "
                          f"{pk['min_warmup']} exceeds max_warmup {pk['max_warmup']}")
    if pk["segment_docs"] > min(pk["docs"], pk["uuid_docs"]):
        raise ConfigError(f"config error at 'pk.segment_docs': {pk['segment_docs']} exceeds the smaller corpus "
                          f"({min(pk['docs'], pk['uuid_docs'])} docs)")
    return pk


def load(overrides: Mapping[str, Any] | None = None, base: Mapping[str, Any] | None = None) -> Config:
    """Validate ``base`` (default: config/config.yaml) merged with ``overrides``."""
    raw = merge(base if base is not None else yaml.safe_load(CONFIG_FILE.read_text()), overrides or {})
    raw = numbers_restored(raw)
    validate_raw(raw)
    _check_versions(raw)
    studies = {}
    if "pk" in raw["studies"]:
        studies["pk"] = _resolve_pk(raw)
    return Config(raw=raw, studies=studies)


def from_snakemake_args(argv: list[str]) -> Config:
    """The configuration a Snakemake command line selects: config.yaml, then each ``--configfile``,
    then ``--config`` values, merged in Snakemake's order and parsed by Snakemake's own parser."""
    import argparse

    from snakemake.cli import parse_config

    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--configfile", "--configfiles", nargs="+", default=[])
    ap.add_argument("--config", "-C", nargs="*", default=[])
    known, _ = ap.parse_known_args(argv)
    raw = yaml.safe_load(CONFIG_FILE.read_text())
    for path in known.configfile:
        raw = merge(raw, yaml.safe_load(Path(path).read_text()))
    return load(parse_config(known.config), base=raw)


def main(argv: list[str]) -> int:
    """``python -m lrev.config [snakemake options]``: validate and print the effective settings;
    with ``--paper-pdf`` first, print only the path of the paper PDF those options build."""
    paper_only = argv[:1] == ["--paper-pdf"]
    try:
        cfg = from_snakemake_args(argv[1:] if paper_only else argv)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if paper_only:
        print(f"paper: {(cfg.root / 'paper' / 'lucene-revisited.pdf').resolve()}")
    else:
        print(yaml.safe_dump({"scale": cfg.scale, "root": str(cfg.root), "studies": cfg.studies}, sort_keys=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
