"""A single-node SLURM on localhost, from the distribution's packages, for proving the SLURM profile here.

    python -m lrev.cluster up STATE_DIR     # install (apt-get) and start what is missing; prints what it started
    python -m lrev.cluster down STATE_DIR   # stop what ``up`` started, nothing else

When a SLURM controller already answers (``sinfo``), ``up`` uses it and starts nothing. Otherwise it writes
``/etc/slurm/slurm.conf`` (only where there is none: the job steps that Snakemake's SLURM plugin starts drop
``SLURM_CONF`` from their environment, so the configuration must be where every SLURM command looks by default),
keeps the daemons' state and logs in ``STATE_DIR``, and starts munged, slurmctld and slurmd. ``down`` removes
what it wrote.

Job status: the Snakemake executor plugin asks ``sacct`` by default, and ``sacct`` needs accounting (slurmdbd
and a database). This cluster keeps none; the profile asks ``squeue`` instead, which sees a finished job for
``MinJobAge`` seconds after its end, so MinJobAge is set well above the plugin's status-check interval.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from lrev import tools
from lrev.io import atomic_path, read_json, write_json

PACKAGES = {"slurmctld": "slurm-wlm", "slurmd": "slurm-wlm", "sinfo": "slurm-wlm", "munged": "munge"}
#: Seconds a finished job stays visible to ``squeue``: the plugin trusts squeue only above 3x its first interval.
MIN_JOB_AGE = 600
#: The memory the test node offers, if it has less: the profile asks for what the seed scale needs on a real
#: node (up to 32 GB a job), and this cluster, which enforces no memory limit (no cgroups), exists to prove the
#: submission path at smoke scale, where jobs need a few hundred MB. ``config_overrides`` lets slurmd accept it.
ADVERTISED_MB = 65536
STARTED = "started.json"
CONF = Path("/etc/slurm/slurm.conf")
MARK = "# written by lrev.cluster: removed by `python -m lrev.cluster down`"


class ClusterError(RuntimeError):
    pass


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def running() -> bool:
    """Whether a SLURM controller answers with at least one node able to take jobs."""
    if shutil.which("sinfo") is None:
        return False
    out = _run(["sinfo", "-h", "-o", "%T"], timeout=20)
    return out.returncode == 0 and any(s.strip("*~#") in {"idle", "mixed", "allocated"} for s in out.stdout.split())


def install() -> None:
    """apt-get the packages whose commands are missing; a clear error when that is not possible."""
    missing = sorted({pkg for cmd, pkg in PACKAGES.items() if shutil.which(cmd) is None})
    if not missing:
        return
    print(f"cluster: apt-get install {' '.join(missing)} ...", flush=True)
    why = tools.apt_install(missing)
    if why is not None:
        raise ClusterError(f"SLURM is not installed ({', '.join(missing)} missing) and could not be installed "
                           f"({why}): install them, or set LREV_SKIP_CLUSTER=1")


def node_line() -> str:
    """This host as a SLURM node: its CPUs as ``slurmd -C`` reports them, and at least ``ADVERTISED_MB`` of memory
    (see there)."""
    out = _run(["slurmd", "-C"])
    if out.returncode != 0:
        raise ClusterError(f"slurmd -C failed: {out.stderr.strip()}")
    fields = dict(f.split("=", 1) for f in out.stdout.split() if "=" in f)
    memory = max(int(fields["RealMemory"]), ADVERTISED_MB)
    return (f"NodeName={socket.gethostname().split('.')[0]} CPUs={fields['CPUs']} RealMemory={memory} "
            f"Sockets={fields.get('SocketsPerBoard', 1)} CoresPerSocket={fields.get('CoresPerSocket', 1)} "
            f"ThreadsPerCore={fields.get('ThreadsPerCore', 1)} State=UNKNOWN")


def slurm_conf(state: Path) -> str:
    """One controller and one node, both this host; no accounting, no cgroups (containers rarely allow them)."""
    host = socket.gethostname().split(".")[0]
    return "\n".join([
        MARK,
        "ClusterName=lrev",
        f"SlurmctldHost={host}",
        "SlurmUser=root",
        "AuthType=auth/munge",
        f"StateSaveLocation={state}/ctld",
        f"SlurmdSpoolDir={state}/d",
        f"SlurmctldPidFile={state}/slurmctld.pid",
        f"SlurmdPidFile={state}/slurmd.pid",
        f"SlurmctldLogFile={state}/slurmctld.log",
        f"SlurmdLogFile={state}/slurmd.log",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core_Memory",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "MpiDefault=none",
        "ReturnToService=2",
        "SlurmdParameters=config_overrides",
        f"MinJobAge={MIN_JOB_AGE}",
        "SchedulerType=sched/backfill",
        node_line(),
        "PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
        "",
    ])


def _munged_running() -> bool:
    """Whether munged answers: a credential it makes can be decoded."""
    made = _run(["munge", "-n"])
    return made.returncode == 0 and _run(["unmunge"], input=made.stdout).returncode == 0


def up(state: str | os.PathLike) -> None:
    """Start a local SLURM unless one runs."""
    state = Path(state).resolve()
    if running():
        print("cluster: a SLURM controller already answers; using it", flush=True)
        write_json(state / STARTED, {"daemons": []})
        return
    install()
    if CONF.is_file() and not CONF.read_text().startswith(MARK):
        raise ClusterError(f"{CONF} exists but no SLURM controller answers: start your SLURM, or move {CONF} "
                           "away so that a local one can be configured")
    state.mkdir(parents=True, exist_ok=True)
    for sub in ("ctld", "d"):
        (state / sub).mkdir(exist_ok=True)
    with atomic_path(CONF) as tmp:
        tmp.write_text(slurm_conf(state))
    started = []
    if not _munged_running():
        Path("/run/munge").mkdir(parents=True, exist_ok=True)
        shutil.chown("/run/munge", "munge", "munge")
        _check(_run(["runuser", "-u", "munge", "--", "munged"]), "munged")
        started.append("munged")
    _check(_run(["slurmctld"]), "slurmctld", state / "slurmctld.log")
    started.append("slurmctld")
    _check(_run(["slurmd"]), "slurmd", state / "slurmd.log")
    started.append("slurmd")
    write_json(state / STARTED, {"daemons": started, "conf": str(CONF)})
    deadline = time.monotonic() + 60
    while not running():
        if time.monotonic() > deadline:
            down(state)
            raise ClusterError(f"the local SLURM did not come up within 60 s; see {state}/slurmctld.log and "
                               f"{state}/slurmd.log")
        time.sleep(1)
    print(f"cluster: started {', '.join(started)} ({CONF}; logs in {state})", flush=True)


def _check(done: subprocess.CompletedProcess, what: str, log: Path | None = None) -> None:
    if done.returncode != 0:
        tail = log.read_text()[-2000:] if log and log.is_file() else ""
        raise ClusterError(f"{what} did not start: {done.stderr.strip()}\n{tail}")


def down(state: str | os.PathLike) -> None:
    """Stop the daemons ``up`` started (and cancel their jobs); a SLURM found running is left alone."""
    state = Path(state).resolve()
    record = state / STARTED
    if not record.is_file():
        return
    started = read_json(record)["daemons"]
    if "slurmctld" in started:
        _run(["scancel", "--user", "root"])
    for daemon in ("slurmd", "slurmctld"):
        pid_file = state / f"{daemon}.pid"
        if daemon in started and pid_file.is_file():
            _stop(int(pid_file.read_text().strip()))
    if "munged" in started:
        _run(["pkill", "-x", "munged"])
    written = read_json(record).get("conf")
    if written and Path(written).is_file() and Path(written).read_text().startswith(MARK):
        Path(written).unlink()
    record.unlink()
    print(f"cluster: stopped {', '.join(started) or 'nothing (it was running before)'}", flush=True)


def _stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in {"up", "down"}:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        up(argv[1]) if argv[0] == "up" else down(argv[1])
    except ClusterError as err:
        print(f"cluster: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
