# The Java engine, built by Maven once per Lucene version: shared sources plus that major's shim.
from lrev.config import major

ENGINE_SHARED = sorted(str(p) for p in Path("engine/src/main").rglob("*") if p.is_file())


def engine_sources(wildcards):
    shim = Path(f"engine/shims/lucene{major(wildcards.version)}")
    return ["engine/pom.xml", *ENGINE_SHARED, *sorted(str(p) for p in shim.rglob("*") if p.is_file())]


def engine_of(version):
    return {"jar": f"build/engine/{version}/engine.jar", "classpath": f"build/engine/{version}/classpath.txt"}


rule engine:
    input:
        engine_sources,
    output:
        **engine_of("{version}"),
    wildcard_constraints:
        version=r"\d+\.\d+\.\d+",
    log:
        "build/engine/logs/{version}.log",
    shell:
        "{PY} -m lrev.engine build {wildcards.version} > {log} 2>&1 || (tail -40 {log} >&2; exit 1)"
