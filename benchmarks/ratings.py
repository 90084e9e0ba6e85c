"""Ratings (issue 29): an account with 2,000 finished matches (2p, 3p, 4p, 6p-3x2 and 6p-2x3
among 30 recurring players, dates out of order) on a temporary SQLite database (on /dev/shm
when there is one).

- Rebuilding its stored ratings from scratch (``store.rebuild``): target under 5 s; and
  ``anotador ratings --json`` timed start to exit in a process of its own (RATINGS.md §5:
  within 5 s).
- Saving the hand that finishes a match against saving one that does not, through the hand
  form, interleaved, each hand undone outside the timing: target at most 1.2x.
- The leaderboard and the page of the player with most matches (with its rating history)
  against ``/healthz``: target at most 5x (with the players' list, a page without ratings,
  for comparison).
"""

from __future__ import annotations

import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa

from anotador import backup
from anotador import create_app
from anotador import services
from anotador.ratings import store
from anotador.ratings.models import PlayerRating
from anotador.storage.database import db
from benchmarks.hand_save import FORM
from benchmarks.web import ACCOUNT
from benchmarks.web import signed_in_client
from benchmarks.web import timed

MATCHES = 2000
ROUNDS = 100
WARM_UP = 10
SIDES = {"2p": (2, 1), "3p": (3, 1), "4p": (2, 2), "6p-3x2": (3, 2), "6p-2x3": (2, 3)}
PLAYERS = [f"Jugador {number}" for number in range(30)]
SAVE_TARGET, PAGE_TARGET, REBUILD_TARGET = 1.2, 5.0, 5.0


def finished_match(chance: random.Random) -> dict[str, Any]:
    """A uruguaya match to 5000 that its one hand ends."""
    layout = chance.choice(list(SIDES))
    count, each = SIDES[layout]
    seated = chance.sample(PLAYERS, count * each)
    winner = chance.randrange(count)
    day = 1 + chance.randrange(700)
    return {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": layout,
        "options": {"target": 5000},
        "sides": [
            {"name": f"Lado {i + 1}", "players": seated[i * each : (i + 1) * each]}
            for i in range(count)
        ],
        "start_scores": [4900] * count,
        "hands": [
            {
                "end": "stock_out",
                "sides": [
                    {"table_points": 200 if i == winner else chance.choice((50, 100))}
                    for i in range(count)
                ],
            }
        ],
        "played_on": f"{2024 + day // 365}-{1 + day % 365 // 31:02d}-{1 + day % 28:02d}",
    }


def new_match(start: int, owner: int | None) -> int:
    """A 4p match without hands from ``start`` points each (4990: the next hand ends it)."""
    document = {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "options": {"target": 5000},
        "sides": [
            {"name": "Nosotros", "players": PLAYERS[:2]},
            {"name": "Ellos", "players": PLAYERS[2:4]},
        ],
        "start_scores": [start, start],
        "hands": [],
    }
    match, problems = services.matches.create_match(document, owner_id=owner)
    assert match is not None, problems
    return match.id


def save_and_undo(app: Any, client: Any, match_id: int) -> float:
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        version = match.version
    data = {**FORM, "version": str(version), "request_key": uuid.uuid4().hex}
    start = time.perf_counter()
    response = client.post(f"/partidas/{match_id}/manos/nueva", data=data)
    elapsed = time.perf_counter() - start
    assert response.status_code == 302, response.status_code
    with client.session_transaction() as session:
        session.pop("_flashes", None)
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        assert services.hands.undo_last_hand(match, match.version).ok
        services.matches.score(match)
    return elapsed


def command_seconds(folder: str, database: str) -> float:
    """``anotador ratings --json`` for the account, start to exit."""
    program = Path(sys.executable).parent / "anotador"
    environment = {**os.environ, "DATABASE_URL": database, "ANOTADOR_DATA": folder}
    start = time.perf_counter()
    done = subprocess.run(
        [str(program), "ratings", "--owner", ACCOUNT, "--json"],
        env=environment,
        capture_output=True,
        check=True,
    )
    elapsed = time.perf_counter() - start
    assert json.loads(done.stdout)["ratings"], done.stderr
    return elapsed


