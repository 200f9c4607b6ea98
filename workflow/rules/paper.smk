# Figures, claim verdicts and the paper, from the studies' result files only.
from lrev.pk.figures import FIGURES as PK_FIGURES

PK_VERSIONS = PK["versions"] if PK else []


rule pk_figures:
    input:
        results=[f for v in PK_VERSIONS for f in pk_results(v)],
        code=["lrev/pk/figures.py", "lrev/pk/summary.py", "lrev/stats.py"],
    output:
        [str(ROOT / f"figures/pk/{name}.{ext}") for name in PK_FIGURES for ext in ("pdf", "png")],
    shell:
        "{PY} -m lrev.pk.figures --results {ROOT}/results --out {ROOT}/figures/pk"


rule claims:
    input:
        registry="claims/pk.yaml",
        results=[f for v in PK_VERSIONS for f in pk_results(v)],
        code=["lrev/claims.py", "lrev/stats.py"],
    output:
        ROOT / "results/claims.json",
    shell:
        "{PY} -m lrev.claims --registry {input.registry} --results {ROOT}/results --out {output}"


rule paper:
    input:
        sources=sorted(str(p) for p in Path("paper").glob("*.typ")),
        code="lrev/paper.py",
        figures=rules.pk_figures.output,
        claims=ROOT / "results/claims.json",
        crosschecks=[ROOT / f"results/pk/{v}/crosscheck.json" for v in PK_VERSIONS],
    output:
        PAPER,
    shell:
        "{PY} -m lrev.paper --results {ROOT}/results --figures {ROOT}/figures --claims {input.claims}"
        " --out {output}"
