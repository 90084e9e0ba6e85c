"""200 live viewers on one match: what they cost the server while nothing happens, and how
long a saved hand takes to reach the last of them (the issue's target: 3 s).

The real server: ``anotador serve`` (gunicorn, gthread workers) in a child process on
loopback, 2 workers, a SQLite database in a new data folder. Each viewer is what
``static/js/live.js`` does on a spectator link's planilla, over one keep-alive connection of
its own (raw HTTP on asyncio): GET the match's version page with If-None-Match, wait
``INTERVAL`` after each answer, and on a new version GET the planilla (the page the script
swaps in). Reports, beside their targets:

- requests per second while idle, and the CPU the server's processes (the gunicorn master
  and its workers, from /proc) spent meanwhile, as a percentage of one core;
- over several saves (each records the next hand through the use case, in this process,
  on the same database: the update travels through the database), the time from the save's
  commit to the last viewer holding the new version, and to the last one holding the new
  planilla: median and spread (interquartile range), and the worst.

The viewers share the machine (2 cores here) with the server: the figures include that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from flask import Flask

from anotador import create_app
from anotador import services
from anotador.commands.startup import prepare
from benchmarks.hand_save import create
from benchmarks.hand_save import spread

VIEWERS = 200
#: static/js/live.js's INTERVAL: the wait after each answer before the next poll.
INTERVAL = 1.0
WORKERS = 2
IDLE_SECONDS = 10.0
SAVES = 8
TARGET_SECONDS = 3.0
SERVE = f"from anotador.commands.main import main; main(['serve', '--workers', '{WORKERS}'])"
HAND = {
    "end": "stock_out",
    "sides": [{"table_points": 50, "hand_points": 45}, {"table_points": 55, "hand_points": 40}],
}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Viewer:
    """One phone: its session cookie, the version it holds and when it got each one."""

    cookie: str
    version: int = -1
    polls: int = 0
    seen: dict[int, float] = field(default_factory=dict)
    shown: dict[int, float] = field(default_factory=dict)


class Connection:
    """One keep-alive HTTP/1.1 connection to the server."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def get(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        found: dict[str, str] = {}
        for line in header_lines:
            if line:
                name, _, value = line.partition(":")
                found.setdefault(name.strip().lower(), value.strip())
        length = int(found.get("content-length", "0"))
        body = await self.reader.readexactly(length) if length else b""
        return int(status_line.split()[1]), found, body

    def close(self) -> None:
        self.writer.close()


async def open_link(port: int, link: str) -> str:
    """The session cookie a phone gets by opening the spectator link."""
    connection = await Connection.open(port)
    try:
        status, headers, _ = await connection.get(link, {})
    finally:
        connection.close()
    assert status == 303, status
    cookie = re.match(r"session=[^;]+", headers["set-cookie"])
    assert cookie, headers
    return cookie.group(0)


async def follow(viewer: Viewer, port: int, match_id: int, stop: asyncio.Event) -> None:
    """Poll like live.js until ``stop``; a new version fetches the planilla."""
    connection = await Connection.open(port)
    await asyncio.sleep(random.uniform(0, INTERVAL))  # the phones did not open at once
    try:
        while not stop.is_set():
            headers = {"Cookie": viewer.cookie, "Accept": "application/json"}
            if viewer.version >= 0:
                headers["If-None-Match"] = f'"v{viewer.version}"'
            status, _, body = await connection.get(f"/partidas/{match_id}/version", headers)
            viewer.polls += 1
            if status == 200:
                version = json.loads(body)["version"]
                viewer.seen.setdefault(version, time.monotonic())
                page_headers = {"Cookie": viewer.cookie, "Accept": "text/html"}
                status, _, _ = await connection.get(f"/partidas/{match_id}", page_headers)
                assert status == 200, status
                viewer.shown.setdefault(version, time.monotonic())
                viewer.version = version
            else:
                assert status == 304, status
            await asyncio.sleep(INTERVAL)
    finally:
        connection.close()


