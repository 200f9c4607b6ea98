# The `join` study (seed 002): a synthetic corpus of parent/child blocks -> one Lucene index per version, and one
# real-Solr index per version that has Solr contenders -> one notebook run over every version (forks interleaved
# in rounds) -> figures; its claims and paper numbers come from the generic rules of paper.smk.

from lrev.join import layout as join_layout
from lrev.join.figures import FIGURES as JOIN_FIGURES
from lrev.join.results import FILES as JOIN_RESULTS

JOIN = CFG.study("join")
# What the run writes its results with (lrev/codeinputs.py), as pk.smk says.
JOIN_RUN_CODE = codeinputs.files("lrev/execute.py", "lrev/join/forks.py", "lrev/join/tasks.py")


def join_results(version):
    return [str(join_layout.results_dir(ROOT, version) / name) for name in JOIN_RESULTS]


def join_corpus(corpus=join_layout.CORPUS):
    return join_layout.corpus_dir(ROOT, corpus) / "manifest.json"


def join_index(version, system, corpus):
    return join_layout.index_dir(ROOT, version, system, corpus) / "manifest.json"


rule join_corpus:
    """Parents with their children, in blocks, and the query stream: synthetic, labelled so. ``share-<k>``: the
    unique-join-values sweep's, the same parents with k of them per join key; ``parents-<n>``: the size ladder's,
    n parents."""
    input:
        code=codeinputs.files("data-recipes/join_corpus.py"),
    output:
        docs=ROOT / "corpora/join/{corpus}/docs.tsv",
        queries=ROOT / "corpora/join/{corpus}/queries.tsv",
        manifest=ROOT / "corpora/join/{corpus}/manifest.json",
    wildcard_constraints:
        corpus=rf"{join_layout.CORPUS}|share-\d+|parents-\d+",
    params:
        settings=lambda w: json.dumps(join_layout.corpus_settings(JOIN, w.corpus)),
    benchmark:
        bench("join_corpus", "corpus"),
    shell:
        "{PY} data-recipes/join_corpus.py --settings {params.settings:q} --out {ROOT}/corpora/join/{wildcards.corpus}"


rule join_index:
    """A corpus in one segment: Lucene's index, or real Solr's (nested documents) on a version with Solr."""
    input:
        unpack(lambda w: engine_of("join", w.version)),
        corpus=lambda w: join_corpus(w.corpus.removeprefix("-") or join_layout.CORPUS),
        code=codeinputs.files("lrev/join/index.py"),
    output:
        ROOT / "indexes/join/{version}/{system}{corpus}/manifest.json",
    wildcard_constraints:
        system="lucene|solr",
        corpus=r"|-share-\d+|-parents-\d+",
    params:
        corpus=lambda w: w.corpus.removeprefix("-") or join_layout.CORPUS,
    threads: 1
    benchmark:
        bench("join_index", "version", "system", "corpus"),
    shell:
        "{PY} -m lrev.join.index --version {wildcards.version} --system {wildcards.system}"
        " --corpus {ROOT}/corpora/join/{params.corpus}"
        " --out {ROOT}/indexes/join/{wildcards.version}/{wildcards.system}{wildcards.corpus}"


rule join_run:
    """One papermill execution (lrev/execute.py) for every version: rounds of forks, each contender alone in its JVM."""
    input:
        code=JOIN_RUN_CODE,
        corpora=[join_corpus(c) for c in join_layout.corpora(JOIN)],
        indexes=[join_index(*i) for i in join_layout.indexes(JOIN)],
        engines=[engine_of("join", v)["jar"] for v in JOIN["versions"]],
    output:
        results=[f for v in JOIN["versions"] for f in join_results(v)],
        notebook=ROOT / "results/join/join.ipynb",
    params:
        # Its code, not the file: exploring it in JupyterLab (autosave) reruns nothing (lrev/notebook.py).
        notebook=NOTEBOOKS["join"],
        notebook_code=lrnotebook.code_digest(NOTEBOOKS["join"]),
        parameters=notebook_parameters(JOIN),
    # Timings own the whole machine at an exclusive scale: nothing else runs beside a measurement.
    threads: MEASURE_THREADS
    benchmark:
        bench("join_run"),
    shell:
        "{PY} -m lrev.execute {params.notebook} {output.notebook} --parameters {params.parameters:q}"


STUDY_OUTPUTS["join"] = {
    "versions": JOIN["versions"],
    "results": [f for v in JOIN["versions"] for f in join_results(v)],
    "figure_names": list(JOIN_FIGURES),
    "notebooks": {"join": ROOT / "results/join/join.ipynb"},
}
