# Each study's figures: one rule per study, <study>_figures, running `python -m lrev.figures <study>` on its results.
# A study's rule file registers, before this file is read, STUDY_OUTPUTS[<study>]["figure_names"] (what its
# lrev/<study>/figures.py draws, per its settings); this file adds STUDY_OUTPUTS[<study>]["figures"], the files.
from lrev.plots import FORMATS


def figure_files(study):
    return [str(ROOT / f"figures/{study}/{name}.{fmt}") for name in STUDY_OUTPUTS[study]["figure_names"]
            for fmt in FORMATS]


for _study in CFG.studies:
    rule:
        name: f"{_study}_figures"
        input:
            results=STUDY_OUTPUTS[_study]["results"],
            steady=ROOT / f"results/{steady.POLICY_FILE}",
            # The study's module is loaded by name (lrev/figures.py), so it is an entry of its own.
            code=codeinputs.files("lrev/figures.py", f"lrev/{_study}/figures.py"),
        output:
            figure_files(_study),
        params:
            study=_study,
            # The study's effective settings (the versions it ran, what it drew): a changed one redraws.
            settings=json.dumps(CFG.study(_study), sort_keys=True),
        # Seconds of work on small files: on a cluster it runs on the submitting host rather than waiting in the
        # queue.
        localrule: True
        benchmark:
            bench(f"{_study}_figures"),
        shell:
            "{PY} -m lrev.figures {params.study} --results {ROOT}/results --settings {params.settings:q}"
            " --out {ROOT}/figures/{params.study}"
    STUDY_OUTPUTS[_study]["figures"] = figure_files(_study)