def run() -> list[str]:
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        database = f"sqlite:///{Path(folder) / 'ratings.db'}"
        app = create_app(
            {
                "TESTING": True,
                "WTF_CSRF_ENABLED": False,
                # The sheet a finished match prepares is another feature's cost.
                "PDF_PREPARE_FINISHED": False,
                "SQLALCHEMY_DATABASE_URI": database,
            },
            instance_path=Path(folder) / "instance",
        )
        with app.app_context():
            flask_migrate.upgrade()
        client = signed_in_client(app)
        chance = random.Random(29)
        lines = "".join(json.dumps(finished_match(chance)) + "\n" for _ in range(MATCHES))
        with app.app_context():
            owner = services.accounts.first_administrator_id()
            report = backup.import_stream(io.BytesIO(lines.encode()), owner)
            assert report.created == MATCHES, report.summary()
            rebuilds = []
            for _ in range(3):
                start = time.perf_counter()
                store.rebuild(owner)
                db.session.commit()
                rebuilds.append(time.perf_counter() - start)
            busiest = db.session.scalars(
                sa.select(PlayerRating.player_id).order_by(PlayerRating.matches.desc()).limit(1)
            ).one()
            played = db.session.get(PlayerRating, busiest)
            assert played is not None
            busiest_matches = played.matches
            finishing, ordinary = new_match(4990, owner), new_match(0, owner)
        command = statistics.median(command_seconds(folder, database) for _ in range(3))
        saves: dict[str, list[float]] = {"finishing": [], "ordinary": []}
        for round_ in range(WARM_UP + ROUNDS):
            for name, match_id in (("finishing", finishing), ("ordinary", ordinary)):
                elapsed = save_and_undo(app, client, match_id)
                if round_ >= WARM_UP:
                    saves[name].append(elapsed)
        pages = {
            "ranking": "/ranking/",
            "player": f"/jugadores/{busiest}",
            "players": "/jugadores/",
            "healthz": "/healthz",
        }
        times: dict[str, list[float]] = {name: [] for name in pages}
        for round_ in range(WARM_UP + ROUNDS):
            for name, path in pages.items():
                elapsed = timed(client, path)
                if round_ >= WARM_UP:
                    times[name].append(elapsed)
    rebuild = statistics.median(rebuilds)
    save_ms = {name: statistics.median(values) * 1000 for name, values in saves.items()}
    page_ms = {name: statistics.median(values) * 1000 for name, values in times.items()}
    save_ratio = save_ms["finishing"] / save_ms["ordinary"]
    out = [
        f"ratings rebuild, {MATCHES} finished matches: median {rebuild:.2f} s of 3 "
        f"({'ok' if rebuild < REBUILD_TARGET else 'OVER'}; target < {REBUILD_TARGET:.0f} s); "
        f"`anotador ratings --json` start to exit: {command:.2f} s",
        f"saving the hand that finishes a match: median {save_ms['finishing']:.2f} ms vs "
        f"{save_ms['ordinary']:.2f} ms for one that does not ({ROUNDS} each, interleaved): "
        f"{save_ratio:.2f}x ({'ok' if save_ratio <= SAVE_TARGET else 'OVER'}; "
        f"target <= {SAVE_TARGET}x)",
    ]
    for name, label in (("ranking", "leaderboard"), ("player", "player page")):
        ratio = page_ms[name] / page_ms["healthz"]
        out.append(
            f"  {label}: median {page_ms[name]:.2f} ms vs /healthz {page_ms['healthz']:.3f} ms: "
            f"{ratio:.1f}x ({'ok' if ratio <= PAGE_TARGET else 'OVER'}; "
            f"target <= {PAGE_TARGET:.0f}x)"
            + (f"; {busiest_matches} rated matches in its history" if name == "player" else "")
        )
    out.append(
        f"  for comparison, the players' list /jugadores/ (no ratings): median "
        f"{page_ms['players']:.2f} ms, {page_ms['players'] / page_ms['healthz']:.1f}x /healthz"
    )
    return out
