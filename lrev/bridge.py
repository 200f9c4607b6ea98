"""The thin JPype bridge: one JVM, for one study's engine on one Lucene version, per Python process.

JPype cannot restart a JVM, so a process that has started Lucene X can never load Lucene Y; ``start``
refuses a second version (or another study's engine) instead of failing later in a confusing way.
Results come back from Java as a columnar ``org.lucenerevisited.engine.harness.Table`` and cross the
bridge one column per call (:func:`frame`), never one call per sample.
"""
from __future__ import annotations

import os
import re
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path
from typing import Iterator

import jpype
import jpype.imports  # noqa: F401  (enables `from org.apache… import …` after start)
import numpy as np
import pandas as pd
from tqdm import tqdm

from lrev import engine, jdk
from lrev.config import major

#: The environment variable that carries the config's ``heap`` to every fork (the Snakefile sets it): a variable,
#: not a job parameter, so that changing the heap reruns no finished job.
HEAP_ENV = "LREV_HEAP"
#: Extra JVM flags for every fork, appended to :func:`jvm_flags` (docs/noise.md measures candidates this way); every
#: fork records the flags it ran with.
EXTRA_FLAGS_ENV = "LREV_JVM_FLAGS"
DEFAULT_HEAP = "4g"
#: The young generation's fixed size (see :func:`jvm_flags`), at most a quarter of the heap.
YOUNG = "512m"
#: The collectors a JVM can run (see :func:`jvm_flags`): every measurement runs the parallel one unless a study
#: names another for a contender of its own (:func:`lrev.fork.run`).
COLLECTORS = ("parallel", "g1")
PARALLEL = "parallel"
#: java's exit status under ``-XX:+ExitOnOutOfMemoryError``.
OUT_OF_HEAP_EXIT = 3
_SIZE = re.compile(r"^([1-9][0-9]*)([kKmMgG])$")
_running: dict[str, object] = {}


class OutOfHeapError(RuntimeError):
    """A JVM ran out of its heap: the run stops, naming what ran out, rather than measure a thrashing JVM."""


def heap() -> str:
    """The heap every JVM of this process and its forks gets: ``$LREV_HEAP``, else :data:`DEFAULT_HEAP`."""
    value = os.environ.get(HEAP_ENV, DEFAULT_HEAP)
    if not _SIZE.match(value):
        raise ValueError(f"${HEAP_ENV}={value!r} is not a JVM heap size such as 4g or 512m (the config key `heap`)")
    return value


def size_bytes(size: str) -> int:
    """A JVM size such as ``4g`` or ``512m``, in bytes."""
    number, unit = _SIZE.match(size).groups()
    return int(number) << {"k": 10, "m": 20, "g": 30}[unit.lower()]


def young(heap_size: str) -> str:
    """:data:`YOUNG`, or a quarter of a heap too small for it (a young generation as large as the heap is invalid)."""
    quarter = size_bytes(heap_size) // 4
    return YOUNG if quarter >= size_bytes(YOUNG) else f"{max(quarter >> 10, 1024)}k"


