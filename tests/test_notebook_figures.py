"""The notebooks' inline figures, drawn from the smoke run's results by the notebooks' own helper
(lrev.explore.show_figures) with the arguments each notebook passes it: every figure it shows prints legibly (no
title over a legend, nothing cut off: conftest.assert_legible), each under its name."""
from __future__ import annotations

from functools import partial

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from IPython.display import Markdown  # noqa: E402

from conftest import assert_legible  # noqa: E402
from lrev import config, explore  # noqa: E402
from lrev.dvjump import figures as dvjump_figures, summary as dvjump_summary  # noqa: E402
from lrev.dvupdate import figures as dvupdate_figures, summary as dvupdate_summary  # noqa: E402
from lrev.join import figures as join_figures, summary as join_summary  # noqa: E402
from lrev.pk import figures as pk_figures, summary as pk_summary  # noqa: E402


def shown_as_in_the_notebook(study: str, cfg: config.Config):
    """The names and builder each notebook's last cell passes to explore.show_figures, on every version explored."""
    results, versions = config.REPO / cfg.root / "results", explore.done(cfg, study)
    if study == "pk":
        data = pk_summary.load(results, versions)
        return pk_figures.FIGURES, lambda name: pk_figures.BUILDERS[name](data)
    if study == "dvjump":
        return (dvjump_figures.names(cfg.study("dvjump")["workloads"]),
                partial(dvjump_figures.build, dvjump_summary.load(results, versions)))
    if study == "dvupdate":
        seed = dvupdate_summary.without_ladder(dvupdate_summary.load(results, versions))
        return dvupdate_figures.names(), partial(dvupdate_figures.build, seed)
    return join_figures.names(), partial(join_figures.build, join_summary.load(results, versions))


@pytest.mark.parametrize("study", list(config.load({"scale": "smoke"}).studies))
def test_each_inline_figure_prints_legibly_under_its_name(smoke_run, monkeypatch, study):
    root, _, _ = smoke_run
    cfg = config.load({"scale": "smoke", "outdir": str(root.parent), "studies": [study]})
    names, build = shown_as_in_the_notebook(study, cfg)
    shown: list[str] = []

    def display(output):
        if isinstance(output, Markdown):
            shown.append(output.data)
        else:
            assert isinstance(output, plt.Figure), output
            name = shown[-1].strip("*`")
            assert_legible(output, name)
            shown.append(name)

    monkeypatch.setattr(explore, "display", display)
    explore.show_figures(names, build)
    assert shown == [part for name in names for part in (f"**`{name}`**", name)]
