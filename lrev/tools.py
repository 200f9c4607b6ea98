"""Command-line tools whose dependencies clash with the project's environment, each in a venv of its own; and
Debian packages a test or a contender needs (:func:`apt_install`, :func:`jdk`).

``tools/<name>.txt`` pins a tool and all its dependencies; :func:`executable` installs them into
``.tools/<name>/`` on first use (again whenever the pins change) and returns the path of the tool's command.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from lrev import jdk as jdks
from lrev.config import REPO

PINS = REPO / "tools"
HOME = REPO / ".tools"


class ToolError(RuntimeError):
    """A tool could not be installed; the message says which and why."""


def executable(name: str) -> Path:
    """The command ``name`` from its own venv, installed from ``tools/<name>.txt`` if needed."""
    pins = PINS / f"{name}.txt"
    if not pins.is_file():
        raise ToolError(f"no pins for tool '{name}': {pins} is missing")
    home = HOME / name
    stamp = home / "pins.sha256"
    digest = hashlib.sha256(pins.read_bytes()).hexdigest()
    command = home / "bin" / name
    # The stamp is written last: a killed install leaves no stamp, and the next call starts over.
    if not (stamp.is_file() and stamp.read_text() == digest and command.is_file()):
        shutil.rmtree(home, ignore_errors=True)
        print(f"tools: installing {name} into {home} ...", file=sys.stderr)
        venv.create(home, with_pip=True)
        done = subprocess.run([str(home / "bin" / "python"), "-m", "pip", "install", "-q", "-r", str(pins)],
                              capture_output=True, text=True)
        if done.returncode != 0 or not command.is_file():
            raise ToolError(f"cannot install {name} from {pins}:\n{done.stderr[-2000:]}")
        stamp.write_text(digest)
    return command


def apt_install(packages: list[str]) -> str | None:
    """apt-get install ``packages`` (after an ``apt-get update`` if the first try fails); None when done, else why
    not: not root on Debian, or apt-get's own message."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return "this is not a root shell with apt-get"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    if subprocess.run(install, env=env, capture_output=True).returncode == 0:
        return None
    subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
    done = subprocess.run(install, env=env, capture_output=True, text=True)
    return None if done.returncode == 0 else f"{' '.join(install)} failed: {(done.stderr or done.stdout)[-2000:]}"


def jdk(feature: int) -> Path:
    """The home of a JDK of exactly ``feature`` (a contender that runs on an older JDK), installed from Debian's
    ``openjdk-<feature>-jdk-headless`` if there is none; :class:`lrev.jdk.JdkNotFound` if that cannot be done."""
    try:
        return jdks.find_jdk(feature)
    except jdks.JdkNotFound as missing:
        print(f"tools: apt-get install openjdk-{feature}-jdk-headless ...", flush=True)
        why = apt_install([f"openjdk-{feature}-jdk-headless"])
        if why is not None:
            raise jdks.JdkNotFound(f"{missing} (and could not install it: {why})") from None
        return jdks.find_jdk(feature)
