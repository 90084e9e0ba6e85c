"""What ``anotador run`` does before it serves: migrate a new database, say where the data is.

A person who installed the app (``pipx install``) types ``anotador run`` and gets a working
app: the first time, the database is created at the current revision; every time, the first
lines say which data folder and database are in use. An existing database is never migrated
here: when it is behind the code (after an upgrade of the package), the message says to run
``anotador db upgrade``, a step worth a backup first. Issue 10's ``serve`` calls
:func:`prepare` too.

What it prints is in the machine's language (:func:`machine_words`: ``LANG`` and its
kin), as the servers' banner that follows (:func:`banner_lines`: the address to open on a
phone, :mod:`anotador.web.addresses`, and its QR code).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable

import flask_migrate
import segno
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from babel.support import NullTranslations
from flask import Flask

from anotador import services
from anotador.storage.config import MIGRATIONS
from anotador.storage.database import db
from anotador.web import addresses
from anotador.web.extensions import LANGUAGES
from anotador.words.i18n import catalog_of
from anotador.words.i18n import machine_language


def machine_words() -> NullTranslations:
    """The catalog of the machine's language (:func:`anotador.words.i18n.machine_language`), for
    what the commands print in its terminal."""
    return catalog_of(machine_language(os.environ, LANGUAGES))


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
    _ = machine_words().gettext
    with app.app_context():
        database = db.engine.url.render_as_string(hide_password=True)
    echo(_("Data folder: %(folder)s") % {"folder": app.instance_path})
    echo(_("Database: %(database)s") % {"database": database})
    revision = current_revision(app)
    migrated = revision is None
    if migrated:
        echo(_("New database: applying the migrations."))
        with app.app_context():
            flask_migrate.upgrade()
    elif revision not in head_revisions():
        echo(
            _(
                "The database is at revision %(revision)s; this version of anotador expects "
                "%(expected)s. To bring it up to date, back it up (`anotador export --all -o "
                "backup.jsonl`), then run `anotador db upgrade`."
            )
            % {"revision": revision, "expected": ", ".join(head_revisions())}
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
    _ = machine_words().gettext
    return [
        _("No account yet. Setup code for the first account (the administrator): %(code)s")
        % {"code": code},
        _("Or make it here: anotador users add NAME"),
    ]


def banner_lines(app: Flask, host: str, port: int) -> list[str]:
    """What the server prints once it listens: the address to open on a phone and its QR code,
    in the machine's language (``LANG`` and its kin: :func:`machine_words`).

    One function for both servers (``anotador run``, ``anotador serve``); ``app`` is there for
    lines that depend on its state.
    """
    _ = machine_words().gettext
    url, reachable = addresses.phone_address(host, port)
    lines = ["", "Anotador de Canasta"]
    if reachable:
        lines.append(_("Open it on a phone on this network: %(url)s") % {"url": url})
    elif host in addresses.WILDCARD_HOSTS:
        lines.append(
            _("No network found: only this machine can open it, at %(url)s") % {"url": url}
        )
    else:
        lines.append(
            _("Only this machine can open it, at %(url)s (HOST=0.0.0.0 lets the phones in).")
            % {"url": url}
        )
    lines.extend(terminal_qr(url))
    lines.extend(setup_code_lines(app))
    return lines


def terminal_qr(url: str) -> list[str]:
    """The QR code of ``url`` in block characters (two rows of modules per line)."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n").split("\n")


def echo_banner(
    app: Flask, host: str, port: int, echo: Callable[[str], object], encoding: str | None
) -> None:
    """Print :func:`banner_lines` through ``echo`` (``click.echo``, ``print``) to a terminal
    of ``encoding``: one that cannot show the QR's block characters gets the address only."""
    for line in banner_lines(app, host, port):
        try:
            line.encode(encoding or "utf-8")
        except (UnicodeEncodeError, LookupError):
            continue
        echo(line)
