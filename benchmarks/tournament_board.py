"""The standings board with 200 viewers (issue 28): a finished table shows on every board
within 3 s, and the board's idle cost is like the live planilla's.

The real server as ``benchmarks.live`` runs it (``anotador serve``: 2 gthread workers,
SQLite in a new data folder, loopback), holding the club night of
``benchmarks.tournament_pages`` (80 pairs, 6 rounds closed, the 7th being played). First 200
phones follow one of the round's tables on its planilla by a spectator link, exactly as
``benchmarks.live`` does (``static/js/live.js``); then 200 boards follow the standings by the
tournament's spectator link, as the board does (``board.html`` runs the same live.js: GET
the version page with If-None-Match once a second after each answer, and on a new version
GET the board, the page the script swaps in). For each: requests per second while idle and
the CPU the server's processes spent meanwhile, per poll. Then, one table after another, a
table's phone saves the round's last hand (through the use case, in this process: the
update travels through the database): the time from its commit to the last board holding
the new version, and the new board page (the hands before it are saved first, and seen).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask

from anotador import create_app
from anotador import services
from anotador.commands.startup import prepare
from anotador.storage.database import db
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.web import kept
from benchmarks import live
from benchmarks.hand_save import spread
from benchmarks.tournament_pages import HANDS
from benchmarks.tournament_pages import PLAYED
from benchmarks.tournament_pages import hand
from benchmarks.tournament_pages import seed_tournament

VIEWERS = 200
IDLE_SECONDS = 10.0
#: Tables of the round being played that finish, one after another.
FINISHES = 6
TARGET_SECONDS = 3.0


@dataclass
class Board:
    """One board: the version it shows and when it first saw, then showed, each one."""

    version: int = -1
    polls: int = 0
    seen: dict[int, float] = field(default_factory=dict)
    shown: dict[int, float] = field(default_factory=dict)


async def follow(board: Board, port: int, link: str, stop: asyncio.Event) -> None:
    """Poll the tournament's version page like live.js until ``stop``; a new version fetches
    the board."""
    connection = await live.Connection.open(port)
    await asyncio.sleep(random.uniform(0, live.INTERVAL))  # the screens did not open at once
    try:
        while not stop.is_set():
            headers = {"Accept": "application/json"}
            if board.version >= 0:
                headers["If-None-Match"] = f'"v{board.version}"'
            status, _, body = await connection.get(f"{link}/version", headers)
            board.polls += 1
            if status == 200:
                version = json.loads(body)["version"]
                board.seen.setdefault(version, time.monotonic())
                status, _, _ = await connection.get(f"{link}/tablero", {"Accept": "text/html"})
                assert status == 200, status
                board.shown.setdefault(version, time.monotonic())
                board.version = version
            else:
                assert status == 304, status
            await asyncio.sleep(live.INTERVAL)
    finally:
        connection.close()


@dataclass
class Club:
    """The served app (for the saves), the board's link, the tables to finish and a table
    followed on its planilla by its spectator link."""

    app: Flask
    board: str
    playing: list[int]
    planilla: int
    planilla_link: str


def stored_club(folder: Path) -> Club:
    os.environ["ANOTADOR_DATA"] = str(folder)
    try:
        app = create_app()
    finally:
        del os.environ["ANOTADOR_DATA"]
    app.config["PDF_PREPARE_FINISHED"] = False  # no sheet drawn in this process
    prepare(app, echo=lambda line: None)
    with app.app_context():
        user = services.accounts.create_account("Club", "a benchmark password")
        tournament = db.session.get(Tournament, seed_tournament(user.id))
        assert tournament is not None
        playing = [
            table.match_id
            for table in tournament.round_rows[PLAYED].tables
            if table.match is not None and table.match.status == "ongoing"
        ]
        match = services.queries.load_match(playing[-1])
        assert match is not None
        token = services.sharing.set_link(match, "spectator", True)
        board = f"/torneos/ver/{tournament.spectator_token}"
        return Club(app, board, playing[:FINISHES], playing[-1], f"/enlace/{token}")


def save(app: Flask, match_id: int) -> tuple[float, int]:
    """Save the table's next hand; when it was committed and the boards' version then."""
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        played = hand(match_id + match.hand_count)
        outcome = services.hands.record_hand(match, played, match.version, None)
        assert outcome.ok, outcome
        committed = time.monotonic()
        state = kept.state_of(club_id(match_id))
        return committed, kept.live(state)


def club_id(match_id: int) -> int:
    statement = (
        sa.select(Round.tournament_id)
        .join(RoundTable, RoundTable.round_id == Round.id)
        .where(RoundTable.match_id == match_id)
    )
    return int(db.session.scalars(statement).one())


async def idle(viewers: list[Any], master: int) -> tuple[float, float]:
    """Requests per second and the server's CPU per request (ms) while nothing changes."""
    pids = live.server_processes(master)
    polls, cpu, start = sum(v.polls for v in viewers), live.cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(IDLE_SECONDS)
    elapsed = time.monotonic() - start
    count = sum(v.polls for v in viewers) - polls
    return count / elapsed, 1000 * (live.cpu_seconds(pids) - cpu) / max(count, 1)


