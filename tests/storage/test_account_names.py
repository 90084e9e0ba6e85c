"""Account names a person can tell apart: invisible characters and look-alikes (UTS #39
confusable skeletons) are refused, in each language, and two look-alikes signed up at once
make one account; an upgrade gives the accounts it finds their look."""

from __future__ import annotations

import datetime
import threading
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from flask import Flask
from stored import PASSWORD
from stored import create_account
from stored import snapshot

from anotador.storage import names
from anotador.storage.database import db
from anotador.storage.models import User

BEFORE_LOOKS = "c4d2e6f8a1b3"


def sign_up(app: Flask, name: str, language: str = "es", address: str = "127.0.0.1") -> Any:
    return app.test_client().post(
        "/cuenta/crear",
        data={"name": name, "password": PASSWORD, "confirm": PASSWORD},
        headers={"Accept-Language": language},
        environ_overrides={"REMOTE_ADDR": address},
    )


@pytest.mark.parametrize(
    ("name", "look_alike"),
    [
        ("alice", "\u0430lice"),  # a Cyrillic а
        ("alice", "AIice"),  # a capital i for the l
        ("Alice", "\u0410lice"),  # a capital Cyrillic А
        ("mario", "rnario"),
        ("Juan1", "Juanl"),
        ("paypal", "\u0440\u0430\u0443\u0440\u0430l"),
    ],
)
def test_look_alike_names_have_one_skeleton(name: str, look_alike: str):
    assert names.skeleton(name) == names.skeleton(look_alike)
    assert names.skeleton_digest(name) == names.skeleton_digest(look_alike)


@pytest.mark.parametrize(("name", "other"), [("alice", "alicia"), ("Ana", "Ara"), ("José", "Jesé")])
def test_different_names_have_different_skeletons(name: str, other: str):
    assert names.skeleton(name) != names.skeleton(other)


@pytest.mark.parametrize(
    "name", ["alice\u200b", "ali\u00adce", "alice\u202e", "\u2066alice\u2069", "al\u034fice"]
)
@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("es", "solo con caracteres visibles"),
        ("en", "with visible characters only"),
        ("it", "solo con caratteri visibili"),
    ],
)
def test_invisible_characters_are_refused(app: Flask, name: str, language: str, message: str):
    before = snapshot(app)
    response = sign_up(app, name, language)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert snapshot(app)["counts"]["account"] == before["counts"]["account"]


def test_an_emoji_keeps_its_look(app: Flask):
    assert sign_up(app, "Ana \u2764\ufe0f").status_code == 303


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("es", "se parece demasiado al de otra cuenta"),
        ("en", "looks too much like another account"),
        ("it", "somiglia troppo a quello di un altro account"),
    ],
)
def test_a_look_alike_of_an_account_is_refused(app: Flask, language: str, message: str):
    create_account(app, "alice")
    for number, look_alike in enumerate(["\u0430lice", "AIice", "\u0410lice"]):
        response = sign_up(app, look_alike, language, f"192.0.2.{number}")
        assert response.status_code == 422
        assert message in response.get_data(as_text=True).replace("&#39;", "'")
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(User)) == 2


def test_look_alikes_signed_up_at_once_make_one_account(app_factory: Any):
    hosts = [app_factory(), app_factory()]
    variants = ["alice", "\u0430lice", "AIice", "\u0410lice", "a\u217cice"]
    variants = [*variants, *variants]  # some twice: the same name at once, too
    barrier = threading.Barrier(len(variants))
    statuses: list[int] = []
    errors: list[BaseException] = []

    def run(number: int, name: str) -> None:
        try:
            barrier.wait()
            statuses.append(
                sign_up(hosts[number % 2], name, address=f"192.0.2.{number}").status_code
            )
        except BaseException as error:  # a 500 is an exception in a test app
            errors.append(error)

    threads = [threading.Thread(target=run, args=item) for item in enumerate(variants)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert sorted(statuses) == [303] + [422] * (len(variants) - 1)
    with hosts[0].app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(User)) == 2


def test_an_upgrade_gives_existing_accounts_their_look(app_factory: Any):
    app = app_factory()  # its administrator, Dueña
    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE_LOOKS)
        account = sa.table(
            "account",
            sa.column("name", sa.String),
            sa.column("name_key", sa.String),
            sa.column("password_hash", sa.String),
            sa.column("is_admin", sa.Boolean),
            sa.column("session_token", sa.String),
            sa.column("created_at", sa.DateTime(timezone=True)),
        )
        row = {
            "password_hash": "x",
            "is_admin": False,
            "session_token": "t",
            "created_at": datetime.datetime.now(datetime.UTC),
        }
        db.session.execute(
            account.insert(),
            [
                {**row, "name": "alice", "name_key": "alice"},
                {**row, "name": "\u0430lice", "name_key": "\u0430lice"},  # from before
            ],
        )
        db.session.commit()
        flask_migrate.upgrade()
        found = db.session.execute(
            sa.select(User.name, User.name_skeleton, User.first_account).order_by(User.id)
        ).all()
    assert found == [
        ("Dueña", names.skeleton_digest("Dueña"), True),
        ("alice", names.skeleton_digest("alice"), None),
        ("\u0430lice", None, None),  # the older one keeps the look
    ]


def test_the_command_line_refuses_look_alikes_too(app: Flask):
    create_account(app, "alice")
    runner = app.test_cli_runner()
    refused = runner.invoke(args=["users", "add", "\u0430lice"], input="una clave larga\n")
    assert refused.exit_code == 2
    assert "se parece demasiado al de otra cuenta" in refused.output
    hidden = runner.invoke(args=["users", "add", "ali\u00adce2"], input="una clave larga\n")
    assert hidden.exit_code == 2
