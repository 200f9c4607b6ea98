"""Stability of the verdicts: the main run and K - 1 reruns of its measurement jobs, and per cell how many agree.

    python -m lrev.stability [--runs K] [snakemake options]     (./run stability; K defaults to 2)

The main run (``./run paper`` with the same options) is the first of the K: its verdicts are the ones the paper
prints, so the question is whether they come out the same again, and its forks are not paid for twice. It is
brought up to date to its claims first (a no-op after ``./run paper``), and the reruns measure the rounds its
budget added.

Layout, below the main run folder ``<outdir>/<scale>/`` of the options given:

    stability/run-<k>/                   rerun k's outdir (k = 1 .. K - 1), so its run folder is run-<k>/<scale>/,
        <scale>/results/                 every study's results and results/<study>/claims.json
        <scale>/corpora, <scale>/indexes links to the main run folder's own
        <scale>/stability.json           the scale and config digest the run was made with (:data:`RECORD`)
    stability/agreement.json, .md        per cell the K verdicts (the main run's first), how many agree, and
                                         holds<->fails flips; an untestable cell's verdict is the one its size
                                         ladder draws at the seed's size, as the paper counts it (:func:`verdict`)

Corpora and indexes are deterministic and checksummed, so every run measures the same files: each file of the main
run's is checked against the sha256 its manifest recorded, and each rerun's dry run must list no corpus or index
job. Every run uses the same resolved config, the rounds the main run's budget added included (``./run paper``,
:mod:`lrev.budget`); a run folder made with another one is refused, never mixed in. A killed run resumes: Snakemake
keeps each run folder's finished jobs, and a measurement job its finished forks.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Mapping, Sequence

from lrev import budget, config, plan
from lrev.config import REPO, version_key
from lrev.io import ChecksumError, atomic_path, read_json, verify, write_json

#: Each stability run folder's record of the config it was made with.
RECORD = "stability.json"
#: What the pipeline may only read in a stability run: the main run folder's, linked in.
SHARED = ("corpora", "indexes")
#: The plan hooks' kinds of the rules that write :data:`SHARED` folders.
SHARED_KINDS = ("corpus", "index")
NA = "n/a"
#: A cell one run did not judge (its verdict in that run).
ABSENT = "(absent)"
#: The mark of a verdict at the seed's size, drawn from a size ladder.
EXTRAPOLATED = "extrapolated"

Cell = tuple[str, str, str]  # (study, claim, version)


class StabilityError(RuntimeError):
    """A stability run that cannot go on; the message names the option, folder or file."""


def stability_dir(main_root: Path) -> Path:
    return main_root / "stability"


def run_outdir(main_root: Path, k: int) -> Path:
    return stability_dir(main_root) / f"run-{k}"


def claims_targets(root: Path, cfg: config.Config) -> list[str]:
    return [str(root / "results" / study / "claims.json") for study in cfg.studies]


def shared_rules(cfg: config.Config) -> list[str]:
    """The rules that build corpora and indexes, as each study's plan hook names them."""
    return [rule for study in cfg.studies for rule, kind in plan.hook(study).RULES.items() if kind in SHARED_KINDS]


def with_outdir(argv: Sequence[str], outdir: Path) -> list[str]:
    """``argv`` with ``outdir`` set last, so that it wins over one the options set."""
    return [*argv, "--config", f"outdir={outdir}"]


def snakemake(argv: Sequence[str]) -> None:
    """Snakemake on ``argv`` (its --config groups joined), its progress printed as it goes."""
    cmd = [sys.executable, "-m", "snakemake", *config.snakemake_argv(list(argv))]
    print(f"stability: {' '.join(cmd[1:])}", file=sys.stderr, flush=True)
    if subprocess.run(cmd, cwd=REPO).returncode != 0:
        raise StabilityError(f"Snakemake failed (its log is above): {' '.join(cmd[1:])}")


def check_records(main_root: Path, cfg: config.Config) -> None:
    """Refuse when a run folder below ``stability/`` was made with another scale or config."""
    for record in sorted(stability_dir(main_root).glob(f"run-*/{cfg.scale}/{RECORD}")):
        made = read_json(record)
        if (made["scale"], made["config_digest"]) != (cfg.scale, cfg.digest):
            raise StabilityError(
                f"{record.parent} was made with scale {made['scale']} and config digest {made['config_digest']}, "
                f"these options give scale {cfg.scale} and config digest {cfg.digest}: runs of different configs "
                f"are not compared; remove {stability_dir(main_root)} or choose another outdir")


