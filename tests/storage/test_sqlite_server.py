"""SQLite set up for a server: every connection uses the write-ahead log and waits for a busy
database instead of failing (threaded gunicorn workers write to one file)."""

import pytest
from flask import Flask
from sqlalchemy import text

from anotador.storage.database import SQLITE_BUSY_TIMEOUT_MS
from anotador.storage.database import db


def pragma(name: str) -> object:
    return db.session.execute(text(f"PRAGMA {name}")).scalar()


def test_every_sqlite_connection_uses_the_write_ahead_log_and_a_busy_timeout(app: Flask):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite only")
        db.engine.dispose()  # a new connection, not one the migrations left in the pool
        assert pragma("journal_mode") == "wal"
        assert pragma("busy_timeout") == SQLITE_BUSY_TIMEOUT_MS
        assert pragma("foreign_keys") == 1
        # NORMAL is 1 (FULL, the default, is 2).
        assert pragma("synchronous") == 1
