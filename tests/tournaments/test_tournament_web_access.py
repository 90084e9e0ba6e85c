"""Tournaments: who reaches what (the director's screens are the owner's; the standings, the
board and the exports also by the spectator link), bad input (a 4xx with a message, nothing
changed) and changes the tournament's state refuses."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import create_account
from stored import signed_in
from stored import snapshot
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import table_ids
from test_tournament_web import token_in

ENGLISH = {"Accept-Language": "en"}


def started(app: Flask, client: FlaskClient) -> tuple[int, dict[int | None, int]]:
    """A tournament of the owner's with five pairs and round 1 being played."""
    tournament_id = create(client)
    add_pairs(client, tournament_id, PAIRS)
    client.post(f"/torneos/{tournament_id}/rondas")
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")
    return tournament_id, table_ids(app, tournament_id, 1)


def director_requests(tournament_id: int, tables: dict[int | None, int]) -> list[tuple[str, str]]:
    base = f"/torneos/{tournament_id}"
    return [
        ("GET", base),
        ("GET", f"{base}/rondas/1"),
        ("GET", f"{base}/posiciones"),
        ("GET", f"{base}/tablero"),
        ("GET", f"{base}/version"),
        ("GET", f"{base}/posiciones.csv"),
        ("GET", f"{base}/posiciones.json"),
        ("GET", f"{base}/resultados.csv"),
        ("GET", f"{base}/archivo.json"),
        ("POST", f"{base}/parejas"),
        ("POST", f"{base}/parejas/1/retiro"),
        ("POST", f"{base}/rondas"),
        ("POST", f"{base}/rondas/1/cambio"),
        ("POST", f"{base}/rondas/1/empezar"),
        ("POST", f"{base}/rondas/1/cerrar"),
        ("POST", f"{base}/mesas/{tables[1]}"),
        ("POST", f"{base}/terminar"),
        ("POST", f"{base}/enlace"),
    ]


def test_another_account_neither_sees_nor_changes_a_tournament(app: Flask, client: FlaskClient):
    tournament_id, tables = started(app, client)
    create_account(app, "Otro")
    other, anonymous = signed_in(app, "Otro"), app.test_client()
    before = snapshot(app)
    data = {"first": "X", "second": "Y", "mp_ns": "1", "mp_ew": "2", "on": "1", "withdrawn": "1"}
    for method, url in director_requests(tournament_id, tables):
        assert other.open(url, method=method, data=data).status_code == 404, url
        refused = anonymous.open(url, method=method, data=data)
        assert refused.status_code in (302, 303), url
        assert "/cuenta/entrar" in refused.headers["Location"]
    assert snapshot(app) == before
    # Its own list shows none of them.
    assert "Club night" not in other.get("/torneos").get_data(as_text=True)


def test_the_spectator_link_shows_the_standings_and_nothing_else(app: Flask, client: FlaskClient):
    tournament_id, tables = started(app, client)
    made = client.post(f"/torneos/{tournament_id}/enlace", data={"on": "1"})
    assert made.status_code == 303
    token = token_in(client.get(f"/torneos/{tournament_id}").get_data(as_text=True))
    viewer = app.test_client()
    for page in ("posiciones", "tablero", "version", "posiciones.csv", "archivo.json"):
        assert viewer.get(f"/torneos/ver/{token}/{page}").status_code == 200, page
    # The director's screens stay the director's.
    assert viewer.get(f"/torneos/{tournament_id}/rondas/1").status_code == 302
    client.post(f"/torneos/{tournament_id}/enlace", data={"on": "0"})
    assert viewer.get(f"/torneos/ver/{token}/posiciones").status_code == 404
    assert viewer.get(f"/torneos/ver/{'x' * 43}/posiciones").status_code == 404


