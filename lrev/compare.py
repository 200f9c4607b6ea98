"""Compare two runs: how many verdicts agree, which flipped, which measured ratios moved beyond their confidence
intervals, and what differs in config, versions and environment.

    python -m lrev.compare A B [--out FILE.md]     (./run compare A B)

A and B are run folders (``runs/<scale>``, or any folder with ``results/<study>/claims.json``) or artifact archives
(:mod:`lrev.artifact`, checksums verified first). The report is Markdown, printed and written to ``--out``
(default: beside the runs, ``compare/<A>-vs-<B>.md`` in the folder that holds A, e.g. ``runs/compare/`` for
``runs/<scale>``). Nothing is written when an input is not a run or fails its checksums. Claims are named by id
and statement. Runs of different scales or config digests are compared all the same (one Lucene version against
another, say), but the report says so first and calls their differing verdicts differences, not flips. A and B
are *the same run* when they are one folder, or when their result manifests record the same result tables (every
table's sha256 equal: the same measurements, whether as a folder, a copy or its archive); the report says so first.
"""
from __future__ import annotations

import argparse
import sys
import tarfile
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lrev import artifact, stability
from lrev.io import atomic_path, read_json


class NotARun(ValueError):
    """An input that is neither a run folder nor a valid artifact; the message names it."""


@dataclass(frozen=True)
class Run:
    label: str
    source: Path  # the folder or archive given
    root: Path
    claims: dict[str, dict[str, Any]]  # by study
    manifests: dict[tuple[str, str], dict[str, Any]]  # by (study, version)
    lock: dict[str, Any] | None


def open_run(path: Path, stack: ExitStack) -> Run:
    """A run folder, or an archive unpacked into a temporary folder that ``stack`` removes."""
    if path.is_file() and tarfile.is_tarfile(path):
        root = artifact.extract(path, Path(stack.enter_context(tempfile.TemporaryDirectory())))
        label = path.name.removesuffix(".tar.gz")
    elif path.is_dir():
        root, label = path, "-".join(path.resolve().parts[-2:])
    else:
        raise NotARun(f"{path} is neither a run folder nor an artifact archive")
    claims = {p.parent.name: read_json(p) for p in sorted(root.glob("results/*/claims.json"))}
    if not claims:
        raise NotARun(f"{path} is not a run: no results/<study>/claims.json below it")
    manifests = {(study, version): read_json(root / "results" / study / version / "manifest.json")
                 for study, c in claims.items() for version in c["versions"]
                 if (root / "results" / study / version / "manifest.json").is_file()}
    lock = read_json(root / artifact.LOCK) if (root / artifact.LOCK).is_file() else None
    return Run(label, path, root, claims, manifests, lock)


def cells(run: Run) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Each verdict by (study, claim, version)."""
    return {(study, v["claim"], v["version"]): v for study, c in run.claims.items() for v in c["verdicts"]}


def parts(verdict: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A verdict's measured parts by label (numbered when a label repeats)."""
    out: dict[str, dict[str, Any]] = {}
    for part in verdict.get("parts", []):
        label, n = part.get("label", "?"), 2
        while label in out:
            label, n = f"{part.get('label', '?')} ({n})", n + 1
        out[label] = part
    return out


def flipped(a: Run, b: Run) -> list[dict[str, str]]:
    """The cells present in both runs whose verdict differs."""
    ca, cb = cells(a), cells(b)
    return [{"study": k[0], "claim": k[1], "version": k[2], "a": ca[k]["verdict"], "b": cb[k]["verdict"]}
            for k in sorted(ca.keys() & cb.keys()) if ca[k]["verdict"] != cb[k]["verdict"]]


def identity(run: Run) -> dict[str, str | None]:
    """The scale its result manifests recorded and the config digest of its stability record or its paper (None
    where the run did not record one)."""
    scales = sorted({m["scale"] for m in run.manifests.values() if m.get("scale")})
    record, numbers = run.root / stability.RECORD, run.root / "paper" / "numbers.json"
    digest = (read_json(record)["config_digest"] if record.is_file()
              else read_json(numbers)["meta"].get("config_digest") if numbers.is_file() else None)
    return {"scale": ", ".join(scales) or None, "config digest": digest}


def same_run(a: Run, b: Run) -> str | None:
    """Why A and B are the same run, or None: one folder, or the same measurements, every (study, version) of both
    with its result tables' sha256 recorded and equal (no two runs write a table of timings alike)."""
    if a.root.resolve() == b.root.resolve():
        return "one folder"
    checksums = [{k: m.get("sha256") for k, m in run.manifests.items()} for run in (a, b)]
    if checksums[0] and all(checksums[0].values()) and checksums[0] == checksums[1]:
        return "the same measurements: every result table's sha256 equal"
    return None


