"""Stored data for the tests: a match stored through its use case, and a snapshot of the database.

The one place the tests store a match through ``services.matches.create_match`` (but the tests
of that use case itself); the ``make_match`` fixture (``conftest.py``) is built on it. A module
of its own, as ``sql_counting.py``: a test module cannot import ``conftest.py`` (collecting
``tests/e2e`` makes the module ``conftest`` that folder's ``conftest.py``).
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any

import flask
import sqlalchemy as sa
from flask import Flask

from anotador import services
from anotador.extensions import db
from anotador.models import Match

#: The ``make_match`` fixture: ``make_match(variant, *, sides=, hands=, layout=, first_dealer=,
#: **document_keys) -> match id``.
MakeMatch = Callable[..., int]

#: The sides of a match nobody named: two, without players.
DEFAULT_SIDES = ({"name": "Nosotros"}, {"name": "Ellos"})


def match_document(
    variant: str = "uruguaya",
    *,
    sides: Iterable[dict[str, Any]] = DEFAULT_SIDES,
    hands: Iterable[dict[str, Any]] = (),
    layout: str | None = None,
    **document_keys: Any,
) -> dict[str, Any]:
    """A match file: ``variant`` (its default layout unless ``layout`` is given), the two
    sides "Nosotros" and "Ellos" and no hands unless given, and any other key of the file
    (``options``, ``start_scores``, ``played_on``, ``title``, ``abandoned``...) as given."""
    document: dict[str, Any] = {"format": "anotador-match/1", "variant": variant}
    if layout is not None:
        document["layout"] = layout
    document["sides"] = [dict(side) for side in sides]
    document["hands"] = list(hands)
    return {**document, **document_keys}


def create_stored_match(
    app: Flask, document: dict[str, Any], *, first_dealer: int | None = None
) -> int:
    """Store ``document`` (a copy) as a new match of ``app`` and return its id, asserting the
    engine accepted it. In the current app context when it is ``app``'s, else in one of its
    own."""
    with _context_of(app):
        match, problems = services.matches.create_match(
            copy.deepcopy(document), first_dealer=first_dealer
        )
        assert match is not None, problems
        return match.id


def snapshot(app: Flask) -> dict[str, Any]:
    """Every match's export and stored version, and every table's row count."""
    with app.app_context():
        db.session.expire_all()
        counts = {
            table.name: db.session.scalar(sa.select(sa.func.count()).select_from(table))
            for table in db.metadata.sorted_tables
        }
        matches = {
            match.id: (
                json.dumps(services.documents.match_document(match), sort_keys=True),
                match.version,
                [hand.request_key for hand in match.hands],
            )
            for match in db.session.scalars(sa.select(Match))
        }
        db.session.remove()
    return {"counts": counts, "matches": matches}


def _context_of(app: Flask) -> contextlib.AbstractContextManager[object]:
    if flask.has_app_context() and flask.current_app._get_current_object() is app:
        return contextlib.nullcontext()
    return app.app_context()