async def planilla_idle(club: Club, port: int, master: int) -> tuple[float, float]:
    phones = [live.Viewer(await live.open_link(port, club.planilla_link)) for _ in range(VIEWERS)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(live.follow(v, port, club.planilla, stop)) for v in phones]
    while any(v.version < 0 for v in phones):
        await asyncio.sleep(0.2)
    await asyncio.sleep(2 * live.INTERVAL)
    figures = await idle(phones, master)
    stop.set()
    await asyncio.gather(*tasks)
    return figures


async def measure(club: Club, port: int, master: int) -> list[str]:
    planilla_rate, planilla_cpu = await planilla_idle(club, port, master)
    boards = [Board() for _ in range(VIEWERS)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(follow(b, port, club.board, stop)) for b in boards]
    while any(b.version < 0 for b in boards):  # every board shows the standings
        await asyncio.sleep(0.2)
    await asyncio.sleep(2 * live.INTERVAL)
    board_rate, board_cpu = await idle(boards, master)

    seen, shown = [], []
    for match_id in club.playing:
        for _ in range(HANDS - 2):  # the hands before the last (each seen by the boards too)
            await asyncio.to_thread(save, club.app, match_id)
            await asyncio.sleep(2 * live.INTERVAL)
        committed, version = await asyncio.to_thread(save, club.app, match_id)
        deadline = committed + 10 * TARGET_SECONDS
        while time.monotonic() < deadline and any(version not in b.shown for b in boards):
            await asyncio.sleep(0.05)
        late = sum(version not in b.shown for b in boards)
        assert not late, f"{late} boards never saw the table finish"
        seen.append(max(b.seen[version] for b in boards) - committed)
        shown.append(max(b.shown[version] for b in boards) - committed)
        await asyncio.sleep(random.uniform(1, 2) * live.INTERVAL)
    stop.set()
    await asyncio.gather(*tasks)

    def verdict(values: list[float]) -> str:
        state = "ok" if max(values) <= TARGET_SECONDS else "OVER"
        return (
            f"median {statistics.median(values):.2f} s, spread {spread(values):.2f} s, worst "
            f"{max(values):.2f} s ({state}; target: at most {TARGET_SECONDS:g} s)"
        )

    return [
        f"board: {VIEWERS} boards of a club night (80 pairs, round {PLAYED + 1}) polling every "
        f"{live.INTERVAL:g} s, {live.WORKERS} gthread workers, SQLite, loopback; "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end",
        f"board: idle, {board_rate:.0f} requests/s, server CPU {board_cpu:.2f} ms a poll; the "
        f"live planilla's with {VIEWERS} phones: {planilla_rate:.0f} requests/s, "
        f"{planilla_cpu:.2f} ms a poll ({board_cpu / planilla_cpu:.1f}x; target: alike)",
        f"board: a table's last hand to the last board's new version: {verdict(seen)}",
        f"board: a table's last hand to the last board's new standings: {verdict(shown)}",
    ]


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        club = stored_club(folder)
        port = live.free_port()
        with live.served(folder, port) as server:
            return asyncio.run(measure(club, port, server.pid))
