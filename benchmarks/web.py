"""The match page (the planilla) of a 40-hand match versus ``/healthz``, in one run.

Both go through the Flask test client on a temporary SQLite database; requests alternate so
both see the same machine. Reports each median, their ratio (target: at most 3x) and the SQL
statements the match page issues with 1 and with 40 hands (target: the same small number).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa

from anotador import create_app
from anotador import operations
from anotador.extensions import db

ROUNDS = 300
WARM_UP = 20
TARGET_RATIO = 3.0


def hand(number: int) -> dict[str, Any]:
    """A stock-out hand worth a little to each side: 40 of them never end the match."""
    table = 50 + 5 * (number % 7)
    sides = [
        {"clean": 0, "dirty": 0, "table_points": table, "hand_points": 40, "red_threes": 0},
        {"clean": 0, "dirty": 0, "table_points": 60, "hand_points": 45, "red_threes": 1},
    ]
    return {"end": "stock_out", "sides": sides}


def create(hands: int) -> int:
    sides = [
        {"name": "Nosotros", "players": ["Ana", "Carla"]},
        {"name": "Ellos", "players": ["Beto", "Dani"]},
    ]
    document = {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "sides": sides,
        "hands": [hand(number) for number in range(hands)],
    }
    match, problems = operations.create_match(document, first_dealer=0)
    assert match is not None, problems
    return match.id


def timed(client: Any, path: str) -> float:
    start = time.perf_counter()
    response = client.get(path)
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, (path, response.status_code)
    return elapsed


def statements(app: Any, client: Any, path: str) -> int:
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        client.get(path)
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    return len(seen)


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'b.db'}"},
            instance_path=Path(folder) / "instance",
        )
        with app.app_context():
            flask_migrate.upgrade()
            one, forty = create(1), create(40)
        client = app.test_client()
        page = f"/partidas/{forty}"
        for _ in range(WARM_UP):
            timed(client, page)
            timed(client, "/healthz")
        pages, trivial = [], []
        for _ in range(ROUNDS):
            pages.append(timed(client, page))
            trivial.append(timed(client, "/healthz"))
        page_ms = statistics.median(pages) * 1000
        trivial_ms = statistics.median(trivial) * 1000
        ratio = page_ms / trivial_ms
        counts = statements(app, client, f"/partidas/{one}"), statements(app, client, page)
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER"
    same = "ok" if counts[0] == counts[1] else "GROWS"
    return [
        f"match page, 40 hands: median {page_ms:.2f} ms; /healthz median {trivial_ms:.3f} ms; "
        f"ratio {ratio:.1f}x ({verdict}; target <= {TARGET_RATIO:.0f}x; {ROUNDS} requests each)",
        f"match page SQL statements: {counts[0]} with 1 hand, {counts[1]} with 40 hands ({same})",
    ]
