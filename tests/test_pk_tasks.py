"""A contender's fork measures the seed's setting first and alone, then its other conditions together."""
from __future__ import annotations

import pandas as pd

from lrev import config
from lrev.pk import layout, tasks


def test_the_seed_setting_is_warmed_and_measured_alone_before_the_other_conditions(monkeypatch, tmp_path):
    pk = config.load({"scale": "default"}).study("pk")
    calls, warmups = [], []

    def fake_lookups(spec):
        calls.append(list(zip(spec.labels, spec.threads, spec.contenders)))
        warmups.append(spec.min_warmup_iterations)
        return pd.DataFrame({"contender": spec.contenders, "series": spec.labels})

    monkeypatch.setattr(tasks.engine, "lookups", fake_lookups)
    out = tasks.measure(str(tmp_path), "9.12.3", 0, "default-aa", pk)

    seed = (layout.condition_label(layout.seed_condition(pk)), layout.SEED_SETTING["threads"], "default-aa")
    every = {(layout.condition_label(c), t, "default-aa") for c in pk["conditions"] for t in c["threads"]}
    assert calls[0] == [seed]
    assert len(calls) == 2 and set(calls[1]) == every - {seed}
    assert list(out) == ["lookups"] and len(out["lookups"]) == len(every)
    # The cold JVM's first phase warms up for seed_warmup_s at least; the warm one for min_warmup.
    assert warmups == [max(pk["min_warmup"], -(-pk["seed_warmup_s"] * 1000 // pk["iteration_ms"])), pk["min_warmup"]]
    assert warmups[0] > warmups[1]


def test_a_g1_contender_runs_its_format_in_a_g1_jvm_and_is_labelled_as_itself(monkeypatch, tmp_path):
    from lrev import bridge, fork
    from lrev.pk import forks

    pk = config.load({"scale": "default"}).study("pk")
    seen = []

    def fake_lookups(spec):
        seen.extend(zip(spec.contenders, spec.index_paths))
        return pd.DataFrame({"contender": spec.contenders, "series": spec.labels})

    def fake_footprint(names, paths, keys):
        seen.extend(zip(names, paths))
        return pd.DataFrame({"contender": names})

    monkeypatch.setattr(tasks.engine, "lookups", fake_lookups)
    monkeypatch.setattr(tasks.engine, "footprint", fake_footprint)
    out = tasks.measure(str(tmp_path), "10.6.0", 0, "FST50@G1", pk)
    # The engine reads FST50's index as FST50; every row says FST50@G1; no NRT reopen of its own.
    assert {name for name, _ in seen} == {"FST50", layout.BASELINE}
    assert all(f"/{name}/" in path for name, path in seen)
    assert set(out) == {"lookups", "footprint"}
    assert set(out["lookups"]["contender"]) == {"FST50@G1"}
    assert set(out["footprint"]["contender"]) == {"FST50@G1", layout.BASELINE}
    # Its keys are FST50's: the same workload, only the JVM differs.
    assert tasks._seed(pk, 0, layout.engine_name("FST50@G1")) == tasks._seed(pk, 0, "FST50")

    collectors = {}
    monkeypatch.setattr(fork, "run", lambda task, version, payload, out, collector="parallel", java=None:
                        collectors.setdefault(payload["contender"], collector))
    for job in forks.jobs(tmp_path, "10.6.0", pk):
        if job.name.startswith("alone-"):
            job.run(0, tmp_path)
    assert collectors["FST50@G1"] == "g1" and collectors["FST50"] == "parallel"
    assert {layout.collector(c) for c in collectors} <= set(bridge.COLLECTORS)


def test_each_rung_of_the_ladder_is_timed_in_a_cold_jvm_of_its_own_and_reads_no_footprint(monkeypatch, tmp_path):
    # A rung timed in the top rung's JVM, after its other conditions, read that JVM's compiled state as well as its
    # size: each rung is a fork of its own, warmed up as the seed's setting on the top rung.
    from lrev.pk import forks, results

    pk = layout.for_version(config.load({"scale": "default"}).study("pk"), "4.10.4")
    calls, specs, footprints = [], [], []

    def fake_lookups(spec):
        calls.append([(label, path) for label, path in zip(spec.labels, spec.index_paths)])
        specs.append(spec)
        return pd.DataFrame({"contender": spec.contenders, "series": spec.labels})

    def fake_footprint(names, paths, keys):
        footprints.extend(paths)
        return pd.DataFrame({"contender": names})

    monkeypatch.setattr(tasks.engine, "lookups", fake_lookups)
    monkeypatch.setattr(tasks.engine, "footprint", fake_footprint)
    monkeypatch.setattr(tasks, "_reopen", lambda *a: pd.DataFrame({"contender": ["Memory"]}))
    ladder = [f"{layout.LADDER_PREFIX}{n}" for n in pk["ladder"]["docs"]]
    assert ladder and "Memory" in pk["ladder"]["contenders"]
    tasks.measure(str(tmp_path), "4.10.4", 0, "Memory", pk)
    assert not any(layout.LADDER_PREFIX in label for call in calls for label, _ in call), "the top rung's JVM"
    assert not any(f"/{corpus}/" in path for path in footprints for corpus in ladder)

    calls.clear()
    specs.clear()
    out = tasks.rung(str(tmp_path), "4.10.4", 0, "Memory", ladder[0], pk)
    assert [[label.split("/")[0] for label, _ in call] for call in calls] == [[ladder[0]]]
    assert f"/{ladder[0]}/Memory/multi" in calls[0][0][1]
    assert specs[0].min_warmup_iterations == layout.cold_warmup(pk, 1), "as cold as the top rung's seed series"
    assert set(out) == {"lookups"} and set(out["lookups"]["contender"]) == {"Memory"}

    names = [job.name for job in forks.jobs(tmp_path, "4.10.4", pk)]
    rungs = sorted(n for n in names if n.startswith(results.RUNG))
    assert rungs == sorted(results.rung_fork(c, corpus) for c in pk["ladder"]["contenders"] for corpus in ladder)
    assert not any(n.startswith(results.RUNG) for n in (j.name for j in forks.jobs(tmp_path, "4.10.4", {
        **pk, "contenders": {"4.10.4": ["default", "Memory+seekCeil"]}, "ladder": {"docs": [], "contenders": []}})))