def jvm_flags(version: str, java_home: Path, collector: str = PARALLEL) -> list[str]:
    """Flags for Lucene ``version``: fixed heap (stable footprints; :func:`heap` by default) with a fixed young
    generation, the parallel collector, native access, and the vector module on 9+. With ``collector`` ``g1``,
    G1 as production runs it instead: the JDK's default collector, sizing its own young generation. A JVM out of
    heap exits at once (:data:`OUT_OF_HEAP_EXIT`), whichever thread ran out: a load thread that died of it would
    leave a measurement running on without it.

    A fixed young generation (512 MB, no adaptive resizing): before timing, the engine allocates until
    one collection has run, which makes every page of eden resident (``YoungGeneration``); a collector
    free to resize its generations would move allocation onto pages never touched, whose first write is
    a page fault. FST50 on 9.12.3 allocates about 4 GB/s while it looks keys up: without this it ran at
    ~1.5M lookups/s for its first second, then ~5.5M/s with dips to ~2.8M/s; with it, 5.3-5.5M/s from
    the first second on (0.25 s steps over 7 s, two JVMs each). Pre-touching the whole heap
    (``AlwaysPreTouch``) did as well, but costs about 1 s per GB at every JVM start.

    Parallel GC, not the JDK's default G1: under G1, FST-based formats slowed down several-fold within
    one JVM once readers had been opened and closed a few times (FST50 on 10.5.1: about 1.8M, then
    0.3M lookups/s over eight 1 s runs of the plain loop; under Parallel GC 2-3.5M throughout).
    Parallel was also the JDK's default collector in the seed's era. A study may measure a contender under G1
    too, in forks of its own.
    """
    if collector not in COLLECTORS:
        raise ValueError(f"unknown collector {collector!r}: one of {', '.join(COLLECTORS)}")
    size = heap()
    gc = (["-XX:+UseG1GC"] if collector == "g1"
          else [f"-Xmn{young(size)}", "-XX:+UseParallelGC", "-XX:-UseAdaptiveSizePolicy"])
    flags = [f"-Xms{size}", f"-Xmx{size}", *gc, "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED"]
    if major(version) >= 9 and jdk.has_module(java_home, "jdk.incubator.vector"):
        flags.append("--add-modules=jdk.incubator.vector")  # one token: JNI takes no separate values
    return flags + os.environ.get(EXTRA_FLAGS_ENV, "").split()


def start(version: str, study: str, collector: str = PARALLEL, java: int | None = None) -> list[str]:
    """Start the JVM with the engine of ``study`` built for ``version`` under ``collector``, on the JDK of feature
    version ``java`` (None: the default JDK, :func:`lrev.jdk.find_jdk`); returns the JVM flags used."""
    if jpype.isJVMStarted():
        wanted = (version, study, collector, java)
        if tuple(_running.get(k) for k in ("version", "study", "collector", "java")) != wanted:
            raise RuntimeError(f"this process already runs the {_running.get('study')} engine on Lucene "
                               f"{_running.get('version')} ({_running.get('collector')}, JDK "
                               f"{_running.get('java') or 'default'}); JPype cannot start a second JVM for {study} on "
                               f"{version} ({collector}, JDK {java or 'default'}): use a new process (lrev.fork)")
        return list(_running["flags"])
    home = jdk.find_jdk(java)  # None: the default JDK
    flags = jvm_flags(version, home, collector)
    jpype.startJVM(str(jdk.libjvm(home)), *flags, classpath=engine.classpath(study, version),
                   convertStrings=False)
    _running.update(version=version, study=study, collector=collector, java=java, flags=flags, java_home=str(home))
    reported = str(jpype.JClass("org.lucenerevisited.engine.EngineInfo").luceneVersion())
    if reported != version:
        raise RuntimeError(f"engine for {version} loaded Lucene {reported}: "
                           f"{engine.build_dir(study, version)} is stale")
    return flags


def turn(stage: int) -> None:
    """Wait for this JVM's turn at ``stage`` of its lockstep group (:mod:`lrev.turns`), passing on the one it holds;
    a JVM that runs alone goes on at once."""
    jpype.JClass("org.lucenerevisited.engine.harness.Turns").enterShared(stage)


def java_command(version: str, study: str, main_class: str, args: list[str]) -> list[str]:
    """A plain ``java`` command line (no JPype) running ``main_class`` of ``study``'s engine for ``version``,
    with the measurement JVMs' flags: for code that must run alone, sharing nothing with the harness."""
    home = jdk.find_jdk()
    return [str(home / "bin" / "java"), *jvm_flags(version, home), "-cp",
            ":".join(engine.classpath(study, version)), main_class, *args]