def statements(a: Run, b: Run) -> dict[tuple[str, str], str]:
    """Each claim's statement by (study, id), from A's registry where both have the claim, one line for a table."""
    return {(study, c["id"]): " ".join(c["statement"].split()).replace("|", "\\|")
            for run in (b, a) for study, claims in run.claims.items() for c in claims["claims"]}


def mismatches(a: Run, b: Run) -> list[str]:
    """What makes A and B runs of different experiments: a scale or config digest that both recorded, unequal."""
    ia, ib = identity(a), identity(b)
    return [f"{key}: A {ia[key]}, B {ib[key]}" for key in ia
            if ia[key] is not None and ib[key] is not None and ia[key] != ib[key]]


def agreement(a: Run, b: Run) -> list[dict[str, Any]]:
    """The cells judged in both runs, with both verdicts, whether they agree and whether holds and fails swapped
    (:func:`lrev.stability.agreement`)."""
    ca, cb = cells(a), cells(b)
    common = ca.keys() & cb.keys()
    return stability.agreement([{k: ca[k]["verdict"] for k in common}, {k: cb[k]["verdict"] for k in common}])


def agreement_by_study(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """:func:`lrev.stability.summary` of each study's cells."""
    return {study: stability.summary([r for r in rows if r["study"] == study])
            for study in sorted({r["study"] for r in rows})}


def only_in(a: Run, b: Run) -> list[tuple[str, str, str]]:
    return sorted(cells(a).keys() - cells(b).keys())


def moved(a: Run, b: Run) -> list[dict[str, Any]]:
    """Measured parts of the same cell whose confidence intervals do not overlap."""
    out = []
    ca, cb = cells(a), cells(b)
    for key in sorted(ca.keys() & cb.keys()):
        pa, pb = parts(ca[key]), parts(cb[key])
        for label in sorted(pa.keys() & pb.keys()):
            x, y = pa[label], pb[label]
            if any(x.get(f) is None or y.get(f) is None for f in ("value", "low", "high")):
                continue
            if x["high"] < y["low"] or y["high"] < x["low"]:
                out.append({"study": key[0], "claim": key[1], "version": key[2], "label": label,
                            "a": x["value"], "a_ci": (x["low"], x["high"]),
                            "b": y["value"], "b_ci": (y["low"], y["high"])})
    return out


def flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        return {k: v for key, sub in value.items() for k, v in flat(sub, f"{prefix}{key}.").items()}
    return {prefix.rstrip("."): value}


def differences(x: dict[str, Any], y: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    fx, fy = flat(x), flat(y)
    return [(k, fx.get(k, "(absent)"), fy.get(k, "(absent)")) for k in sorted(fx.keys() | fy.keys())
            if fx.get(k, "(absent)") != fy.get(k, "(absent)")]


def config_differences(a: Run, b: Run) -> list[tuple[str, Any, Any]]:
    """Per study, the parameters its manifests recorded (those of its first version), and its versions."""
    def settings(run: Run) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for study, c in run.claims.items():
            first = next((m for (s, _), m in run.manifests.items() if s == study), {})
            out[study] = {"versions": ", ".join(c["versions"]), "scale": first.get("scale"),
                          **first.get("parameters", {})}
        return out

    return differences(settings(a), settings(b))


def environment_differences(a: Run, b: Run) -> list[tuple[str, Any, Any]]:
    """JDK, flags, host, git and Lucene as the manifests recorded them; Python packages and jars when both are
    artifacts (their environment lock)."""
    def env(run: Run) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for (study, version), m in sorted(run.manifests.items()):
            out[f"{study}/{version}"] = {
                "lucene": m.get("lucene_version_reported"), "jdk": f"{m['jdk']['vendor']} {m['jdk']['version']}",
                "flags": " ".join(m["jdk"]["flags"]), "cpu": m["host"]["cpu_model"], "cores": m["host"]["cores"],
                "ram_bytes": m["host"]["ram_bytes"], "kernel": m["host"]["kernel"], "git": m["git"]["sha"]}
        if run.lock is not None and a.lock is not None and b.lock is not None:
            out["python packages"] = run.lock["python"]["packages"]
            out["jars"] = {j["path"]: j["sha256"] for j in run.lock["jars"]}
        return out

    return differences(env(a), env(b))


def fmt(x: Any) -> str:
    return f"{x:.3g}" if isinstance(x, float) else str(x)


def verdicts_table(cells: list[tuple[str, str, str, str, str]], said: dict[tuple[str, str], str]) -> list[str]:
    """Cells (study, claim, version, A's verdict, B's) as a Markdown table, each claim's statement beside its id."""
    return ["| study | claim | statement | version | A | B |", "|---|---|---|---|---|---|",
            *(f"| {study} | {claim} | {said[study, claim]} | {version} | {x} | {y} |"
              for study, claim, version, x, y in cells)]


def sameness(a: Run, b: Run) -> list[str]:
    """The report's opening: the same experiment or not, and what could not be checked."""
    differ, ia, ib = mismatches(a, b), identity(a), identity(b)
    same = same_run(a, b)
    lines = [f"**The same run** ({same})."] if same else []
    if differ:
        lines += [f"**Not the same experiment**: {'; '.join(differ)}. The verdicts below differ with the config, "
                  "not (only) with noise: none of their differences is a finding, and the agreement is no measure "
                  "of stability."]
    else:
        both = {k: ia[k] for k in ia if ia[k] is not None and ib[k] is not None}
        lines += ["Same experiment: " + ", ".join(f"{k} {v}" for k, v in both.items()) + " in both."] if both else []
    lines += [f"{side}'s {key} is not recorded, so it was not checked." for side, seen in (("A", ia), ("B", ib))
              for key, value in seen.items() if value is None]
    return lines


def agreement_lines(rows: list[dict[str, Any]], differ: bool, said: dict[tuple[str, str], str]) -> list[str]:
    if not rows:
        return ["## Agreement: the two runs share no cell", "",
                "No study judged a claim on a version in both runs, so no verdict can be compared; the cells each "
                "judged alone are listed below."]
    total = stability.summary(rows)
    flips = [r for r in rows if r["flip"]]
    lines = [f"## Agreement: {total['agreeing']} of {total['applicable']} applicable cells "
             f"({stability.percent(total['share'])}) have the same verdict", "",
             "| study | same verdict | applicable cells | share |", "|---|---|---|---|"]
    lines += [f"| {study} | {s['agreeing']} | {s['applicable']} | {stability.percent(s['share'])} |"
              for study, s in agreement_by_study(rows).items()]
    title = "holds ↔ fails differences, with the config" if differ else "holds ↔ fails flips"
    lines += ["", f"## {title} ({len(flips)})", ""]
    if flips:
        lines += verdicts_table([(r["study"], r["claim"], r["version"], *r["verdicts"]) for r in flips], said)
    else:
        lines.append("None.")
    return lines


def report(a: Run, b: Run) -> str:
    flips, shifts, differ, said = flipped(a, b), moved(a, b), bool(mismatches(a, b)), statements(a, b)
    lines = [f"# Compare `{a.label}` (A) with `{b.label}` (B)", "", f"A: {a.source}  ", f"B: {b.source}", "",
             *sameness(a, b), "", *agreement_lines(agreement(a, b), differ, said), "",
             f"## {'Verdicts that differ, with the config' if differ else 'Verdicts that flipped'} ({len(flips)})", ""]
    if flips:
        lines += verdicts_table([(r["study"], r["claim"], r["version"], r["a"], r["b"]) for r in flips], said)
    else:
        lines.append("None.")
    for side, x, y in (("A", a, b), ("B", b, a)):
        extra = only_in(x, y)
        if extra:
            lines += ["", f"Judged in {side} only: " + ", ".join(f"{s} {c} on {v}" for s, c, v in extra) + "."]
    lines += ["", f"## Measurements that moved beyond their confidence intervals ({len(shifts)})", ""]
    if shifts:
        lines += ["| study | claim | version | measured | A [CI] | B [CI] |", "|---|---|---|---|---|---|"]
        lines += [f"| {r['study']} | {r['claim']} | {r['version']} | {r['label']} | {fmt(r['a'])} "
                  f"[{fmt(r['a_ci'][0])}, {fmt(r['a_ci'][1])}] | {fmt(r['b'])} "
                  f"[{fmt(r['b_ci'][0])}, {fmt(r['b_ci'][1])}] |" for r in shifts]
    else:
        lines.append("None: every measurement of both runs' common cells has overlapping intervals.")
    for title, rows in (("Config and versions", config_differences(a, b)),
                        ("Environment", environment_differences(a, b))):
        lines += ["", f"## {title}: differences ({len(rows)})", ""]
        if rows:
            lines += ["| key | A | B |", "|---|---|---|"]
            lines += [f"| `{k}` | {fmt(x)} | {fmt(y)} |" for k, x, y in rows]
        else:
            lines.append("None.")
    return "\n".join(lines) + "\n"


def default_out(a: Run, b: Run) -> Path:
    """``compare/<A>-vs-<B>.md`` in the folder that holds A (a run folder or an archive): beside the runs compared,
    wherever they are, rather than in the clone the command runs from."""
    return a.source.resolve().parent / "compare" / f"{a.label}-vs-{b.label}.md"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--out", type=Path, help="the Markdown file (default compare/<A>-vs-<B>.md in the folder that "
                                             "holds A: beside the runs, not in this clone)")
    args = ap.parse_args(argv)
    with ExitStack() as stack:
        try:
            a, b = open_run(args.a, stack), open_run(args.b, stack)
        except (NotARun, artifact.ArtifactError) as exc:
            print(f"compare: {exc}", file=sys.stderr)
            return 2
        text = report(a, b)
        out = args.out or default_out(a, b)
    with atomic_path(out, ".md") as tmp:
        tmp.write_text(text)
    print(text, end="")
    print(f"compare: wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
