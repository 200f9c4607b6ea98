# The `pk` study (seed 001): corpora -> one index set per version and corpus -> notebook per version
# -> figures; its claims and paper numbers come from the generic rules of paper.smk.

from lrev.pk import layout as pk_layout
from lrev.pk.figures import FIGURES as PK_FIGURES
from lrev.pk.results import FILES as PK_RESULTS

PK = CFG.study("pk")
# The Python each step runs, and all it imports, is an input too (lrev/codeinputs.py): editing it reruns the step.
# The run writes its results through forks.py and its forks run tasks.py; what the notebook imports only to draw
# is the figures rule's.
PK_RUN_CODE = codeinputs.files("lrev/execute.py", "lrev/pk/forks.py", "lrev/pk/tasks.py")


def pk_results(version):
    return [str(pk_layout.results_dir(ROOT, version) / name) for name in PK_RESULTS]


rule pk_corpus:
    input:
        code=codeinputs.files("data-recipes/pk_corpus.py"),
    output:
        docs=ROOT / "corpora/pk/{corpus}/docs.tsv",
        manifest=ROOT / "corpora/pk/{corpus}/manifest.json",
    wildcard_constraints:
        corpus="seq|rand|uuid|seq-[0-9]+",
    # Everything the recipe reads is this one block, a param: a changed value reruns it (Snakemake's params trigger).
    params:
        settings=lambda w: json.dumps(pk_layout.corpus_settings(PK, w.corpus)),
    benchmark:
        bench("pk_corpus", "corpus"),
    shell:
        "{PY} data-recipes/pk_corpus.py --settings {params.settings:q} --out {ROOT}/corpora/pk/{wildcards.corpus}"


rule pk_index:
    input:
        unpack(lambda w: engine_of("pk", w.version)),
        corpus=ROOT / "corpora/pk/{corpus}/manifest.json",
        code=codeinputs.files("lrev/pk/index.py"),
    output:
        ROOT / "indexes/pk/{version}/{corpus}/manifest.json",
    wildcard_constraints:
        corpus="seq|rand|uuid|seq-[0-9]+",
    params:
        segment_docs=PK["segment_docs"],
        contenders=lambda w: " ".join(pk_layout.indexed_contenders(PK, w.version, w.corpus)),
        merged=lambda w: "--merged" if pk_layout.merged(PK, w.corpus) else "",
    threads: 1
    benchmark:
        bench("pk_index", "version", "corpus"),
    shell:
        "{PY} -m lrev.pk.index --version {wildcards.version} --corpus {ROOT}/corpora/pk/{wildcards.corpus}"
        " --out {ROOT}/indexes/pk/{wildcards.version}/{wildcards.corpus}"
        " --segment-docs {params.segment_docs} --contenders {params.contenders} {params.merged}"


rule pk_run:
    """One papermill execution (lrev/execute.py) per Lucene version: rounds of forks, each contender alone in its JVM."""
    input:
        code=PK_RUN_CODE,
        indexes=lambda w: [ROOT / f"indexes/pk/{w.version}/{c}/manifest.json"
                           for c in pk_layout.corpora(pk_layout.for_version(PK, w.version))],
    output:
        results=[str(ROOT / "results/pk/{version}" / name) for name in PK_RESULTS],
        notebook=ROOT / "results/pk/{version}/pk.ipynb",
    params:
        # Its code, not the file: exploring it in JupyterLab (autosave) reruns nothing (lrev/notebook.py).
        notebook=NOTEBOOKS["pk"],
        notebook_code=lrnotebook.code_digest(NOTEBOOKS["pk"]),
        # The effective settings this version's run reads, as the notebook's `overrides` (it validates them again).
        parameters=lambda w: notebook_parameters(pk_layout.for_version(PK, w.version), version=w.version),
    # Timings own the whole machine at an exclusive scale: nothing else runs beside a measurement.
    threads: MEASURE_THREADS
    benchmark:
        bench("pk_run", "version"),
    shell:
        "{PY} -m lrev.execute {params.notebook} {output.notebook} --parameters {params.parameters:q}"


STUDY_OUTPUTS["pk"] = {
    "versions": PK["versions"],
    "results": [f for v in PK["versions"] for f in pk_results(v)],
    "figure_names": list(PK_FIGURES),
    "notebooks": {f"pk-{v}": ROOT / f"results/pk/{v}/pk.ipynb" for v in PK["versions"]},
}
