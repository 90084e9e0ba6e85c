"""The real server for benchmarks: gunicorn on loopback (``anotador.commands.serve``), a seeded
temporary database, and a load generator.

:class:`LiveServer` seeds a temporary SQLite database (or ``DATABASE_URL``'s PostgreSQL when
``BENCH_DATABASE_URL`` is set), starts ``python -m benchmarks.server`` (the production
gunicorn settings; workers and threads given) in a child process, and stops it at the end.
:func:`load` sends requests from client threads for a while and returns each request's time
and status. The load generator is Python (``http.client``, keep-alive); it shares the machine's
cores with the server, so figures are ratios to ``/healthz`` measured under the same load.
"""

from __future__ import annotations

import contextlib
import dataclasses
import http.client
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flask_migrate

from anotador import create_app
from anotador.commands import serve as production
from anotador.storage.database import db

SECRET = "benchmark-secret-" + "x" * 32
#: The account a benchmark's seed makes and its phones sign in as (:meth:`LiveServer.sign_in`).
ACCOUNT = "Club"
PASSWORD = "a benchmark password"
READY_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclasses.dataclass
class LiveServer:
    """A seeded database and gunicorn serving it on loopback (a context manager)."""

    seed: Callable[[Any], Any]
    workers: int = 2
    threads: int = production.THREADS
    #: On /dev/shm when there is one (a commit's fsync aside); False: the disk's temp folder.
    in_memory: bool = True
    port: int = dataclasses.field(default_factory=free_port)
    seeded: Any = None
    process: subprocess.Popen[bytes] | None = None
    folder: Path = Path()

    def __enter__(self) -> LiveServer:
        shm = Path("/dev/shm")
        memory = self.in_memory and shm.is_dir()
        self.folder = Path(tempfile.mkdtemp(dir=shm if memory else None))
        url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{self.folder / 'live.db'}"
        env = {**os.environ, "ANOTADOR_DATA": str(self.folder), "SECRET_KEY": SECRET}
        env["DATABASE_URL"] = url
        app = create_app({"SQLALCHEMY_DATABASE_URI": url}, instance_path=self.folder)
        app.config["SECRET_KEY"] = SECRET
        with app.app_context():
            if db.engine.dialect.name == "postgresql":
                with db.engine.begin() as connection:
                    connection.exec_driver_sql("DROP SCHEMA public CASCADE")
                    connection.exec_driver_sql("CREATE SCHEMA public")
            flask_migrate.upgrade()
            self.seeded = self.seed(app)
            db.session.remove()
            db.engine.dispose()
        command = [sys.executable, "-m", "benchmarks.server", str(self.port)]
        command += [str(self.workers), str(self.threads)]
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if request(self.port, "GET", "/healthz")[0] == 200:
                    return self
            time.sleep(0.2)
        self.__exit__()
        raise RuntimeError("the benchmark server did not start")

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for path in sorted(self.folder.rglob("*"), reverse=True):
            path.rmdir() if path.is_dir() else path.unlink()
        self.folder.rmdir()

    def sign_in(self, name: str = ACCOUNT, password: str = PASSWORD) -> str:
        """The ``Cookie`` header of a browser signed in as ``name`` through the sign-in form:
        what a real phone sends with every later request (the session Flask-Login made for
        this client and the remember cookie), so no request pays for a session the app has
        to rewrite."""
        page = "/cuenta/entrar"
        status, headers, html = request(self.port, "GET", page)
        assert status == 200, status
        form = {"csrf_token": hidden_field(html, "csrf_token"), "name": name, "password": password}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(
                "POST",
                page,
                body=urllib.parse.urlencode(form),
                headers={"Cookie": session_of(headers, ""), "Content-Type": FORM_TYPE},
            )
            response = conn.getresponse()
            response.read()
            assert response.status == 303, response.status
            cookies = [value for key, value in response.getheaders() if key == "Set-Cookie"]
        finally:
            conn.close()
        return "; ".join(cookie.split(";", 1)[0] for cookie in cookies)


Sample = tuple[float, int]  # seconds, status
FORM_TYPE = "application/x-www-form-urlencoded"


def request(
    port: int,
    method: str,
    path: str,
    body: str | None = None,
    headers: dict[str, str] | None = None,
    connection: http.client.HTTPConnection | None = None,
) -> tuple[int, dict[str, str], bytes]:
    own = connection is None
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    sent = dict(headers or {})
    if body is not None:
        sent["Content-Type"] = FORM_TYPE
    try:
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        data = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data
    finally:
        if own:
            conn.close()


Client = Callable[[http.client.HTTPConnection], int]


