"""Accounts: the first one and its setup code, sign-in and its throttle, passwords, removal,
the administrators' commands; and the upgrade of an installation from before accounts."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import OWNER
from stored import PASSWORD
from stored import create_account
from stored import create_stored_match
from stored import match_document
from stored import signed_in
from stored import snapshot
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create as create_tournament

from anotador import services
from anotador.services import throttle
from anotador.services.accounts import setup_code
from anotador.storage.config import load_config
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import User
from anotador.storage.models import name_key
from anotador.tournaments.store.models import Tournament

BEFORE_ACCOUNTS = "1e79c10ea954"


def sign_up(client: FlaskClient, name: str, password: str = PASSWORD, **more: str) -> Any:
    data = {"name": name, "password": password, "confirm": password, **more}
    return client.post("/cuenta/crear", data=data)


def sign_in(client: FlaskClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/cuenta/entrar", data={"name": name, "password": password})


def code_of(app: Flask) -> str:
    return setup_code(app.config["SECRET_KEY"])


def test_passwords_are_hashed_with_scrypt_by_default(tmp_path: Any):
    assert load_config(tmp_path, {})["PASSWORD_HASH_METHOD"].startswith("scrypt:32768")


# The first account


def test_the_first_account_needs_the_setup_code_and_takes_what_was_stored(app_factory: Any):
    app = app_factory(account=False)
    old = create_stored_match(
        app, match_document(sides=[{"name": "A", "players": ["Ana"]}, {"name": "B"}])
    )
    client = app.test_client()
    assert client.get("/cuenta/entrar").headers["Location"].endswith("/cuenta/crear")
    assert "Código de instalación" in client.get("/cuenta/crear").get_data(as_text=True)
    before = snapshot(app)

    refused = sign_up(client, "Alicia", setup_code="000 000 000")
    assert refused.status_code == 422
    assert "no es el código de instalación" in refused.get_data(as_text=True)
    assert 'value="Alicia"' in refused.get_data(as_text=True)
    with app.app_context():
        assert services.accounts.account_count() == 0

    made = sign_up(client, "Alicia", setup_code=code_of(app).replace(" ", "-"))
    assert made.status_code == 303
    with app.app_context():
        alicia = services.accounts.find_account("alicia")
        assert alicia is not None
        assert alicia.is_admin
        assert db.session.get(Match, old).owner_id == alicia.id
        assert db.session.scalar(sa.select(sa.func.count()).where(Player.owner_id.is_(None))) == 0
    assert client.get(f"/partidas/{old}").status_code == 200  # signed in at once
    assert snapshot(app)["counts"]["account"] == before["counts"]["account"] + 1


def test_setup_code_attempts_are_throttled(app_factory: Any):
    app = app_factory(account=False)
    client = app.test_client()
    for _ in range(throttle.ALLOWANCES["setup"].free):
        assert sign_up(client, "Intruso", setup_code="123456789").status_code == 422
    slowed = sign_up(client, "Intruso", setup_code=code_of(app))
    assert slowed.status_code == 429
    assert "Probá de nuevo en" in slowed.get_data(as_text=True)
    with app.app_context():
        assert services.accounts.account_count() == 0


def test_later_accounts_need_no_code_and_are_not_administrators(app: Flask):
    client = app.test_client()
    page = client.get("/cuenta/crear").get_data(as_text=True)
    assert "Código de instalación" not in page
    assert sign_up(client, "Beto").status_code == 303
    with app.app_context():
        assert not services.accounts.find_account("Beto").is_admin


@pytest.mark.parametrize(
    ("name", "password", "confirm", "message"),
    [
        ("", PASSWORD, PASSWORD, "Escribí el nombre."),
        (OWNER.upper(), PASSWORD, PASSWORD, "Ese nombre ya está usado"),
        ("Beto", "corta", "corta", "al menos 8 caracteres"),
        ("Beto", PASSWORD, PASSWORD + "x", "Las dos contraseñas son distintas."),
        ("Be\u0007to", PASSWORD, PASSWORD, "No puede contener caracteres de control."),
    ],
)
def test_a_refused_sign_up_says_why_and_stores_nothing(
    app: Flask, name: str, password: str, confirm: str, message: str
):
    before = snapshot(app)
    response = app.test_client().post(
        "/cuenta/crear", data={"name": name, "password": password, "confirm": confirm}
    )
    assert response.status_code in (400, 422)
    assert message in response.get_data(as_text=True)
    assert without_throttle(snapshot(app)) == without_throttle(before)


def without_throttle(state: dict[str, Any]) -> dict[str, Any]:
    """A snapshot but the throttle's counts (every sign-up attempt counts, refused or not)."""
    counts = {table: count for table, count in state["counts"].items()}
    counts.pop("sign_in_failure")
    return {**state, "counts": counts}


