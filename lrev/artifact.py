"""One archive of a run, to deposit and cite: ``lucene-revisited-<version>-<scale>.tar.gz``.

    python -m lrev.artifact [snakemake options]     (./run artifact; the options select the run, as for ./run paper)

It holds, below one folder of the archive's name: the paper (PDF and the numbers it was built from); the results
(every table, manifest, ``claims.json`` and executed notebook, without the forks' raw files); the figures; the
gallery, if built; the corpora's and indexes' manifests; ``environment.lock.json`` (the Python packages, the JDK
and every jar on each engine's classpath, with its sha256); and ``SHA256SUMS`` over all of it, in the format
``sha256sum -c`` reads. :func:`extract` unpacks an archive and verifies every checksum.
"""
from __future__ import annotations

import json
import re
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from lrev import cite, config, manifest, provenance
from lrev.io import atomic_path, read_json, sha256_file, write_json

SUMS = "SHA256SUMS"
SUM_LINE = re.compile(r"(?P<sha>[0-9a-f]{64})  (?P<path>\S.*)")
LOCK = "environment.lock.json"
#: The lock's Python packages as pip reads them: `pip install --require-hashes -r requirements.lock.txt`.
REQUIREMENTS = "requirements.lock.txt"
PAPER = Path("paper") / "lucene-revisited.pdf"
#: The repository's files that say what the archive is, how to cite it and under which licence ...
FRONT = ("README.md", "CITATION.cff", "LICENSE")
#: ... and the documents the README links to, so that its links work in the unpacked archive: this folder and the
#: config reference.
DOCS = "docs"
#: What of a run goes in, by glob below the run's root; files below a ``forks`` folder stay out.
INCLUDE = ("paper/*.pdf", "paper/*.json", "results/**/*.parquet", "results/**/manifest.json",
           "results/**/claims.json", "results/**/*.ipynb", "figures/**/*", "gallery/**/*",
           "corpora/**/manifest.json", "indexes/**/manifest.json")


class ArtifactError(ValueError):
    """A run that cannot be archived, or an archive that fails its checksums; the message says which file."""


def name(scale: str) -> str:
    return f"lucene-revisited-{cite.version()}-{scale}"


def front_files() -> list[Path]:
    """The repository's front files and its documents, relative to the repository."""
    docs = (p.relative_to(config.REPO) for p in (config.REPO / DOCS).rglob("*") if p.is_file())
    return [*map(Path, FRONT), config.REFERENCE_FILE.relative_to(config.REPO),
            *sorted(p for p in docs if "__pycache__" not in p.parts)]


def run_files(root: Path) -> list[Path]:
    """The run's files that go in, relative to ``root``, sorted."""
    found = {p.relative_to(root) for pattern in INCLUDE for p in root.glob(pattern) if p.is_file()}
    return sorted(p for p in found if "forks" not in p.parts)


def environment_lock(root: Path) -> dict[str, Any]:
    """Python and its packages, the JDK, and every jar each study's engine ran on (path, sha256, which study and
    version used it), as the run recorded them: the packages in its paper's numbers, the JDK and jars in its
    results' manifests. What a run did not record is taken from this machine at archive time, and the lock says
    which."""
    manifests = {f"{p.parent.parent.name}/{p.parent.name}": read_json(p)
                 for p in sorted(root.glob("results/*/*/manifest.json"))}
    numbers = root / PAPER.with_name("numbers.json")
    recorded = read_json(numbers)["meta"].get("environment") if numbers.is_file() else None
    jdks = {json.dumps(m["jdk"], sort_keys=True): m["jdk"] for m in manifests.values()}
    jars: dict[str, dict[str, Any]] = {}
    for used_by, m in manifests.items():
        # A results folder made before manifests recorded their classpath: the engine's jars as built now.
        for jar in m.get("classpath") or manifest.classpath(*used_by.split("/")):
            entry = jars.setdefault(jar["path"], {"file": jar["file"], "sha256": jar["sha256"], "used_by": []})
            entry["used_by"].append(used_by)
    late = sorted(k for k, m in manifests.items() if "classpath" not in m)
    return {
        "python": {**(recorded or provenance.environment()),
                   "recorded": "by the run" if recorded else "at archive time (the run recorded none)"},
        "jdk": {"runs": list(jdks.values()), "recorded": "by the run (its results' manifests)"},
        "jars": [{"path": k, **v} for k, v in sorted(jars.items())],
        "jars_recorded": "by the run" if not late else f"at archive time for {', '.join(late)} (not recorded)",
        "host": [json.loads(h) for h in sorted({json.dumps(m["host"], sort_keys=True) for m in manifests.values()})],
        "git": sorted({m["git"]["sha"] for m in manifests.values()}),
    }


