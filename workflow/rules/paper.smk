# Figures, claim verdicts and the paper, from the studies' result files only.
from lrev.pk.figures import FIGURES as PK_FIGURES

PK_VERSIONS = PK["versions"] if PK else []
PK_SUMMARY_CODE = ["lrev/pk/summary.py", "lrev/rounds.py", "lrev/stats.py"]


rule pk_figures:
    input:
        results=[f for v in PK_VERSIONS for f in pk_results(v)],
        code=["lrev/pk/figures.py", *PK_SUMMARY_CODE],
    output:
        [str(ROOT / f"figures/pk/{name}.{ext}") for name in PK_FIGURES for ext in ("pdf", "png")],
    params:
        versions=" ".join(PK_VERSIONS),
    shell:
        "{PY} -m lrev.pk.figures --results {ROOT}/results --versions {params.versions} --out {ROOT}/figures/pk"


rule claims:
    input:
        registry="claims/pk.yaml",
        results=[f for v in PK_VERSIONS for f in pk_results(v)],
        code=["lrev/claims.py", *PK_SUMMARY_CODE],
    output:
        ROOT / "results/claims.json",
    params:
        versions=" ".join(PK_VERSIONS),
    shell:
        "{PY} -m lrev.claims --registry {input.registry} --results {ROOT}/results --versions {params.versions}"
        " --out {output}"


rule paper:
    input:
        sources=sorted(str(p) for p in Path("paper").glob("*.typ")),
        code=["lrev/paper.py", *PK_SUMMARY_CODE],
        figures=rules.pk_figures.output,
        claims=ROOT / "results/claims.json",
    output:
        PAPER,
    params:
        versions=" ".join(PK_VERSIONS),
    shell:
        "{PY} -m lrev.paper --results {ROOT}/results --versions {params.versions} --figures {ROOT}/figures"
        " --claims {input.claims} --out {output}"