def test_sign_up_can_be_closed(app_factory: Any):
    app = app_factory(SIGN_UP_OPEN=False)
    response = sign_up(app.test_client(), "Beto")
    assert response.status_code == 403
    assert "anotador users add" in response.get_data(as_text=True)


# Signing in


def test_sign_in_starts_a_new_session_and_goes_where_it_was_asked(app: Flask):
    client = app.test_client()
    asked = client.get("/historial")
    assert asked.status_code == 302
    assert "/cuenta/entrar?next=%2Fhistorial" in asked.headers["Location"]
    with client.session_transaction() as session:
        session["planted"] = "by someone else"
        session["links"] = ["a" * 43]
    response = client.post(
        "/cuenta/entrar?next=/historial", data={"name": "dueña", "password": PASSWORD}
    )
    assert response.status_code == 303
    assert response.headers["Location"] == "/historial"
    with client.session_transaction() as session:
        assert "planted" not in session
        assert session["links"] == ["a" * 43]  # the opened links stay
    cookies = response.headers.getlist("Set-Cookie")
    for name in ("session", "remember_token"):
        cookie = next(c for c in cookies if c.startswith(name + "="))
        assert "HttpOnly" in cookie
        assert "SameSite=Lax" in cookie
    assert client.get("/historial").status_code == 200


@pytest.mark.parametrize(
    "target", ["//evil.example/x", "https://evil.example/", "/\\evil", "historial"]
)
def test_sign_in_never_sends_to_another_site(app: Flask, target: str):
    response = app.test_client().post(
        "/cuenta/entrar", query_string={"next": target}, data={"name": OWNER, "password": PASSWORD}
    )
    assert response.headers["Location"] == "/"


