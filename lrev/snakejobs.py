"""The jobs a Snakemake run would execute, as (rule, wildcards), from Snakemake's own structured job records.

Snakemake 9 has no public call that returns a workflow's job list. It does hand every job it schedules, as a
structured ``JOB_INFO`` log record (rule name and wildcards among its fields), to its logger plugins. This module is
such a plugin (``LogHandler``), registered in this process under :data:`NAME`; :func:`jobs` runs Snakemake's own
command line in this process as a dry run with that logger, and returns the jobs it was handed. No printed text is
read: a change of Snakemake's dry-run wording cannot change the list.
"""
from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
from typing import Sequence

from snakemake import cli
from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import LogEvent
from snakemake_interface_logger_plugins.registry import LoggerPluginRegistry

#: The logger's name on Snakemake's ``--logger``.
NAME = "lrev-jobs"


class SnakemakeError(RuntimeError):
    """The dry run failed; the message holds the errors Snakemake logged."""


class LogHandler(LogHandlerBase):
    """Keeps the jobs and the errors of one dry run, and writes nothing."""

    writes_to_stream = False
    writes_to_file = False
    has_filter = True  # every record, whatever --quiet keeps from the screen
    has_formatter = True
    needs_rulegraph = False

    heard: list[tuple[str, dict[str, str]]] = []
    errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "event", None) == LogEvent.JOB_INFO:
            LogHandler.heard.append((record.rule_name, {k: str(v) for k, v in dict(record.wildcards).items()}))
        elif record.levelno >= logging.ERROR:
            LogHandler.errors.append(record.getMessage())


def jobs(argv: Sequence[str], workdir: str | os.PathLike) -> list[tuple[str, dict[str, str]]]:
    """(rule, wildcards) of every job a run of Snakemake with ``argv``, in ``workdir``, would execute, sorted (the
    scheduler's order varies from call to call); nothing is written. Raises :class:`SnakemakeError` with
    Snakemake's logged errors when the workflow cannot be planned."""
    LoggerPluginRegistry().register_plugin(NAME, sys.modules[__name__])
    LogHandler.heard, LogHandler.errors = [], []
    # A dry run prints every job to stdout, whatever --quiet says; the list is what is wanted here.
    with contextlib.chdir(workdir), contextlib.redirect_stdout(io.StringIO()):
        try:
            # The options go last: --logger takes every word that follows it.
            parser, args = cli.parse_args([*argv, "--dry-run", "--quiet", "all", "--cores", "1", "--logger", NAME])
            done = cli.args_to_api(args, parser)
        # Snakemake's own exceptions share no base class; the Snakefile exits on a config error.
        except (Exception, SystemExit) as exc:
            said = f"Snakemake exited with status {exc.code}" if isinstance(exc, SystemExit) and isinstance(
                exc.code, int) else str(exc)
            raise SnakemakeError("\n".join([said, *LogHandler.errors])) from exc
    if not done:
        raise SnakemakeError("\n".join(LogHandler.errors) or "Snakemake reported a failure and logged no error")
    return sorted(LogHandler.heard, key=lambda job: (job[0], sorted(job[1].items())))
