# lucene-revisited: engine -> corpora -> indexes -> studies (papermill notebooks) -> figures -> paper.
# Run through ./run paper (which bootstraps the environment), or `snakemake --cores 2` inside it.
# Each study in `studies` brings its own rule file, workflow/rules/<study>.smk.
import sys
from pathlib import Path

from lrev import config as lrconfig

configfile: "config/config.yaml"

try:
    CFG = lrconfig.load(base=config)  # validated before any job is scheduled
except lrconfig.ConfigError as err:
    sys.exit(str(err))

ROOT = CFG.root
PY = sys.executable  # every step runs in Snakemake's own environment, whatever PATH says
PAPER = ROOT / "paper" / "lucene-revisited.pdf"
#: A study's measurement job claims every core, so that nothing runs beside it, at an exclusive scale.
MEASURE_THREADS = workflow.cores if CFG.exclusive else 1
#: What each study's rule file registers for the generic claims and paper rules (workflow/rules/paper.smk).
STUDY_OUTPUTS = {}

include: "workflow/rules/engine.smk"
for _study in CFG.studies:
    include: f"workflow/rules/{_study}.smk"
include: "workflow/rules/paper.smk"
include: "workflow/rules/gallery.smk"


rule all:
    input:
        PAPER,
        ROOT / "gallery/index.html",

