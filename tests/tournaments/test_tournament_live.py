"""The director sees the round live (issue 38): each table's state on the round page (not
started, hand k of n and its last save, awaiting confirmation, confirmed), late tables
marked, the page's poll (an ETag, a 304 while nothing changed), and a table calling the
director from its phone until the director marks the call answered."""

from __future__ import annotations

import datetime
import html

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import snapshot
from test_hands import record
from test_tournament_final import changes
from test_tournament_final import phone_of
from test_tournament_web import ENGLISH
from test_tournament_web import FORM_HAND
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import table_ids

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.store.models import RoundTable

CALLING = "This table calls the director"


def two_tables(app: Flask, client: FlaskClient) -> tuple[int, dict[int, int]]:
    """A uruguaya tournament of 4 pairs, 3 hands a round, round 1 started: (the tournament,
    table number → its match)."""
    tournament_id = create(client, variant="uruguaya", hands_per_round="3", scale="wdl")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    assert client.post(f"/torneos/{tournament_id}/rondas").status_code == 303
    assert client.post(f"/torneos/{tournament_id}/rondas/1/empezar").status_code == 303
    with app.app_context():
        matches = {}
        for number, table_id in table_ids(app, tournament_id, 1).items():
            table = db.session.get(RoundTable, table_id)
            assert table is not None
            assert number is not None
            assert table.match_id is not None
            matches[number] = table.match_id
    return tournament_id, matches


def page(client: FlaskClient, url: str) -> str:
    """The page at ``url`` in English, its entities read."""
    return html.unescape(client.get(url, headers=ENGLISH).get_data(as_text=True))


def card(shown: str, table_id: int) -> str:
    """The round page's card of table ``table_id``."""
    start = shown.rindex("<li", 0, shown.index(f'id="mesa-{table_id}"'))
    end = shown.find('<li class="t-table', start + 1)
    return shown[start : end if end != -1 else len(shown)]


def test_the_round_page_says_where_each_table_is_and_which_are_late(
    app: Flask, client: FlaskClient
):
    tournament_id, matches = two_tables(app, client)
    ids = table_ids(app, tournament_id, 1)
    url = f"/torneos/{tournament_id}/rondas/1"
    shown = page(client, url)
    for number in (1, 2):
        assert "Hand 1 of 3 · no hand saved yet" in card(shown, ids[number])
    assert "Late" not in shown
    phone = phone_of(app, matches[1])
    for _ in range(2):
        assert record(phone, matches[1], FORM_HAND).status_code == 302
    shown = page(client, url)
    with app.app_context():
        saved = db.session.get(Match, matches[1]).updated_at  # type: ignore[union-attr]
    if saved.tzinfo is None:
        saved = saved.replace(tzinfo=datetime.UTC)
    first, second = card(shown, ids[1]), card(shown, ids[2])
    assert f"Hand 3 of 3 · last save at {saved.astimezone().strftime('%H:%M')}" in first
    assert "Late" not in first
    # Two hands behind the table furthest ahead: late.
    assert "is-late" in second
    assert "Late</strong>: 2 hands or more behind the table furthest ahead" in second
    # The last hand: the table awaits its confirmation; table 2, idle for 20 minutes, is late.
    assert record(phone, matches[1], FORM_HAND).status_code == 302
    with app.app_context():
        match = db.session.get(Match, matches[2])
        assert match is not None
        match.created_at = match.created_at - datetime.timedelta(minutes=20)
        db.session.commit()
    shown = page(client, url)
    assert "awaiting confirmation" in card(shown, ids[1])
    assert "Late" not in card(shown, ids[1])
    assert "Late</strong>: 2 hands or more behind" in card(shown, ids[2])
    second_phone = phone_of(app, matches[2])
    for _ in range(2):
        assert record(second_phone, matches[2], FORM_HAND).status_code == 302
    assert "Late" not in card(page(client, url), ids[2])  # one hand behind, just saved
    with app.app_context():
        match = db.session.get(Match, matches[2])
        assert match is not None
        idle = match.updated_at - datetime.timedelta(minutes=20)
        bump = {"version": Match.version + 1, "updated_at": idle}
        db.session.execute(sa.update(Match).where(Match.id == matches[2]).values(**bump))
        db.session.commit()
    shown = page(client, url)
    assert "Late</strong>: no hand saved for 15 minutes" in card(shown, ids[2])
    # Confirmed by the director: no longer awaiting.
    assert client.post(f"/torneos/{tournament_id}/mesas/{ids[1]}/confirmar").status_code == 303
    assert "confirmed" in card(page(client, url), ids[1])


