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
from flask.testing import FlaskClient
from flask_login.utils import encode_cookie

from anotador import services
from anotador.services.scope import EVERYTHING
from anotador.storage.database import db
from anotador.storage.models import Group
from anotador.storage.models import Match
from anotador.storage.models import User
from anotador.web import access

#: The ``make_match`` fixture: ``make_match(variant, *, sides=, hands=, layout=, first_dealer=,
#: **document_keys) -> match id``.
MakeMatch = Callable[..., int]

#: The sides of a match nobody named: two, without players.
DEFAULT_SIDES = ({"name": "Nosotros"}, {"name": "Ellos"})
#: Two named pairs (layout ``4p``).
TWO_PAIRS = [
    {"name": "Nosotros", "players": ["Ana", "Beto"]},
    {"name": "Ellos", "players": ["Carla", "Dani"]},
]
#: Uruguaya 4p to 5000: the first side goes out with a big hand (it wins on the second).
BIG_HAND = {
    "end": "closed",
    "closer": 0,
    "sides": [
        {"clean": 4, "dirty": 2, "table_points": 900, "hand_points": 0, "red_threes": 1},
        {"clean": 0, "dirty": 0, "table_points": 100, "hand_points": 40, "red_threes": 0},
    ],
}
#: Example E1's hand as the hand form posts it (uruguaya 4p).
E1_FORM = {
    "closer": "0",
    "s0_clean": "2",
    "s0_dirty": "1",
    "s0_table_points": "760",
    "s0_red_threes": "1",
    "s1_dirty": "1",
    "s1_table_points": "340",
    "s1_hand_points": "85",
    "s1_red_threes": "2",
}


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
    app: Flask,
    document: dict[str, Any],
    *,
    first_dealer: int | None = None,
    owner: str | None = None,
) -> int:
    """Store ``document`` (a copy) as a new match of ``app`` and return its id, asserting the
    engine accepted it; it is the match of account ``owner`` (by default the first
    administrator's, the ``OWNER`` of the ``app`` fixture). In the current app context when
    it is ``app``'s, else in one of its own."""
    with _context_of(app):
        account = None if owner is None else services.accounts.find_account(owner)
        match, problems = services.matches.create_match(
            copy.deepcopy(document),
            first_dealer=first_dealer,
            owner_id=account.id if account is not None else None,
        )
        assert match is not None, problems
        return match.id


#: The account of the ``app`` fixture (its administrator); ``client`` is signed in as it.
OWNER = "Dueña"
PASSWORD = "una clave larga"
#: Hashing made cheap for the suite (the app's default is scrypt at 32 MiB).
TEST_PASSWORD_HASH = "scrypt:1024:8:1"


def owner_id() -> int | None:
    """The id of the current app's first administrator (the ``app`` fixture's ``OWNER``)."""
    return services.accounts.first_administrator_id()


def create_account(app: Flask, name: str, *, admin: bool = False) -> int:
    """A new account of ``app`` called ``name`` (password ``PASSWORD``); its id."""
    with _context_of(app):
        return services.accounts.create_account(name, PASSWORD, admin=admin).id


def join_group(group: Group, name: str) -> User:
    """The account ``name`` invited into ``group`` by its owner, having accepted (in an app
    context)."""
    user = services.groups.invite(group, group.owner_id, name)
    assert services.groups.accept(user.id, group.id) is not None
    return user


def signed_in(app: Flask, name: str = OWNER) -> FlaskClient:
    """A test client signed in as the account ``name``, as after its sign-in form: in the
    session and with the remember cookie (which signs a phone in again when its session is
    gone)."""
    with _context_of(app):
        user = services.accounts.find_account(name)
        assert user is not None, name
        identity = access.Account.of(user, services.sign_ins.sign_in(user.id)).get_id()
        remember = encode_cookie(identity)
    client = app.test_client()
    client.set_cookie(app.config.get("REMEMBER_COOKIE_NAME", "remember_token"), remember)
    with client.session_transaction() as session:
        session["_user_id"] = identity
        session["_fresh"] = True
    return client


def snapshot(app: Flask) -> dict[str, Any]:
    """Every match's export and stored version, and every table's row count."""
    with app.app_context():
        db.session.expire_all()
        counts = {
            table.name: db.session.scalar(sa.select(sa.func.count()).select_from(table))
            for table in db.metadata.sorted_tables
            # Browsers signing in (signed_in above) are no change to what is stored.
            if table.name != "signed_in"
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


def player_id(app: Flask, name: str) -> int:
    """The id of the player called ``name`` (accents and case aside), who must exist."""
    with _context_of(app):
        player = services.queries.find_player(EVERYTHING, name)
        assert player is not None, name
        return player.id


def rename(app: Flask, name: str, new_name: str) -> None:
    """Rename the player called ``name`` as its account would."""
    with _context_of(app):
        player = services.queries.find_player(EVERYTHING, name)
        assert player is not None, name
        assert services.players.rename_player(player, new_name) is None
