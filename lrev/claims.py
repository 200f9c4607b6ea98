"""Judge the claims of a seed study against measured results.

The registry (claims/<study>.yaml) states each claim once, with the value the
seed reported; this module measures the same quantity on every Lucene version
and turns the 95% CI into a verdict:

- ``holds``: the whole CI lies on the claimed side (for ``approx`` claims:
  inside the tolerance band);
- ``fails``: the whole CI lies on the other side (outside the band);
- ``inconclusive``: the CI straddles the threshold or a band edge, or is
  undefined (fewer than two samples);
- ``n/a``: the claim cannot be re-run on that version (reason in the registry);
- ``answer``: for questions, the answer is measured rather than judged.

A multi-part claim holds only if every part holds and fails if any part fails.
A version that should be judged but lacks a contender or result is an error,
never a silent ``n/a``: an empty cell in the paper must be a decision.

CLI: ``python -m lrev.claims --registry claims/pk.yaml --results RESULTS --out OUT.json --versions V …``
"""
from __future__ import annotations

import argparse
import importlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import jsonschema
import pandas as pd
import yaml

from lrev import io, rounds, stats
from lrev.pk import summary as pk_summary

VERDICTS = ("holds", "fails", "inconclusive", "n/a", "answer")


@dataclass(frozen=True)
class Quantity:
    """Where a measured quantity lives. Samples of any two sides pair by round (:mod:`lrev.rounds`)."""

    table: str
    column: str
    condition: tuple[str, ...]
    converges: bool = False
    """Whether its samples carry a warm-up verdict (``stable``): unconverged forks make a part inconclusive."""


QUANTITIES: dict[str, Quantity] = {
    "lookups_per_s": Quantity("lookups", "lookups_per_s", pk_summary.CONDITION, converges=True),
    "heap_bytes_per_doc": Quantity("footprint", "heap_bytes_per_doc", pk_summary.FOOTPRINT_CONDITION),
    "ram_bytes_per_doc": Quantity("footprint", "ram_bytes_per_doc", pk_summary.FOOTPRINT_CONDITION),
    "disk_bytes_per_doc": Quantity("footprint", "disk_bytes_per_doc", pk_summary.FOOTPRINT_CONDITION),
    "reopen_ms": Quantity("reopen", "reopen_ms", ("corpus",)),
}

_SIDE = {
    "type": "object",
    "required": ["contender"],
    "additionalProperties": False,
    "properties": {
        "contender": {"oneOf": [{"type": "string"},
                                {"type": "object", "additionalProperties": {"type": "string"}}]},
        "where": {"type": "object"},
    },
}

_EXPECT = {
    "type": "object",
    "required": ["direction", "value"],
    "additionalProperties": False,
    "properties": {
        "direction": {"enum": ["greater", "less", "approx"]},
        "value": {"type": "number"},
        "band": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
        "noise_floor": {"type": "boolean"},
    },
    "if": {"properties": {"direction": {"const": "approx"}}},
    "then": {"required": ["band"]},
}

_PART = {
    "type": "object",
    "required": ["label", "quantity", "where", "versions"],
    "additionalProperties": False,
    "properties": {
        "label": {"type": "string"},
        "quantity": {"enum": list(QUANTITIES)},
        "statistic": {"enum": list(stats.STATISTICS)},
        "where": {"type": "object"},
        "a": _SIDE,
        "b": _SIDE,
        "expect": _EXPECT,
        "answer": {"enum": ["fastest"]},
        "exclude": {"type": "array", "items": {"type": "string"}},
        "versions": {"type": "array", "items": {"type": "string"}, "minItems": 1},
    },
    # A judged part compares a (optionally against b) with an expectation;
    # a question part names its answer and the baseline b.
    "oneOf": [{"required": ["a", "expect"], "not": {"required": ["answer"]}},
              {"required": ["answer", "b"], "not": {"required": ["expect"]}}],
}

