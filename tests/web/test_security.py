"""Browser hardening on every response (anotador/web/security.py) and the reverse proxy setting.

Every kind of response the app makes gets the same headers; cookies are ``HttpOnly`` and
``SameSite=Lax`` always and ``Secure`` on HTTPS only, so the app keeps working over plain HTTP
on the local network; behind a proxy (``ANOTADOR_BEHIND_PROXY``) the forwarded scheme, host
and address count, and without it they are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from flask import Response
from flask import request
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf
from stored import MakeMatch
from werkzeug.test import TestResponse

from anotador import create_app
from anotador.commands import demo
from anotador.storage.config import proxy_settings
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.web import security

AppFactory = Callable[..., Flask]

HARDENING = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
BLANK_PDF = "/planillas/en-blanco?variante=uruguaya&disposicion=4p"


def directives(response: TestResponse) -> dict[str, str]:
    policy = response.headers["Content-Security-Policy"]
    return {
        part.split()[0]: " ".join(part.split()[1:]) for part in policy.split(";") if part.strip()
    }


def assert_hardened(response: TestResponse, *, https: bool = False) -> None:
    for name, value in HARDENING.items():
        assert response.headers.get(name) == value, name
    policy = directives(response)
    assert policy["script-src"] == "'self'"  # no 'unsafe-inline', no other origin
    assert policy["style-src"] == "'self'"
    assert policy["default-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"
    assert policy["form-action"] == "'self'"
    assert "unsafe" not in response.headers["Content-Security-Policy"]
    assert "camera=()" in response.headers["Permissions-Policy"]
    if https:
        assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    else:
        assert "Strict-Transport-Security" not in response.headers
    for cookie in response.headers.getlist("Set-Cookie"):
        assert_cookie(cookie, secure=https)


def cookie_attributes(cookie: str) -> dict[str, str]:
    parts = [part.strip() for part in cookie.split(";")[1:]]
    return {part.split("=", 1)[0].lower(): part.partition("=")[2] for part in parts if part}


def assert_cookie(cookie: str, *, secure: bool) -> None:
    attributes = cookie_attributes(cookie)
    assert "httponly" in attributes, cookie
    assert attributes.get("samesite") == "Lax", cookie
    assert ("secure" in attributes) is secure, cookie


@pytest.fixture
def match_id(make_match: MakeMatch) -> int:
    return make_match()


@pytest.mark.parametrize("https", [False, True], ids=["http", "https"])
@pytest.mark.parametrize(
    ("method", "path", "status", "content_type"),
    [
        ("GET", "/", 200, "text/html"),
        ("GET", "/partidas/{match}", 200, "text/html"),
        ("GET", "/healthz", 200, "application/json"),
        ("GET", "/jugadores/sugerencias?q=Ana", 200, "application/json"),
        ("POST", "/partidas/{match}/manos/vista-previa", 200, "application/json"),
        ("GET", BLANK_PDF, 200, "application/pdf"),
        ("GET", "/partidas/{match}/planilla.pdf", 200, "application/pdf"),
        ("GET", "/historial/historial.csv", 200, "text/csv"),
        ("GET", "/historial/copia.jsonl", 200, "application/"),
        ("GET", "/partidas/{match}/exportar", 200, "application/json"),
        ("GET", "/static/css/app.css", 200, "text/css"),
        ("GET", "/static/js/app.js", 200, "text/javascript"),
        ("GET", "/idioma/en?next=/historial", 303, "text/html"),
        ("GET", "/jugadores", 308, None),  # Werkzeug's redirect to the trailing slash
        ("GET", "/no-such-page", 404, "text/html"),
        ("GET", "/partidas/2147483647", 404, "text/html"),
        ("POST", "/healthz", 405, "text/html"),
    ],
)
def test_every_kind_of_response_is_hardened(
    client: FlaskClient,
    match_id: int,
    https: bool,
    method: str,
    path: str,
    status: int,
    content_type: str | None,
):
    base_url = "https://localhost" if https else "http://localhost"
    response = client.open(path.format(match=match_id), method=method, base_url=base_url)
    response.close()  # a static file's

    assert response.status_code == status
    if content_type is not None:
        assert response.content_type.startswith(content_type)
    assert_hardened(response, https=https)


def test_a_not_modified_pdf_is_hardened(client: FlaskClient):
    first = client.get(BLANK_PDF)
    again = client.get(BLANK_PDF, headers={"If-None-Match": first.headers["ETag"]})

    assert again.status_code == 304
    assert_hardened(again)


def test_refused_and_failed_requests_are_hardened(app_factory: AppFactory):
    app = app_factory(WTF_CSRF_ENABLED=True, MAX_CONTENT_LENGTH=100, PROPAGATE_EXCEPTIONS=False)

    def broken() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/broken", "broken", broken)
    app.add_url_rule("/upload", "upload", lambda: str(len(request.form)), methods=["POST"])
    client = app.test_client()

    without_token = client.post("/partidas/importar", data={})
    too_big = client.post("/upload", data={"notes": "x" * 1000})
    server_error = client.get("/broken")

    assert without_token.status_code == 400
    assert too_big.status_code == 413
    assert server_error.status_code == 500
    for response in (without_token, too_big, server_error):
        assert response.content_type.startswith("text/html")
        assert_hardened(response)


def test_a_view_cannot_weaken_the_policy(app: Flask):
    def lax() -> Response:
        response = Response("x")
        response.headers["Content-Security-Policy"] = "default-src *"
        response.headers["X-Frame-Options"] = "SAMEORIGIN"
        return response

    app.add_url_rule("/lax", "lax", lax)

    response = app.test_client().get("/lax")

    assert response.headers.getlist("Content-Security-Policy") == [security.CONTENT_SECURITY_POLICY]
    assert response.headers.getlist("X-Frame-Options") == ["DENY"]


# Cookies: Secure on HTTPS only, per request


def test_session_cookie_is_secure_over_https_only(client: FlaskClient):
    plain = client.get("/idioma/en?next=/", base_url="http://192.168.1.23:5000")
    encrypted = client.get("/idioma/en?next=/", base_url="https://anotador.example")

    [plain_cookie] = plain.headers.getlist("Set-Cookie")
    [encrypted_cookie] = encrypted.headers.getlist("Set-Cookie")
    assert plain_cookie.startswith("session=")
    assert_cookie(plain_cookie, secure=False)
    assert encrypted_cookie.startswith("session=")
    assert_cookie(encrypted_cookie, secure=True)


def test_the_session_works_over_plain_http_on_the_local_network(client: FlaskClient):
    lan = "http://192.168.1.23:5000"
    client.get("/idioma/en?next=/", base_url=lan)

    page = client.get("/", base_url=lan)

    assert '<html lang="en">' in page.get_data(as_text=True)


def test_every_cookie_the_app_sets_gets_the_same_attributes(app: Flask):
    """A cookie set without attributes (as an extension might: Flask-Login's remember cookie)
    leaves HttpOnly and SameSite=Lax, and Secure on HTTPS; one that says SameSite keeps it."""

    def cookies() -> Response:
        response = Response("x")
        response.set_cookie("remember_token", "abc")
        response.set_cookie("strict", "1", samesite="Strict", secure=True, httponly=True)
        return response

    app.add_url_rule("/cookies", "cookies", cookies)
    client = app.test_client()

    for https in (False, True):
        response = client.get("/cookies", base_url="https://localhost" if https else None)
        remember, strict = response.headers.getlist("Set-Cookie")
        assert remember.startswith("remember_token=abc")
        assert_cookie(remember, secure=https)
        attributes = cookie_attributes(strict)
        assert attributes["samesite"] == "Strict"
        assert list(attributes).count("secure") == 1


@pytest.mark.parametrize(
    ("cookie", "secure", "expected"),
    [
        ("a=1; Path=/", False, "a=1; Path=/; HttpOnly; SameSite=Lax"),
        ("a=1; Path=/", True, "a=1; Path=/; HttpOnly; SameSite=Lax; Secure"),
        ("a=1; secure; httponly; samesite=None", True, "a=1; secure; httponly; samesite=None"),
        ("a=x%3Bsecure", True, "a=x%3Bsecure; HttpOnly; SameSite=Lax; Secure"),
    ],
)
def test_cookie_attributes_are_added_only_when_missing(cookie: str, secure: bool, expected: str):
    assert security.harden_cookie(cookie, secure=secure) == expected


# Behind a reverse proxy


def proxied_app(app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch, hops: str) -> Flask:
    monkeypatch.setenv("ANOTADOR_BEHIND_PROXY", hops)
    app = app_factory()

    @app.get("/seen")
    def seen() -> dict[str, object]:
        return {"secure": request.is_secure, "host": request.host, "addr": request.remote_addr}

    return app


FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "anotador.club.example",
    "X-Forwarded-For": "203.0.113.9",
}


def test_behind_a_proxy_the_forwarded_scheme_host_and_address_count(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    client = proxied_app(app_factory, monkeypatch, "1").test_client()

    seen = client.get("/seen", headers=FORWARDED)
    language = client.get("/idioma/en?next=/", headers=FORWARDED)
    home = client.get("/", headers=FORWARDED)

    assert seen.json == {"secure": True, "host": "anotador.club.example", "addr": "203.0.113.9"}
    assert_hardened(language, https=True)
    assert language.headers.getlist("Set-Cookie")
    # The home page's QR code is of the public address the phones came to.
    assert '<p class="phone-url">https://anotador.club.example/</p>' in home.get_data(as_text=True)


def test_without_the_proxy_setting_forwarded_headers_are_ignored(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    client = proxied_app(app_factory, monkeypatch, "0").test_client()

    seen = client.get("/seen", headers=FORWARDED)
    language = client.get("/idioma/en?next=/", headers=FORWARDED)

    assert seen.json == {"secure": False, "host": "localhost", "addr": "127.0.0.1"}
    assert_hardened(language, https=False)


def test_forms_work_over_https_behind_the_proxy(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    """Flask-WTF checks over HTTPS that a form came from this site (its Referer): the
    same-origin Referrer-Policy still sends it, and the proxy's host is the one compared."""
    monkeypatch.setenv("ANOTADOR_BEHIND_PROXY", "1")
    app = app_factory(WTF_CSRF_ENABLED=True)
    app.add_url_rule("/token", "token", generate_csrf)
    app.add_url_rule("/form", "form", lambda: "accepted", methods=["POST"])
    client = app.test_client()
    token = client.get("/token", headers=FORWARDED).get_data(as_text=True)

    same_site = client.post(
        "/form",
        data={"csrf_token": token},
        headers={**FORWARDED, "Referer": "https://anotador.club.example/partidas/nueva"},
    )
    no_referrer = client.post("/form", data={"csrf_token": token}, headers=FORWARDED)

    assert same_site.status_code == 200
    assert same_site.get_data(as_text=True) == "accepted"
    assert no_referrer.status_code == 400


@pytest.mark.parametrize(("value", "hops"), [("", 0), ("0", 0), ("1", 1), (" 2 ", 2)], ids=repr)
def test_behind_proxy_counts_the_proxies(value: str, hops: int):
    settings = proxy_settings({"ANOTADOR_BEHIND_PROXY": value})

    assert settings["PROXY_FIX_X_FOR"] == settings["PROXY_FIX_X_PROTO"] == hops
    assert settings["PROXY_FIX_X_HOST"] == hops
    assert settings["PROXY_FIX_X_PORT"] == settings["PROXY_FIX_X_PREFIX"] == 0


@pytest.mark.parametrize("value", ["yes", "-1", "1.5", "٣", "999"])
def test_behind_proxy_refuses_anything_but_a_count(value: str):
    with pytest.raises(ValueError, match="ANOTADOR_BEHIND_PROXY"):
        proxy_settings({"ANOTADOR_BEHIND_PROXY": value})


def test_proxy_settings_come_from_the_configuration_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("ANOTADOR_BEHIND_PROXY", raising=False)
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": "sqlite://", "PROXY_FIX_X_PREFIX": 1},
        instance_path=tmp_path / "instance",
    )
    app.add_url_rule("/root", "root", lambda: request.script_root)

    response = app.test_client().get("/root", headers={"X-Forwarded-Prefix": "/anotador"})

    assert response.get_data(as_text=True) == "/anotador"


