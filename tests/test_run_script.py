"""`./run` itself: usage and each command's help without installing anything, an unknown command named, one exit
code per outcome, config errors before Snakemake starts, and a second `./run paper` that has nothing to do."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from lrev.config import REPO

COMMANDS = ["paper", "test", "lab", "test-browser", "cluster", "test-cluster", "artifact", "plan", "compare",
            "stability", "snakemake"]
#: The commands that take Snakemake's options (and so a config).
SNAKEMAKE_COMMANDS = ["paper", "cluster", "artifact", "stability", "plan", "snakemake"]


@pytest.fixture
def bare(tmp_path):
    """The script alone in an empty folder: any attempt to install (no environment.yml here) would fail."""
    shutil.copy(REPO / "run", tmp_path / "run")
    return tmp_path


@pytest.fixture
def linked(tmp_path):
    """The script in a folder whose every other entry links to the repository's, but for ``.snakemake``: the
    script works there as in the repository, and any Snakemake state it writes lands in the folder, not among that
    of other runs."""
    shutil.copy(REPO / "run", tmp_path / "run")
    for entry in REPO.iterdir():
        if entry.name not in ("run", ".snakemake"):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def run(folder, *args, timeout=60):
    return subprocess.run([str(folder / "run"), *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_prints_every_command_in_whole_sentences_and_installs_nothing(bare, flag):
    done = run(bare, flag)
    assert done.returncode == 0
    for cmd in COMMANDS:
        assert f"./run {cmd} " in done.stdout, cmd
    assert done.stdout.rstrip().endswith(".")  # not cut off mid-sentence
    assert sorted(p.name for p in bare.iterdir()) == ["run"]


@pytest.mark.parametrize("cmd", [c for c in COMMANDS if c != "snakemake"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_a_commands_help_is_its_own_part_and_runs_nothing(bare, cmd, flag):
    done = run(bare, cmd, "--config", "scale=smoke", flag)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"./run {cmd} ") and lines[-1].endswith(".")
    assert not [line for line in lines[1:] if line.startswith("./run ")]  # no other command's part
    if cmd in SNAKEMAKE_COMMANDS:
        assert "./run snakemake --help" in done.stdout
    assert sorted(p.name for p in bare.iterdir()) == ["run"]


def test_an_unknown_command_is_a_usage_error_naming_it(bare):
    done = run(bare, "papr")
    assert done.returncode == 2 and done.stderr.startswith("run: unknown command 'papr'")
    assert "./run paper" in done.stderr and sorted(p.name for p in bare.iterdir()) == ["run"]


def test_no_command_is_a_usage_error(bare):
    done = run(bare)
    assert done.returncode == 2 and "./run paper" in done.stderr and done.stdout == ""


@pytest.mark.parametrize("cmd, options, key", [
    *((cmd, ["--config", "scale=nope"], "'scale'") for cmd in SNAKEMAKE_COMMANDS),
    ("paper", ["--config", "pk={dox: 5}"], "'pk'"),
    ("plan", ["--config", "pk={docs: -5}"], "'pk.docs'"),
    ("stability", ["--configfile", "nope.yaml"], "'--configfile'"),
])
def test_a_bad_config_stops_before_snakemake_starts_naming_the_key(linked, cmd, options, key):
    done = run(linked, cmd, *options)
    assert done.returncode == 2
    assert done.stderr.startswith("config error") and key in done.stderr.splitlines()[0]
    assert not (linked / ".snakemake").exists()  # no Snakemake call: no lock lifted, no log written


def test_an_edit_of_the_script_in_place_during_a_run_does_not_change_that_run(linked):
    """Bash reads a script while it runs it. The run here pauses in its first Python call (the JDK lookup, through a
    stand-in for the environment's python) until the script has been overwritten in place, as an editor saves it;
    the run then goes on as it began, to its config error, not into the new text."""
    venv = linked / ".venv"
    venv.unlink(missing_ok=True)  # a link to the repository's .venv, when it has one (not under conda)
    (venv / "bin").mkdir(parents=True)
    stamp = subprocess.run("sha256sum environment.yml pyproject.toml | sha256sum | cut -d' ' -f1", shell=True,
                           cwd=linked, capture_output=True, text=True, check=True).stdout
    (venv / ".environment.sha256").write_text(stamp)
    python = venv / "bin" / "python"
    python.write_text(f'''#!/bin/sh
if [ "$2" = lrev.jdk ]; then touch "{linked}/paused"; while [ ! -e "{linked}/go" ]; do sleep 0.1; done; fi
exec "{sys.executable}" "$@"
''')
    python.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "CONDA_PREFIX"}  # the stand-in, not a conda env
    run_ = subprocess.Popen([linked / "run", "plan", "--config", "scale=nope"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (linked / "paused").exists():
        assert run_.poll() is None and time.monotonic() < deadline, run_.communicate()
        time.sleep(0.1)
    script = linked / "run"
    with open(script, "r+") as f:
        f.write("exit 7\n" * (script.stat().st_size // 7 + 1))
    (linked / "go").touch()
    _, stderr = run_.communicate(timeout=60)
    assert run_.returncode == 2 and stderr.startswith("config error at 'scale'"), stderr


def test_a_second_paper_on_a_finished_run_has_nothing_to_do(smoke_run):
    """`./run paper` on the smoke run, as finished: one dry run finds no job and no round to add, and says so with
    the paper's path; so does its dry run."""
    root, _, _ = smoke_run
    pdf = root / "paper" / "lucene-revisited.pdf"
    for dry in ([], ["--dry-run"]):
        done = run(REPO, "paper", *dry, "--config", "scale=smoke", f"outdir={root.parent}", timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout == f"paper: nothing to do, every output is up to date: {pdf.resolve()}\n"
