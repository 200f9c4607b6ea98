"""Which pk contender names each Lucene version accepts, without starting a JVM.

The names come from ``contenders.yaml`` beside this file, a registry generated from the engine's
``org.lucenerevisited.pk.PkContenders`` main (which prints ``PkContenders.available()``), so the
configuration can be checked before any work starts. Regenerate or verify it against the built engines:

    python -m lrev.pk.contenders --update [VERSION ...]   # rewrite the registry (default: every configured version)
    python -m lrev.pk.contenders --check [VERSION ...]    # exit 1, listing differences, if it is stale

Both need the engines built (``python -m lrev.engine build VERSION``).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

import yaml

from lrev.pk.layout import AA_SUFFIX, SEEK_CEIL, engine_name

REGISTRY = Path(__file__).resolve().with_name("contenders.yaml")
MAIN_CLASS = "org.lucenerevisited.pk.PkContenders"
GLOBAL_MAP = "GlobalPkMap"

REGENERATE = "python -m lrev.pk.contenders --update"

HEADER = f"""\
# Contender names each Lucene version accepts in pk.contenders: the lines that
# org.lucenerevisited.pk.PkContenders's main prints (PkContenders.available()), sorted.
# Generated; do not edit. Regenerate from the built engines with
#   {REGENERATE} [VERSION ...]
# and check it with `python -m lrev.pk.contenders --check`.
"""


@cache
def _load(path: Path) -> dict[str, list[str]]:
    data = yaml.safe_load(path.read_text()) or {}
    return {str(version): [str(name) for name in names] for version, names in data.items()}


def available(version: str) -> list[str]:
    """The contender names Lucene ``version`` accepts, sorted, as the registry records them."""
    registry = _load(REGISTRY)
    if version not in registry:
        raise KeyError(f"Lucene {version} is not in the contender registry {REGISTRY.name} "
                       f"(it lists {', '.join(registry) or 'no versions'}); "
                       f"regenerate it: {REGENERATE} {version}")
    return list(registry[version])


def unknown(version: str, names: Iterable[str]) -> list[str]:
    """The ``names`` (in their order) that Lucene ``version`` does not accept; any ``*-aa`` name counts
    as unknown, since the pipeline adds the A/A contender itself. A format's name with ``+seekCeil`` is
    accepted; the global map's is not (it seeks nothing). Any accepted name with ``@G1`` or ``@JDK<n>`` is too."""
    known = set(available(version))
    return [name for name in names if name.endswith(AA_SUFFIX) or _unknown_to_engine(known, engine_name(name))]


def _unknown_to_engine(known: set[str], name: str) -> bool:
    return (name.removesuffix(SEEK_CEIL) not in known
            or name.endswith(SEEK_CEIL) and name.removesuffix(SEEK_CEIL) == GLOBAL_MAP)


def engine_available(version: str, extra_classpath: Sequence[str] = ()) -> list[str]:
    """The lines the built engine's ``PkContenders`` main prints for Lucene ``version``, in its order.

    Starts a child ``java``. ``extra_classpath`` entries go before the engine (e.g. freshly compiled
    classes). Raises FileNotFoundError if that engine is not built, RuntimeError if it fails to run.
    """
    from lrev import engine, jdk

    classpath = [*extra_classpath, *engine.classpath("pk", version)]  # raises FileNotFoundError if not built
    java = jdk.find_jdk() / "bin" / "java"
    cmd = [str(java), "--enable-native-access=ALL-UNNAMED", "-cp", ":".join(classpath), MAIN_CLASS]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        detail = proc.stderr.strip() or proc.stdout.strip()
        hint = ""
        if "Main method not found" in detail or "main method" in detail.lower():
            hint = (f"\nthe engine for Lucene {version} predates PkContenders.main; rebuild it: "
                    f"python -m lrev.engine build pk {version}")
        raise RuntimeError(f"{MAIN_CLASS} failed on Lucene {version} (exit {proc.returncode}): {detail}{hint}")
    names = [line.strip() for line in proc.stdout.splitlines() if line.strip()]
    if not names:
        raise RuntimeError(f"{MAIN_CLASS} printed no contenders on Lucene {version}")
    return names


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in version.split("."))


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


def _scalar(text: str) -> str:
    """``text`` as a YAML flow scalar: bare when it reads back as itself, else double-quoted."""
    if _PLAIN.fullmatch(text) and yaml.safe_load(text) == text:
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(registry: dict[str, list[str]]) -> str:
    """The registry file's text: the header, then one ``"VERSION": [sorted names]`` line per version."""
    lines = [HEADER]
    for version in sorted(registry, key=_version_key):
        names = ", ".join(_scalar(n) for n in sorted(registry[version]))
        lines.append(f'"{version}": [{names}]\n')
    text = "".join(lines)
    assert yaml.safe_load(text) == {v: sorted(n) for v, n in registry.items()}, "registry does not round-trip"
    return text


def update(versions: Sequence[str], path: Path = REGISTRY,
           extra_classpath: Sequence[str] = ()) -> dict[str, list[str]]:
    """Rewrite the registry (atomically) with each of ``versions`` as its engine reports it; other
    versions already there are kept. Returns the new registry."""
    from lrev.io import atomic_path

    registry = dict(_load(path)) if path.is_file() else {}
    for version in versions:
        registry[version] = sorted(engine_available(version, extra_classpath))
    with atomic_path(path, ".yaml") as tmp:
        tmp.write_text(render(registry))
    _load.cache_clear()
    return registry


def differences(versions: Sequence[str], path: Path = REGISTRY,
                extra_classpath: Sequence[str] = ()) -> list[str]:
    """One line per version whose registry entry differs from what its engine reports."""
    registry = _load(path) if path.is_file() else {}
    out = []
    for version in versions:
        engine_names = set(engine_available(version, extra_classpath))
        if version not in registry:
            out.append(f"Lucene {version}: not in the registry (engine has {', '.join(sorted(engine_names))})")
            continue
        listed = set(registry[version])
        if listed != engine_names:
            parts = []
            if engine_names - listed:
                parts.append("engine also has " + ", ".join(sorted(engine_names - listed)))
            if listed - engine_names:
                parts.append("registry also has " + ", ".join(sorted(listed - engine_names)))
            out.append(f"Lucene {version}: " + "; ".join(parts))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lrev.pk.contenders", description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--update", action="store_true", help="rewrite the registry from the built engines")
    mode.add_argument("--check", action="store_true", help="exit 1 if the registry differs from the engines")
    ap.add_argument("versions", nargs="*", metavar="VERSION",
                    help="Lucene versions (default: the versions pk runs on)")
    ap.add_argument("--extra-classpath", default="",
                    help="colon-separated entries put before the engine jar (e.g. freshly compiled classes)")
    a = ap.parse_args(argv)
    if a.versions:
        versions = a.versions
    else:
        from lrev.config import load

        versions = load().study("pk")["versions"]
    extra = [p for p in a.extra_classpath.split(":") if p]
    try:
        if a.update:
            registry = update(versions, extra_classpath=extra)
            for version in versions:
                print(f"{version}: {', '.join(registry[version])}")
            print(f"wrote {REGISTRY}")
            return 0
        diffs = differences(versions, extra_classpath=extra)
    except (FileNotFoundError, RuntimeError) as exc:
        print(exc, file=sys.stderr)
        return 2
    for line in diffs:
        print(line, file=sys.stderr)
    if diffs:
        print(f"the registry is stale; regenerate it: {REGENERATE} {' '.join(a.versions)}".rstrip(), file=sys.stderr)
        return 1
    print(f"{REGISTRY.name} matches the engines for Lucene {', '.join(versions)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
