"""Lockstep turns (lrev/turns.py) and the groups lrev.fork.run_rounds runs with them: who may time a sample when."""
from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from lrev import fork, turns


class Member:
    """A member as the engine's Turns speaks to the conductor."""

    def __init__(self, conductor: turns.Conductor, member: int):
        port, member_id = conductor.address(member).split(":")
        self.sock = socket.create_connection(("127.0.0.1", int(port)))
        self.sock.sendall(f"M{member_id}\n".encode())
        self.held = False

    def ask(self, stage: int) -> None:
        self.sock.sendall((b"F" if self.held else b"") + str(stage).encode())
        self.held = False

    def granted(self, timeout: float = 5.0) -> bool:
        self.sock.settimeout(timeout)
        try:
            got = self.sock.recv(1) == b"G"
        except socket.timeout:
            return False
        self.held = self.held or got
        return got

    def close(self) -> None:
        self.sock.close()


def test_nothing_is_granted_before_every_member_connected_then_samples_go_round_robin():
    with turns.Conductor(2) as conductor:
        a = Member(conductor, 0)
        a.ask(0)
        assert not a.granted(0.3), "a member's start-up must not overlap another's first sample"
        b = Member(conductor, 1)
        b.ask(0)
        assert a.granted() and not b.granted(0.3)
        a.ask(0)
        assert b.granted() and not a.granted(0.3), "the turn goes to the member that waited"
        b.ask(0)
        assert a.granted()
        a.close()
        assert b.granted(), "a member that exits passes its turn on"
        b.close()


def test_a_later_stage_waits_for_every_member_to_reach_it():
    with turns.Conductor(3) as conductor:
        members = [Member(conductor, i) for i in range(3)]
        for m in members:
            m.ask(0)
        assert members[0].granted()
        members[0].ask(1)  # done with its samples
        assert members[1].granted()
        members[1].ask(0)
        assert members[2].granted()
        members[2].ask(2)
        assert members[1].granted(), "stage 0 goes on while a member still samples"
        assert not members[0].granted(0.3)
        members[1].ask(1)
        assert members[0].granted(), "stage 1 once every member asked for it or a later one"
        members[0].ask(2)
        assert members[1].granted()
        members[1].close()
        assert members[2].granted() or members[0].granted()
        for m in members:
            m.close()


def test_a_member_that_never_connected_holds_nothing_up_once_it_exited():
    with turns.Conductor(2) as conductor:
        a = Member(conductor, 0)
        a.ask(0)
        assert not a.granted(0.3)
        conductor.exited(1)
        assert a.granted()
        a.close()


def test_a_group_needs_a_member():
    with pytest.raises(ValueError, match="at least one member"):
        turns.Conductor(0)


def _sampler(log: list, lock: threading.Lock, samples: int):
    """A job that connects as its JVM would (through the flag fork.run passes) and logs each sample's span."""
    def run(round_: int, out: Path) -> None:
        flag = fork.lockstep_flag()
        port, member = flag.split("=")[1].split(":")
        sock = socket.create_connection(("127.0.0.1", int(port)))
        sock.sendall(f"M{member}\n".encode())
        time.sleep(0.05 * int(member))  # start-ups of unlike length
        for i in range(samples):
            sock.sendall((b"F0" if i else b"0"))
            assert sock.recv(1) == b"G"
            start = time.monotonic()
            time.sleep(0.01)
            with lock:
                log.append((member, start, time.monotonic()))
        sock.close()
    return run


def test_run_rounds_runs_a_lockstep_group_at_once_and_its_samples_never_overlap(tmp_path):
    log: list = []
    lock = threading.Lock()
    jobs = [fork.Job(f"j{i}", _sampler(log, lock, 4), contender=f"j{i}", lockstep="g") for i in range(3)]
    fork.run_rounds(jobs, 1, 7, tmp_path, "fp", label="test")
    spans = sorted(log, key=lambda x: x[1])
    assert len(spans) == 12
    assert all(a[2] <= b[1] for a, b in zip(spans, spans[1:])), "two members timed at once"
    assert [len({s[0] for s in spans[k:k + 3]}) for k in range(0, 12, 3)] == [3] * 4, "turns go round-robin"
    seconds = [fork.read_json(tmp_path / "round-0" / f"j{i}" / fork.TIMING)["seconds"] for i in range(3)]
    assert all(s > 0 for s in seconds)
