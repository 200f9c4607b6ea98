"""Shared pytest set-up: the repository root, the data recipes, and one real smoke run of the pipeline
whose result files the analysis tests read (fixtures come from the real code path, never hand-built)."""
from __future__ import annotations

import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from lrev import config

REPO = Path(__file__).resolve().parent.parent


def load_recipe(name: str):
    """Import a data-recipes/ script as a module (the folder name is not a Python identifier)."""
    path = REPO / "data-recipes" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"recipe_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def assert_config_error(overrides: dict, named: str) -> None:
    """Loading the shipped config with ``overrides`` stops with an error whose message contains ``named``."""
    with pytest.raises(config.ConfigError) as err:
        config.load(overrides)
    assert named in str(err.value)


def print_width(name: str) -> float:
    """The width in inches paper figure ``name`` prints at: its share in its study's ``figures.WIDTHS``, else the
    whole text width."""
    import importlib

    from lrev import plots, studies

    shares = {figure: share for study in studies.names()
              for figure, share in getattr(importlib.import_module(f"lrev.{study}.figures"), "WIDTHS", {}).items()}
    return plots.width(shares.get(name, 1.0))


def assert_legible(fig, name: str) -> None:
    """Figure ``name`` is drawn as wide as the paper prints it, with no text below lrev.plots.MIN_PT there, none
    cut off at its edges, no tick label over another, no title over a legend and no two legend entries in one colour;
    closes it. The notebooks' inline figures are held to it too (tests/test_notebook_figures.py)."""
    import matplotlib.pyplot as plt

    from lrev import plots

    assert fig.get_figwidth() == pytest.approx(print_width(name)), name
    assert plots.smallest_pt(fig, print_width(name)) >= plots.MIN_PT, name
    assert not plots.cut_off(fig), name
    assert plots.overlapping(fig) == [], name
    assert plots.same_colour(fig) == [], name
    plt.close(fig)


def assert_snakemake_refuses(outdir: Path, options: list[str]) -> None:
    """A real run with these ``--config`` options (not a dry run: if validation let the value through, work
    would start, write under ``outdir`` and run into the timeout) stops, says it was the config, and wrote
    nothing."""
    done = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", "--config", f"outdir={outdir}",
                           *options], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "config error at" in done.stderr + done.stdout
    assert list(outdir.iterdir()) == []


def run_smoke(outdir: Path, *config: str, options: tuple[str, ...] = ()
              ) -> tuple[Path, subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """The whole pipeline at smoke scale in ``outdir`` (with extra ``--config`` values and Snakemake
    ``options``), then a dry run of the same command. Returns (scale root, first run, dry run)."""
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", *options, "--config", "scale=smoke",
           f"outdir={outdir}", *config]
    first = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert first.returncode == 0, _failure(first.stderr)
    second = subprocess.run(cmd + ["--dry-run"], cwd=REPO, capture_output=True, text=True)
    return outdir / "smoke", first, second


def _failure(stderr: str) -> str:
    """What broke: each failed notebook's exception (papermill prints it before Snakemake's long
    command lines, which would push it out of a plain tail), then the end of the log."""
    lines = stderr.splitlines()
    causes = [i for i, line in enumerate(lines) if line.startswith("Exception encountered at")]
    excerpts = ["\n".join(lines[i:i + 20]) for i in causes]
    return "\n---\n".join(excerpts + [stderr[-2000:]])


@pytest.fixture(scope="session")
def smoke_run(tmp_path_factory):
    """The pipeline as configured (its default studies), at smoke scale, once per session; in
    ``$LREV_SMOKE_OUTDIR`` when set (a complete smoke run there is reused: Snakemake finds nothing to do)."""
    reuse = os.environ.get("LREV_SMOKE_OUTDIR")
    return run_smoke(Path(reuse).resolve() if reuse else tmp_path_factory.mktemp("runs"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def jupyter_lab(root_dir: Path, workspaces: Path, log_path: Path, env: dict | None = None):
    """JupyterLab serving ``root_dir`` on a free port with a fresh token (as root too, as `./run lab` starts it);
    yields (base URL, token) once it answers, and stops it after."""
    port, token = free_port(), uuid.uuid4().hex
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
             f"--LabApp.workspaces_dir={workspaces}", *(["--allow-root"] if os.geteuid() == 0 else [])],
            env={**os.environ, **(env or {})}, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(120):
                try:
                    urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                    break
                except OSError:
                    if server.poll() is not None:
                        pytest.fail(f"JupyterLab exited: {log_path.read_text()[-2000:]}")
                    time.sleep(0.5)
            else:
                pytest.fail("JupyterLab did not answer within 60 s")
            yield base, token
        finally:
            server.terminate()
            server.wait(timeout=30)


#: The parts of `./run test` the README times, by test file; the rest are unit tests.
PARTS = {"cluster (SLURM)": ("test_cluster.py",), "browser and lab": ("test_browser.py", "test_lab_save.py")}


def _part(nodeid: str) -> str:
    name = nodeid.split("::")[0].rpartition("/")[2]
    return next((part for part, files in PARTS.items() if name in files), "pipeline and unit")


def pytest_terminal_summary(terminalreporter) -> None:
    """Minutes per part of the session (setup, call and teardown), the session's smoke run included in the part
    whose test first asked for it: what the README's test command spends where."""
    minutes: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) in ("setup", "call", "teardown"):
                part = _part(report.nodeid)
                minutes[part] = minutes.get(part, 0.0) + report.duration / 60
    if minutes:
        terminalreporter.write_sep("-", "minutes per part")
        for part, value in sorted(minutes.items(), key=lambda kv: -kv[1]):
            terminalreporter.write_line(f"{value:6.1f}  {part}")
