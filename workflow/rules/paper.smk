# Claim verdicts, the paper's numbers and the paper, from the studies' result files only. Each study's rule
# file registers, before this file is read:
#   STUDY_OUTPUTS[<study>] = {"versions": [...], "results": [result files], "figures": [figure files],
#                             "code": [the study's Python that reads its results],
#                             "notebooks": {page name: executed notebook} (the gallery, gallery.smk)}
STUDY_NAMES = "|".join(CFG.studies)
CLAIMS_CODE = ["lrev/claims.py", "lrev/studies.py", "lrev/rounds.py", "lrev/stats.py", "lrev/tables.py",
               "lrev/manifest.py"]


def study_outputs(key):
    return lambda w: STUDY_OUTPUTS[w.study][key]


rule claims:
    input:
        registry="claims/{study}.yaml",
        results=study_outputs("results"),
        code=lambda w: [*CLAIMS_CODE, *STUDY_OUTPUTS[w.study]["code"]],
    output:
        ROOT / "results/{study}/claims.json",
    wildcard_constraints:
        study=STUDY_NAMES,
    params:
        versions=lambda w: " ".join(STUDY_OUTPUTS[w.study]["versions"]),
    shell:
        "{PY} -m lrev.claims --registry {input.registry} --results {ROOT}/results --versions {params.versions}"
        " --out {output}"


rule study_numbers:
    input:
        claims=ROOT / "results/{study}/claims.json",
        results=study_outputs("results"),
        figures=study_outputs("figures"),
        code=lambda w: ["lrev/paper.py", "lrev/manifest.py", *STUDY_OUTPUTS[w.study]["code"]],
    output:
        ROOT / "paper/{study}.json",
    wildcard_constraints:
        study=STUDY_NAMES,
    params:
        versions=lambda w: " ".join(STUDY_OUTPUTS[w.study]["versions"]),
    shell:
        "{PY} -m lrev.paper study {wildcards.study} --results {ROOT}/results --versions {params.versions}"
        " --figures {ROOT}/figures/{wildcards.study} --claims {input.claims} --out {output}"


rule paper:
    input:
        numbers=[ROOT / f"paper/{s}.json" for s in CFG.studies],
        sources=["paper/lucene-revisited.typ", "paper/lib.typ", *(f"paper/{s}.typ" for s in CFG.studies)],
        code=["lrev/paper.py", "lrev/cite.py"],
        citation=["CITATION.cff", "pyproject.toml"],
    output:
        PAPER,
    params:
        studies=" ".join(f"--study {s} {ROOT}/paper/{s}.json" for s in CFG.studies),
        digest=CFG.digest,
        shared="" if CFG.exclusive else "--shared",
    shell:
        "{PY} -m lrev.paper compile --scale {CFG.scale} {params.shared} --config-digest {params.digest}"
        " {params.studies}"
        " --out {output}"
