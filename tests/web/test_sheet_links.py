"""The match page's link to its score sheet: one state of the sheet, signed for the browser
it was given to, served from the session alone while that browser presents the same."""

from __future__ import annotations

import html
import re
import time
from urllib.parse import parse_qs
from urllib.parse import urlencode
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import create_account
from stored import create_stored_match
from stored import signed_in
from test_pdf import finished_match
from test_pdf import pages
from test_sharing import make_link
from test_sharing import opened

from anotador import services
from anotador.sheets import shelf
from anotador.web import sheet_links


def sheet_link(client: FlaskClient, match_id: int) -> str:
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    found = re.search(r'href="([^"]*/planillas/[^"]*)" download>Planilla \(PDF\)<', page)
    assert found, "the match page links to its sheet"
    return html.unescape(found.group(1))


def with_query(link: str, **changed: str) -> str:
    parts = urlsplit(link)
    query = {name: values[0] for name, values in parse_qs(parts.query).items()}
    return f"{parts.path}?{urlencode({**query, **changed})}"


def refuse_to_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("drawn again")

    monkeypatch.setattr(shelf, "draw", refuse)


@pytest.fixture
def match_id(app: Flask) -> int:
    return create_stored_match(app, finished_match())


def test_the_page_links_to_its_sheet_which_the_browser_keeps(
    app: Flask, client: FlaskClient, match_id: int
):
    link = sheet_link(client, match_id)
    assert link.startswith(f"/partidas/{match_id}/planillas/")
    assert "idioma=es" in link
    response = client.get(link)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert "Página 1 de 1" in pages(response.data)[0]
    assert response.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    again = client.get(link, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    assert again.data == b""
    # The same state's sheet by the match's own address: the same bytes.
    assert client.get(f"/partidas/{match_id}/planilla.pdf").data == response.data


def test_a_kept_sheet_is_served_by_its_link_without_reading_the_database(
    app: Flask, client: FlaskClient, match_id: int, monkeypatch: pytest.MonkeyPatch
):
    link = sheet_link(client, match_id)
    first = client.get(link)
    refuse_to_draw(monkeypatch)
    with count_statements(app) as statements:
        again = client.get(link)
        unchanged = client.get(link, headers={"If-None-Match": first.headers["ETag"]})
    assert (again.status_code, unchanged.status_code) == (200, 304)
    assert again.data == first.data
    assert statements == []


def test_a_link_names_one_state_of_the_sheet(app: Flask, client: FlaskClient, match_id: int):
    link = sheet_link(client, match_id)
    shown = client.get(link)
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        assert services.hands.undo_last_hand(match, match.version).ok
    # The page shown before the change still prints what it showed.
    assert client.get(link).data == shown.data
    assert "Gana Ellos por" in pages(shown.data)[0]
    # The page shown now links to the sheet as it is now.
    now = sheet_link(client, match_id)
    assert now != link
    assert "Gana Ellos por" not in pages(client.get(now).data)[0]  # the hand that won it


def test_a_state_that_is_gone_sends_to_the_sheet_as_it_is_now(
    app: Flask, client: FlaskClient, match_id: int
):
    link = sheet_link(client, match_id)
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        assert services.hands.undo_last_hand(match, match.version).ok
    # Never drawn, so nothing keeps that state's sheet: it cannot be drawn any more.
    moved = client.get(link)
    assert moved.status_code == 303
    assert moved.headers["Location"] == f"/partidas/{match_id}/planilla.pdf?papel=a4&idioma=es"
    assert client.get(moved.headers["Location"]).status_code == 200


@pytest.mark.parametrize("who", ["other account", "signed in nowhere", "signed out"])
def test_a_link_is_no_use_to_a_browser_that_may_not_read_the_match(
    app: Flask, client: FlaskClient, match_id: int, who: str
):
    link = sheet_link(client, match_id)
    assert client.get(link).status_code == 200
    if who == "other account":
        create_account(app, "Otra")
        stranger = signed_in(app, "Otra")
        assert stranger.get(link).status_code == 404
        return
    browser = app.test_client() if who == "signed in nowhere" else client
    if who == "signed out":
        with client.session_transaction() as session:
            session.clear()
        browser.delete_cookie("remember_token")
    refused = browser.get(link)
    assert refused.status_code == 302
    assert "/cuenta/entrar" in refused.headers["Location"]


@pytest.mark.parametrize(
    "changed",
    [
        {"firma": "x"},
        {"firma": "ñ" * 43},
        {"firma": ""},
        {"hasta": "1"},
        {"hasta": "no"},
        {"hasta": "9" * 40},
        {"hasta": "\x00"},
    ],
)
def test_a_tampered_or_expired_link_is_checked_like_the_matchs_address(
    app: Flask, client: FlaskClient, match_id: int, changed: dict[str, str]
):
    link = sheet_link(client, match_id)
    kept = client.get(link)
    tampered = with_query(link, **changed)
    with count_statements(app) as statements:
        response = client.get(tampered)
    assert response.status_code == 200
    assert response.data == kept.data
    assert statements, "access was checked in the database"
    create_account(app, "Otra")
    assert signed_in(app, "Otra").get(tampered).status_code == 404


def test_a_link_expires_after_its_hours(monkeypatch: pytest.MonkeyPatch):
    given = 1_800_000_000.0
    until = sheet_links.expiry(given)
    assert until - given >= sheet_links.LINK_HOURS * 3600
    assert until - given <= (sheet_links.LINK_HOURS + 1) * 3600
    # Links given in the same hour are the same link.
    assert sheet_links.expiry(given - given % 3600) == sheet_links.expiry(given + 1)


def test_an_expired_link_is_not_trusted(
    app: Flask, client: FlaskClient, match_id: int, monkeypatch: pytest.MonkeyPatch
):
    link = sheet_link(client, match_id)
    client.get(link)
    later = time.time() + (sheet_links.LINK_HOURS + 2) * 3600
    monkeypatch.setattr(sheet_links.time, "time", lambda: later)
    with count_statements(app) as statements:
        assert client.get(link).status_code == 200
    assert statements, "access was checked in the database"


def test_a_spectators_link_is_signed_for_the_link_it_opened(
    app: Flask, client: FlaskClient, match_id: int
):
    token = make_link(client, match_id, "spectator")
    phone = opened(app, token)
    link = sheet_link(phone, match_id)
    assert phone.get(link).status_code == 200
    with count_statements(app) as statements:
        assert phone.get(link).status_code == 200
    assert statements == []
    # The owner's browser did not open that link: its copy of the address is checked.
    with count_statements(app) as statements:
        assert client.get(link).status_code == 200
    assert statements


@pytest.mark.parametrize("key", ["A" * 64, "0" * 63, "0" * 65, "g" * 64, "%00" * 64])
def test_a_malformed_key_is_a_404(client: FlaskClient, match_id: int, key: str):
    assert client.get(f"/partidas/{match_id}/planillas/{key}.pdf").status_code == 404


def test_bad_paper_or_language_in_a_link_is_a_400(client: FlaskClient, match_id: int):
    link = sheet_link(client, match_id)
    response = client.get(with_query(link, idioma="de"), headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "es, en or it" in response.get_data(as_text=True)
    assert client.get(with_query(link, papel="a3")).status_code == 400
