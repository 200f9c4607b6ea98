"""Every study notebook in JupyterLab, driven by a real headless Chromium through Playwright: opened, all cells
run against the session's smoke results, no cell raised, at least one figure rendered; a screenshot of each in
runs/test-browser/. Chromium is Debian's package (installed here with apt-get when missing, as root; no browser
download). Each gallery page, and the index, renders offline (no request fails, no console error), and a study's
first page shows its first figure in the first screen. LREV_SKIP_BROWSER=1 skips this file, and says so."""
from __future__ import annotations

import os
import shutil
import time

import nbformat
import pytest

from conftest import jupyter_lab
from lrev import config, tools
from lrev.config import REPO

SKIP = os.environ.get("LREV_SKIP_BROWSER") == "1"
pytestmark = pytest.mark.skipif(SKIP, reason="LREV_SKIP_BROWSER=1: the JupyterLab browser test is skipped")
SCREENSHOTS = REPO / "runs" / "test-browser"
RUN_ALL_S = 300


def chromium() -> str:
    """Debian's chromium, installed with apt-get if missing and this is root; fails naming what is missing."""
    found = shutil.which("chromium")
    if found is None:
        tools.apt_install(["chromium"])
        found = shutil.which("chromium")
    if found is None:
        pytest.fail("the browser test needs Chromium: Debian's package 'chromium' is not installed and could not "
                    "be installed here (apt-get install chromium, as root); set LREV_SKIP_BROWSER=1 to skip")
    return found


@pytest.fixture(scope="module")
def lab(smoke_run, tmp_path_factory):
    """JupyterLab on a copy of notebooks/ (saving stays out of the repository), its kernels reading the smoke run
    (LREV_OUTDIR)."""
    root, _, _ = smoke_run
    folder = tmp_path_factory.mktemp("notebooks")
    for nb in (REPO / "notebooks").glob("*.ipynb"):
        shutil.copy(nb, folder / nb.name)
    with jupyter_lab(folder, tmp_path_factory.mktemp("workspaces"), folder / "lab.log",
                     {"LREV_OUTDIR": str(root.parent)}) as (base, token):
        yield base, token, folder


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    executable = chromium()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.mark.parametrize("study", list(config.load({"scale": "smoke"}).studies))
def test_the_notebook_runs_in_jupyterlab_without_errors_and_draws_figures(lab, browser, study):
    base, token, folder = lab
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    # A workspace of its own, reset: JupyterLab would otherwise reopen the notebooks of the previous tests.
    page.goto(f"{base}/lab/workspaces/{study}/tree/{study}.ipynb?reset&token={token}")
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=60_000)
    # The notebook's indicator reads idle before its kernel exists; the status bar names the kernel once it does.
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
                   .some(e => /\\(ipykernel\\) \\| Idle/.test(e.textContent))""", timeout=60_000)
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")
    # Done: some cell has run, and none is running or queued ([*]).
    page.wait_for_function(
        """() => { const p = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(e => e.textContent);
                   return p.some(t => /\\[\\d+\\]/.test(t)) && !p.some(t => t.includes('*')); }""",
        timeout=RUN_ALL_S * 1000)
    figures = page.locator(".jp-OutputArea-output img").count()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{study}.png"), full_page=True)
    saved = folder / f"{study}.ipynb"
    before = saved.stat().st_mtime_ns
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 30
    while saved.stat().st_mtime_ns == before and time.monotonic() < deadline:
        time.sleep(0.2)
    page.close()
    nb = nbformat.read(saved, as_version=4)
    errors = [f"{o.get('ename')}: {o.get('evalue')}" for c in nb.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == [], f"{study}: a cell raised: {errors[0]}"
    assert all(c.get("execution_count") for c in nb.cells if c.cell_type == "code" and c.source.strip()), \
        f"{study}: not every cell ran"
    assert figures >= 1, f"{study}: no figure rendered"


def offline(browser, path):
    """``path`` opened in a browser without a network; the page, and what failed: each request that is not for a
    file or data (blocked), each request that failed, each console error and uncaught exception."""
    context = browser.new_context(offline=True, viewport={"width": 1400, "height": 1000})
    problems = []
    context.route(lambda url: not url.startswith(("file:", "data:")),
                  lambda route: (problems.append(f"blocked {route.request.url}"), route.abort()))
    page = context.new_page()
    page.on("requestfailed", lambda r: problems.append(f"failed {r.url}: {r.failure}"))
    page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"error: {e}"))
    page.goto(path.as_uri(), wait_until="load")
    return page, problems


@pytest.mark.parametrize("study", list(config.load({"scale": "smoke"}).studies))
def test_a_studys_gallery_pages_render_offline_and_show_the_first_figure_in_the_first_screen(smoke_run, browser,
                                                                                              study):
    root, _, _ = smoke_run
    pages = sorted((root / "gallery").glob(f"{study}*.html"))
    assert pages, f"no gallery page of {study}"
    for i, path in enumerate(pages):
        page, problems = offline(browser, path)
        box = page.locator("img").first.bounding_box() if i == 0 else None
        page.context.close()
        assert problems == [], f"{path.name} offline: {problems}"
        if i == 0:
            assert box is not None and box["y"] < 1000 - 200, f"{path.name}: the first figure starts {box} px down"


def test_the_gallery_index_renders_offline(smoke_run, browser):
    root, _, _ = smoke_run
    page, problems = offline(browser, root / "gallery" / "index.html")
    links = page.locator("a").count()
    page.context.close()
    assert problems == [] and links > 1
