"""Build and test the Java engine (engine/) for one study and one Lucene version at a time, with Maven.

A build compiles the core (``engine/src``), the shim of the version's major (``engine/shims/lucene<N>``,
plus the folder it shares with other majors), and the study's own sources
(``engine/studies/<study>/``), into ``build/engine/<study>/<version>/``: ``engine.jar`` plus
``classpath.txt`` (the runtime classpath Maven resolved from Maven Central). A study is therefore
compiled only against the versions it runs on, and one study's code never enters another's jar.

    python -m lrev.engine build STUDY VERSION
    python -m lrev.engine test [STUDY …]      JUnit (core and study tests) on each version of each study, at
                                             any scale (default: every study of the checkout, configured or not)
"""
from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from lrev import jdk
from lrev.config import REPO, major, version_key

ENGINE = REPO / "engine"
BUILD = REPO / "build" / "engine"
#: Maven properties of a major (in its shim folder) or of a study (in its folder), passed as -D.
BUILD_PROPERTIES = "build.properties"


def build_dir(study: str, version: str) -> Path:
    return BUILD / study / version


def _properties(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if line.strip() and line[0] != "#")
    return {key.strip(): value.strip() for key, value in pairs}


def release(study: str, version: str) -> int:
    """The Java release the engine of ``study`` for Lucene ``version`` is compiled for: ``maven.compiler.release`` as
    :func:`mvn` passes it (the shim's, then the study's own properties), else engine/pom.xml's. A JDK older than that
    cannot load it."""
    own = {**shim_properties(version), **study_properties(study, version)}.get("maven.compiler.release")
    if own is None:
        own = re.search(r"<maven\.compiler\.release>(\d+)<", (ENGINE / "pom.xml").read_text()).group(1)
    return int(own)


def shim_properties(version: str) -> dict[str, str]:
    """The Maven properties that differ by major, from the shim's own ``build.properties``."""
    path = ENGINE / "shims" / f"lucene{major(version)}" / BUILD_PROPERTIES
    if not path.is_file():
        raise FileNotFoundError(f"Lucene {version} has no {path.relative_to(REPO)} (see docs/extending.md: adding a Lucene version)")
    return _properties(path)


def study_properties(study: str, version: str) -> dict[str, str]:
    """A study's own Maven properties for ``version``, from its ``build.properties`` if it has one. A key
    ending in a major, ``<key>.<major>``, applies to that major only, as ``<key>``: e.g.
    ``study.shim.shared.7=iterators`` (a folder of ``engine/studies/<study>/shims/`` that majors share).
    ``study.artifact`` names one more Lucene module, ``study.sources`` (comma-separated) more source folders of
    the study's own that the pom adds for that major."""
    path = ENGINE / "studies" / study / BUILD_PROPERTIES
    props = _properties(path) if path.is_file() else {}
    out = {k: v for k, v in props.items() if not k.rpartition(".")[2].isdigit()}
    suffix = f".{major(version)}"
    out.update({k.removesuffix(suffix): v for k, v in props.items() if k.endswith(suffix)})
    return out


def source_dirs(study: str, version: str) -> list[Path]:
    """Every folder whose files a build of ``study`` for ``version`` compiles (tests excluded)."""
    shims, own = ENGINE / "shims", ENGINE / "studies" / study
    shim = shim_properties(version)
    dirs = [ENGINE / "src" / "main", shims / f"lucene{major(version)}", shims / shim["lucene.shim.shared"],
            *(shims / shim[key] for key in ("lucene.shim.era", "lucene.shim.hits") if key in shim),
            own / "src" / "main", own / "shims" / f"lucene{major(version)}"]
    props = study_properties(study, version)
    shared = props.get("study.shim.shared")
    extra = [own / folder for folder in props.get("study.sources", "").split(",") if folder]
    return dirs + ([own / "shims" / shared] if shared else []) + extra


def sources(study: str, version: str) -> list[str]:
    """The files of :func:`source_dirs`, and the pom: a build's inputs, relative to the repository."""
    files = {p for d in source_dirs(study, version) if d.is_dir() for p in d.rglob("*") if p.is_file()}
    own = ENGINE / "studies" / study / BUILD_PROPERTIES
    files |= {own} if own.is_file() else set()
    return ["engine/pom.xml", *sorted(str(p.relative_to(REPO)) for p in files)]


