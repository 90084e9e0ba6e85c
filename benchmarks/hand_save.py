"""Saving a hand: the cost of recording the next hand of a match with 1, 40 and 100 hands.

Through the Flask test client on a temporary SQLite database (on /dev/shm when there is
one), the way a phone saves: the
new-hand form is posted (save button, fresh request key, the version it was shown with) and
answered with the redirect to the planilla (not followed: its message is taken from the
session as the planilla would take it). Each round records hand N of a
match with N - 1 hands, then the hand is undone outside the timing, so every save is at the
same count; the three counts are interleaved so all see the same machine. Reports each
median with its spread (interquartile range) and the ratio 100 hands / 1 hand (target: at most
1.2x), and the SQL statements one save issues at each count (target: the same number).
"""

from __future__ import annotations

import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import flask_migrate

from anotador import create_app
from anotador import services
from benchmarks.web import counted_statements
from benchmarks.web import signed_in_client

ROUNDS = 150
WARM_UP = 20
COUNTS = (1, 40, 100)
TARGET_RATIO = 1.2

#: A small hand: 60 on the table, 40 in hand (+20 for the first side, +10 for the second).
FORM = {
    "closer": "none",
    "s0_table_points": "60",
    "s0_hand_points": "40",
    "s1_table_points": "55",
    "s1_hand_points": "45",
    "action": "save",
}


def create(hands: int) -> int:
    """A uruguaya 4p match with ``hands`` small stock-out hands (never near its end)."""
    hand = {
        "end": "stock_out",
        "sides": [
            {"table_points": 50 + 5 * (number % 3), "hand_points": 45} for number in range(2)
        ],
    }
    document = {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "sides": [
            {"name": "Nosotros", "players": ["Ana", "Carla"]},
            {"name": "Ellos", "players": ["Beto", "Dani"]},
        ],
        "hands": [hand] * hands,
    }
    match, problems = services.matches.create_match(document, first_dealer=0)
    assert match is not None, problems
    return match.id


def save(client: Any, match_id: int, version: int) -> float:
    data = {**FORM, "version": str(version), "request_key": uuid.uuid4().hex}
    start = time.perf_counter()
    response = client.post(f"/partidas/{match_id}/manos/nueva", data=data)
    elapsed = time.perf_counter() - start
    assert response.status_code == 302, (response.status_code, response.get_data(as_text=True))
    # As the planilla the phone is redirected to would: its "hand saved" message is shown
    # and leaves the session (else every save would carry all the earlier ones).
    with client.session_transaction() as session:
        session.pop("_flashes", None)
    return elapsed


def undo(app: Any, match_id: int) -> int:
    """Remove the hand just saved; the match's new version (its score is cached again)."""
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        outcome = services.hands.undo_last_hand(match, match.version)
        assert outcome.ok, outcome
        # As the planilla the phone is sent to would: the engine's reading is cached.
        services.matches.score(match)
        return match.version


def spread(values: list[float]) -> float:
    quartiles = statistics.quantiles(values, n=4)
    return quartiles[2] - quartiles[0]


def statements(app: Any, client: Any, match_id: int, version: int) -> int:
    with counted_statements(app) as seen:
        save(client, match_id, version)
    undo(app, match_id)
    return len(seen)


def run() -> list[str]:
    # In memory when the machine has a tmpfs: a commit's fsync would otherwise be most of
    # the figure, and its noise hides what the app does per hand.
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        app = create_app(
            {
                "TESTING": True,
                "WTF_CSRF_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'save.db'}",
            },
            instance_path=Path(folder) / "instance",
        )
        with app.app_context():
            flask_migrate.upgrade()
            ids = {count: create(count - 1) for count in COUNTS}
        client = signed_in_client(app)
        versions = {count: undo_free_version(app, ids[count]) for count in COUNTS}
        times: dict[int, list[float]] = {count: [] for count in COUNTS}
        for round_ in range(WARM_UP + ROUNDS):
            for count in COUNTS:
                elapsed = save(client, ids[count], versions[count])
                versions[count] = undo(app, ids[count])
                if round_ >= WARM_UP:
                    times[count].append(elapsed)
        counted = {count: statements(app, client, ids[count], versions[count]) for count in COUNTS}
    ms = {count: statistics.median(values) * 1000 for count, values in times.items()}
    iqr = {count: spread(values) * 1000 for count, values in times.items()}
    lines = [
        f"saving a hand ({ROUNDS} saves at each count, interleaved): "
        + "; ".join(
            f"{count} hands median {ms[count]:.2f} ms (IQR {iqr[count]:.2f} ms)" for count in COUNTS
        )
    ]
    for count in COUNTS[1:]:
        ratio = ms[count] / ms[COUNTS[0]]
        verdict = "ok" if ratio <= TARGET_RATIO else "OVER"
        lines.append(
            f"  {count} hands vs 1 hand: {ratio:.2f}x ({verdict}; target <= {TARGET_RATIO}x)"
        )
    same = "ok" if len(set(counted.values())) == 1 else "GROWS"
    lines.append(
        "saving a hand, SQL statements: "
        + ", ".join(f"{counted[count]} at {count} hands" for count in COUNTS)
        + f" ({same})"
    )
    return lines


def undo_free_version(app: Any, match_id: int) -> int:
    """The match's current version, its score cached (as after the planilla was shown)."""
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        services.matches.score(match)
        return match.version