def main_argv(cfg: config.Config, argv: Sequence[str]) -> list[str]:
    """Snakemake's arguments that bring the main run up to date to its claims. Its targets are spelled as the
    pipeline spells its outputs (the config's outdir, relative or not): Snakemake matches paths as written, so the
    resolved path of a relative outdir names no rule's output."""
    return [*claims_targets(cfg.root, cfg), "--cores", "2", "--rerun-incomplete", *argv]


def ensure_main(cfg: config.Config, argv: Sequence[str]) -> None:
    """The main run, built or brought up to date through the pipeline to its claims (nothing to do after
    ``./run paper`` with the same options)."""
    snakemake(main_argv(cfg, argv))


def verify_shared(main_root: Path, cfg: config.Config) -> None:
    """Every corpus and index file of ``cfg``'s studies against the sha256 its manifest recorded; a mismatch raises
    :class:`ChecksumError` naming the file."""
    for folder in SHARED:
        for study in cfg.studies:
            for manifest in sorted((main_root / folder / study).rglob("manifest.json")):
                for name, sha in read_json(manifest)["sha256"].items():
                    verify(manifest, {name: sha}, tree=(manifest.parent / name).is_dir())


def link_shared(main_root: Path, root: Path) -> None:
    """``root``'s corpora and indexes as links to the main run folder's."""
    root.mkdir(parents=True, exist_ok=True)
    for folder in SHARED:
        link, target = root / folder, (main_root / folder).resolve()
        if link.is_symlink() and link.resolve() == target:
            continue
        if link.exists() or link.is_symlink():
            raise StabilityError(f"{link} exists and is not a link to {target}: remove it")
        link.symlink_to(target, target_is_directory=True)


def check_no_rebuild(argv: Sequence[str], rules: Sequence[str], root: Path) -> None:
    """Snakemake's dry run of a stability run must list no job that writes the (linked) corpora or indexes."""
    rebuilt = [f"{rule} ({', '.join(f'{k}={v}' for k, v in wildcards.items())})"
               for rule, wildcards in plan.dry_run_jobs(argv) if rule in rules]
    if rebuilt:
        raise StabilityError(f"Snakemake would rebuild corpora or indexes that {root} links from the main run "
                             f"folder: {'; '.join(rebuilt)}; nothing ran (bring the main run up to date first: "
                             f"./run paper with the same options)")


def run_once(cfg: config.Config, argv: Sequence[str], main_root: Path, k: int) -> Path:
    """Rerun ``k``, complete to its claims; returns its run folder."""
    outdir = run_outdir(main_root, k)
    root = outdir / cfg.scale
    link_shared(main_root, root)
    if not (root / RECORD).is_file():
        write_json(root / RECORD, {"scale": cfg.scale, "config_digest": cfg.digest, "main": str(main_root)})
    targets = claims_targets(root, cfg)
    check_no_rebuild([*targets, *with_outdir(argv, outdir)], shared_rules(cfg), root)
    snakemake([*targets, "--cores", "2", "--rerun-incomplete", *with_outdir(argv, outdir)])
    return root


def verdict(row: Mapping[str, Any]) -> str:
    """A claims row's verdict as the paper counts it: an untestable cell's is its verdict at the seed's size, marked
    extrapolated, and unchecked where its ladder's line was not checked; so that two runs agree only where a reader
    of either would draw the same conclusion."""
    grown = row.get("extrapolated") or {}
    if row["verdict"] != "untestable" or not grown.get("verdict"):
        return row["verdict"]
    return f"{grown['verdict']} ({EXTRAPOLATED}{'' if grown.get('checked') else ', unchecked'})"


def decided(word: str) -> str | None:
    """``holds`` or ``fails`` where ``word`` (:func:`verdict`) decides one, measured or by a checked line."""
    base, _, mark = word.partition(" (")
    return base if base in ("holds", "fails") and mark in ("", f"{EXTRAPOLATED})") else None


def verdicts(root: Path, studies: Sequence[str]) -> dict[Cell, str]:
    """Each verdict of a run folder (:func:`verdict`) by (study, claim, version)."""
    out: dict[Cell, str] = {}
    for study in studies:
        path = root / "results" / study / "claims.json"
        if not path.is_file():
            raise StabilityError(f"{path} is missing: that run did not finish (rerun the same command)")
        out.update({(study, v["claim"], v["version"]): verdict(v) for v in read_json(path)["verdicts"]})
    return out


def agreement(runs: Sequence[Mapping[Cell, str]]) -> list[dict[str, Any]]:
    """Per cell of any run, its verdict in each run, how many runs give the most common one, and whether one run
    says ``holds`` where another says ``fails``."""
    keys = sorted(set().union(*runs), key=lambda c: (c[0], c[1], version_key(c[2])))
    cells = []
    for study, claim, version in keys:
        seen = [run.get((study, claim, version), ABSENT) for run in runs]
        cells.append({"study": study, "claim": claim, "version": version, "verdicts": seen,
                      "agree": Counter(seen).most_common(1)[0][1], "of": len(seen),
                      "flip": {"holds", "fails"} <= {decided(v) for v in seen}})
    return cells


