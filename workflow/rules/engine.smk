# The Java engine, built by Maven once per study and Lucene version: the core, that major's shim and the
# study's own sources (lrev/engine.py). A study's jobs depend on its own jar only.
from lrev import engine as lrengine


def engine_of(study, version):
    return {"jar": f"build/engine/{study}/{version}/engine.jar",
            "classpath": f"build/engine/{study}/{version}/classpath.txt"}

# Set-up, not measurement: on a cluster it runs once on the submitting host (profiles/slurm), not per job.
localrules: engine


rule engine:
    input:
        lambda w: lrengine.sources(w.study, w.version),
    output:
        **engine_of("{study}", "{version}"),
    wildcard_constraints:
        study=r"[a-z][a-z0-9_]*",
        version=r"\d+\.\d+\.\d+",
    log:
        "build/engine/logs/{study}-{version}.log",
    benchmark:
        bench("engine", "study", "version"),
    shell:
        "{PY} -m lrev.engine build {wildcards.study} {wildcards.version} > {log} 2>&1 || (tail -40 {log} >&2; exit 1)"
