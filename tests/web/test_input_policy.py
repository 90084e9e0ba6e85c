"""The input policy (issue 8): every request value goes through one parser, nothing a request
sends can poison stored data, and what was typed survives an expired form.

Each test names the item of the issue it pins down; the route fuzzer
(``tests/web/test_fuzz_routes.py``) covers every route with generated values besides.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import create_stored_match
from stored import match_document
from stored import signed_in
from stored import snapshot
from test_matches import new_match_fields

from anotador import services
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.web import inputs

UNICODE_DIGITS = ("²", "①", "１２", "١٢", "߁", "𝟠")
CONTROL_NAMES = ("Zoe\x01", "Zoe\x00", "Zoe\x1b[31m", "Zo\x7fe", "Zoe\x85")


def store(app: Flask, sides: list[list[str]], hands: int = 1, **changes: Any) -> int:
    hand = {
        "end": "closed",
        "closer": 0,
        "sides": [{"clean": 1, "table_points": 400}, {"table_points": 100}],
    }
    document = {
        "sides": [{"name": " y ".join(players), "players": players} for players in sides],
        "hands": [hand] * hands,
        "played_on": "2024-05-01",
        **changes,
    }
    return create_stored_match(app, match_document(**document))


def player(app: Flask, name: str) -> int:
    with app.app_context():
        return db.session.scalars(sa.select(Player.id).where(Player.name == name)).one()


def pages_of(match_id: int) -> list[str]:
    base = f"/partidas/{match_id}"
    return [base, f"{base}/manos/nueva", f"{base}/exportar", f"{base}/planilla.pdf"]


# The parsers


@pytest.mark.parametrize(
    ("raw", "grouped", "expected"),
    [
        ("85", False, 85),
        (" 85 ", False, 85),
        ("−85", False, -85),
        ("+5", False, 5),
        ("1\u00a0500", False, 1500),
        ("1.500", True, 1500),
        ("12.345.000", True, 12345000),
        ("", False, None),
        ("  ", False, None),
        (None, False, None),
    ],
)
def test_integer_reads_what_a_table_types(app: Flask, raw, grouped, expected):
    with app.test_request_context():
        assert inputs.integer(raw, -(10**9), 10**9, grouped=grouped) == expected


@pytest.mark.parametrize(
    "raw",
    [*UNICODE_DIGITS, "1.5", "1,5", "1e3", "0x10", "nan", "inf", "5-", "--5", "1 2 3.4", "9" * 13],
)
def test_integer_refuses_anything_but_ascii_digits(app: Flask, raw: str):
    with app.test_request_context(), pytest.raises(inputs.BadInput):
        inputs.integer(raw, -(10**9), 10**9, grouped=True)


def test_integer_bounds_and_the_sign_hint(app: Flask):
    with app.test_request_context(headers={"Accept-Language": "es"}):
        with pytest.raises(inputs.BadInput, match="sin el signo"):
            inputs.integer("-60", 0, 20000)
        with pytest.raises(inputs.BadInput, match="entre 0 y 20000"):
            inputs.integer("20005", 0, 20000)
        with pytest.raises(inputs.BadInput):
            inputs.row_id(str(2**31))


@pytest.mark.parametrize(
    "raw",
    [
        "2024-01-01_99999999999999999999",
        f"2024-01-01_{2**63}",
        f"2024-01-01_-{2**63}",
        "2024-01-01_0",
        "2024-02-30_5",
        "0000-01-01_5",
        "2024-01-01_²",
        "2024-01-01",
        "_5",
        "20240101_5",
    ],
)
def test_cursor_refuses_what_no_page_has(app: Flask, raw: str):
    with app.test_request_context(), pytest.raises(inputs.BadInput):
        inputs.cursor(raw)


def test_request_key_is_32_hex_digits(app: Flask):
    with app.test_request_context():
        assert inputs.request_key("0123456789abcdef" * 2) == "0123456789abcdef" * 2
        for raw in ("", None, "k" * 32, "0123456789abcdef", "0123456789ABCDEF" * 2):
            with pytest.raises(inputs.BadInput):
                inputs.request_key(raw)


# Item 1: a name with a control character never reaches the database


@pytest.mark.parametrize("name", CONTROL_NAMES)
def test_rename_with_a_control_character_is_refused(app: Flask, client: FlaskClient, name: str):
    match_id = store(app, [["Zoe", "Ana"], ["Carla", "Dani"]])
    zoe = player(app, "Zoe")
    before = snapshot(app)

    response = client.post(f"/jugadores/{zoe}/nombre", data={"name": name})

    assert response.status_code == 400
    assert "caracteres de control" in response.get_data(as_text=True)
    assert snapshot(app) == before
    for url in pages_of(match_id):
        assert client.get(url).status_code == 200, url
    assert "Zoe" in client.get(f"/jugadores/{zoe}").get_data(as_text=True)


def test_a_rename_is_stored_as_the_engine_stores_names(app: Flask, client: FlaskClient):
    store(app, [["Zoe", "Ana"], ["Carla", "Dani"]])
    zoe = player(app, "Zoe")
    decomposed = "Zoe\u0301  de\tla   Cruz "  # e + combining acute, tabs and runs of spaces

    assert client.post(f"/jugadores/{zoe}/nombre", data={"name": decomposed}).status_code == 302

    with app.app_context():
        assert db.session.get(Player, zoe).name == "Zoé de la Cruz"


@pytest.mark.parametrize("name", CONTROL_NAMES)
def test_new_match_names_with_control_characters_are_refused(client: FlaskClient, name: str):
    response = client.post(
        "/partidas/nueva",
        data={"variant": "uruguaya", "layout": "4p", "side_0": name, "side_1": "Ellos"},
    )
    assert response.status_code == 422
    assert "caracteres de control" in response.get_data(as_text=True)


def test_a_match_file_with_a_lone_surrogate_is_refused(app: Flask, client: FlaskClient):
    import io

    body = (
        b'{"format": "anotador-match/1", "variant": "uruguaya", "hands": [],'
        b' "sides": [{"name": "\\ud800"}, {"name": "Ellos"}]}'
    )
    response = client.post(
        "/partidas/importar", data={"file": (io.BytesIO(body), "m.json")}, buffered=True
    )
    assert response.status_code == 422
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Player)) == 0


# Item 2: unicode digits are refused with a message, never a 500


@pytest.mark.parametrize("digit", UNICODE_DIGITS)
def test_unicode_digits_are_refused_everywhere(app: Flask, client: FlaskClient, digit: str):
    match_id = store(app, [["Ana", "Beto"], ["Carla", "Dani"]], hands=2)
    ana = player(app, "Ana")
    before = snapshot(app)
    base = f"/partidas/{match_id}"
    gets = [
        f"/jugadores/cara-a-cara?a={digit}&b={ana}",
        f"/jugadores/cara-a-cara?a={ana}&b={digit}",
        f"/planillas/en-blanco?variante=uruguaya&disposicion=4p&objetivo={digit}",
        f"{base}/manos/vista-previa?numero={digit}",
    ]
    for url in gets:
        response = client.get(url)
        assert 400 <= response.status_code < 500 or response.status_code == 405, url
    posts = [
        ("/partidas/nueva", {"variant": "uruguaya", "layout": "4p", "first_dealer": digit}),
        ("/partidas/nueva", {"variant": "uruguaya", "layout": "4p", "target": digit}),
        (f"{base}/manos/nueva", {"action": f"calc:s{digit}", "closer": "0"}),
        (f"{base}/manos/nueva", {"action": f"penalty:s{digit}:x", "closer": "0"}),
        (f"{base}/manos/nueva", {"closer": "0", "s0_table_points": digit}),
        (f"{base}/manos/vista-previa?numero={digit}", {"closer": "0"}),
        (f"{base}/deshacer", {"confirm": "1", "version": digit}),
        (f"{base}/manos/1/borrar", {"confirm": "1", "version": digit}),
        (f"{base}/abandonar", {"abandoned": "1", "version": digit}),
    ]
    for url, data in posts:
        response = client.post(url, data=data)
        assert response.status_code < 500, (url, data)
        assert response.status_code != 302, (url, data)
    assert snapshot(app) == before


def test_unicode_digits_are_not_numbers_in_the_hand_form(app: Flask, client: FlaskClient):
    match_id = store(app, [["Ana", "Beto"], ["Carla", "Dani"]], hands=0)
    page = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    hidden = dict(re.findall(r'name="(request_key|version)" type="hidden" value="(\w+)"', page))

    response = client.post(
        f"/partidas/{match_id}/manos/nueva",
        data={**hidden, "closer": "none", "s0_table_points": "１００"},
    )

    assert response.status_code == 422
    assert "Escribí un número entero" in response.get_data(as_text=True)


def test_a_decimal_is_not_read_as_thousands(client: FlaskClient):
    """Item 8: "1.5" was read as 15 by the new-match form."""
    form = new_match_fields(client.get("/partidas/nueva").get_data(as_text=True))
    for field in ("target", "start_0", "uruguaya__aces_clean_value"):
        data = {**form, field: "1.5", "uruguaya__aces_canasta_bonus": "y", "start": "1"}
        response = client.post("/partidas/nueva", data=data)
        assert response.status_code == 422, field
        assert "Escribí un número entero" in response.get_data(as_text=True), field
    response = client.post("/partidas/nueva", data={**form, "target": "5.000", "start": "1"})
    assert response.status_code == 303


# Items 3 and 4: cursors that overflow, NUL bytes in searches


@pytest.mark.parametrize(
    "cursor",
    ["2024-01-01_99999999999999999999", f"2024-01-01_{2**63}", f"2024-01-01_{-(2**63)}"],
)
def test_history_cursor_overflow_is_a_400(app: Flask, client: FlaskClient, cursor: str):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    response = client.get("/historial", query_string={"despues": cursor})
    assert response.status_code == 400
    assert "Esa página no existe" in response.get_data(as_text=True)


@pytest.mark.parametrize("text", ["\x00", "Ana\x00", "\x1b", "\x9b"])
def test_control_characters_in_searches_are_refused(app: Flask, client: FlaskClient, text: str):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    ana = player(app, "Ana")
    before = snapshot(app)
    gets = [
        ("/historial", {"q": text}),
        ("/historial", {"jugador": text}),
        ("/historial", {"despues": text}),
        ("/jugadores/", {"q": text}),
        ("/jugadores/", {"despues": text}),
        ("/jugadores/sugerencias", {"q": text}),
        ("/jugadores/cara-a-cara", {"a": str(ana), "rival": text}),
        (f"/jugadores/{ana}", {"desde": text}),
        ("/idioma/en", {"next": f"/historial{text}"}),
    ]
    for url, args in gets:
        response = client.get(url, query_string=args)
        assert response.status_code < 500, (url, args)
    posts = [
        (f"/jugadores/{ana}/nombre", {"name": text}),
        (f"/jugadores/{ana}/fusionar", {"other": text, "confirm": "y"}),
    ]
    for url, data in posts:
        assert 400 <= client.post(url, data=data).status_code < 500, (url, data)
    assert snapshot(app) == before


def test_a_language_switch_never_redirects_with_a_control_character(client: FlaskClient):
    response = client.get("/idioma/en", query_string={"next": "/historial\r\nSet-Cookie: x=1"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


# Item 6: an expired form keeps the typed hand


def test_an_expired_hand_form_keeps_what_was_typed(app_factory: Any):
    app = app_factory(WTF_CSRF_ENABLED=True)
    match_id = store(app, [["Ana", "Beto"], ["Carla", "Dani"]], hands=0)
    client = signed_in(app)
    page = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    hidden = dict(re.findall(r'name="(request_key|version)" type="hidden" value="(\w+)"', page))
    typed = {"closer": "0", "s0_clean": "2", "s0_table_points": "1340", "s1_table_points": "600"}
    typed["note"] = "mano 1"
    client.delete_cookie("session")  # the phone's session is gone (or its token too old)
    before = snapshot(app)

    response = client.post(
        f"/partidas/{match_id}/manos/nueva", data={**hidden, **typed, "csrf_token": "old"}
    )

    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Este formulario había vencido" in page
    assert 'value="1340"' in page
    assert 'value="600"' in page
    assert 'value="mano 1"' in page
    assert snapshot(app) == before
    fresh = dict(
        re.findall(r'name="(csrf_token|request_key|version)" type="hidden" value="([^"]+)"', page)
    )
    assert fresh["request_key"] == hidden["request_key"]  # a retry is still recorded once
    saved = client.post(f"/partidas/{match_id}/manos/nueva", data={**typed, **fresh})
    assert saved.status_code == 302, re.findall(r'class="msg error"[^>]*>([^<]*)', saved.text)
    with app.app_context():
        assert services.queries.load_match(match_id).hand_count == 1


def test_form_tokens_last_as_long_as_the_session(app: Flask):
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None


# Item 8: the double-tap key, merges, abandon


@pytest.mark.parametrize("key", ["", "k" * 500, "0123456789abcdef", "Z" * 32])
def test_a_hand_without_a_valid_request_key_is_not_saved(app: Flask, client: FlaskClient, key: str):
    match_id = store(app, [["Ana", "Beto"], ["Carla", "Dani"]], hands=0)
    before = snapshot(app)
    with app.app_context():
        version = str(services.queries.load_match(match_id).version)
    data = {"closer": "none", "s0_table_points": "100", "version": version, "request_key": key}

    response = client.post(f"/partidas/{match_id}/manos/nueva", data=data)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "tocá Guardar de nuevo" in page
    assert 'value="100"' in page
    assert snapshot(app) == before
    fresh = re.search(r'name="request_key" type="hidden" value="([0-9a-f]{32})"', page)
    assert fresh is not None
    saved = {**data, "request_key": fresh.group(1)}
    assert client.post(f"/partidas/{match_id}/manos/nueva", data=saved).status_code == 302
    assert client.post(f"/partidas/{match_id}/manos/nueva", data=saved).status_code == 302
    with app.app_context():
        assert services.queries.load_match(match_id).hand_count == 1


def test_two_players_of_one_match_cannot_be_merged(app: Flask, client: FlaskClient):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    ana, carla = player(app, "Ana"), player(app, "Carla")
    before = snapshot(app)

    response = client.post(f"/jugadores/{ana}/fusionar", data={"other": "Carla", "confirm": "y"})

    assert response.status_code == 400
    assert "no pueden ser la misma persona" in response.get_data(as_text=True)
    assert snapshot(app) == before
    with app.app_context():
        assert db.session.get(Player, carla) is not None
        with pytest.raises(ValueError, match="same match"):
            services.players.merge_players(
                db.session.get(Player, ana), db.session.get(Player, carla)
            )
