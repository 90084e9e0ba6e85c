"""Slow clients against both real servers: how long ``/healthz`` takes while 20 connections
trickle a request head, a byte every 3 s (issue 26: 13 such clients made it time out for
40 s under gunicorn's stock ``gthread`` worker). Target: under 2 s, for ``anotador run``
(waitress) and ``anotador serve`` (gunicorn, one worker of 4 threads: the fewest threads).

``python -m benchmarks slow_clients`` prints, per server, ``/healthz``'s median and slowest
time over 20 requests, alone and with the trickling clients connected.
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

COMMANDS = {"run": "waitress", "serve": "gunicorn"}
TRICKLERS = 20
TRICKLE_SECONDS = 3.0
REQUESTS = 20
TARGET_SECONDS = 2.0
READY_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(command: str, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env.update(
        ANOTADOR_DATA=str(folder / command),
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="1",
    )
    server = subprocess.Popen(
        [sys.executable, "-c", f"from anotador.commands.main import main; main([{command!r}])"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=5).read()
            return server, base
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError(f"anotador {command} did not start")


def trickle(port: int, stop: threading.Event) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                return
            if stop.wait(TRICKLE_SECONDS):
                return


def healthz_times(base: str) -> list[float]:
    times = []
    for _ in range(REQUESTS):
        started = time.perf_counter()
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=60).read()
            times.append(time.perf_counter() - started)
        except OSError:
            times.append(float("inf"))
    return times


def measure(command: str, folder: Path) -> list[str]:
    server, base = start(command, folder)
    try:
        alone = healthz_times(base)
        stop = threading.Event()
        port = int(base.rsplit(":", 1)[1])
        tricklers = [
            threading.Thread(target=trickle, args=(port, stop), daemon=True)
            for _ in range(TRICKLERS)
        ]
        for thread in tricklers:
            thread.start()
        time.sleep(2 * TRICKLE_SECONDS)  # every one is past its first bytes
        slowed = healthz_times(base)
        stop.set()
        for thread in tricklers:
            thread.join(10)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(60)
    worst = max(slowed)
    verdict = "ok" if worst < TARGET_SECONDS else "OVER TARGET"
    return [
        f"slow clients, anotador {command} ({COMMANDS[command]}): /healthz alone median "
        f"{statistics.median(alone) * 1000:.1f} ms, max {max(alone) * 1000:.1f} ms; with "
        f"{TRICKLERS} trickling clients median {statistics.median(slowed) * 1000:.1f} ms, "
        f"max {worst * 1000:.1f} ms (target < {TARGET_SECONDS:.0f} s: {verdict})"
    ]


def run() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="anotador-slow-") as folder:
        return [line for command in COMMANDS for line in measure(command, Path(folder))]


if __name__ == "__main__":
    for line in run():
        print(line)
