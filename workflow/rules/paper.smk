# Claim verdicts, the paper's numbers and the paper, from the studies' result files only. Each study's rule
# file registers, before this file is read:
#   STUDY_OUTPUTS[<study>] = {"versions": [...], "results": [result files], "figures": [figure files] (figures.smk),
#                             "notebooks": {page name: executed notebook} (the gallery, gallery.smk)}
import yaml

from lrev import growth
from lrev.claims import MIN_ROUNDS
from lrev.plots import FORMATS

STUDY_NAMES = "|".join(CFG.studies)


def study_code(entry, study):
    """``entry`` and the study's plug-in (lrev/<study>/study.py, loaded by name), with all they import
    (lrev/codeinputs.py)."""
    return codeinputs.files(entry, f"lrev/{study}/study.py")


def study_outputs(key):
    return lambda w: STUDY_OUTPUTS[w.study][key]


def grown_figures(study):
    """The figures of the study's claims judged at the seed's size (a part with ``grows`` on a version it runs)."""
    registry = yaml.safe_load(Path(f"claims/{study}.yaml").read_text())
    return [ROOT / f"figures/{study}/{growth.figure_name(c)}.{fmt}"
            for c in growth.grown(registry, STUDY_OUTPUTS[study]["versions"])
            for fmt in FORMATS]


def looks(study):
    """How many times a study's budget may look at its rounds (lrev/budget.py): its intervals widen to match."""
    budget = CFG.budget(study)
    return budget["max_rounds"] - MIN_ROUNDS + 1 if budget else 1


# Seconds of work on small files: on a cluster they run on the submitting host rather than waiting in the queue.
localrules: steady_policy, claims, growth_figure, study_numbers, plan, resolved_config, paper


rule steady_policy:
    """How the loaders read each fork's series for a steady state (config ``steady``, lrev/steady.py): every step that
    reads results takes it from here, so that a changed penalty rejudges without remeasuring."""
    output:
        ROOT / f"results/{steady.POLICY_FILE}",
    params:
        policy=CFG.steady,
    run:
        lrio.write_json(Path(output[0]), params.policy)


rule claims:
    input:
        registry="claims/{study}.yaml",
        steady=ROOT / f"results/{steady.POLICY_FILE}",
        results=study_outputs("results"),
        code=lambda w: study_code("lrev/claims.py", w.study),
    output:
        ROOT / "results/{study}/claims.json",
    wildcard_constraints:
        study=STUDY_NAMES,
    params:
        versions=lambda w: " ".join(STUDY_OUTPUTS[w.study]["versions"]),
        looks=lambda w: looks(w.study),
    benchmark:
        bench("claims", "study"),
    shell:
        "{PY} -m lrev.claims --registry {input.registry} --results {ROOT}/results --versions {params.versions}"
        " --looks {params.looks} --out {output}"


rule growth_figure:
    """A claim judged at the seed's size: its ladder, the rounds' lines, the seed's number (lrev/growth_figures.py)."""
    input:
        registry="claims/{study}.yaml",
        claims=ROOT / "results/{study}/claims.json",
        code=codeinputs.files("lrev/growth_figures.py"),
    output:
        [ROOT / f"figures/{{study}}/growth-{{claim}}.{fmt}" for fmt in FORMATS],
    wildcard_constraints:
        study=STUDY_NAMES,
    benchmark:
        bench("growth_figure", "study", "claim"),
    shell:
        "{PY} -m lrev.growth_figures --registry {input.registry} --claims {input.claims} --claim {wildcards.claim}"
        " --out {ROOT}/figures/{wildcards.study}"


rule study_numbers:
    input:
        claims=ROOT / "results/{study}/claims.json",
        steady=ROOT / f"results/{steady.POLICY_FILE}",
        results=study_outputs("results"),
        figures=study_outputs("figures"),
        grown=lambda w: grown_figures(w.study),
        code=lambda w: study_code("lrev/paper.py", w.study),
    output:
        ROOT / "paper/{study}.json",
    wildcard_constraints:
        study=STUDY_NAMES,
    params:
        versions=lambda w: " ".join(STUDY_OUTPUTS[w.study]["versions"]),
    benchmark:
        bench("study_numbers", "study"),
    shell:
        "{PY} -m lrev.paper study {wildcards.study} --results {ROOT}/results --versions {params.versions}"
        " --figures {ROOT}/figures/{wildcards.study} --claims {input.claims} --out {output}"


rule plan:
    """What the seeds' own sizes (the seed scale, for a cluster) would cost, by ``lrev.plan``'s model fitted on this
    run's own results: the paper's threats section gives the totals."""
    input:
        results=[f for s in CFG.studies for f in STUDY_OUTPUTS[s]["results"]],
        code=codeinputs.files("lrev/plan.py", *(f"lrev/{s}/plan.py" for s in CFG.studies)),
    output:
        ROOT / "plan/seed.json",
    params:
        studies=",".join(CFG.studies),
    benchmark:
        bench("plan"),
    shell:
        "{PY} -m lrev.plan --fit-scale {CFG.scale} --json {output} --config scale=seed outdir={CFG.raw[outdir]}"
        " 'studies=[{params.studies}]' > /dev/null"


# The agreement of repeated runs of this scale, when some were made: the paper then says how stable each verdict
# is. Looked for once, when the DAG is built, so that a paper without it needs no such runs.
STABILITY = ROOT / "stability/agreement.json"


rule resolved_config:
    """What the run measures (lrev.config.Config.resolved), whose digest the title page shows: the paper prints it
    whole, so that a reader can rerun it."""
    output:
        ROOT / "paper/config.json",
    params:
        digest=CFG.digest,
    run:
        lrio.write_json(Path(output[0]), CFG.resolved())


rule paper:
    input:
        numbers=[ROOT / f"paper/{s}.json" for s in CFG.studies],
        resolved=ROOT / "paper/config.json",
        plan=ROOT / "plan/seed.json",
        stability=[STABILITY] if STABILITY.exists() else [],
        sources=["paper/lucene-revisited.typ", "paper/lib.typ", "paper/references.yml",
                 *(f"paper/{s}.typ" for s in CFG.studies)],
        code=codeinputs.files("lrev/paper.py"),
        citation=["CITATION.cff", "pyproject.toml"],
    output:
        PAPER,
    params:
        studies=" ".join(f"--study {s} {ROOT}/paper/{s}.json" for s in CFG.studies),
        shared="" if CFG.exclusive else "--shared",
        benchmarks=ROOT / lrplan.BENCHMARKS,
        stability=lambda w, input: f"--stability {input.stability}" if input.stability else "",
    benchmark:
        bench("paper"),
    shell:
        "{PY} -m lrev.paper compile --scale {CFG.scale} {params.shared} --config {input.resolved}"
        " {params.studies} --plan {input.plan} {params.stability} --benchmarks {params.benchmarks}"
        " --out {output}"