# The pages themselves: nothing the policy would block


INLINE_STYLE = re.compile(r"<[^>]+\sstyle\s*=", re.I)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
#: What a page loads or posts to (a link to follow is not loaded: the home page's address).
OUTSIDE = re.compile(r"""(?:\ssrc|\saction|<link[^>]*\shref)\s*=\s*["']?(?:[a-z]+:)?//""", re.I)


def test_pages_hold_no_inline_style_script_or_handler(app: Flask, client: FlaskClient):
    """What ``style-src 'self'`` and ``script-src 'self'`` would block is in no page: no
    ``style`` attribute (the planilla's columns and the chart's keys are classes and SVG
    attributes), no inline script or handler (a JSON data block is not a script), nothing
    from another origin. The browser tests prove it too: they fail on any CSP violation."""
    with app.app_context():
        [match_id, *_] = demo.seed(3, seed_value=4)
        player_ids = [player.id for player in db.session.scalars(sa.select(Player).limit(2))]
    first, second = player_ids
    paths = [
        "/",
        "/partidas/nueva",
        f"/partidas/{match_id}",
        f"/partidas/{match_id}/manos/nueva",
        "/historial",
        "/jugadores/",
        f"/jugadores/{first}",
        f"/jugadores/{first}/con/{second}",
        f"/jugadores/cara-a-cara?a={first}&b={second}",
        "/planillas/en-blanco",
        "/no-such-page",
    ]
    for path in paths:
        page = client.get(path).get_data(as_text=True)
        assert "<html" in page, path
        assert not INLINE_STYLE.search(page), (path, INLINE_STYLE.search(page))
        assert not INLINE_SCRIPT.search(page), (path, INLINE_SCRIPT.search(page))
        assert not HANDLER.search(page), (path, HANDLER.search(page))
        assert not OUTSIDE.search(page), (path, OUTSIDE.search(page))
    assert "<polyline" in client.get(f"/partidas/{match_id}").get_data(as_text=True)
