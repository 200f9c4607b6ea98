"""Executes a study notebook with papermill, as each study's run rule does.

A stopped run must not measure on. papermill's command line shuts the notebook's kernel down gracefully: stopped
with Ctrl-C, it asks the kernel to exit and waits out jupyter_client's grace period, while the busy kernel's cell goes
on finishing forks and moving their folders into place. Here a SIGINT or SIGTERM kills the kernel and everything it
started first (SIGKILL, the kernel before its children, so it cannot start or keep another fork), then ends the run;
nbclient's ``shutdown_kernel`` is "immediate" for any other way out.

The executed notebook is archived (:mod:`lrev.artifact`), and papermill writes into it the parameters it injects and
the path it writes to. Neither names the run's folder, which may be this machine's absolute path: the ``outdir``
parameter reaches the kernel as ``$LREV_OUTDIR``, which the notebooks' ``outdir`` defaults to, and the notebook is
written here, not by papermill.
"""
from __future__ import annotations

import argparse
import json
import os
import signal

import nbformat
import papermill
import psutil

from lrev.io import atomic_path


def _stop(signum: int, frame: object) -> None:
    for process in psutil.Process().children(recursive=True):
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m lrev.execute", description=__doc__.splitlines()[0])
    parser.add_argument("notebook", help="the study's notebook")
    parser.add_argument("out", help="the executed notebook to write")
    parser.add_argument("--parameters", required=True, help="the notebook's parameters, a JSON object")
    args = parser.parse_args(argv)
    parameters = json.loads(args.parameters)
    if not isinstance(parameters, dict):
        parser.error(f"--parameters must be a JSON object, not {args.parameters!r}")
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _stop)
    outdir = parameters.pop("outdir", None)
    if outdir is not None:
        os.environ["LREV_OUTDIR"] = str(outdir)
    executed = papermill.execute_notebook(args.notebook, None, parameters=parameters, progress_bar=False,
                                          shutdown_kernel="immediate")
    with atomic_path(args.out, ".ipynb") as part:
        nbformat.write(executed, part)


if __name__ == "__main__":
    main()