def test_the_board_follows_live_by_its_version(app: Flask, client: FlaskClient):
    tournament_id, tables = started(app, client)
    url = f"/torneos/{tournament_id}/version"
    first = client.get(url)
    assert first.status_code == 200
    assert first.is_json
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    client.post(f"/torneos/{tournament_id}/mesas/{tables[1]}", data={"mp_ns": "900", "mp_ew": "5"})
    moved = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200
    assert moved.json["version"] != first.json["version"]
    board = client.get(f"/torneos/{tournament_id}/tablero").get_data(as_text=True)
    assert 'id="live"' in board
    assert f'data-url="{url}"' in board


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rounds", "abc", "Enter a whole number"),
        ("rounds", "0", "Must be between 1 and 100"),
        ("rounds", "101", "Must be between 1 and 100"),
        ("hands_per_round", "-3", "without the minus sign"),
        ("variant", "poker", "Choose one of the options"),
        ("scale", "fibur-9", "Choose one of the options"),
        ("system", "suizo", "Choose one of the options"),
        ("played_on", "2026-13-01", "is not a date"),
        ("target", "99999999999999", "Must be between"),
        ("name", "", "Write the name"),
    ],
)
def test_a_bad_set_up_is_refused_with_its_reason(
    app: Flask, client: FlaskClient, field: str, value: str, message: str
):
    before = snapshot(app)
    fields = {
        "name": "Noche",
        "variant": "burraco",
        "scale": "fibur-3",
        "system": "danese",
        "rounds": "3",
        field: value,
    }
    answer = client.post("/torneos", data=fields, headers=ENGLISH)
    assert answer.status_code == 422
    assert message in answer.get_data(as_text=True)
    assert snapshot(app) == before


def test_bad_results_and_seats_change_nothing(app: Flask, client: FlaskClient):
    tournament_id, tables = started(app, client)
    before = snapshot(app)
    table = f"/torneos/{tournament_id}/mesas/{tables[1]}"
    for data, message in [
        ({"mp_ns": "mil", "mp_ew": "5"}, "Enter a whole number"),
        ({"mp_ns": "5", "mp_ew": ""}, "Write the points of both pairs, or of neither."),
        ({"mp_ns": "1000001", "mp_ew": "5"}, "Must be between"),
    ]:
        answer = client.post(table, data=data, headers=ENGLISH)
        assert answer.status_code == 422
        assert message in answer.get_data(as_text=True)
    # A bye has no result; another tournament's table is not found.
    bye = client.post(
        f"/torneos/{tournament_id}/mesas/{tables[None]}", data={"mp_ns": "1", "mp_ew": "2"}
    )
    assert bye.status_code == 303
    assert client.post(f"/torneos/{tournament_id}/mesas/999", data={}).status_code == 404
    base = f"/torneos/{tournament_id}"
    assert (
        client.post(f"{base}/rondas/1/cambio", data={"first": "x", "second": "1"}).status_code
        == 400
    )
    assert client.post(f"{base}/parejas/1/retiro", data={"withdrawn": "2"}).status_code == 400
    assert client.post(f"{base}/enlace", data={"on": "yes"}).status_code == 400
    assert client.get(f"{base}/rondas/7").status_code == 404
    # The state refuses: the round is being played (no swap, no second draw), its tables have
    # not finished (no closing).
    for url in (f"{base}/rondas/1/cambio", f"{base}/rondas", f"{base}/rondas/1/cerrar"):
        data = {"first": "1", "second": "2", "confirmed": "1"}
        answer = client.post(url, data=data, headers=ENGLISH, follow_redirects=True)
        assert "flash-error" in answer.get_data(as_text=True), url
    same = client.post(f"{base}/parejas", data={"first": "Ana", "second": "Zoe"}, headers=ENGLISH)
    assert "already in a pair" in client.get(same.headers["Location"], headers=ENGLISH).get_data(
        as_text=True
    )
    assert snapshot(app)["counts"] == before["counts"]


def test_every_form_needs_its_csrf_token(app_factory):
    app = app_factory(WTF_CSRF_ENABLED=True)
    client = signed_in(app)
    before = snapshot(app)
    answer = client.post("/torneos", data={"name": "Noche", "variant": "burraco", "rounds": "3"})
    assert answer.status_code == 400
    assert snapshot(app) == before
    # With its token the same form makes the tournament.
    page = client.get("/torneos").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    fields = {"name": "Noche", "variant": "burraco", "rounds": "3", "csrf_token": token.group(1)}
    assert client.post("/torneos", data=fields).status_code == 303


def test_a_boards_poll_is_one_statement(app: Flask, client: FlaskClient):
    tournament_id, _tables = started(app, client)
    client.post(f"/torneos/{tournament_id}/enlace", data={"on": "1"})
    token = token_in(client.get(f"/torneos/{tournament_id}").get_data(as_text=True))
    viewer = app.test_client()
    etag = viewer.get(f"/torneos/ver/{token}/version").headers["ETag"]
    with count_statements(app) as statements:
        answer = viewer.get(f"/torneos/ver/{token}/version", headers={"If-None-Match": etag})
    assert answer.status_code == 304
    assert len(statements) == 1, statements
