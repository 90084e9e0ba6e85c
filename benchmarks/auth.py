"""What authentication in front costs the match page and a hand save (target: at most 10%).

One run, the same app and matches, two ways alternating: as every request is now (the
signed-in account loaded from its session, each match's access checked), and as before
accounts existed (the account taken from memory without a query, every access granted:
``access.load_user`` and ``access.level`` replaced for those requests). The match page is a
40-hand match, warm (its rendered planilla cached); the save records hand 41 and is undone
outside the timing, as in ``benchmarks.hand_save``. Medians with their interquartile range.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask_migrate

from anotador import create_app
from anotador import services
from anotador.web import access
from anotador.web.extensions import login_manager
from benchmarks.hand_save import create
from benchmarks.hand_save import save
from benchmarks.hand_save import spread
from benchmarks.hand_save import undo
from benchmarks.hand_save import undo_free_version
from benchmarks.web import ACCOUNT
from benchmarks.web import signed_in_client

ROUNDS = 300
WARM_UP = 30
TARGET = 0.10


@contextmanager
def without_authentication(app: Any, user: access.Account) -> Any:
    """Requests as before accounts: no query for the account, every match granted."""
    loader, level = login_manager._user_callback, access.level
    login_manager._user_callback = lambda _identity: user
    access.level = lambda _sharing: access.Level.OWN  # type: ignore[assignment]
    try:
        yield
    finally:
        login_manager._user_callback, access.level = loader, level


def run() -> list[str]:
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        app = create_app(
            {
                "TESTING": True,
                "WTF_CSRF_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'auth.db'}",
            },
            instance_path=Path(folder) / "instance",
        )
        with app.app_context():
            flask_migrate.upgrade()
        client = signed_in_client(app)
        with app.app_context():
            match_id = create(40)
            account = services.accounts.find_account(ACCOUNT)
            assert account is not None
            # A copy that needs no query: what "before accounts" hands every request.
            user = access.Account(account.id, account.name, True, account.session_token, "")
        version = undo_free_version(app, match_id)
        page = f"/partidas/{match_id}"

        def view() -> float:
            start = time.perf_counter()
            response = client.get(page)
            elapsed = time.perf_counter() - start
            assert response.status_code == 200, response.status_code
            return elapsed

        def record() -> float:
            nonlocal version
            elapsed = save(client, match_id, version)
            version = undo(app, match_id)
            return elapsed

        figures: dict[str, dict[str, list[float]]] = {
            "match page": {"with": [], "without": []},
            "hand save": {"with": [], "without": []},
        }
        actions: dict[str, Callable[[], float]] = {"match page": view, "hand save": record}
        # One action at a time (a save changes the match: the page after it is cold).
        for name, action in actions.items():
            for round_ in range(WARM_UP + ROUNDS):
                with_auth = action()
                with without_authentication(app, user):
                    without = action()
                if round_ >= WARM_UP:
                    figures[name]["with"].append(with_auth)
                    figures[name]["without"].append(without)
    lines = [f"authentication in front ({ROUNDS} rounds, alternating, SQLite in memory):"]
    for name, times in figures.items():
        on, off = (statistics.median(times[way]) * 1000 for way in ("with", "without"))
        iqr_on, iqr_off = (spread(times[way]) * 1000 for way in ("with", "without"))
        extra = on / off - 1
        verdict = "ok" if extra <= TARGET else "OVER"
        lines.append(
            f"  {name}: {on:.2f} ms (IQR {iqr_on:.2f}) signed in vs {off:.2f} ms "
            f"(IQR {iqr_off:.2f}) without accounts: +{extra:.1%} ({verdict}; target <= "
            f"{TARGET:.0%})"
        )
    return lines