def test_a_wrong_password_is_refused_with_one_message(app: Flask):
    response = sign_in(app.test_client(), OWNER, "no es esta")
    assert response.status_code == 401
    page = response.get_data(as_text=True)
    assert page.count("Nombre o contraseña incorrectos.") == 1
    assert sign_in(app.test_client(), "Nadie", "no es esta").status_code == 401


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = datetime.datetime(2026, 12, 1, 20, 0, tzinfo=datetime.UTC)
        monkeypatch.setattr(throttle, "utc_now", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


def test_repeated_failures_slow_down_then_lock_the_account(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    clock = Clock(monkeypatch)
    client = app.test_client()
    for _ in range(throttle.SLOW_AFTER - 1):
        assert sign_in(client, OWNER, "mal").status_code == 401
    slowed = sign_in(client, OWNER, "mal")
    assert slowed.status_code == 429
    assert "Probá de nuevo en 2 segundos." in slowed.get_data(as_text=True)
    # Waiting: even the right password is not checked, and a refused attempt counts too, so
    # the waits grow.
    assert sign_in(client, OWNER).status_code == 429
    clock.advance(2)
    assert sign_in(client, OWNER, "mal").status_code == 429  # 4 counted: 4 s from the 3rd
    lock_after = throttle.ALLOWANCES["account"].lock_after or 0
    for attempt in range(6, lock_after + 1):  # each let through after its wait: 60 s at most
        locked = sign_in(client, OWNER, "mal")
        assert locked.status_code == 429
        if attempt < lock_after:
            clock.advance(throttle.MAX_WAIT)
    assert "Probá de nuevo en 15 minutos." in locked.get_data(as_text=True)
    clock.advance(14 * 60)
    assert sign_in(client, OWNER).status_code == 429  # counted, but the lock does not move
    clock.advance(60)
    assert sign_in(client, OWNER).status_code == 303
    with app.app_context():  # a success forgets the account's failures
        assert throttle.attempts(throttle.account_key(name_key(OWNER))) == 0


def test_failures_on_many_accounts_from_one_address_lock_the_address(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    clock = Clock(monkeypatch)
    client = app.test_client()
    for number in range(throttle.ALLOWANCES["address"].lock_after):
        sign_in(client, f"Cuenta {number}", "mal")
        clock.advance(throttle.MAX_WAIT)
    assert sign_in(client, OWNER).status_code == 429
    other_address = app.test_client()
    response = other_address.post(
        "/cuenta/entrar",
        data={"name": OWNER, "password": PASSWORD},
        environ_overrides={"REMOTE_ADDR": "192.0.2.7"},
    )
    assert response.status_code == 303


def test_sign_out_ends_the_session(app: Flask):
    client = signed_in(app)
    assert client.get("/historial").status_code == 200
    client.delete_cookie("remember_token")
    assert client.post("/cuenta/salir").status_code == 303
    assert client.get("/historial").status_code == 302


# The account page


def test_a_new_password_signs_the_other_devices_out(app: Flask):
    phone, tablet = signed_in(app), signed_in(app)
    new = "otra clave larga"
    response = phone.post("/cuenta/clave", data={"current": PASSWORD, "new": new, "confirm": new})
    assert response.status_code == 303
    assert phone.get("/historial").status_code == 200
    assert tablet.get("/historial").status_code == 302  # its session and remember cookie
    assert sign_in(app.test_client(), OWNER, new).status_code == 303


def test_a_wrong_current_password_changes_nothing(app: Flask):
    before = snapshot(app)
    response = signed_in(app).post(
        "/cuenta/clave", data={"current": "mal", "new": "otra clave", "confirm": "otra clave"}
    )
    assert response.status_code == 422
    assert "Esa no es tu contraseña actual." in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_deleting_the_account_offers_the_export_then_takes_its_matches(app: Flask):
    create_account(app, "Beto")
    mine = create_stored_match(app, match_document(), owner="Beto")
    theirs = create_stored_match(app, match_document())
    client = signed_in(app, "Beto")
    page = client.get("/cuenta").get_data(as_text=True)
    assert "/historial/copia.jsonl" in page
    refused = client.post("/cuenta/borrar", data={"password": "mal", "confirm": "y"})
    assert refused.status_code == 422
    response = client.post("/cuenta/borrar", data={"password": PASSWORD, "confirm": "y"})
    assert response.status_code == 303
    with app.app_context():
        assert services.accounts.find_account("Beto") is None
        assert db.session.get(Match, mine) is None
        assert db.session.get(Match, theirs) is not None
    assert client.get("/historial").status_code == 302


def test_deleting_an_account_takes_its_players_their_seats_and_its_club_nights(app: Flask):
    """The account's players sit in its matches and pairs: they all go, on either database
    (PostgreSQL checks the seats' reference to a player before the cascade reaches them)."""
    create_account(app, "Beto")
    players = [
        {"name": "Nosotros", "players": ["Ana", "Alba"]},
        {"name": "Ellos", "players": ["Caro", "Dani"]},
    ]
    create_stored_match(app, match_document(layout="4p", sides=players), owner="Beto")
    theirs = create_stored_match(app, match_document(layout="4p", sides=players))
    client = signed_in(app, "Beto")
    tournament_id = create_tournament(client)
    add_pairs(client, tournament_id, PAIRS)
    client.post(f"/torneos/{tournament_id}/rondas")
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")
    response = client.post("/cuenta/borrar", data={"password": PASSWORD, "confirm": "y"})
    assert response.status_code == 303
    with app.app_context():
        assert services.accounts.find_account("Beto") is None
        assert db.session.scalars(sa.select(Match.id)).all() == [theirs]
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 0
        left = db.session.scalars(sa.select(Player.name).order_by(Player.name)).all()
        assert left == ["Alba", "Ana", "Caro", "Dani"]  # the other account's


def test_the_only_administrator_stays_while_other_accounts_exist(app: Flask):
    create_account(app, "Beto")
    response = signed_in(app).post("/cuenta/borrar", data={"password": PASSWORD, "confirm": "y"})
    assert response.status_code == 422
    assert "Sos el único administrador" in response.get_data(as_text=True)


# Administrators' commands


def test_users_commands(app: Flask):
    runner = app.test_cli_runner()
    added = runner.invoke(args=["users", "add", "Carla"], input="una clave larga\n")
    assert added.exit_code == 0, added.output
    assert "account Carla created" in added.output
    short = runner.invoke(args=["users", "add", "Dani"], input="corta\n")
    assert short.exit_code == 2
    listed = runner.invoke(args=["users", "list"])
    assert re.search(r"Carla\tuser\t0 matches", listed.output)
    assert re.search(r"Dueña\tadmin", listed.output)
    client = signed_in(app, "Carla")
    reset = runner.invoke(args=["users", "reset-password", "Carla"], input="nueva clave larga\n")
    assert reset.exit_code == 0
    assert client.get("/historial").status_code == 302
    assert sign_in(app.test_client(), "Carla", "nueva clave larga").status_code == 303
    removed = runner.invoke(args=["users", "remove", "Carla", "--yes"])
    assert removed.exit_code == 0
    assert runner.invoke(args=["users", "remove", "Carla", "--yes"]).exit_code == 2


def test_import_for_an_account(app: Flask, tmp_path: Any):
    create_account(app, "Beto")
    path = tmp_path / "partida.json"
    path.write_text(json.dumps(match_document()))
    runner = app.test_cli_runner()
    result = runner.invoke(args=["import", str(path), "--owner", "Beto"])
    assert result.exit_code == 0, result.output
    match_id = int(result.output.strip().rsplit("/", 1)[1])
    assert signed_in(app, "Beto").get(f"/partidas/{match_id}").status_code == 200
    assert signed_in(app).get(f"/partidas/{match_id}").status_code == 404
    again = runner.invoke(args=["import", str(path)])  # the administrator's: a new match
    assert "already present" not in again.output
    assert runner.invoke(args=["import", str(path), "--owner", "Nadie"]).exit_code == 2


def test_share_prints_a_link_that_opens_the_match(app: Flask):
    match_id = create_stored_match(app, match_document())
    runner = app.test_cli_runner()
    printed = runner.invoke(args=["share", str(match_id), "--base-url", "http://10.0.0.5:5000/"])
    assert printed.exit_code == 0, printed.output
    link = printed.output.strip()
    assert re.fullmatch(r"http://10\.0\.0\.5:5000/enlace/[\w-]{43}", link)
    again = runner.invoke(args=["share", str(match_id), "--base-url", "http://10.0.0.5:5000"])
    assert again.output.strip() == link  # the same link until it is revoked
    table = runner.invoke(args=["share", str(match_id), "--table", "--base-url", "http://x"])
    assert table.output.strip() != link.replace("http://10.0.0.5:5000", "http://x")
    phone = app.test_client()
    assert phone.get(link.removeprefix("http://10.0.0.5:5000")).status_code == 303
    assert phone.get(f"/partidas/{match_id}").status_code == 200
    assert runner.invoke(args=["share", "999"]).exit_code == 2


# The upgrade of an installation from before accounts


def test_an_upgrade_keeps_every_match_for_the_first_administrator(app_factory: Any):
    app = app_factory(account=False)
    sides = [{"name": "A", "players": ["Ana"]}, {"name": "B", "players": ["Beto"]}]
    kept = create_stored_match(app, match_document(sides=sides))
    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE_ACCOUNTS)
        flask_migrate.upgrade()
        assert db.session.get(Match, kept).owner_id is None
    runner = app.test_cli_runner()
    assert runner.invoke(args=["users", "add", "Admin"], input="una clave larga\n").exit_code == 0
    with app.app_context():
        admin = services.accounts.find_account("Admin")
        assert admin.is_admin
        assert db.session.get(Match, kept).owner_id == admin.id
        owners = db.session.scalars(sa.select(Player.owner_id)).all()
        assert owners == [admin.id, admin.id]
        assert db.session.scalar(sa.select(sa.func.count()).select_from(User)) == 1
