"""The Python side of the bridge: what it hands to Java, without starting a JVM."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from lrev import bridge


@dataclass
class _Spec:
    index_path: str = "idx"
    buckets: list[int] = field(default_factory=list)
    concurrent_workloads: list[str] = field(default_factory=list)


def test_a_list_becomes_the_array_its_field_declares_even_when_empty(monkeypatch):
    monkeypatch.setattr(bridge, "java_ints", lambda v: ("int[]", list(v)))
    monkeypatch.setattr(bridge, "java_strings", lambda v: ("String[]", list(v)))
    java = bridge.java_spec(SimpleNamespace(), _Spec())
    assert java.buckets == ("int[]", []) and java.concurrentWorkloads == ("String[]", [])
    java = bridge.java_spec(SimpleNamespace(), _Spec(buckets=[2, 4], concurrent_workloads=["combined"]))
    assert java.indexPath == "idx"
    assert java.buckets == ("int[]", [2, 4]) and java.concurrentWorkloads == ("String[]", ["combined"])
