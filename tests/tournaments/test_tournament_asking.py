"""The director's buttons that cannot simply be taken back ask first (issue 38, item 8):
"close the round", "withdraw" a pair, "finish the tournament". Without ``confirmed`` the POST
answers a confirmation page (what will happen, the same request to confirm, a way back) and
changes nothing; with it, it happens. With JavaScript the form's ``data-confirm`` is asked by
the browser (static/js/confirm.js), which then sends ``confirmed``."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from stored import snapshot
from test_tournament_web import ENGLISH
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import table_ids

from anotador.storage.database import db
from anotador.tournaments.store.models import Tournament

CONFIRMED = {"confirmed": "1"}


def hidden(page: str) -> dict[str, str]:
    """The confirmation form's hidden fields."""
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))


def status(app: Flask, tournament_id: int) -> tuple[str, list[str], list[bool]]:
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        rounds = [round_row.status for round_row in tournament.round_rows]
        return tournament.status, rounds, [pair.withdrawn for pair in tournament.pairs]


def played(client: FlaskClient, app: Flask) -> int:
    """A tournament of four pairs whose round 1 is being played, its results written."""
    tournament_id = create(client, system="danese", scale="wdl")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    client.post(f"/torneos/{tournament_id}/rondas")
    assert client.post(f"/torneos/{tournament_id}/rondas/1/empezar").status_code == 303
    for table in (1, 2):
        table_id = table_ids(app, tournament_id, 1)[table]
        client.post(f"/torneos/{tournament_id}/mesas/{table_id}", data={"mp_ns": "7", "mp_ew": "3"})
    return tournament_id


def test_closing_a_round_asks_first_and_changes_nothing_until_confirmed(
    app: Flask, client: FlaskClient
):
    tournament_id = played(client, app)
    url = f"/torneos/{tournament_id}/rondas/1/cerrar"
    before = snapshot(app)
    asked = client.post(url, headers=ENGLISH)
    assert asked.status_code == 200
    page = asked.get_data(as_text=True)
    assert "Close round 1?" in page
    assert "Its results become final and count in the standings" in page
    assert "Nothing has changed yet." in page
    assert f'action="{url}"' in page
    assert hidden(page)["confirmed"] == "1"
    assert f'href="/torneos/{tournament_id}/rondas/1"' in page  # the way back
    assert snapshot(app) == before
    assert status(app, tournament_id)[1] == ["playing"]
    # In Italian, the confirmation's words.
    italian = client.post(url, headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Chiudere il turno 1?" in italian
    # Confirmed, it closes.
    closed = client.post(url, data=CONFIRMED)
    assert closed.status_code == 303
    assert status(app, tournament_id)[1] == ["closed"]


def test_withdrawing_a_pair_asks_first_naming_it_coming_back_does_not(
    app: Flask, client: FlaskClient
):
    tournament_id = played(client, app)
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        beto = tournament.pairs[1]
        beto_id, label = beto.id, beto.label
    url = f"/torneos/{tournament_id}/parejas/{beto_id}/retiro"
    before = snapshot(app)
    asked = client.post(url, data={"withdrawn": "1"}, headers=ENGLISH)
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200
    assert f"Withdraw {label}?" in page
    assert "is not drawn in the next rounds" in page
    assert hidden(page) == {"csrf_token": hidden(page)["csrf_token"], "withdrawn": "1", **CONFIRMED}
    assert snapshot(app) == before
    assert client.post(url, data={"withdrawn": "1", **CONFIRMED}).status_code == 303
    assert status(app, tournament_id)[2] == [False, True, False, False]
    # Back in: nothing to ask.
    assert client.post(url, data={"withdrawn": "0"}).status_code == 303
    assert status(app, tournament_id)[2] == [False] * 4


def test_finishing_asks_first_then_finishes(app: Flask, client: FlaskClient):
    tournament_id = played(client, app)
    client.post(f"/torneos/{tournament_id}/rondas/1/cerrar", data=CONFIRMED)
    url = f"/torneos/{tournament_id}/terminar"
    before = snapshot(app)
    page = client.post(url, headers=ENGLISH).get_data(as_text=True)
    assert "Finish the tournament?" in page
    assert "Its standings become final" in page
    assert f'href="/torneos/{tournament_id}"' in page
    assert snapshot(app) == before
    assert status(app, tournament_id)[0] != "finished"
    finished = client.post(url, data=CONFIRMED)
    assert finished.headers["Location"].endswith(f"/torneos/{tournament_id}/posiciones")
    assert status(app, tournament_id)[0] == "finished"


def test_the_buttons_carry_their_question_for_the_script(app: Flask, client: FlaskClient):
    tournament_id = played(client, app)
    show = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "js/confirm.js" in show
    assert 'data-confirm="Withdraw Ana' in show
    round_page = client.get(f"/torneos/{tournament_id}/rondas/1", headers=ENGLISH)
    text = round_page.get_data(as_text=True)
    assert "js/confirm.js" in text
    assert 'data-confirm="Close round 1?' in text
    script = client.get("/static/js/confirm.js").get_data(as_text=True)
    assert "data-confirm" in script
    assert "confirmed" in script


def test_a_bad_confirmed_value_is_refused_and_changes_nothing(app: Flask, client: FlaskClient):
    tournament_id = played(client, app)
    before = snapshot(app)
    answer = client.post(f"/torneos/{tournament_id}/rondas/1/cerrar", data={"confirmed": "yes"})
    assert answer.status_code == 400
    assert snapshot(app) == before
