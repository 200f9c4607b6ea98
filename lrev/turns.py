"""Lockstep groups: forks that run at once and take turns, so that their samples see the same host.

This host's speed drifts over seconds: a pointer chase through 512 MB varies by 14 % between 0.2 s windows, with
an autocorrelation of 0.69 at 0.4 s and 0.25 at 8 s, while a loop in registers varies by 1 % (docs/noise.md). Forks
timed one after another, each 15-20 s long, sample that drift independently, and it dominated the spread of a
paired ratio. The JVMs of a lockstep group start together; each runs its work only while it holds the group's one
turn, which the :class:`Conductor` grants one JVM at a time (the engine's ``Turns``), so the same series of every
contender is timed within a second of the others'.

Work goes in stages (0-9): stage 0, the timed samples, is granted first come first served, which makes it
round-robin; a request for a later stage waits until every member has asked for that stage or a later one, or has
exited. Nothing is granted before every member has asked for its first turn or exited: the JVMs' start-up (opening indexes,
reading queries) runs beside one another, never beside a timed sample. A member holds the turn from its grant to
its next request or its exit, and passes it on only once its JIT compiler threads are quiet (the engine's
``Turns.awaitQuietCompilers``): a JVM's counters do not see another's compilers running beside its sample.

Protocol, one TCP connection on localhost per member: the member sends ``M<id>\\n``, then for each turn an optional
``F`` (passing on the turn it holds) and a stage digit; the conductor answers ``G`` when the turn is its.
"""
from __future__ import annotations

import collections
import selectors
import socket
import threading

#: The JVM system property that carries a member's address (``port:member``) to the engine's ``Turns``.
PROPERTY = "lrev.turns"


class Conductor:
    """Grants the turns of one lockstep group of ``members`` (ids 0..members-1); use as a context manager. Call
    :meth:`exited` when a member's process has ended, whether or not it ever connected."""

    def __init__(self, members: int):
        if members < 1:
            raise ValueError(f"a lockstep group needs at least one member, not {members}")
        self.members = members
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._lock = threading.Lock()
        self._stage = dict.fromkeys(range(members), -1)  # -1: not yet asked for a turn; None: gone
        self._queue: collections.deque[tuple[int, int]] = collections.deque()  # (member, stage) asking
        self._conns: dict[int, socket.socket] = {}
        self._holder: int | None = None
        self.grants = 0
        self._wake_r, self._wake_w = socket.socketpair()
        self._closed = False
        #: What stopped the conductor, if anything did: its members then see their connection close.
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, name="turns", daemon=True)
        self._thread.start()

    def address(self, member: int) -> str:
        """What member ``member`` passes to its JVM as :data:`PROPERTY`."""
        return f"{self.port}:{member}"

    def flag(self, member: int) -> str:
        return f"-D{PROPERTY}={self.address(member)}"

    def exited(self, member: int) -> None:
        """Member ``member``'s process has ended: it holds no turn and blocks no stage."""
        with self._lock:
            self._gone(member)
        self._wake_w.send(b"x")

    def __enter__(self) -> Conductor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        self._wake_w.send(b"x")
        self._thread.join(timeout=5)
        for s in (self._server, self._wake_r, self._wake_w, *self._conns.values()):
            s.close()

    def _gone(self, member: int) -> None:
        self._stage[member] = None
        self._queue = collections.deque((m, s) for m, s in self._queue if m != member)
        if self._holder == member:
            self._holder = None

    def _eligible(self, stage: int) -> bool:
        live = [s for s in self._stage.values() if s is not None]
        return all(s >= stage for s in live) if stage > 0 else all(s >= 0 for s in live)

    def _grant(self) -> None:
        if self._holder is not None:
            return
        for i, (member, stage) in enumerate(self._queue):
            if self._eligible(stage):
                del self._queue[i]
                self._holder = member
                self.grants += 1
                self._conns[member].sendall(b"G")
                return

    def _serve(self) -> None:
        try:
            self._loop()
        except BaseException as err:  # the members' JVMs fail on the closed connection; the runner names this
            self.error = err
            for conn in self._conns.values():
                conn.close()

    def _loop(self) -> None:
        sel = selectors.DefaultSelector()
        sel.register(self._server, selectors.EVENT_READ)
        sel.register(self._wake_r, selectors.EVENT_READ)
        pending: dict[socket.socket, bytes] = {}
        owner: dict[socket.socket, int] = {}
        while not self._closed:
            for key, _ in sel.select():
                sock = key.fileobj
                if sock is self._server:
                    conn, _ = self._server.accept()
                    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    pending[conn] = b""
                    sel.register(conn, selectors.EVENT_READ)
                    continue
                if sock is self._wake_r:
                    sock.recv(64)
                    continue
                data = sock.recv(4096)
                with self._lock:
                    if not data:
                        sel.unregister(sock)
                        if sock in owner:
                            self._gone(owner.pop(sock))
                        pending.pop(sock, None)
                        continue
                    if sock in pending:  # the member's id line
                        pending[sock] += data
                        if b"\n" not in pending[sock]:
                            continue
                        line, _, data = pending.pop(sock).partition(b"\n")
                        member = int(line.decode().removeprefix("M"))
                        if member not in self._stage or member in self._conns:
                            raise RuntimeError(f"lockstep member {member} connected twice or is unknown")
                        owner[sock] = member
                        self._conns[member] = sock
                    self._read(owner[sock], data)
            with self._lock:
                self._grant()
        sel.close()

    def _read(self, member: int, data: bytes) -> None:
        for byte in data:
            if byte == ord("F"):
                if self._holder == member:
                    self._holder = None
            elif ord("0") <= byte <= ord("9"):
                stage = byte - ord("0")
                self._stage[member] = stage
                self._queue.append((member, stage))
            else:
                raise RuntimeError(f"lockstep member {member} sent {bytes([byte])!r}")
