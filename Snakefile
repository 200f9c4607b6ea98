# lucene-revisited: engine -> corpora -> indexes -> studies (papermill notebooks) -> figures -> paper.
# Run through ./run paper (which bootstraps the environment), or `snakemake --cores 2` inside it.
# Each study in `studies` brings its own rule file, workflow/rules/<study>.smk.
import json
import os
import sys
from pathlib import Path

from lrev import bridge, codeinputs, steady
from lrev import notebook as lrnotebook
from lrev import config as lrconfig
from lrev import io as lrio
from lrev import plan as lrplan

configfile: "config/config.yaml"

try:
    CFG = lrconfig.load(base=config)  # validated before any job is scheduled
except lrconfig.ConfigError as err:
    sys.exit(str(err))

ROOT = CFG.root
# Every fork's JVM reads its heap from the environment (lrev.bridge.heap), which each job inherits: as neither
# a parameter nor a command line of any job, a new heap reruns nothing that finished.
os.environ[bridge.HEAP_ENV] = CFG.heap
PY = sys.executable  # every step runs in Snakemake's own environment, whatever PATH says
PAPER = ROOT / "paper" / "lucene-revisited.pdf"
#: A study's measurement job claims every core, so that nothing runs beside it, at an exclusive scale.
MEASURE_THREADS = workflow.cores if CFG.exclusive else 1
#: Each study's notebook, which its run rule executes through papermill.
NOTEBOOKS = {study: f"notebooks/{study}.ipynb" for study in CFG.studies}
#: What each study's rule file registers for the generic claims and paper rules (workflow/rules/paper.smk).
STUDY_OUTPUTS = {}


def notebook_parameters(settings, **extra):
    """A run rule's notebook parameters (lrev/execute.py): the scale, the outdir, measuring on, the study's effective
    settings as its `overrides` (the notebook validates them again), and ``extra``."""
    return json.dumps({"scale": CFG.scale, "outdir": str(CFG.raw["outdir"]), "measure": True, "overrides": settings,
                       **extra}, sort_keys=True)


def bench(rule, *wildcards):
    """Where Snakemake records a job's wall time and memory (``benchmark:``); the plan fits its fixed costs on them."""
    return lrplan.benchmark_path(ROOT, rule, [f"{{{w}}}" for w in wildcards])

include: "workflow/rules/engine.smk"
for _study in CFG.studies:
    include: f"workflow/rules/{_study}.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/paper.smk"
include: "workflow/rules/gallery.smk"


rule all:
    input:
        PAPER,
        ROOT / "gallery/index.html",