def mvn(study: str, version: str, *goals: str) -> list[str]:
    props = {"engine.study": study, "lucene.version": version, "lucene.major": str(major(version)),
             **shim_properties(version), **study_properties(study, version)}
    return ["mvn", "-B", "-q", "-f", str(ENGINE / "pom.xml"), *(f"-D{k}={v}" for k, v in props.items()), *goals]


def maven_target(study: str, version: str) -> Path:
    return ENGINE / "target" / study / f"lucene-{version}"


#: Maven's own JVM (javac runs in it) when MAVEN_OPTS is unset: a build lasts seconds, so the C1 compiler
#: alone and the serial collector halve its CPU time (9.3 -> 4.1 s per clean engine build, measured here);
#: nothing is ever timed in it. JUnit runs in Surefire's forked JVM, which this does not touch.
MAVEN_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def maven_env() -> dict[str, str]:
    """Maven runs on the JDK >= 21 that lrev.jdk finds, whatever JAVA_HOME said before."""
    return {"MAVEN_OPTS": MAVEN_OPTS, **os.environ, "JAVA_HOME": str(jdk.find_jdk())}


def build(study: str, version: str) -> Path:
    """Package the engine of ``study`` for ``version`` and publish jar + classpath into its build folder."""
    subprocess.run(mvn(study, version, "-DskipTests", "package"), check=True, env=maven_env())
    return publish(study, version)


def publish(study: str, version: str) -> Path:
    """Copy the packaged jar and its classpath from Maven's target into the build folder, atomically."""
    target = maven_target(study, version)
    jar = next(target.glob("lucene-revisited-engine-*.jar"))
    out = build_dir(study, version)
    staging = out.with_name(f".{version}.staging")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    shutil.copy2(jar, staging / "engine.jar")
    shutil.copy2(target / "classpath.txt", staging / "classpath.txt")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return out


def classpath(study: str, version: str) -> list[str]:
    """engine.jar followed by its Lucene dependencies; raises if the engine was not built."""
    out = build_dir(study, version)
    if not (out / "engine.jar").is_file():
        raise FileNotFoundError(f"engine of {study} for Lucene {version} not built: {out / 'engine.jar'} is missing "
                                f"(run: python -m lrev.engine build {study} {version})")
    deps = (out / "classpath.txt").read_text().strip().split(":")
    return [str(out / "engine.jar"), *filter(None, deps)]


def test(plan: dict[str, list[str]], parallel: int = 2) -> int:
    """JUnit for each study on each of its versions, ``parallel`` builds at a time (each in its own Maven target),
    then the engine it tested published as :func:`build` would (the pipeline's engine jobs then find it built).
    Each build's output is printed whole when it ends; the first failure is reported and no new build starts."""
    def one(study: str, version: str) -> tuple[str, str, int, str]:
        done = subprocess.run([c for c in mvn(study, version, "package") if c != "-q"], env=maven_env(),
                              capture_output=True, text=True)
        if done.returncode == 0:
            publish(study, version)
        return study, version, done.returncode, done.stdout + done.stderr

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(parallel) as pool:
        runs = [pool.submit(one, study, version) for study, versions in plan.items() for version in versions]
        for run in concurrent.futures.as_completed(runs):
            study, version, code, output = run.result()
            tests = [line for line in output.splitlines() if "Tests run:" in line and " in " not in line]
            print(f"== JUnit: {study} on Lucene {version}: {'passed' if code == 0 else 'FAILED'}"
                  f"{' (' + tests[-1].split('] ', 1)[-1] + ')' if tests else ''}", flush=True)
            if code:
                print(output, flush=True)
                failed = failed or code
                for other in runs:
                    other.cancel()
    return failed


def main(argv: list[str]) -> int:
    from lrev.config import load

    if argv[:1] == ["build"] and len(argv) == 3:
        print(build(argv[1], argv[2]))
        return 0
    if argv[:1] == ["test"]:
        from lrev import studies as known

        names = argv[1:] or known.names()
        unknown = sorted(set(names) - set(known.names()))
        if unknown:
            print(f"not a study: {', '.join(unknown)} (studies: {', '.join(known.names())})", file=sys.stderr)
            return 2
        # Every version a study runs on at any scale: a scale may run fewer than its engine supports.
        scales = load({"studies": names}).raw["scales"]
        cfgs = [load({"studies": names, "scale": scale}) for scale in scales]
        return test({s: sorted({v for c in cfgs for v in c.study(s)["versions"]}, key=version_key) for s in names})
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
