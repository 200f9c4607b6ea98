"""Install environment.yml's pip pins into the running interpreter (the ``run`` script's venv).

environment.yml is the single list of dependencies; conda users create the env from it directly.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from lrev import provenance

REPO = Path(__file__).resolve().parent.parent


def pip_requirements() -> list[str]:
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    for dep in env["dependencies"]:
        if isinstance(dep, dict) and "pip" in dep:
            return list(dep["pip"])
    raise SystemExit("environment.yml has no pip: section")


def main() -> int:
    args: list[str] = []
    for req in pip_requirements():
        args.extend(req.split(maxsplit=1))  # "-e ." stays two arguments
    # pip's report records each package's archive and its sha256: what the run's provenance, and so an archive's
    # lock, names for `pip install --require-hashes` (lrev.provenance.environment).
    return subprocess.call([sys.executable, "-m", "pip", "install", "-q", "--report", str(provenance.PIP_REPORT),
                            *args], cwd=REPO)


if __name__ == "__main__":
    raise SystemExit(main())
