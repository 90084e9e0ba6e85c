import os
import re
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner
from sqlalchemy import text
from stored import OWNER
from stored import TEST_PASSWORD_HASH
from stored import MakeMatch
from stored import create_account
from stored import create_stored_match
from stored import match_document
from stored import signed_in

from anotador import create_app
from anotador.storage.config import database_uri
from anotador.storage.database import db

AppFactory = Callable[..., Flask]


def _database_url() -> str | None:
    return os.environ.get("DATABASE_URL") or None


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the translation catalogs when a .po is newer than its .mo (as `make` does),
    so a bare `pytest` sees the current translations."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in Path(__file__).parent.parent.glob("anotador/words/translations/*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            with po.open("rb") as source:
                catalog = read_po(source)
            with mo.open("wb") as target:
                write_mo(target, catalog)


def pytest_report_header() -> str:
    url = _database_url()
    if url is None:
        return "database: SQLite (a temporary file per test)"
    return "database: " + re.sub(r"://([^:/@]*):[^@]*@", r"://\1:***@", url)


@pytest.fixture
def app_factory(tmp_path: Path) -> Iterator[AppFactory]:
    """Build apps on an empty, migrated database: PostgreSQL when DATABASE_URL is set,
    with one account, ``OWNER`` (its administrator: ``signed_in(app)`` is a client of it;
    ``account=False``: none).

    Keyword arguments override the test configuration. Every app shares the test's database
    and instance folder (``tmp_path / "instance"``).
    """
    apps: list[Flask] = []
    url = _database_url()

    def build(*, account: bool = True, **overrides: Any) -> Flask:
        test_config = {
            "TESTING": True,
            # No sheet drawn behind a test's back when a hand ends a match (test_pdf_shelf.py
            # turns it on).
            "PDF_PREPARE_FINISHED": False,
            # Sheets drawn in the test's process (test_pdf_shelf.py checks the child's).
            "PDF_RENDER_PROCESS": False,
            "WTF_CSRF_ENABLED": False,
            # Cheap hashes: the suite makes many accounts (the default is in test_accounts.py).
            "PASSWORD_HASH_METHOD": TEST_PASSWORD_HASH,
            "SQLALCHEMY_DATABASE_URI": (
                database_uri(url) if url else f"sqlite:///{tmp_path / 'test.sqlite3'}"
            ),
            **overrides,
        }
        app = create_app(test_config, instance_path=tmp_path / "instance")
        with app.app_context():
            if not apps and db.engine.dialect.name == "postgresql":
                # Every test starts from an empty database, whatever the last one left.
                with db.engine.begin() as connection:
                    connection.execute(text("DROP SCHEMA public CASCADE"))
                    connection.execute(text("CREATE SCHEMA public"))
            flask_migrate.upgrade()
        if not apps and account:
            create_account(app, OWNER)
        apps.append(app)
        return app

    yield build

    for app in apps:
        with app.app_context():
            db.session.remove()
            # Close pooled connections now: PostgreSQL cannot drop a schema still in use.
            db.engine.dispose()


@pytest.fixture
def app(app_factory: AppFactory) -> Flask:
    return app_factory()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser signed in as ``OWNER``, who owns what ``make_match`` stores."""
    return signed_in(app, OWNER)


@pytest.fixture
def anonymous(app: Flask) -> FlaskClient:
    """A browser signed in nowhere."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def make_match(app: Flask) -> MakeMatch:
    """Store a match in the test's ``app`` and return its id::

        make_match(variant="uruguaya", *, sides=..., hands=..., layout=..., first_dealer=None,
                   **document_keys)

    The document is ``stored.match_document``'s (two sides "Nosotros" and "Ellos", no hands
    unless given); the engine must accept it. A test with an app of its own (``app_factory``)
    calls ``stored.create_stored_match(app, document)``."""

    def make(variant: str = "uruguaya", *, first_dealer: int | None = None, **document: Any) -> int:
        return create_stored_match(
            app, match_document(variant, **document), first_dealer=first_dealer
        )

    return make