def requirements(lock: dict[str, Any]) -> str:
    """The lock's Python packages for ``pip install --require-hashes -r``: those installed from an archive whose
    sha256 was recorded (not this project itself, installed from its own folder)."""
    return "".join(f"{name}=={p['version']} --hash=sha256:{p['sha256']}\n"
                   for name, p in sorted(lock["python"]["packages"].items()) if p.get("sha256"))


def build(root: Path, scale: str) -> Path:
    """Write ``<root>/<name>.tar.gz``; refuses, writing nothing, when the run has no paper yet."""
    if not (root / PAPER).is_file():
        raise ArtifactError(f"no paper in {root}: {root / PAPER} is missing; build it first with "
                            f"./run paper --config scale={scale}")
    files = run_files(root)
    top = name(scale)
    out = root / f"{top}.tar.gz"
    with tempfile.TemporaryDirectory() as tmp:
        lock, pins = Path(tmp) / LOCK, Path(tmp) / REQUIREMENTS
        content = environment_lock(root)
        write_json(lock, content)
        pins.write_text(requirements(content))
        sources = ({Path(top) / f: root / f for f in files} | {Path(top) / LOCK: lock, Path(top) / REQUIREMENTS: pins}
                   | {Path(top) / f: config.REPO / f for f in front_files()})
        sums = Path(tmp) / SUMS
        sums.write_text("".join(f"{sha256_file(src)}  {arc.relative_to(top)}\n"
                                for arc, src in sorted(sources.items())))
        sources[Path(top) / SUMS] = sums
        with atomic_path(out, ".tar.gz") as part, tarfile.open(part, "w:gz") as tar:
            for i, (arc, src) in enumerate(sorted(sources.items()), 1):
                tar.add(src, arcname=str(arc), recursive=False)
                if i % 200 == 0:
                    print(f"artifact: {i}/{len(sources)} files", file=sys.stderr)
    return out


def extract(archive: Path, dest: Path) -> Path:
    """Unpack ``archive`` into ``dest`` and verify ``SHA256SUMS``; returns the run folder inside. Raises
    :class:`ArtifactError` naming the archive and the first file that is missing, altered or not listed."""
    if not tarfile.is_tarfile(archive):
        raise ArtifactError(f"{archive} is not a tar archive")
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    tops = [p for p in dest.iterdir() if p.is_dir()]
    if len(tops) != 1 or not (tops[0] / SUMS).is_file():
        raise ArtifactError(f"{archive} holds no {SUMS} below a single top folder: not an artifact of this project")
    top = tops[0]
    listed = read_sums(archive, top / SUMS)
    for rel, expected in sorted(listed.items()):
        path = top / rel
        if not path.is_file():
            raise ArtifactError(f"{archive}: {rel} is listed in {SUMS} but missing")
        if sha256_file(path) != expected:
            raise ArtifactError(f"{archive}: {rel} fails its checksum in {SUMS}")
    present = sorted(str(p.relative_to(top)) for p in top.rglob("*") if p.is_file())
    unlisted = [p for p in present if p != SUMS and p not in listed]
    if unlisted:
        raise ArtifactError(f"{archive}: {unlisted[0]} is not listed in {SUMS}")
    return top


def read_sums(archive: Path, sums: Path) -> dict[str, str]:
    """{file: sha256} from ``sha256sum``'s format (64 hex digits, two spaces, the path); a line in any other
    form is an :class:`ArtifactError` naming it."""
    listed: dict[str, str] = {}
    for number, line in enumerate(sums.read_text(errors="replace").splitlines(), 1):
        match = SUM_LINE.fullmatch(line)
        if not match:
            raise ArtifactError(f"{archive}: {SUMS} line {number} is not '<sha256>  <path>': {line[:80]!r}")
        listed[match["path"]] = match["sha"]
    return listed


def main(argv: list[str]) -> int:
    try:
        cfg = config.from_snakemake_args(argv)
        out = build(config.REPO / cfg.root, cfg.scale)
    except (config.ConfigError, ArtifactError, FileNotFoundError) as exc:
        print(f"artifact: {exc}", file=sys.stderr)
        return 2
    print(f"artifact: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