REGISTRY_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["study", "versions", "claims"],
    "additionalProperties": False,
    "properties": {
        "study": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "versions": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "aliases": {"type": "object"},
        "claims": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["id", "seed", "kind", "statement", "quote", "claimed", "parts", "not_applicable"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string"},
                    "seed": {"type": "string"},
                    "kind": {"enum": ["claim", "question"]},
                    "statement": {"type": "string"},
                    "quote": {"type": "string"},
                    "claimed": {"type": "string"},
                    "parts": {"type": "array", "items": _PART, "minItems": 1},
                    "not_applicable": {"type": "object", "additionalProperties": {"type": "string"}},
                },
            },
        },
    },
}


class RegistryError(ValueError):
    """The registry is malformed or inconsistent."""


class MissingResultError(LookupError):
    """A version that a claim must be judged on lacks a needed contender or result."""


def _schema_error_message(registry: dict, error: jsonschema.ValidationError) -> str:
    path = list(error.absolute_path)
    where = "registry"
    if len(path) >= 2 and path[0] == "claims" and isinstance(path[1], int):
        claim = registry["claims"][path[1]]
        where = f"claim {claim.get('id', f'#{path[1]}') if isinstance(claim, dict) else path[1]}"
    location = "/".join(str(p) for p in path) or "(top)"
    return f"{where}: {error.message} (at {location})"


def validate(registry: dict) -> None:
    """Schema validation plus the cross-field rules a schema cannot state.

    Every claim must cover every registry version exactly once: judged by at
    least one part, or marked not applicable with a reason.
    """
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(REGISTRY_SCHEMA).iter_errors(registry))
    if error is not None:
        raise RegistryError(_schema_error_message(registry, error))
    versions = set(registry["versions"])
    seen: set[str] = set()
    for claim in registry["claims"]:
        cid = claim["id"]
        if cid in seen:
            raise RegistryError(f"claim {cid}: duplicate id")
        seen.add(cid)
        if (claim["kind"] == "question") != all("answer" in p for p in claim["parts"]):
            raise RegistryError(f"claim {cid}: a question has only answer parts, a claim only expect parts")
        judged = {v for part in claim["parts"] for v in part["versions"]}
        na = set(claim["not_applicable"])
        for label, bad in (("unknown version", (judged | na) - versions),
                           ("both judged and not applicable", judged & na),
                           ("neither judged nor marked not applicable", versions - judged - na)):
            if bad:
                raise RegistryError(f"claim {cid}: {label}: {', '.join(sorted(bad))}")


def load_registry(path: str | Path) -> dict:
    """Read and validate a YAML registry."""
    registry = yaml.safe_load(Path(path).read_text())
    validate(registry)
    return registry


def judge(est: stats.Estimate, direction: str, threshold: float, band: Sequence[float] | None = None) -> str:
    """Verdict of one measured estimate against its expectation (see module docstring)."""
    low, high = est.low, est.high
    if math.isnan(low) or math.isnan(high) or math.isnan(threshold):
        return "inconclusive"
    if direction == "approx":
        lo, hi = band
        if lo <= low and high <= hi:
            return "holds"
        return "fails" if high < lo or low > hi else "inconclusive"
    if direction == "greater":
        return "holds" if low > threshold else "fails" if high <= threshold else "inconclusive"
    if direction == "less":
        return "holds" if high < threshold else "fails" if low >= threshold else "inconclusive"
    raise ValueError(f"unknown direction {direction!r}")


def combine(verdicts: Sequence[str]) -> str:
    """Multi-part rule: fails if any part fails, holds only if all hold."""
    if "fails" in verdicts:
        return "fails"
    return "holds" if verdicts and all(v == "holds" for v in verdicts) else "inconclusive"