def applicable(cell: Mapping[str, Any]) -> bool:
    """A cell ``n/a`` in every run has no verdict to agree on."""
    return any(v != NA for v in cell["verdicts"])


def summary(cells: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Applicable cells, those whose runs all agree, their share (None when none applies) and the flips."""
    used = [c for c in cells if applicable(c)]
    agreeing = sum(c["agree"] == c["of"] for c in used)
    return {"applicable": len(used), "agreeing": agreeing, "share": agreeing / len(used) if used else None,
            "flips": sum(c["flip"] for c in used)}


def report(cfg: config.Config, roots: Sequence[Path]) -> dict[str, Any]:
    """agreement.json's content for the run folders ``roots``, the main run's first."""
    cells = agreement([verdicts(root, list(cfg.studies)) for root in roots])
    return {"scale": cfg.scale, "config_digest": cfg.digest, "runs": len(roots),
            "run_dirs": [str(root) for root in roots], "cells": cells, "summary": summary(cells)}


def run_name(run_dir: str, first: bool) -> str:
    """A run's column head: ``main`` for the main run, else its folder below ``stability/`` (``run-<k>``)."""
    return "main" if first else Path(run_dir).parent.name


def percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.0f}%"


def markdown(rep: Mapping[str, Any]) -> str:
    s = rep["summary"]
    names = [run_name(d, i == 0) for i, d in enumerate(rep["run_dirs"])]
    left_out = len(rep["cells"]) - s["applicable"]
    lines = [f"# Stability of the verdicts: scale {rep['scale']}, {rep['runs']} runs", "",
             f"Config digest `{rep['config_digest']}`; run folders: " + ", ".join(f"`{d}`" for d in rep["run_dirs"]),
             "", f"**{s['agreeing']} of {s['applicable']} applicable cells ({percent(s['share'])}) have the same "
             f"verdict in all {rep['runs']} runs; holds↔fails flips: {s['flips']}.** "
             f"{left_out} cells n/a in every run are left out.", "",
             "| study | claim | version | " + " | ".join(names) + " | agree | flip |",
             "|---|---|---|" + "---|" * len(names) + "---|---|"]
    lines += [f"| {c['study']} | {c['claim']} | {c['version']} | " + " | ".join(c["verdicts"])
              + f" | {c['agree']} of {c['of']} | {'**holds↔fails**' if c['flip'] else ''} |"
              for c in rep["cells"] if applicable(c)]
    return "\n".join(lines) + "\n"


def write_report(main_root: Path, rep: Mapping[str, Any]) -> str:
    text = markdown(rep)
    write_json(stability_dir(main_root) / "agreement.json", rep)
    with atomic_path(stability_dir(main_root) / "agreement.md", ".md") as tmp:
        tmp.write_text(text)
    return text


def parse(argv: Sequence[str]) -> tuple[int, list[str]]:
    """``--runs`` (at least 2) and the Snakemake options left."""
    # No abbreviations: what is not --runs itself is Snakemake's.
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    ap.add_argument("--runs", type=int, default=2,
                    help="how many runs to compare, the main run one of them (default 2: the main run and one rerun)")
    args, rest = ap.parse_known_args(list(argv))
    if args.runs < 2:
        raise StabilityError(f"--runs must be at least 2 (the main run and a rerun), not {args.runs}")
    return args.runs, rest


def with_main_rounds(argv: Sequence[str]) -> list[str]:
    """``argv`` plus the rounds the main run's budget added (:func:`lrev.budget.rounds_file`), if any: every
    stability run measures as many rounds as the main run, so that their verdicts are judged alike."""
    added = budget.rounds_file(config.from_snakemake_args(list(argv)))
    return [*argv, "--configfile", str(added)] if added.is_file() else list(argv)


def stability(argv: Sequence[str]) -> str:
    """Run it all; returns the Markdown report."""
    runs, rest = parse(argv)
    rest = with_main_rounds(rest)
    cfg = config.from_snakemake_args(rest)
    main_root = (REPO / cfg.root).resolve()
    check_records(main_root, cfg)
    ensure_main(cfg, rest)
    verify_shared(main_root, cfg)
    roots = [main_root, *(run_once(cfg, rest, main_root, k) for k in range(1, runs))]
    return write_report(main_root, report(cfg, roots))


def main(argv: list[str]) -> int:
    try:
        text = stability(argv)
    except (StabilityError, ChecksumError, config.ConfigError, plan.PlanError) as exc:
        print(f"stability: {exc}", file=sys.stderr)
        return 2
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
