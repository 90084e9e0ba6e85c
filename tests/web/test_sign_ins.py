"""Signing out ends the browser's sign-in on the server: its session and remember cookies,
wherever they were copied, no longer sign anyone in; the account page signs out every other
device."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import OWNER
from stored import PASSWORD
from stored import signed_in

from anotador.services import sign_ins
from anotador.storage.database import db
from anotador.storage.models import SignedIn

SESSION, REMEMBER = "session", "remember_token"


def signed_in_by_form(app: Flask) -> FlaskClient:
    client = app.test_client()
    response = client.post("/cuenta/entrar", data={"name": OWNER, "password": PASSWORD})
    assert response.status_code == 303
    return client


def copy_of(client: FlaskClient, app: Flask, *names: str) -> FlaskClient:
    """Another browser holding only ``names`` of ``client``'s cookies, as copied."""
    copy = app.test_client()
    for name in names:
        cookie = client.get_cookie(name)
        assert cookie is not None, name
        copy.set_cookie(name, cookie.value)
    return copy


@pytest.mark.parametrize("cookies", [(SESSION,), (REMEMBER,), (SESSION, REMEMBER)])
def test_cookies_copied_before_sign_out_no_longer_work(app: Flask, cookies: tuple[str, ...]):
    phone = signed_in_by_form(app)
    copy = copy_of(phone, app, *cookies)
    assert copy.get("/cuenta").status_code == 200  # the copy works while the phone is in
    copy = copy_of(phone, app, *cookies)
    assert phone.post("/cuenta/salir").status_code == 303
    assert phone.get("/cuenta").status_code == 302
    assert copy.get("/cuenta").status_code == 302
    assert copy.get("/historial").status_code == 302


def test_signing_out_ends_only_that_browser(app: Flask):
    phone, tablet = signed_in_by_form(app), signed_in_by_form(app)
    assert phone.post("/cuenta/salir").status_code == 303
    assert tablet.get("/cuenta").status_code == 200


def test_sign_out_every_other_device_keeps_this_one(app: Flask):
    phone, tablet, laptop = signed_in_by_form(app), signed_in_by_form(app), signed_in(app)
    page = phone.get("/cuenta").get_data(as_text=True)
    assert "Tu cuenta está abierta en 2 dispositivos más." in page
    assert copy_of(tablet, app, REMEMBER).get("/cuenta").status_code == 200
    tablet_remember = copy_of(tablet, app, REMEMBER)

    response = phone.post("/cuenta/salir-de-los-demas")
    assert response.status_code == 303
    assert phone.get("/cuenta").status_code == 200
    assert tablet.get("/cuenta").status_code == 302
    assert laptop.get("/cuenta").status_code == 302
    assert tablet_remember.get("/cuenta").status_code == 302
    page = phone.get("/cuenta").get_data(as_text=True)
    assert "Tu cuenta está abierta en 0 dispositivos más." in page


def test_signing_out_others_needs_the_form_token(app_factory: Any):
    app = app_factory(WTF_CSRF_ENABLED=True)
    phone, tablet = signed_in(app), signed_in(app)
    assert phone.post("/cuenta/salir-de-los-demas").status_code == 400
    assert tablet.get("/cuenta").status_code == 200


def test_a_new_password_ends_every_sign_in_row(app: Flask):
    phone, _tablet = signed_in(app), signed_in(app)
    new = "otra clave larga"
    response = phone.post("/cuenta/clave", data={"current": PASSWORD, "new": new, "confirm": new})
    assert response.status_code == 303
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(SignedIn)) == 1
    assert "en 0 dispositivos más" in phone.get("/cuenta").get_data(as_text=True)


def test_old_and_surplus_sign_ins_go_at_the_next_sign_in(app: Flask):
    first = signed_in(app)
    with app.app_context():
        owner = db.session.scalar(sa.select(SignedIn.user_id))
        assert owner is not None
        old = datetime.datetime.now(datetime.UTC) - sign_ins.lifetime() - datetime.timedelta(1)
        db.session.execute(sa.update(SignedIn).values(created_at=old))
        db.session.commit()
        for _ in range(sign_ins.MAX_SIGNED_IN + 5):
            sign_ins.sign_in(owner)
        count = db.session.scalar(sa.select(sa.func.count()).select_from(SignedIn))
    assert count == sign_ins.MAX_SIGNED_IN
    assert first.get("/cuenta").status_code == 302


@pytest.mark.parametrize("identity", ["1", "1:token", "1:token:", "x:y:z", "0:a:b", "1::"])
def test_a_cookie_id_without_a_live_sign_in_signs_nobody_in(app: Flask, identity: str):
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = identity
    assert client.get("/cuenta").status_code == 302