class _Judge:
    """Measures one claim's parts on one version of the loaded results."""

    def __init__(self, claim: dict, version: str, results: Any):
        self.claim, self.version, self.results = claim, version, results

    def fail(self, what: str) -> MissingResultError:
        return MissingResultError(f"claim {self.claim['id']}, version {self.version}: {what}")

    def contender(self, side: dict) -> str:
        name = side["contender"]
        if isinstance(name, dict):
            if self.version not in name:
                raise RegistryError(f"claim {self.claim['id']}: no contender named for version {self.version}")
            name = name[self.version]
        return name

    def condition(self, part: dict, side: dict | None) -> dict:
        quantity = QUANTITIES[part["quantity"]]
        where = {**part["where"], **((side or {}).get("where") or {})}
        if set(where) != set(quantity.condition):
            raise RegistryError(f"claim {self.claim['id']}, part '{part['label']}': condition {where} must set "
                                f"exactly {', '.join(quantity.condition)}")
        return where

    def samples(self, quantity: Quantity, contender: str, where: dict) -> pd.DataFrame:
        frame = getattr(self.results, quantity.table)
        if not (frame["version"] == self.version).any():
            raise self.fail(f"no {quantity.table} results for this version")
        rows = pk_summary.select(frame, version=self.version, contender=contender, **where)
        if rows.empty:
            raise self.fail(f"no {quantity.column} results for contender '{contender}' where {where}")
        return rows

    def ratio(self, quantity: Quantity, a: str, where_a: dict, b: str, where_b: dict,
              statistic: str | None) -> stats.Estimate:
        """Per-fork ``statistic`` (mean by default) of a ÷ of b, paired by round. A fork whose value is not
        positive (bytes attributed by a difference can be noise around zero) has no ratio: the estimate is
        undefined, so the part is inconclusive."""
        ra, rb = self.samples(quantity, a, where_a), self.samples(quantity, b, where_b)
        try:
            return rounds.ratio(ra, rb, quantity.column, statistic or "mean")
        except rounds.PairingError:
            raise
        except ValueError as exc:
            if "non-positive" not in str(exc):
                raise
            return stats.Estimate(math.nan, math.nan, math.nan, len(set(ra[rounds.UNIT])))

    def converged(self, quantity: Quantity, *sides: tuple[str, dict]) -> bool:
        return not quantity.converges or all(self.samples(quantity, c, w)["stable"].all() for c, w in sides)

    def noise_factor(self, quantity: Quantity, where: dict) -> float:
        aa = self.ratio(quantity, pk_summary.AA, where, pk_summary.BASELINE, where, None)
        return pk_summary.noise_floor(aa.low, aa.high)

    def part(self, part: dict) -> dict:
        if "answer" in part:
            return self.answer(part)
        quantity = QUANTITIES[part["quantity"]]
        a, where_a = self.contender(part["a"]), self.condition(part, part["a"])
        statistic = part.get("statistic")
        out: dict[str, Any] = {"label": part["label"], "quantity": part["quantity"], "a": a, "where_a": where_a}
        sides = [(a, where_a)]
        if "b" in part:
            b, where_b = self.contender(part["b"]), self.condition(part, part["b"])
            est, pairing = self.ratio(quantity, a, where_a, b, where_b, statistic), "paired by round"
            out.update(b=b, where_b=where_b)
            sides.append((b, where_b))
        else:
            est, pairing = rounds.location(self.samples(quantity, a, where_a), quantity.column,
                                           statistic or "mean"), "single"
        expect = part["expect"]
        threshold, floor = expect["value"], None
        if expect.get("noise_floor"):
            if pairing == "single" or not quantity.converges:
                raise RegistryError(f"claim {self.claim['id']}: noise_floor needs a ratio of lookups")
            floor = self.noise_factor(quantity, where_a)
            threshold = threshold * floor if expect["direction"] == "greater" else threshold / floor
            sides.append((pk_summary.AA, where_a))
        verdict = judge(est, expect["direction"], threshold, expect.get("band"))
        converged = self.converged(quantity, *sides)
        if not converged:
            verdict = "inconclusive"
        return {**out, "statistic": f"geomean of per-fork {statistic or 'mean'} ratios" if pairing != "single"
                else f"mean of per-fork {statistic or 'mean'}", "pairing": pairing, **est.to_dict(),
                "direction": expect["direction"], "claimed": expect["value"], "band": expect.get("band"),
                "noise_floor": floor, "threshold": threshold, "converged": converged, "verdict": verdict}

    def answer(self, part: dict) -> dict:
        """The fastest contender by paired ratio vs the baseline, and whether it beats the runner-up."""
        quantity = QUANTITIES[part["quantity"]]
        where, b = self.condition(part, None), self.contender(part["b"])
        rows = pk_summary.select(getattr(self.results, quantity.table), version=self.version, **where)
        candidates = sorted(set(rows["contender"]) - set(part.get("exclude", [])))
        if len(candidates) < 2:
            raise self.fail(f"fewer than two candidate contenders for '{part['label']}' where {where}")
        ranked = sorted(((self.ratio(quantity, c, where, b, where, None), c) for c in candidates),
                        key=lambda pair: pair[0].value, reverse=True)
        (best, name), (_, runner_up) = ranked[0], ranked[1]
        margin = self.ratio(quantity, name, where, runner_up, where, None)
        family = rows.loc[rows["contender"] == name, "family"].iloc[0]
        converged = self.converged(quantity, *((c, where) for c in candidates))
        return {"label": part["label"], "quantity": part["quantity"], "b": b, "where_a": where, "where_b": where,
                "statistic": "geomean of per-fork mean ratios", "pairing": "paired by round", **best.to_dict(),
                "converged": converged, "verdict": "answer",
                "answer": {"contender": name, "family": family, "runner_up": runner_up,
                           "margin_vs_runner_up": margin.to_dict(),
                           "separated": bool(margin.low > 1) if not math.isnan(margin.low) else False,
                           "ranking": [{"contender": c, **e.to_dict()} for e, c in ranked]}}

    def run(self) -> dict:
        parts = [self.part(p) for p in self.claim["parts"] if self.version in p["versions"]]
        row: dict[str, Any] = {"claim": self.claim["id"], "version": self.version, "kind": self.claim["kind"],
                               "parts": parts, "reason": None}
        if self.claim["kind"] == "question":
            row["verdict"] = "answer"
            row["answer"] = parts[0]["answer"]
        else:
            row["verdict"] = combine([p["verdict"] for p in parts])
        return row


