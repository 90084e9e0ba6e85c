"""Two threads of one app using the database at the same time (a threaded server).

A restore in one thread while another loads the history page segfaulted CPython 3.11, on SQLite
and on PostgreSQL alike (``anotador/storage/database.py`` says why, and what the app does about it).
The two threads run in a child process (``two_threads_child.py``), so a crash fails this test
instead of killing pytest; the child stops by itself when its one restore is over.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from anotador import backup
from anotador.commands import demo
from anotador.services.scope import EVERYTHING
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side

CHILD = Path(__file__).parent / "two_threads_child.py"
SUPPORT = Path(__file__).parent.parent / "support"
#: Enough matches for the restore to last while the other thread loads many pages.
MATCHES = 3000
#: Only there so that a child that hangs fails instead of blocking the run; never reached.
HANG_GUARD_SECONDS = 600


@pytest.mark.slow
def test_a_restore_and_the_history_page_in_two_threads_at_once(app_factory, tmp_path: Path):
    app = app_factory()
    upload = tmp_path / "copia.jsonl"
    with app.app_context():
        demo.seed(MATCHES, seed_value=2)
        with upload.open("w", encoding="utf-8") as file:
            file.writelines(backup.export_lines(EVERYTHING))
        for model in (Hand, Seat, Side, Match, Player):  # restored into an empty database
            db.session.execute(sa.delete(model))
        db.session.commit()
        uri = db.engine.url.render_as_string(hide_password=False)
        db.engine.dispose()

    child = subprocess.run(
        [sys.executable, str(CHILD), uri, str(upload), str(tmp_path / "instance"), str(MATCHES)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
        # The suite's shared helpers (stored), as pytest puts them on its own path.
        env={**os.environ, "PYTHONPATH": str(SUPPORT)},
    )

    # A crash is a negative return code (-11: SIGSEGV) and faulthandler's stacks on stderr.
    assert child.returncode == 0, f"exit {child.returncode}\n{child.stdout}\n{child.stderr[-6000:]}"
    assert f"{MATCHES} stored" in child.stdout
