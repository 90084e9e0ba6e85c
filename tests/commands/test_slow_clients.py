"""Both real servers (``anotador run``: waitress; ``anotador serve``: gunicorn with
:mod:`anotador.commands.gunicorn_worker`) in a child process on a loopback port: clients trickling a
request byte by byte do not keep ``/healthz`` from answering, and the servers' own answers
to requests they cannot read carry the security headers.

No timing is asserted: ``/healthz`` must answer at all (within a socket timeout far longer
than any answer takes) while every trickling client still holds its connection. What it
takes is measured by ``benchmarks/slow_clients.py``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_serve import HANG_GUARD_SECONDS
from test_serve import free_port
from test_serve import get
from test_serve import wait_until_up

from anotador.web import security

pytestmark = pytest.mark.slow

#: The server command of each: waitress (``make run``) and gunicorn (one worker, 4 threads:
#: the fewest threads, the easiest to starve).
COMMANDS = {
    "run": "from anotador.commands.main import main; main(['run'])",
    "serve": "from anotador.commands.main import main; main(['serve'])",
}
TRICKLERS = 20
#: Seconds between two bytes of a trickling client.
TRICKLE_SECONDS = 1.0
#: A socket's patience in these tests: an answer takes milliseconds; a starved server never
#: answers while the tricklers hold on.
PATIENCE = 30


def start_server(command: str, tmp_path: Path) -> tuple[str, subprocess.Popen[bytes], Path]:
    port = free_port()
    log = tmp_path / f"{command}.log"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "SECRET_KEY", "WEB_CONCURRENCY"}
    }
    env.update(
        ANOTADOR_DATA=str(tmp_path / command),
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="1",
        PYTHONUNBUFFERED="1",
        LANG="it_IT.UTF-8",
    )
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-c", COMMANDS[command]],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    wait_until_up(f"{base}/healthz", server, log)
    return base, server, log


@pytest.fixture(scope="module", params=sorted(COMMANDS))
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str, Path]]:
    """``(command, base URL, log)`` of a running server."""
    command = request.param
    base, process, log = start_server(command, tmp_path_factory.mktemp(command))
    try:
        yield command, base, log
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=HANG_GUARD_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()


class Trickler(threading.Thread):
    """A client sending a request head one byte every :data:`TRICKLE_SECONDS`, never
    finishing it; ``failed`` if the server closed its connection meanwhile."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
        self.stop = stop
        self.sent = 0
        self.failed = False

    def run(self) -> None:
        head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000
        try:
            for byte in head:
                self.sock.sendall(bytes([byte]))
                self.sent += 1
                if self.stop.wait(TRICKLE_SECONDS):
                    return
        except OSError:
            self.failed = True
        finally:
            self.sock.close()


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def test_trickling_clients_leave_healthz_answering(server: tuple[str, str, Path]):
    command, base, log = server
    stop = threading.Event()
    tricklers = [Trickler(port_of(base), stop) for _ in range(TRICKLERS)]
    for trickler in tricklers:
        trickler.start()
    try:
        # Every trickler has sent part of its request: each would hold a thread by now.
        while min(trickler.sent for trickler in tricklers) < 3:
            time.sleep(0.1)
        answers = [get(f"{base}/healthz") for _ in range(5)]
        still_there = [not trickler.failed for trickler in tricklers]
    finally:
        stop.set()
        for trickler in tricklers:
            trickler.join(PATIENCE)

    assert [status for status, _headers, _body in answers] == [200] * 5, log.read_text()
    assert all(still_there)  # served while every slow client held its connection


def raw_answer(base: str, request: bytes) -> tuple[int, dict[str, str]]:
    """The status and headers a server answers ``request`` (bytes as sent) with."""
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=PATIENCE) as sock:
        sock.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    head = received.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
    return status, headers


MALFORMED = {
    "bad request line": (b"NOT HTTP AT ALL\r\n\r\n", {"serve": 400, "run": 400}),
    "long URI": (
        b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        {"serve": 414, "run": 404},  # waitress reads it: the app's 404
    ),
    "long header": (
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
        {"serve": 431, "run": 200},
    ),
    "huge head": (
        b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Big: " + b"a" * 8000 + b"\r\n" * 1
        + b"".join(b"X-More-%d: %s\r\n" % (n, b"b" * 8000) for n in range(40))
        + b"\r\n",
        {"serve": 431, "run": 431},
    ),
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_the_servers_own_answers_carry_the_security_headers(
    server: tuple[str, str, Path], kind: str
):
    command, base, log = server
    request, statuses = MALFORMED[kind]

    status, headers = raw_answer(base, request)

    assert status == statuses[command], log.read_text()[-2000:]
    for name, value in security.HEADERS.items():
        assert headers.get(name) == value, (name, headers)


def test_the_banner_speaks_the_machines_language(server: tuple[str, str, Path]):
    command, base, log = server
    text = log.read_text()
    assert "Cartella dei dati:" in text  # LANG=it_IT.UTF-8
    assert "Solo questo computer può aprirlo, su http://127.0.0.1:" in text
    assert "development server" not in text.lower()


def read_answers(sock: socket.socket, count: int) -> list[int]:
    """The statuses of the next ``count`` answers on ``sock`` (each with a Content-Length)."""
    received, statuses = b"", []
    while len(statuses) < count:
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            assert chunk, statuses
            received += chunk
        head, received = received.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        statuses.append(int(lines[0].split()[1]))
        length = next(
            int(line.split(":")[1]) for line in lines if line.lower().startswith("content-length")
        )
        while len(received) < length:
            received += sock.recv(65536)
        received = received[length:]
    return statuses


def test_kept_alive_and_pipelined_requests_are_all_answered(server: tuple[str, str, Path]):
    command, base, log = server
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=PATIENCE) as sock:
        sock.sendall(request)
        assert read_answers(sock, 1) == [200]
        for byte in request:  # the next request on the same connection, in pieces
            sock.sendall(bytes([byte]))
        assert read_answers(sock, 1) == [200]
        sock.sendall(request * 2 + request[:10])  # two and the start of a third
        assert read_answers(sock, 2) == [200, 200]
        sock.sendall(request[10:])
        assert read_answers(sock, 1) == [200]


@pytest.mark.parametrize(
    ("size", "status"),
    [
        (200_000, 400),  # read whole by the app: refused for its missing CSRF token
        (3 * 1024 * 1024, 413),  # larger than the app reads: refused unread
    ],
)
def test_a_posted_body_reaches_the_app(server: tuple[str, str, Path], size: int, status: int):
    command, base, log = server
    body = b"name=" + b"a" * (size - 5)
    head = (
        b"POST /cuenta/entrar HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=PATIENCE) as sock:
        sock.sendall(head + body[: size // 2])
        time.sleep(0.5)  # the rest of the body comes later
        with contextlib.suppress(OSError):  # refused before the whole body was read
            sock.sendall(body[size // 2 :])
        assert read_answers(sock, 1) == [status]
