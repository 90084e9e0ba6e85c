"""The match page (the planilla) of a 40-hand match versus trivial routes, in one run.

Everything goes through the Flask test client on a temporary SQLite database; requests
alternate so all see the same machine. The trivial routes are ``/healthz`` (plain text, no
template) and the 404 page of an unknown URL (the base layout, like every HTML page). Reports
each median and the ratios (target: at most 3x), with the match page's score and rows cached
(every later view of a match) and with the caches cleared before each request (the first
view after a change), and the SQL statements the match page issues with 1 and with 40 hands,
cold and warm (target: the same small number).
"""

from __future__ import annotations

import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa

from anotador import create_app
from anotador import services
from anotador.storage import caching
from anotador.storage.database import db
from anotador.web import access

ROUNDS = 300
WARM_UP = 20
TARGET_RATIO = 3.0
TRIVIAL_PAGE = "/no-such-page"


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
    match, problems = services.matches.create_match(document, first_dealer=0)
    assert match is not None, problems
    return match.id


#: The account every benchmark's requests are signed in as (the first: its administrator).
ACCOUNT = "Banco"


def signed_in_client(app: Any) -> Any:
    """A test client signed in as :data:`ACCOUNT`, made the first time (it then takes the
    matches stored before it, as the first account of an installation does)."""
    with app.app_context():
        user = services.accounts.find_account(ACCOUNT)
        if user is None:
            user = services.accounts.create_account(ACCOUNT, "a benchmark password")
        identity = access.Account.of(user, services.sign_ins.sign_in(user.id)).get_id()
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = identity
        session["_fresh"] = True
    return client


def clear_caches(app: Any) -> None:
    """Forget every match's score and rendered pieces, as after a change to the match; the
    pieces every page shares (its head and header) stay, as they do then."""
    caches = caching.caches(app)
    for name, cache in vars(caches).items():
        if name != "fragments":
            cache.clear()


def timed(client: Any, path: str, status: int = 200, cold: bool = False) -> float:
    if cold:
        clear_caches(client.application)
    start = time.perf_counter()
    response = client.get(path)
    elapsed = time.perf_counter() - start
    assert response.status_code == status, (path, response.status_code)
    return elapsed


@contextlib.contextmanager
def counted_statements(app: Any) -> Iterator[list[str]]:
    """Every statement sent to ``app``'s database meanwhile, in the list it yields."""
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def statements(app: Any, client: Any, path: str, cold: bool) -> int:
    if cold:
        clear_caches(app)
    else:
        client.get(path)
    with counted_statements(app) as seen:
        client.get(path)
    return len(seen)


def after_save(app: Any, client: Any, match_id: int, rounds: int = 60) -> float:
    """Median time of the view the phone is redirected to after correcting the last hand."""
    elapsed = []
    for round_ in range(rounds):
        with app.app_context():
            match = services.queries.load_match(match_id)
            outcome = services.hands.edit_hand(match, 40, hand(round_), match.version)
            assert outcome.ok, outcome
        elapsed.append(timed(client, f"/partidas/{match_id}", 200, False))
    return statistics.median(elapsed)


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'b.db'}"},
            instance_path=Path(folder) / "instance",
        )
        with app.app_context():
            flask_migrate.upgrade()
            one, forty = create(1), create(40)
        client = signed_in_client(app)
        page = f"/partidas/{forty}"
        # (path, expected status, caches cleared before each request)
        routes = {
            "match": (page, 200, False),
            "match_cold": (page, 200, True),
            "healthz": ("/healthz", 200, False),
            "html": (TRIVIAL_PAGE, 404, False),
        }
        times: dict[str, list[float]] = {name: [] for name in routes}
        for round_ in range(WARM_UP + ROUNDS):
            for name, (path, status, cold) in routes.items():
                elapsed = timed(client, path, status, cold)
                if round_ >= WARM_UP:
                    times[name].append(elapsed)
        ms = {name: statistics.median(values) * 1000 for name, values in times.items()}
        ms["after_save"] = after_save(app, client, forty) * 1000
        counts = {
            (hands, cold): statements(app, client, f"/partidas/{match_id}", cold)
            for hands, match_id in ((1, one), (40, forty))
            for cold in (True, False)
        }
    lines = [
        f"match page, 40 hands (cached score and rows): median {ms['match']:.2f} ms; "
        f"cold caches: {ms['match_cold']:.2f} ms ({ROUNDS} requests each, interleaved); "
        f"first view after a hand is saved: {ms['after_save']:.2f} ms",
    ]
    for name, label in (("healthz", "/healthz"), ("html", f"HTML 404 page {TRIVIAL_PAGE}")):
        ratio = ms["match"] / ms[name]
        cold_ratio = ms["match_cold"] / ms[name]
        verdict = "ok" if ratio <= TARGET_RATIO else "OVER"
        lines.append(
            f"  vs {label}: median {ms[name]:.3f} ms; ratio {ratio:.1f}x ({verdict}; "
            f"target <= {TARGET_RATIO:.0f}x); cold caches {cold_ratio:.1f}x"
        )
    for cold, label in ((True, "cold caches"), (False, "warm caches")):
        one_count, forty_count = counts[1, cold], counts[40, cold]
        same = "ok" if one_count == forty_count else "GROWS"
        lines.append(
            f"match page SQL statements, {label}: {one_count} with 1 hand, "
            f"{forty_count} with 40 hands ({same})"
        )
    return lines
