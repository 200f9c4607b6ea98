"""Executes a study notebook with papermill, as each study's run rule does.

papermill's command line shuts the notebook's kernel down gracefully: stopped with Ctrl-C, it asks the kernel to
exit and waits out jupyter_client's grace period while the busy kernel's cell goes on starting and finishing
forks. A stopped run must not measure on, so the kernel is killed at once (nbclient's ``shutdown_kernel``
"immediate"), and its forks die with it (:func:`lrev.fork._die_with_parent`).
"""
from __future__ import annotations

import argparse
import json

import papermill


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m lrev.execute", description=__doc__.splitlines()[0])
    parser.add_argument("notebook", help="the study's notebook")
    parser.add_argument("out", help="the executed notebook to write")
    parser.add_argument("--parameters", required=True, help="the notebook's parameters, a JSON object")
    args = parser.parse_args(argv)
    parameters = json.loads(args.parameters)
    if not isinstance(parameters, dict):
        parser.error(f"--parameters must be a JSON object, not {args.parameters!r}")
    papermill.execute_notebook(args.notebook, args.out, parameters=parameters, progress_bar=False,
                               shutdown_kernel="immediate")


if __name__ == "__main__":
    main()
