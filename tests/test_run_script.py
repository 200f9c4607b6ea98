"""`./run` itself: usage without installing anything, an unknown command named, one exit code per outcome."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from lrev.config import REPO


@pytest.fixture
def bare(tmp_path):
    """The script alone in an empty folder: any attempt to install (no environment.yml here) would fail."""
    shutil.copy(REPO / "run", tmp_path / "run")
    return tmp_path


def run(folder, *args):
    return subprocess.run([str(folder / "run"), *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_prints_usage_and_installs_nothing(bare, flag):
    done = run(bare, flag)
    assert done.returncode == 0 and "./run paper" in done.stdout and "./run stability" in done.stdout
    assert sorted(p.name for p in bare.iterdir()) == ["run"]


def test_an_unknown_command_is_a_usage_error_naming_it(bare):
    done = run(bare, "papr")
    assert done.returncode == 2 and done.stderr.startswith("run: unknown command 'papr'")
    assert "./run paper" in done.stderr and sorted(p.name for p in bare.iterdir()) == ["run"]


def test_no_command_is_a_usage_error(bare):
    done = run(bare)
    assert done.returncode == 2 and "./run paper" in done.stderr and done.stdout == ""