def test_the_round_pages_poll_answers_304_until_a_table_changes(app: Flask, client: FlaskClient):
    tournament_id, matches = two_tables(app, client)
    url = f"/torneos/{tournament_id}/rondas/1"
    shown = page(client, url)
    assert f'data-url="{url}/mesas"' in shown
    assert "js/round.js" in shown
    first = client.get(f"{url}/mesas", headers=ENGLISH)
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "private, no-cache"
    etag = first.headers["ETag"]
    assert etag.strip('"') in shown  # the page's data-etag
    assert 'class="t-live"' in first.get_data(as_text=True)
    assert client.get(f"{url}/mesas", headers={"If-None-Match": etag}).status_code == 304
    assert record(phone_of(app, matches[1]), matches[1], FORM_HAND).status_code == 302
    again = client.get(f"{url}/mesas", headers={"If-None-Match": etag, **ENGLISH})
    assert again.status_code == 200
    assert again.headers["ETag"] != etag
    assert "Hand 2 of 3" in again.get_data(as_text=True)
    # Another account's tournament, a round that is not there: not found.
    assert client.get(f"/torneos/{tournament_id}/rondas/9/mesas").status_code == 404
    assert app.test_client().get(f"{url}/mesas").status_code in (302, 303)


def test_a_table_calls_the_director_once_until_the_call_is_answered(
    app: Flask, client: FlaskClient
):
    tournament_id, matches = two_tables(app, client)
    ids = table_ids(app, tournament_id, 1)
    url = f"/torneos/{tournament_id}/rondas/1"
    phone = phone_of(app, matches[2])
    assert "Call the director" in page(phone, f"/partidas/{matches[2]}")
    assert CALLING not in page(client, url)
    for _ in range(3):  # repeated taps: one call
        answer = phone.post(f"/torneos/llamar/{matches[2]}", headers=ENGLISH)
        assert answer.status_code == 303
        assert answer.headers["Location"].endswith(f"/partidas/{matches[2]}")
    phone_page = page(phone, f"/partidas/{matches[2]}")
    assert "The director has been called" in phone_page
    assert "Call the director" not in phone_page
    shown = page(client, url)
    assert CALLING in card(shown, ids[2])
    assert "is-calling" in card(shown, ids[2])
    assert CALLING not in card(shown, ids[1])
    assert [c[0] for c in changes(app)].count("director_called") == 1
    with app.app_context():
        called = db.session.get(RoundTable, ids[2]).called_at  # type: ignore[union-attr]
    assert called is not None
    # Only the director answers it: another account finds no such table.
    stranger = app.test_client()
    stranger.post("/cuenta/registro", data={"name": "Otra", "password": "otra-clave-larga"})
    before = snapshot(app)
    assert stranger.post(f"/torneos/{tournament_id}/mesas/{ids[2]}/atendida").status_code in (
        302,
        303,
        404,
    )
    assert snapshot(app) == before
    answered = client.post(f"/torneos/{tournament_id}/mesas/{ids[2]}/atendida")
    assert answered.status_code == 303
    assert CALLING not in page(client, url)
    assert "Call the director" in page(phone, f"/partidas/{matches[2]}")
    # Answered twice (another tab): nothing more.
    assert client.post(f"/torneos/{tournament_id}/mesas/{ids[2]}/atendida").status_code == 303
    logged = [c for c in changes(app) if c[0] in ("director_called", "call_answered")]
    assert [c[0] for c in logged] == ["director_called", "call_answered"]
    assert logged[0][1] == {"round": 1, "table": 2}
    assert logged[0][2] is None  # a table link
    # Without the table link nobody calls.
    before = snapshot(app)
    assert app.test_client().post(f"/torneos/llamar/{matches[1]}").status_code in (302, 303, 404)
    assert snapshot(app) == before
    # A closed round takes no call, and its phones no longer offer it.
    for number in (1, 2):
        written = {"mp_ns": "600", "mp_ew": "400"}
        assert (
            client.post(f"/torneos/{tournament_id}/mesas/{ids[number]}", data=written).status_code
            == 303
        )
    assert client.post(f"{url}/cerrar", data={"confirmed": "1"}).status_code == 303
    before = snapshot(app)
    refused = phone.post(f"/torneos/llamar/{matches[2]}", headers=ENGLISH)
    assert refused.status_code == 303
    assert "This round is not being played." in page(phone, refused.headers["Location"])
    assert snapshot(app) == before
    assert "Call the director" not in page(phone, f"/partidas/{matches[2]}")