def java_strings(values: list[str]) -> object:
    return jpype.JArray(jpype.JString)([str(v) for v in values])


def java_ints(values: list[int]) -> object:
    return jpype.JArray(jpype.JInt)(np.asarray(values, dtype=np.int32))


def java_spec(java: object, spec: object) -> object:
    """Copies each field of the dataclass ``spec`` to the same-named camelCase public field of the Java
    object ``java`` (a ``list[int]`` field as a Java int array, any other list as a String array, by the
    field's declared type, so that an empty list converts too); returns ``java``."""
    for f in fields(spec):
        value = getattr(spec, f.name)
        if isinstance(value, list):
            value = java_ints(value) if str(f.type).replace(" ", "") == "list[int]" else java_strings(value)
        head, *rest = f.name.split("_")
        setattr(java, head + "".join(w.capitalize() for w in rest), value)
    return java


def frame(table: object) -> pd.DataFrame:
    """A Java ``Table`` as a DataFrame, one bridge call per column."""
    columns = {}
    for name in map(str, table.columnNames()):
        kind = str(table.columnType(name))
        if kind == "long":
            columns[name] = np.asarray(table.longs(name), dtype=np.int64)
        elif kind == "double":
            columns[name] = np.asarray(table.doubles(name), dtype=np.float64)
        else:
            columns[name] = [str(s) for s in table.strings(name)]
    return pd.DataFrame(columns)


def engine_info() -> dict[str, object]:
    info = jpype.JClass("org.lucenerevisited.engine.EngineInfo")
    return {
        "lucene_version": str(info.luceneVersion()),
        "java_version": str(info.javaVersion()),
        "java_vendor": str(info.javaVendor()),
        "jvm_arguments": [str(a) for a in info.jvmInputArguments()],
        "java_home": _running.get("java_home"),
        "postings_formats": sorted(str(f) for f in info.availablePostingsFormats()),
        "vm_options": vm_options(),
    }


#: HotSpot options the flags leave to the JVM's ergonomics, which size them from the cores it sees: the JIT's and
#: the collector's threads compete with the timed thread for the same cores.
ERGONOMIC_OPTIONS = ("CICompilerCount", "ParallelGCThreads", "ConcGCThreads", "UseTransparentHugePages",
                     "UseCompressedOops", "TieredCompilation", "MaxHeapSize")


def vm_options() -> dict[str, str | None]:
    """The values the running JVM chose for :data:`ERGONOMIC_OPTIONS`, as HotSpot's diagnostic bean reports them."""
    management = jpype.JClass("java.lang.management.ManagementFactory")
    bean = management.getPlatformMXBean(jpype.JClass("com.sun.management.HotSpotDiagnosticMXBean"))
    return {name: _vm_option(bean, name) for name in ERGONOMIC_OPTIONS}


def _vm_option(bean: object, name: str) -> str | None:
    """One option's value, or None where this JVM has no such option: provenance must not stop a measurement."""
    try:
        return str(bean.getVMOption(name).getValue())
    except jpype.JException:
        return None


class JavaHandle:
    """A Python handle on one Java object that holds resources (an open index): closed on leaving a ``with``."""

    def __init__(self, java: object):
        self._java = java

    def close(self) -> None:
        self._java.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextmanager
def progress(desc: str) -> Iterator[object]:
    """A Java ``Progress`` that drives a tqdm bar (one bar per stage the engine reports)."""
    bars: dict[str, tqdm] = {}

    @jpype.JImplements("org.lucenerevisited.engine.harness.Progress")
    class _Progress:
        @jpype.JOverride
        def report(self, stage, done, total):
            stage = str(stage)
            bar = bars.get(stage)
            if bar is None:
                bar = bars[stage] = tqdm(total=int(total), desc=f"{desc}: {stage}", leave=False)
            bar.n = int(done)
            bar.refresh()

    try:
        yield _Progress()
    finally:
        for bar in bars.values():
            bar.close()
