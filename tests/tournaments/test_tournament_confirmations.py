"""Both pairs confirm a table's result (issue 38): a table's ended match awaits EW's
confirmation on its phone, which can still fix the last hand until then; the director can
confirm any table instead, and closing a round confirms those still waiting; each
confirmation is logged; confirmed, the result is final for the table's phones. Confirming
changes no figure of the standings. A tournament table's match has no rematch."""

from __future__ import annotations

import html
import json

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import snapshot
from test_hands import record
from test_tournament_final import changes
from test_tournament_final import phone_of
from test_tournament_final import undo
from test_tournament_final import version_of
from test_tournament_web import ENGLISH
from test_tournament_web import FORM_HAND
from test_tournament_web import started_table
from test_tournament_web import table_ids

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.store.models import RoundTable

WAITING = "Waiting for EW to confirm the result."
BUTTON = "EW confirm the result: 2. Beto – Bruno"
FINAL = "This table's result was confirmed: it is final."


def ended_table(app: Flask, client: FlaskClient) -> tuple[int, int, FlaskClient]:
    """A table of 2 hands, both scored by its phone: (tournament, match, the phone)."""
    tournament_id, match_id = started_table(app, client, "2")
    phone = phone_of(app, match_id)
    for _ in range(2):
        assert record(phone, match_id, FORM_HAND).status_code == 302
    return tournament_id, match_id, phone


def page(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url, headers=ENGLISH).get_data(as_text=True))


