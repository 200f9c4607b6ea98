"""Find a JDK >= 21 (Lucene 10 needs Java 21), or one of a given feature version (a contender on an older JDK):
``JAVA_HOME``, then ``/usr/lib/jvm/*``, then ``java`` on PATH.

Standard library only: the ``run`` script calls it before the venv exists.
``python -m lrev.jdk`` prints the chosen JDK home, or explains how to get one and exits 1.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

MIN_JAVA = 21
JVM_DIR = Path("/usr/lib/jvm")

HOW_TO_GET_ONE = (
    f"No JDK >= {MIN_JAVA} found (looked at $JAVA_HOME, {JVM_DIR}/*, and `java` on PATH).\n"
    "Get one, then point JAVA_HOME at it or put its bin/ on PATH:\n"
    "  Debian/Ubuntu:  apt-get install openjdk-21-jdk     (or a Temurin 21/25 package)\n"
    "  conda:          conda env create -f environment.yml   (installs openjdk=21)\n"
    "  any OS:         download a JDK 21+ build (e.g. Eclipse Temurin) and set JAVA_HOME"
)


class JdkNotFound(RuntimeError):
    pass


def feature_version(home: Path) -> int | None:
    """The JDK's feature version (17, 21, 25 …) from its ``release`` file, else from ``java -version``."""
    release = home / "release"
    text = ""
    if release.is_file():
        match = re.search(r'^JAVA_VERSION="([^"]+)"', release.read_text(errors="replace"), re.M)
        text = match.group(1) if match else ""
    if not text and (home / "bin" / "java").is_file():
        out = subprocess.run([str(home / "bin" / "java"), "-version"], capture_output=True, text=True)
        match = re.search(r'version "([^"]+)"', out.stderr)
        text = match.group(1) if match else ""
    match = re.match(r"(?:1\.)?(\d+)", text)
    return int(match.group(1)) if match else None


def is_jdk(home: Path) -> bool:
    """A full JDK (Maven needs javac; JPype needs libjvm), not a bare runtime."""
    return (home / "bin" / "javac").is_file() and any(home.glob("lib/server/libjvm.*"))


def candidates() -> list[Path]:
    found: list[Path] = []
    if os.environ.get("JAVA_HOME"):
        found.append(Path(os.environ["JAVA_HOME"]))
    if JVM_DIR.is_dir():
        homes = sorted((p for p in JVM_DIR.iterdir() if p.is_dir() and not p.is_symlink()),
                       key=lambda p: feature_version(p) or 0, reverse=True)
        found.extend(homes)
    java = shutil.which("java")
    if java:
        found.append(Path(java).resolve().parent.parent)
    return found


def find_jdk(feature: int | None = None) -> Path:
    """The first JDK >= MIN_JAVA in lookup order, or with ``feature`` the first JDK of exactly that feature version
    (a study may time an old Lucene on an older JDK too); raises :class:`JdkNotFound` with instructions."""
    for home in candidates():
        version = feature_version(home)
        if version is not None and (version >= MIN_JAVA if feature is None else version == feature) and is_jdk(home):
            return home
    if feature is not None:
        raise JdkNotFound(f"No JDK {feature} found (looked at $JAVA_HOME, {JVM_DIR}/*, and `java` on PATH); a "
                          f"contender asks for one. On Debian/Ubuntu: apt-get install openjdk-{feature}-jdk-headless")
    raise JdkNotFound(HOW_TO_GET_ONE)


def libjvm(home: Path) -> Path:
    return next(home.glob("lib/server/libjvm.*"))


def has_module(home: Path, module: str) -> bool:
    """Whether the JDK ships ``module`` (e.g. jdk.incubator.vector, which Lucene 9+ uses if present)."""
    modules = home / "lib" / "modules"
    if not modules.is_file():
        return False
    out = subprocess.run([str(home / "bin" / "java"), "--list-modules"], capture_output=True, text=True)
    return any(line.split("@")[0] == module for line in out.stdout.splitlines())


def main() -> int:
    try:
        print(find_jdk())
    except JdkNotFound as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
