"""What ``anotador run`` does before it serves: migrate a new database, say where the data is.

A person who installed the app (``pipx install``) types ``anotador run`` and gets a working
app: the first time, the database is created at the current revision; every time, the first
lines say which data folder and database are in use. An existing database is never migrated
here: when it is behind the code (after an upgrade of the package), the message says to run
``anotador db upgrade``, a step worth a backup first. Issue 10's ``serve`` calls
:func:`prepare` too.
"""

from __future__ import annotations

from collections.abc import Callable

import flask_migrate
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask

from anotador import services
from anotador.config import MIGRATIONS
from anotador.extensions import db


def current_revision(app: Flask) -> str | None:
    """The database's Alembic revision; None for a new database (no ``alembic_version``)."""
    with app.app_context(), db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revisions() -> tuple[str, ...]:
    return tuple(ScriptDirectory(str(MIGRATIONS)).get_heads())


def prepare(app: Flask, echo: Callable[[str], object] = print) -> bool:
    """Migrate ``app``'s database if it is new and tell where the data is kept.

    Returns whether it migrated.
    """
    with app.app_context():
        database = db.engine.url.render_as_string(hide_password=True)
    echo(f"Data folder: {app.instance_path}")
    echo(f"Database: {database}")
    revision = current_revision(app)
    migrated = revision is None
    if migrated:
        echo("New database: applying the migrations.")
        with app.app_context():
            flask_migrate.upgrade()
    elif revision not in head_revisions():
        echo(
            f"The database is at revision {revision}; this version of anotador expects "
            f"{', '.join(head_revisions())}. To bring it up to date, back it up "
            "(`anotador export --all -o backup.jsonl`), then run `anotador db upgrade`."
        )
        return False
    return migrated


def setup_code_lines(app: Flask) -> list[str]:
    """While the installation has no account, the code that lets the web make the first
    (the servers' banner ends with it)."""
    with app.app_context():
        if services.accounts.account_count():
            return []
        code = services.accounts.setup_code(app.config["SECRET_KEY"])
    return [
        f"No account yet. Setup code for the first account (the administrator): {code}",
        "Or make it here: anotador users add NAME",
    ]
