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
