# The `dvjump` study (seeds 000/004): corpora -> one single-segment index per builder version, corpus and
# kind -> one notebook run over every version (forks interleaved in rounds) -> figures; its claims and paper
# numbers come from the generic rules of paper.smk.

from lrev.dvjump import figures as dvj_figures
from lrev.dvjump import layout as dvj_layout
from lrev.dvjump.results import FILES as DVJ_RESULTS

DVJ = CFG.study("dvjump")
# What the run writes its results with (lrev/codeinputs.py), as pk.smk says.
DVJ_RUN_CODE = codeinputs.files("lrev/execute.py", "lrev/dvjump/forks.py", "lrev/dvjump/tasks.py")
DVJ_FIGURES = dvj_figures.names(DVJ["workloads"])


def dvj_results(version):
    return [str(dvj_layout.results_dir(ROOT, version) / name) for name in DVJ_RESULTS]


def dvj_index(version, corpus, kind):
    return dvj_layout.index_dir(ROOT, version, corpus, kind) / "manifest.json"


rule dvjump_corpus:
    input:
        code=codeinputs.files("data-recipes/dvjump_corpus.py"),
    output:
        docs=ROOT / "corpora/dvjump/{corpus}/docs.tsv",
        queries=ROOT / "corpora/dvjump/{corpus}/queries.tsv",
        manifest=ROOT / "corpora/dvjump/{corpus}/manifest.json",
    wildcard_constraints:
        corpus=r"full|docs-\d+",
    params:
        settings=lambda w: json.dumps(dvj_layout.corpus_settings(DVJ, w.corpus)),
    benchmark:
        bench("dvjump_corpus", "corpus"),
    shell:
        "{PY} data-recipes/dvjump_corpus.py --settings {params.settings:q} --out {ROOT}/corpora/dvjump/{wildcards.corpus}"


rule dvjump_index:
    input:
        unpack(lambda w: engine_of("dvjump", w.version)),
        corpus=ROOT / "corpora/dvjump/{corpus}/manifest.json",
        source=lambda w: [dvj_index(dvj_layout.UPGRADED_FROM, w.corpus, "native")] if w.kind == "upgraded" else [],
        code=codeinputs.files("lrev/dvjump/index.py"),
    output:
        ROOT / "indexes/dvjump/{version}/{corpus}/{kind}/manifest.json",
    wildcard_constraints:
        corpus=r"full|docs-\d+",
        kind="native|dv70|dv80|upgraded",
    params:
        source=lambda w: (f"--source {dvj_index(dvj_layout.UPGRADED_FROM, w.corpus, 'native').parent}"
                          if w.kind == "upgraded" else ""),
    threads: 1
    benchmark:
        bench("dvjump_index", "version", "corpus", "kind"),
    shell:
        "{PY} -m lrev.dvjump.index --version {wildcards.version} --corpus {ROOT}/corpora/dvjump/{wildcards.corpus}"
        " --kind {wildcards.kind} {params.source} --out {ROOT}/indexes/dvjump/{wildcards.version}/{wildcards.corpus}"
        "/{wildcards.kind}"


rule dvjump_run:
    """One papermill execution (lrev/execute.py) for every version: rounds of forks, each contender alone in its JVM."""
    input:
        code=DVJ_RUN_CODE,
        indexes=[dvj_index(*i) for i in dvj_layout.indexes(DVJ)],
        engines=[engine_of("dvjump", v)["jar"] for v in DVJ["versions"]],
    output:
        results=[f for v in DVJ["versions"] for f in dvj_results(v)],
        notebook=ROOT / "results/dvjump/dvjump.ipynb",
    params:
        # Its code, not the file: exploring it in JupyterLab (autosave) reruns nothing (lrev/notebook.py).
        notebook=NOTEBOOKS["dvjump"],
        notebook_code=lrnotebook.code_digest(NOTEBOOKS["dvjump"]),
        # The effective settings, as the notebook's `overrides` (it validates them again).
        parameters=notebook_parameters(DVJ),
    # Timings own the whole machine at an exclusive scale: nothing else runs beside a measurement.
    threads: MEASURE_THREADS
    benchmark:
        bench("dvjump_run"),
    shell:
        "{PY} -m lrev.execute {params.notebook} {output.notebook} --parameters {params.parameters:q}"


STUDY_OUTPUTS["dvjump"] = {
    "versions": DVJ["versions"],
    "results": [f for v in DVJ["versions"] for f in dvj_results(v)],
    "figure_names": list(DVJ_FIGURES),
    "notebooks": {"dvjump": ROOT / "results/dvjump/dvjump.ipynb"},
}
