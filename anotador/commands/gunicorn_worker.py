"""``anotador serve``'s gunicorn worker: gunicorn's ``gthread`` worker, except that a request
arrives whole before a thread serves it, and gunicorn's own error answers carry the app's
security headers.

gunicorn's ``gthread`` worker waits for a connection's first byte in its poller, then hands
the connection to a thread that reads the request head (and the app the body) with blocking
reads. A client that sends a byte every few seconds keeps that thread for as long as it
likes: 13 such connections made ``/healthz`` time out for 40 s (issue 26). gunicorn has no
setting against it: its ``timeout`` is the worker's heartbeat (the main loop keeps beating),
``keepalive`` only covers idle connections between requests, and more threads only raise the
number of slow clients it takes. gunicorn's documentation says to put a buffering proxy in
front; a club's server exposed as it is has none.

So the worker's poller buffers: each connection's bytes are read there, without blocking,
until the request head and a body of known length up to :data:`BODY_BUFFER_LIMIT` have
arrived (:func:`arrival`); only then does a thread parse and serve it. A client that takes
longer than :data:`ARRIVAL_SECONDS` is dropped, one whose head passes :data:`HEAD_LIMIT`
gets a 431. What still reaches a thread before it has arrived whole (it cannot be buffered
with confidence): a chunked body, a body larger than :data:`BODY_BUFFER_LIMIT` (a restore's
upload, only for a signed-in account), a request that asks ``Expect: 100-continue``, and
everything over TLS or HTTP/2 (``anotador serve`` configures neither: a proxy terminates
TLS). Pipelined requests go through the buffer too.

Written against gunicorn 27's ``ThreadWorker`` (its ``enqueue_req``, ``handle`` and
``murder_pending`` hooks); ``tests/commands/test_slow_clients.py`` runs it for real.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import selectors
import time
from functools import partial
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from anotador.storage import config
from anotador.web import security

#: Seconds a request may take to arrive whole (head and buffered body) once its connection
#: is waiting for one; a slower client is disconnected. A form is a few kilobytes; a match
#: file of 1 MiB arrives in time at 9 kB/s. Waiting costs a socket, not a thread.
ARRIVAL_SECONDS = 120
#: Bytes of a request head at most (request line and headers; browsers send a few kB).
HEAD_LIMIT = 64 * 1024
#: Bodies up to the app's usual limit arrive in the poller; larger ones (a restore's upload)
#: are read by the thread, as the app streams them.
BODY_BUFFER_LIMIT = config.MAX_CONTENT_LENGTH
#: Bytes read from a socket at once.
CHUNK = 64 * 1024

TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    + b"".join(f"{name}: {value}\r\n".encode() for name, value in security.HEADERS.items())
    + b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
)


class Arrival(enum.Enum):
    WAITING = "waiting"
    ARRIVED = "arrived"
    TOO_LARGE = "too large"


def arrival(received: bytes) -> Arrival:
    """Whether the request at the start of ``received`` has arrived whole enough for a
    thread: its head, and its body when its length is known and small.

    A head with a chunked body, ``Expect`` or an unreadable length is handed on as it is:
    gunicorn's parser answers or refuses it.
    """
    end = received.find(b"\r\n\r\n")
    if end < 0:
        return Arrival.TOO_LARGE if len(received) > HEAD_LIMIT else Arrival.WAITING
    lengths = []
    for line in received[:end].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name in (b"transfer-encoding", b"expect"):
            return Arrival.ARRIVED
        if name == b"content-length":
            lengths.append(value.strip())
    if not lengths:
        return Arrival.ARRIVED
    if len(lengths) > 1 or not lengths[0].isdigit() or len(lengths[0]) > 12:
        return Arrival.ARRIVED
    length = int(lengths[0])
    if length > BODY_BUFFER_LIMIT or len(received) >= end + 4 + length:
        return Arrival.ARRIVED
    return Arrival.WAITING


class Arriving:
    """A connection whose next request is arriving: its bytes so far and its deadline."""

    def __init__(self, received: bytes = b"") -> None:
        self.received = bytearray(received)
        self.deadline = time.monotonic() + ARRIVAL_SECONDS


class BufferingThreadWorker(ThreadWorker):
    """gunicorn's ``gthread`` worker whose poller buffers each request (see the module)."""

    def init_process(self) -> None:
        #: Connections whose request is arriving, oldest deadline first.
        self.arriving: dict[Any, Arriving] = {}
        self.buffering = not self.cfg.is_ssl and self.cfg.http2_cleartext == "off"
        super().init_process()

    def enqueue_req(self, conn: Any) -> None:
        """Every connection about to be served (new, kept alive, or with a pipelined request
        behind the last) waits in the poller until its request has arrived."""
        if not self.buffering or getattr(conn, "arrived", None) is not None:
            super().enqueue_req(conn)
            return
        leftover = b""
        if conn.parser is not None:  # what the client sent behind the last request
            leftover = conn.parser.unreader.take_buffered()
        self.arriving[conn] = Arriving(leftover)
        if leftover and self.judge(conn):
            return
        conn.sock.setblocking(False)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_bytes, conn))

    def on_bytes(self, conn: Any, sock: Any) -> None:
        try:
            data = sock.recv(CHUNK)
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR):
                return
            data = b""
        if not data:  # the client went away
            self.drop(conn)
            return
        self.arriving[conn].received += data
        self.judge(conn)

    def judge(self, conn: Any) -> bool:
        """Hand ``conn`` to a thread once its request has arrived (or refuse it); whether
        it left the poller."""
        state = arrival(bytes(self.arriving[conn].received))
        if state is Arrival.WAITING:
            return False
        received = self.arriving.pop(conn).received
        self.unregister(conn)
        if state is Arrival.TOO_LARGE:
            self.refuse(conn)
            return True
        conn.arrived = bytes(received)
        conn.data_ready = True  # no wait for a first byte in the thread
        super().enqueue_req(conn)
        return True

    def handle(self, conn: Any) -> Any:
        arrived = getattr(conn, "arrived", None)
        if arrived is not None:
            conn.arrived = None
            conn.sock.setblocking(True)
            conn.init()
            conn.parser.unreader.unread(arrived)
        return super().handle(conn)

    def murder_pending(self) -> None:
        """Also disconnect the clients whose request is arriving too slowly."""
        super().murder_pending()
        now = time.monotonic()
        for conn in [c for c, arriving in self.arriving.items() if arriving.deadline <= now]:
            del self.arriving[conn]
            self.unregister(conn)
            self.drop(conn)

    def unregister(self, conn: Any) -> None:
        # Never registered, or already closed: nothing to undo.
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)

    def drop(self, conn: Any) -> None:
        if self.arriving.pop(conn, None) is not None:
            self.unregister(conn)
        self.nr_conns -= 1
        conn.close()

    def refuse(self, conn: Any) -> None:
        """A head larger than :data:`HEAD_LIMIT`: 431, with the app's headers, and close."""
        with contextlib.suppress(OSError):  # gone already
            conn.sock.send(TOO_LARGE)
        self.drop(conn)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: Any) -> None:
        """gunicorn's own answers (400 for a bad request line or header, 414 for a long URI,
        431 for long headers, 500 for an app that raised past Flask): with the security
        headers every answer of the app carries."""
        super().handle_error(req, HardenedSocket(client), addr, exc)


class HardenedSocket:
    """A client socket whose response head gets :data:`anotador.web.security.HEADERS` after
    its status line (what gunicorn's ``util.write_error`` writes through ``sendall``)."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def sendall(self, data: bytes) -> None:
        status_end = data.find(b"\r\n")
        if data.startswith(b"HTTP/") and status_end > 0:
            added = "".join(f"{name}: {value}\r\n" for name, value in security.HEADERS.items())
            data = data[: status_end + 2] + added.encode("latin-1") + data[status_end + 2 :]
        self._sock.sendall(data)
