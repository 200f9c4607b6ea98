"""Build and test the Java engine (engine/) for one Lucene version at a time with Maven.

Each version builds into its own folder, ``build/engine/<version>/``: ``engine.jar`` plus
``classpath.txt`` (the runtime classpath Maven resolved from Maven Central).
``python -m lrev.engine build VERSION`` builds one; ``python -m lrev.engine test [VERSION…]``
runs the JUnit suite against each configured version.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from lrev import jdk
from lrev.config import REPO, major

ENGINE = REPO / "engine"
BUILD = REPO / "build" / "engine"


def build_dir(version: str) -> Path:
    return BUILD / version


def mvn(version: str, *goals: str) -> list[str]:
    return ["mvn", "-B", "-q", "-f", str(ENGINE / "pom.xml"),
            f"-Dlucene.version={version}", f"-Dlucene.major={major(version)}", *goals]


def maven_target(version: str) -> Path:
    return ENGINE / "target" / f"lucene-{version}"


def maven_env() -> dict[str, str]:
    """Maven runs on the JDK >= 21 that lrev.jdk finds, whatever JAVA_HOME said before."""
    return {**os.environ, "JAVA_HOME": str(jdk.find_jdk())}


def build(version: str) -> Path:
    """Package the engine for ``version`` and publish jar + classpath into build/engine/<version>/."""
    subprocess.run(mvn(version, "-DskipTests", "package"), check=True, env=maven_env())
    target = maven_target(version)
    jar = next(target.glob("lucene-revisited-engine-*.jar"))
    out = build_dir(version)
    staging = out.with_name(f".{version}.staging")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    shutil.copy2(jar, staging / "engine.jar")
    shutil.copy2(target / "classpath.txt", staging / "classpath.txt")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return out


def classpath(version: str) -> list[str]:
    """engine.jar followed by its Lucene dependencies; raises if the engine was not built."""
    out = build_dir(version)
    if not (out / "engine.jar").is_file():
        raise FileNotFoundError(f"engine for Lucene {version} not built: {out / 'engine.jar'} is missing "
                                f"(run: python -m lrev.engine build {version})")
    deps = (out / "classpath.txt").read_text().strip().split(":")
    return [str(out / "engine.jar"), *filter(None, deps)]


def test(versions: list[str]) -> int:
    for version in versions:
        print(f"== JUnit on Lucene {version}", flush=True)
        code = subprocess.call([c for c in mvn(version, "test") if c != "-q"], env=maven_env())
        if code:
            return code
    return 0


def main(argv: list[str]) -> int:
    from lrev.config import load

    if argv[:1] == ["build"] and len(argv) == 2:
        print(build(argv[1]))
        return 0
    if argv[:1] == ["test"]:
        return test(argv[1:] or load().lucene_versions)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