def server_processes(master: int) -> list[int]:
    """The gunicorn master (the ``anotador serve`` process) and its workers."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
                if int(fields[1]) == master:
                    children.append(int(entry.name))
    return [master, *children]


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time of ``pids`` so far."""
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def served(folder: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env.update(ANOTADOR_DATA=str(folder), HOST="127.0.0.1", PORT=str(port))
    log = folder / "serve.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVE], env=env, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60
        while log.read_bytes().count(b"Booting worker") < WORKERS:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"anotador serve did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield server
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def stored_match(folder: Path) -> tuple[Flask, int, str]:
    """The server's app (for the saves), a match and its spectator link."""
    os.environ["ANOTADOR_DATA"] = str(folder)
    try:
        app = create_app()
    finally:
        del os.environ["ANOTADOR_DATA"]
    prepare(app, echo=lambda line: None)
    with app.app_context():
        match_id = create(3)
        match = services.queries.load_match(match_id)
        assert match is not None
        token = services.sharing.set_link(match, "spectator", True)
    return app, match_id, f"/enlace/{token}"


def save(app: Flask, match_id: int) -> tuple[int, float]:
    """Record the next hand; its version and when it was committed."""
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        outcome = services.hands.record_hand(match, HAND, match.version, None)
        assert outcome.ok, outcome
        return match.version, time.monotonic()


async def measure(app: Flask, port: int, master: int, match_id: int, link: str) -> list[str]:
    viewers = [Viewer(await open_link(port, link)) for _ in range(VIEWERS)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(follow(v, port, match_id, stop)) for v in viewers]
    while any(v.version < 0 for v in viewers):  # every phone has its planilla
        await asyncio.sleep(0.2)
    await asyncio.sleep(2 * INTERVAL)

    pids = server_processes(master)
    polls, cpu, start = sum(v.polls for v in viewers), cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(IDLE_SECONDS)
    elapsed = time.monotonic() - start
    rate = (sum(v.polls for v in viewers) - polls) / elapsed
    idle_cpu = 100 * (cpu_seconds(pids) - cpu) / elapsed

    seen, shown = [], []
    for _ in range(SAVES):
        version, committed = await asyncio.to_thread(save, app, match_id)
        deadline = committed + 10 * TARGET_SECONDS
        while any(version not in v.shown for v in viewers) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        missing = sum(version not in v.shown for v in viewers)
        assert not missing, f"{missing} viewers never saw version {version}"
        seen.append(max(v.seen[version] for v in viewers) - committed)
        shown.append(max(v.shown[version] for v in viewers) - committed)
        await asyncio.sleep(random.uniform(1, 2) * INTERVAL)
    stop.set()
    await asyncio.gather(*tasks)

    expected = VIEWERS / INTERVAL
    load = os.getloadavg()[0]
    return [
        f"live: {VIEWERS} viewers polling every {INTERVAL:g} s, {WORKERS} gthread workers, "
        f"SQLite, loopback; {os.cpu_count()} cores, load average {load:.1f} at the end",
        f"live: idle, {rate:.0f} requests/s (about {expected:.0f}/s expected at this interval; "
        "no target in the issue)",
        f"live: idle, server CPU {idle_cpu:.1f}% of one core (master and workers, /proc; "
        "no target in the issue)",
        f"live: save to the last viewer's new version: median {statistics.median(seen):.2f} s, "
        f"spread {spread(seen):.2f} s, worst {max(seen):.2f} s (target: at most "
        f"{TARGET_SECONDS:g} s)",
        f"live: save to the last viewer's new planilla: median {statistics.median(shown):.2f} s, "
        f"spread {spread(shown):.2f} s, worst {max(shown):.2f} s (target: at most "
        f"{TARGET_SECONDS:g} s)",
    ]


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        app, match_id, link = stored_match(folder)
        port = free_port()
        with served(folder, port) as server:
            return asyncio.run(measure(app, port, server.pid, match_id, link))