def evaluate(registry: dict, results: Any) -> dict:
    """Verdicts for every claim × registry version."""
    verdicts = []
    for claim in registry["claims"]:
        for version in registry["versions"]:
            if version in claim["not_applicable"]:
                verdicts.append({"claim": claim["id"], "version": version, "kind": claim["kind"], "verdict": "n/a",
                                 "reason": claim["not_applicable"][version], "parts": []})
            else:
                verdicts.append(_Judge(claim, version, results).run())
    return {
        "study": registry["study"],
        "versions": registry["versions"],
        "claims": [{k: c[k] for k in ("id", "seed", "kind", "statement", "quote", "claimed")}
                   for c in registry["claims"]],
        "verdicts": verdicts,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registry", type=Path, required=True, help="claims/<study>.yaml")
    parser.add_argument("--results", type=Path, required=True, help="RESULTS root (holds <study>/<version>/)")
    parser.add_argument("--out", type=Path, required=True, help="verdicts JSON, written atomically")
    parser.add_argument("--versions", nargs="+", required=True, help="the configured versions to judge")
    args = parser.parse_args(argv)
    registry = load_registry(args.registry)
    unknown = sorted(set(args.versions) - set(registry["versions"]))
    if unknown:
        raise SystemExit(f"{args.registry}: no claims registered for version(s) {', '.join(unknown)}")
    registry = {**registry, "versions": [v for v in registry["versions"] if v in args.versions]}
    # Each study's results loader is found by convention: lrev.<study>.summary.load(results, versions).
    loader = importlib.import_module(f"lrev.{registry['study']}.summary").load
    result = evaluate(registry, loader(args.results, registry["versions"]))
    io.write_json(args.out, stats.json_safe({**result, "registry": str(args.registry)}))


if __name__ == "__main__":
    main()
