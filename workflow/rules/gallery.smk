# The gallery: every study's executed notebooks as HTML pages (nbconvert), with an index, at
# <root>/gallery/index.html. Each study's rule file registers its notebooks, by page name, in
# STUDY_OUTPUTS[<study>]["notebooks"].
GALLERY_PAGES = [(s, name, path) for s in CFG.studies for name, path in STUDY_OUTPUTS[s]["notebooks"].items()]


# Seconds of work on small files: on a cluster it runs on the submitting host rather than waiting in the queue.
localrules: gallery


rule gallery:
    input:
        notebooks=[path for _, _, path in GALLERY_PAGES],
        claims=[ROOT / f"results/{s}/claims.json" for s in CFG.studies],
        # The index links the paper: built first, so that the link resolves.
        paper=PAPER,
        code=codeinputs.files("lrev/gallery.py"),
    output:
        index=ROOT / "gallery/index.html",
        pages=[ROOT / f"gallery/{name}.html" for _, name, _ in GALLERY_PAGES],
    params:
        pages=" ".join(f"--page {s} {name} {path}" for s, name, path in GALLERY_PAGES),
        claims=" ".join(f"--claims {s} {ROOT}/results/{s}/claims.json" for s in CFG.studies),
    benchmark:
        bench("gallery"),
    shell:
        "{PY} -m lrev.gallery --scale {CFG.scale} {params.pages} {params.claims} --out {output.index}"