def load(port: int, clients: list[Client], seconds: float) -> list[Sample]:
    """Each client (a function sending one request on a kept-alive connection and returning
    its status) runs in its own thread, over and over, for ``seconds``."""
    samples: list[Sample] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def loop(client: Client) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine: list[Sample] = []
        while time.monotonic() < stop:
            start = time.perf_counter()
            try:
                status = client(conn)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                status = 599
            mine.append((time.perf_counter() - start, status))
        conn.close()
        with lock:
            samples.extend(mine)

    threads = [threading.Thread(target=loop, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples


def getter(path: str, cookie: str | None = None, status: int = 200, **extra: str) -> Client:
    """Clients asking for ``path`` over and over, keeping the session cookie the server sets
    as a browser does (a page that adds to the session, its CSRF token say, does it once)."""
    headers = {"Cookie": cookie} if cookie else {}
    headers.update({name.replace("_", "-"): value for name, value in extra.items()})

    def get(conn: http.client.HTTPConnection) -> int:
        got, answered, _ = request(0, "GET", path, headers=headers, connection=conn)
        assert got == status, (path, got)
        if cookie:
            headers["Cookie"] = kept_session(headers["Cookie"], answered)
        return got

    return get


def kept_session(cookie: str, headers: dict[str, str]) -> str:
    """The ``Cookie`` header ``cookie`` with the session a response set in its place."""
    session = session_of(headers, "")
    if not session:
        return cookie
    others = [part for part in cookie.split("; ") if not part.startswith("session=")]
    return "; ".join([*others, session])


@dataclasses.dataclass(frozen=True)
class Figure:
    """Request times: median and interquartile range in milliseconds, p99, throughput."""

    median: float
    iqr: float
    p99: float
    per_second: float
    count: int
    errors: int

    @classmethod
    def of(cls, samples: list[Sample], seconds: float) -> Figure:
        times = sorted(t * 1000 for t, _ in samples) or [0.0]
        quartiles = statistics.quantiles(times, n=4) if len(times) > 1 else [times[0]] * 3
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        errors = sum(status >= 500 for _, status in samples)
        return cls(
            statistics.median(times),
            quartiles[2] - quartiles[0],
            p99,
            len(samples) / seconds,
            len(samples),
            errors,
        )

    def text(self) -> str:
        return (
            f"median {self.median:.2f} ms (IQR {self.iqr:.2f}), p99 {self.p99:.1f} ms, "
            f"{self.per_second:.0f} req/s"
        )


def measure(port: int, clients: list[Client], seconds: float) -> Figure:
    return Figure.of(load(port, clients, seconds), seconds)


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "OVER"


def hidden_field(html: bytes, name: str) -> str:
    found = re.search(rb'name="' + name.encode() + rb'"[^>]*value="([^"]*)"', html)
    assert found, name
    return found.group(1).decode()


def session_of(headers: dict[str, str], fallback: str) -> str:
    cookie = headers.get("set-cookie", "")
    found = re.match(r"(session=[^;]+)", cookie)
    return found.group(1) if found else fallback


def hand_saver(port: int, match_id: int, cookie: str, form: dict[str, str]) -> Client:
    """A phone recording hands into one match: it reads the form once (its CSRF token and
    the version), then posts hands, each with a fresh request key and the next version."""
    path = f"/partidas/{match_id}/manos/nueva"
    status, headers, html = request(port, "GET", path, headers={"Cookie": cookie})
    assert status == 200, status
    state = {
        "cookie": session_of(headers, cookie),
        "csrf": hidden_field(html, "csrf_token"),
        "version": int(hidden_field(html, "version")),
    }

    def save(conn: http.client.HTTPConnection) -> int:
        data = {
            **form,
            "csrf_token": str(state["csrf"]),
            "version": str(state["version"]),
            "request_key": secrets.token_hex(16),
            "action": "save",
        }
        body = "&".join(f"{key}={value}" for key, value in data.items())
        got, headers, _ = request(
            0, "POST", path, body, {"Cookie": str(state["cookie"])}, connection=conn
        )
        if got == 302:
            # The session keeps the cookie it had: the planilla the phone is redirected to
            # shows the "hand saved" message and takes it out again.
            state["version"] = int(state["version"]) + 1
        return got

    return save


def main(port: int, workers: int, threads: int) -> None:
    """The child process: the production gunicorn settings, quiet, on loopback."""
    app = create_app()
    options = production.gunicorn_options(app, "127.0.0.1", port, workers, lambda _: None)
    options.update(threads=threads, accesslog=None, when_ready=lambda arbiter: None)
    production.Server(app, options).run()


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:4]))
