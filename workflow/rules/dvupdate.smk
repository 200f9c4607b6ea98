# The `dvupdate` study (seed 003): the Wikipedia fragment -> real and fitted synthetic corpora -> one index per
# version and corpus -> one notebook run over every version (forks interleaved in rounds) -> figures; its claims
# and paper numbers come from the generic rules of paper.smk.
from lrev.dvupdate import layout as dvu_layout
from lrev.dvupdate.figures import FIGURES as DVU_FIGURES
from lrev.dvupdate.results import FILES as DVU_RESULTS

DVU = CFG.study("dvupdate")
# What the run writes its results with (lrev/codeinputs.py), as pk.smk says.
DVU_RUN_CODE = codeinputs.files("lrev/execute.py", "lrev/dvupdate/forks.py", "lrev/dvupdate/tasks.py")


def dvu_results(version):
    return [str(dvu_layout.results_dir(ROOT, version) / name) for name in DVU_RESULTS]


def dvu_corpus(corpus):
    return dvu_layout.corpus_dir(ROOT, corpus) / "manifest.json"


def dvu_index(version, corpus):
    return dvu_layout.index_dir(ROOT, version, corpus) / "manifest.json"


# It downloads (once, into the user's cache): on a cluster it runs on the submitting host, whose network the
# nodes may not have.
localrules: dvupdate_real


rule dvupdate_real:
    """Real Wikipedia text as line docs: the fragment gensim's wheel ships (fetched once into the user's cache),
    or the dump the config names."""
    input:
        code=codeinputs.files("data-recipes/dvupdate_wikipedia.py"),
    output:
        docs=ROOT / "corpora/dvupdate/real-{shape}/docs.tsv",
        queries=ROOT / "corpora/dvupdate/real-{shape}/queries.tsv",
        manifest=ROOT / "corpora/dvupdate/real-{shape}/manifest.json",
    wildcard_constraints:
        shape="big|medium",
    params:
        settings=lambda w: json.dumps(dvu_layout.real_settings(DVU, w.shape)),
    benchmark:
        bench("dvupdate_real", "shape"),
    shell:
        "{PY} data-recipes/dvupdate_wikipedia.py --settings {params.settings:q}"
        " --out {ROOT}/corpora/dvupdate/real-{wildcards.shape}"


rule dvupdate_synthetic:
    """A corpus of the configured size fitted on the real fragment's whole articles, labelled synthetic: a role's
    (big, medium) or a size ladder's (big-<n>, the big role's shape)."""
    input:
        code=codeinputs.files("data-recipes/dvupdate_synthetic.py"),
        fit=dvu_corpus("real-big"),
    output:
        docs=ROOT / "corpora/dvupdate/{corpus}/docs.tsv",
        queries=ROOT / "corpora/dvupdate/{corpus}/queries.tsv",
        manifest=ROOT / "corpora/dvupdate/{corpus}/manifest.json",
    wildcard_constraints:
        corpus=f"synthetic-(big|medium|{dvu_layout.LADDER_ROLE.pattern})",
    params:
        settings=lambda w: json.dumps(dvu_layout.synthetic_settings(DVU, w.corpus.removeprefix("synthetic-"))),
    benchmark:
        bench("dvupdate_synthetic", "corpus"),
    shell:
        "{PY} data-recipes/dvupdate_synthetic.py --fit {ROOT}/corpora/dvupdate/real-big --settings {params.settings:q}"
        " --out {ROOT}/corpora/dvupdate/{wildcards.corpus}"


rule dvupdate_index:
    input:
        unpack(lambda w: engine_of("dvupdate", w.version)),
        corpus=lambda w: dvu_corpus(w.corpus),
        code=codeinputs.files("lrev/dvupdate/index.py"),
    output:
        ROOT / "indexes/dvupdate/{version}/{corpus}/manifest.json",
    wildcard_constraints:
        corpus=f"(real|synthetic)-(big|medium|{dvu_layout.LADDER_ROLE.pattern})",
    params:
        id_format=lambda w: DVU["id_formats"][w.version],
        flush_docs=lambda w: dvu_layout.flush_docs(DVU, w.corpus.partition("-")[2]),
    threads: 1
    benchmark:
        bench("dvupdate_index", "version", "corpus"),
    shell:
        "{PY} -m lrev.dvupdate.index --version {wildcards.version} --corpus {ROOT}/corpora/dvupdate/{wildcards.corpus}"
        " --id-format {params.id_format} --flush-docs {params.flush_docs}"
        " --out {ROOT}/indexes/dvupdate/{wildcards.version}/{wildcards.corpus}"


rule dvupdate_run:
    """One papermill execution (lrev/execute.py) for every version: rounds of forks, each method alone in its JVM."""
    input:
        code=DVU_RUN_CODE,
        corpora=[dvu_corpus(c) for c in sorted(set(dvu_layout.corpora(DVU).values()))],
        indexes=[dvu_index(*i) for i in dvu_layout.indexes(DVU)],
        engines=[engine_of("dvupdate", v)["jar"] for v in DVU["versions"]],
    output:
        results=[f for v in DVU["versions"] for f in dvu_results(v)],
        notebook=ROOT / "results/dvupdate/dvupdate.ipynb",
    params:
        # Its code, not the file: exploring it in JupyterLab (autosave) reruns nothing (lrev/notebook.py).
        notebook=NOTEBOOKS["dvupdate"],
        notebook_code=lrnotebook.code_digest(NOTEBOOKS["dvupdate"]),
        parameters=notebook_parameters(DVU),
    # Timings own the whole machine at an exclusive scale: nothing else runs beside a measurement.
    threads: MEASURE_THREADS
    benchmark:
        bench("dvupdate_run"),
    shell:
        "{PY} -m lrev.execute {params.notebook} {output.notebook} --parameters {params.parameters:q}"


STUDY_OUTPUTS["dvupdate"] = {
    "versions": DVU["versions"],
    "results": [f for v in DVU["versions"] for f in dvu_results(v)],
    "figure_names": list(DVU_FIGURES),
    "notebooks": {"dvupdate": ROOT / "results/dvupdate/dvupdate.ipynb"},
}
