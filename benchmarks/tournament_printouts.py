"""Spectators storming a big tournament's standings PDF (issue 36, item 1: on 400 pairs and 5
rounds one took 25 s, 8 at once 289–300 s, ``/healthz`` timed out and memory reached 1.5 GB).

gunicorn on loopback (``benchmarks.server``: the production settings, 2 workers of 4 threads)
on a temporary SQLite database (``BENCH_DATABASE_URL`` for PostgreSQL) with a burraco night of
400 pairs, 5 rounds closed and the 6th being played. 8 clients of the spectator link ask for
``posiciones.pdf`` over and over, without waiting for Retry-After as a hostile one would:
first while nothing is kept (until each has its PDF, at most COLD_SECONDS), then for
WARM_SECONDS once it is kept. Meanwhile ``/healthz`` is asked every 0.25 s and the server's
memory (the resident size of gunicorn and every process under it, the renderer included)
is read from ``/proc``. Printed: the time to the first PDF, the answers by status, ``/healthz``'s
median and slowest time (target under 2 s), the server's peak memory (target under 1 GB, a
small host's whole memory) and the server errors (target 0).
"""

from __future__ import annotations

import http.client
import statistics
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from anotador import services
from anotador.storage.database import db
from anotador.tournaments.store.models import Tournament
from benchmarks import server
from benchmarks.tournament_pages import seed_tournament

PAIRS = 400
PLAYED = 5
SPECTATORS = 8
COLD_SECONDS = 120.0
WARM_SECONDS = 5.0
HEALTHZ_EVERY = 0.25
HEALTHZ_TARGET = 2.0
MEMORY_TARGET_MB = 1024


def seed(app: Any) -> dict[str, Any]:
    user = services.accounts.create_account(server.ACCOUNT, server.PASSWORD)
    tournament = db.session.get(Tournament, seed_tournament(user.id, pairs=PAIRS, played=PLAYED))
    assert tournament is not None
    return {"token": tournament.spectator_token}


def process_tree_rss_mb(root: int) -> float:
    """The resident memory of ``root`` and every process under it, in MB (Linux's /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    tree, grew = {root}, True
    while grew:
        found = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= found
        grew = bool(found)
    kilobytes = 0
    for pid in tree:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                kilobytes += int(line.split()[1])
    return kilobytes / 1024


class Watch(threading.Thread):
    """``/healthz``'s times and the server's peak memory while a phase runs."""

    def __init__(self, port: int, pid: int) -> None:
        super().__init__()
        self.port, self.pid = port, pid
        self.stop = threading.Event()
        self.healthz: list[float] = []
        self.failures = 0
        self.peak_mb = 0.0

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.perf_counter()
            try:
                status = server.request(self.port, "GET", "/healthz")[0]
            except (OSError, http.client.HTTPException):
                status = 599
            self.healthz.append(time.perf_counter() - start)
            self.failures += status != 200
            self.peak_mb = max(self.peak_mb, process_tree_rss_mb(self.pid))
            self.stop.wait(HEALTHZ_EVERY)

    def lines(self, phase: str) -> list[str]:
        times = self.healthz or [0.0]
        slowest = max(times)
        return [
            f"  {phase}: /healthz median {statistics.median(times) * 1000:.0f} ms, slowest "
            f"{slowest:.2f} s over {len(self.healthz)} requests, {self.failures} not 200 "
            f"({server.verdict(slowest, HEALTHZ_TARGET)}; target under {HEALTHZ_TARGET:.0f} s)",
            f"  {phase}: server memory at most {self.peak_mb:.0f} MB "
            f"({server.verdict(self.peak_mb, MEMORY_TARGET_MB)}; target {MEMORY_TARGET_MB} MB)",
        ]


def storm(port: int, path: str, seconds: float, until_served: bool) -> tuple[Counter[int], float]:
    """SPECTATORS clients asking for ``path`` for ``seconds`` (or, ``until_served``, each until
    it has its PDF); the answers by status and the time to the first PDF."""
    answers: Counter[int] = Counter()
    first: list[float] = []
    lock = threading.Lock()
    began = time.monotonic()
    stop = began + seconds

    def spectator() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds + 60)
        while time.monotonic() < stop:
            try:
                status = server.request(0, "GET", path, connection=conn)[0]
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds + 60)
                status = 599
            with lock:
                answers[status] += 1
                if status == 200 and not first:
                    first.append(time.monotonic() - began)
            if status == 200 and until_served:
                break
            if status != 200:
                time.sleep(0.05)
        conn.close()

    threads = [threading.Thread(target=spectator) for _ in range(SPECTATORS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers, first[0] if first else float("nan")


def phase(live: server.LiveServer, name: str, seconds: float, cold: bool) -> list[str]:
    assert live.process is not None
    watch = Watch(live.port, live.process.pid)
    watch.start()
    path = f"/torneos/ver/{live.seeded['token']}/posiciones.pdf"
    try:
        answers, first = storm(live.port, path, seconds, until_served=cold)
    finally:
        watch.stop.set()
        watch.join()
    told = ", ".join(f"{count} × {status}" for status, count in sorted(answers.items()))
    errors = sum(count for status, count in answers.items() if status >= 500 and status != 503)
    return [
        f"  {name}: first PDF after {first:.1f} s; answers {told}",
        *watch.lines(name),
        f"  {name}: server errors {errors} ({'ok' if errors == 0 else 'OVER'}; target 0)",
    ]


def run() -> list[str]:
    with server.LiveServer(seed, workers=2, threads=4) as live:
        lines = [
            f"tournament printouts (gunicorn 2 workers x 4 threads; {PAIRS} pairs, {PLAYED} "
            f"rounds closed; {SPECTATORS} spectators asking for the standings PDF):",
            *phase(live, "nothing kept yet", COLD_SECONDS, cold=True),
            *phase(live, "once kept", WARM_SECONDS, cold=False),
        ]
    return lines