def confirm(phone: FlaskClient, app: Flask, match_id: int, version: int | None = None) -> str:
    """EW confirm on ``phone`` the result of the version shown (the current one by default);
    the page it goes back to."""
    seen = version_of(app, match_id) if version is None else version
    answer = phone.post(
        f"/torneos/confirmar/{match_id}", data={"by": "ew", "version": str(seen)}, headers=ENGLISH
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return page(phone, answer.headers["Location"])


def confirmed_by(app: Flask, match_id: int) -> str | None:
    with app.app_context():
        table = db.session.scalars(sa.select(RoundTable).where(RoundTable.match_id == match_id))
        return table.one().confirmed_by


def test_an_ended_table_awaits_ews_confirmation_and_its_phone_can_still_fix_the_last_hand(
    app: Flask, client: FlaskClient
):
    tournament_id, match_id, phone = ended_table(app, client)
    shown = page(phone, f"/partidas/{match_id}")
    assert WAITING in shown
    assert BUTTON in shown
    # Not "watch only": the last hand can still be undone or corrected (issue 38, item 3).
    assert 'id="undo-form"' in shown
    assert f"/partidas/{match_id}/manos/2" in shown
    assert "only watches" not in shown
    assert "awaiting confirmation" in page(client, f"/torneos/{tournament_id}/rondas/1")
    # The standings count the ended table already, as before confirmations existed.
    standings = client.get(f"/torneos/{tournament_id}/posiciones.json").data
    assert json.loads(standings)["rounds"][0]["tables"][0]["vp"] == [2, 0]
    assert undo(phone, app, match_id).status_code == 302
    with app.app_context():
        assert db.session.get(Match, match_id).status == "ongoing"  # type: ignore[union-attr]
    assert WAITING not in page(phone, f"/partidas/{match_id}")
    assert record(phone, match_id, FORM_HAND).status_code == 302
    assert client.get(f"/torneos/{tournament_id}/posiciones.json").data == standings

    confirmed = confirm(phone, app, match_id)
    assert "Result confirmed: it is final." in confirmed
    assert "Result confirmed by EW: it is final." in confirmed
    assert 'id="undo-form"' not in confirmed
    assert BUTTON not in confirmed
    assert confirmed_by(app, match_id) == "ew"
    # A double tap (or the other phone, with the page it had) goes back to the result.
    assert "Result confirmed by EW: it is final." in confirm(phone, app, match_id, 0)
    assert client.get(f"/torneos/{tournament_id}/posiciones.json").data == standings
    assert "confirmed" in page(client, f"/torneos/{tournament_id}/rondas/1")
    # Final: the table link only watches, and its director's planilla is refused too.
    before = snapshot(app)
    assert "/cuenta/entrar" in undo(phone, app, match_id).headers["Location"]
    refused = undo(client, app, match_id)
    assert refused.status_code == 422
    assert FINAL in html.unescape(refused.get_data(as_text=True))
    assert snapshot(app) == before
    logged = [c for c in changes(app) if c[0] == "table_confirmed"]
    assert logged == [
        ("table_confirmed", {"round": 1, "table": 1, "by": "ew", "mp": logged[0][1]["mp"]}, None)
    ]
    assert "Table result confirmed" in page(client, f"/torneos/{tournament_id}")


def test_a_confirmation_of_a_result_corrected_meanwhile_is_refused(app: Flask, client: FlaskClient):
    _tournament_id, match_id, phone = ended_table(app, client)
    seen = version_of(app, match_id)
    # The other phone (here the director's planilla) corrects the last hand.
    assert undo(client, app, match_id).status_code == 302
    assert record(client, match_id, FORM_HAND).status_code == 302
    shown = confirm(phone, app, match_id, seen)
    assert "The table's result changed meanwhile" in shown
    assert confirmed_by(app, match_id) is None
    assert BUTTON in shown  # the result as it is now, to confirm again


def test_a_table_still_playing_has_nothing_to_confirm(app: Flask, client: FlaskClient):
    _tournament_id, match_id = started_table(app, client, "2")
    phone = phone_of(app, match_id)
    assert record(phone, match_id, FORM_HAND).status_code == 302
    before = snapshot(app)
    assert "there is no result to confirm" in confirm(phone, app, match_id)
    assert snapshot(app) == before
    # A value the form never sends changes nothing either.
    version = str(version_of(app, match_id))
    for data in ({"by": "ns", "version": version}, {"by": "ew", "version": "x"}, {"by": "ew"}):
        assert phone.post(f"/torneos/confirmar/{match_id}", data=data).status_code == 400
    assert snapshot(app) == before


def test_a_result_written_by_hand_is_the_directors_on_the_phone(app: Flask, client: FlaskClient):
    tournament_id, match_id, phone = ended_table(app, client)
    table_id = table_ids(app, tournament_id, 1)[1]
    written = {"mp_ns": "11", "mp_ew": "9", "reason": "Scored on paper"}
    assert (
        client.post(f"/torneos/{tournament_id}/mesas/{table_id}", data=written).status_code == 303
    )
    assert confirmed_by(app, match_id) is None
    shown = page(phone, f"/partidas/{match_id}")
    assert "Result confirmed by the director: it is final." in shown
    assert "confirmed by EW" not in shown


def test_the_director_confirms_a_table_instead_and_it_is_logged(app: Flask, client: FlaskClient):
    tournament_id, match_id, phone = ended_table(app, client)
    table_id = table_ids(app, tournament_id, 1)[1]
    # A browser without the table link (nor the director's account) confirms nothing.
    stranger = app.test_client().post(
        f"/torneos/confirmar/{match_id}",
        data={"by": "ew", "version": str(version_of(app, match_id))},
    )
    assert "/cuenta/entrar" in stranger.headers["Location"]
    assert confirmed_by(app, match_id) is None
    answer = client.post(f"/torneos/{tournament_id}/mesas/{table_id}/confirmar")
    assert answer.status_code == 303
    assert confirmed_by(app, match_id) == "director"
    # Asked again (a double tap), nothing more is logged.
    assert client.post(f"/torneos/{tournament_id}/mesas/{table_id}/confirmar").status_code == 303
    logged = [c for c in changes(app) if c[0] == "table_confirmed"]
    assert len(logged) == 1
    assert logged[0][1]["by"] == "director"
    assert logged[0][2] == 1
    assert "Result confirmed by the director: it is final." in page(phone, f"/partidas/{match_id}")
    shown = page(client, f"/torneos/{tournament_id}")
    assert "Table result confirmed" in shown
    assert "by the director" in shown


def test_closing_a_round_confirms_its_tables_still_waiting(app: Flask, client: FlaskClient):
    tournament_id, match_id, _phone = ended_table(app, client)
    standings = client.get(f"/torneos/{tournament_id}/posiciones.json").data
    assert (
        client.post(
            f"/torneos/{tournament_id}/rondas/1/cerrar", data={"confirmed": "1"}
        ).status_code
        == 303
    )
    assert confirmed_by(app, match_id) == "director"
    logged = [c[1] for c in changes(app) if c[0] == "table_confirmed"]
    assert [(d["by"], d.get("on_close")) for d in logged] == [("director", True)]
    assert client.get(f"/torneos/{tournament_id}/posiciones.json").data == standings
    assert "on closing the round" in page(client, f"/torneos/{tournament_id}")


def test_a_tournament_tables_match_offers_no_rematch(app: Flask, client: FlaskClient):
    _tournament_id, match_id, phone = ended_table(app, client)
    assert "Rematch" not in page(client, f"/partidas/{match_id}")
    with app.app_context():
        count = db.session.scalar(sa.select(sa.func.count()).select_from(Match))
    answer = client.post(f"/partidas/{match_id}/revancha", headers=ENGLISH)
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/partidas/{match_id}")
    assert "has no rematch" in page(client, answer.headers["Location"])
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == count
        assert db.session.get(Match, match_id).rematch_id is None  # type: ignore[union-attr]
    assert "rematch" not in page(phone, f"/partidas/{match_id}").lower()
