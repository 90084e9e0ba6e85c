"""A database that cannot be reached: every page and endpoint answers 503 with ``Retry-After``
and the app's own page in the request's language (JSON for the endpoints scripts read);
``/readyz`` says so, ``/healthz`` does not; the app serves again when the database is back.

The outage here is the app's database refusing every new connection (what a stopped server
or an unopenable SQLite file gives), on SQLite or on ``DATABASE_URL``'s PostgreSQL; the real
PostgreSQL stopped and restarted is ``test_outage_postgres.py``.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event
from stored import E1_FORM
from stored import MakeMatch
from stored import snapshot

from anotador.storage.database import db
from anotador.web import errors
from anotador.web import security


@pytest.fixture
def app(app_factory: Any) -> Flask:
    """The app as a server runs it: an exception no handler takes becomes the 500 page (a
    test app would raise it into the test instead)."""
    return app_factory(PROPAGATE_EXCEPTIONS=False)


@contextlib.contextmanager
def unreachable(app: Flask) -> Iterator[None]:
    """The database refuses every connection until the block ends: the pooled ones are
    dropped, and a new one fails as the driver fails to reach a server."""
    with app.app_context():
        engine = db.engine
        refusal = engine.dialect.loaded_dbapi.OperationalError

        def refuse(*args: Any) -> None:
            raise refusal("connection refused: the database is down (test)")

        engine.dispose()
        event.listen(engine, "do_connect", refuse)
    try:
        yield
    finally:
        event.remove(engine, "do_connect", refuse)


def assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)[:500]
    assert response.headers["Retry-After"] == str(errors.RETRY_AFTER_SECONDS)
    assert response.headers["Content-Security-Policy"] == security.CONTENT_SECURITY_POLICY


def assert_unavailable_page(response: Any, language: str = "es") -> str:
    assert_unavailable(response)
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    words = {
        "es": ("Servicio no disponible", "Volver al inicio"),
        "en": ("Service unavailable", "Back to the home page"),
        "it": ("Servizio non disponibile", "Torna alla pagina iniziale"),
    }[language]
    for word in words:
        assert word in page
    assert f'<html lang="{language}">' in page
    return page


def assert_unavailable_json(response: Any) -> dict[str, Any]:
    assert_unavailable(response)
    assert response.mimetype == "application/json"
    body: dict[str, Any] = response.get_json()
    assert body["ok"] is False
    assert body["error"] == "unavailable"
    return body


def test_every_page_answers_503_with_the_apps_page_for_a_signed_in_browser(
    app: Flask, client: FlaskClient, make_match: MakeMatch
):
    match_id = make_match(layout="4p")
    pages = ["/", "/historial", "/jugadores/", "/cuenta", f"/partidas/{match_id}"]
    pages += [f"/partidas/{match_id}/manos/nueva", "/cuenta/entrar", "/planillas/en-blanco"]

    with unreachable(app):
        for path in pages:
            page = assert_unavailable_page(client.get(path))
            # Drawn for nobody: who is signed in cannot be read.
            assert "account-link" not in page, path

    for path in pages:
        assert client.get(path).status_code in (200, 302), path


def test_another_errors_page_is_the_503_when_it_cannot_read_the_account(
    app: Flask, client: FlaskClient
):
    with unreachable(app):
        assert_unavailable_page(client.get("/no-existe"))  # the 404 page would show the account
        assert_unavailable_page(client.post("/healthz"))  # and the 405 page
    assert client.get("/no-existe").status_code == 404


@pytest.mark.parametrize(
    ("headers", "cookie_language", "language"),
    [
        ({"Accept-Language": "en-US,en;q=0.9"}, None, "en"),
        ({"Accept-Language": "it"}, None, "it"),
        ({}, None, "es"),
        ({"Accept-Language": "en"}, "it", "it"),  # the switch's choice, from the session
    ],
)
def test_the_error_page_speaks_the_requests_language_without_the_database(
    app: Flask,
    anonymous: FlaskClient,
    headers: dict[str, str],
    cookie_language: str | None,
    language: str,
):
    if cookie_language is not None:
        anonymous.get(f"/idioma/{cookie_language}")
    with unreachable(app):
        assert_unavailable_page(anonymous.get("/cuenta/entrar", headers=headers), language)


def test_a_missing_page_still_speaks_the_browsers_language(anonymous: FlaskClient):
    page = anonymous.get("/no-existe", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Back to the home page" in page
    assert "Volver al inicio" not in page


def test_json_endpoints_answer_json(app: Flask, client: FlaskClient, make_match: MakeMatch):
    match_id = make_match(layout="4p")
    outbox = f"/partidas/{match_id}/manos/pendientes"

    with unreachable(app):
        assert_unavailable_json(client.get(f"/partidas/{match_id}/version"))
        assert_unavailable_json(client.get(outbox))
        sent = {"request_key": "a" * 32, "number": 1, "hand": {}}
        assert_unavailable_json(client.post(outbox, json=sent))
        preview = client.post(f"/partidas/{match_id}/manos/vista-previa", data=E1_FORM)
        body = assert_unavailable_json(preview)
        assert body["title"] == "Servicio no disponible"
        english = client.get("/jugadores/sugerencias?q=Ana", headers={"Accept-Language": "en"})
        assert assert_unavailable_json(english)["title"] == "Service unavailable"


def test_sign_in_and_a_save_answer_503_and_change_nothing(
    app: Flask, client: FlaskClient, anonymous: FlaskClient, make_match: MakeMatch
):
    match_id = make_match(layout="4p")
    form = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    key = re.search(r'name="request_key" type="hidden" value="([0-9a-f]+)"', form)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', form)
    assert key is not None
    assert version is not None
    hand = {**E1_FORM, "request_key": key.group(1), "version": version.group(1)}
    before = snapshot(app)

    with unreachable(app):
        assert_unavailable_page(client.post(f"/partidas/{match_id}/manos/nueva", data=hand))
        signing_in = {"name": "Dueña", "password": "una clave larga"}
        assert_unavailable_page(anonymous.post("/cuenta/entrar", data=signing_in))

    assert snapshot(app) == before
    # Sent again once the database is back (the browser's back button keeps the form).
    saved = client.post(f"/partidas/{match_id}/manos/nueva", data=hand)
    assert saved.status_code == 302
    assert json.loads(client.get(f"/partidas/{match_id}/version").data)["hands"] == 1


def test_readyz_reports_the_database_and_healthz_the_process(app: Flask, anonymous: FlaskClient):
    ready = anonymous.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json() == {"status": "ok", "database": "ok"}

    with unreachable(app):
        down = anonymous.get("/readyz")
        assert down.status_code == 503
        assert down.get_json()["database"] == "unreachable"
        assert down.headers["Retry-After"] == str(errors.RETRY_AFTER_SECONDS)
        assert anonymous.get("/healthz").status_code == 200

    assert anonymous.get("/readyz").status_code == 200


def test_the_app_serves_again_once_the_database_is_back(
    app: Flask, client: FlaskClient, make_match: MakeMatch
):
    match_id = make_match(layout="4p")
    for _ in range(3):
        with unreachable(app):
            assert_unavailable_page(client.get(f"/partidas/{match_id}"))
        page = client.get(f"/partidas/{match_id}")
        assert page.status_code == 200
        assert "account-link" in page.get_data(as_text=True)


def test_pooled_connections_are_pinged_before_use(app: Flask):
    with app.app_context():
        assert db.engine.pool._pre_ping
