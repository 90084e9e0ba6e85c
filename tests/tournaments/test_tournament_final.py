"""Finished means final: no director action after the end, a table of a closed round or of a
finished tournament takes no change from any door (the planilla, the table link, a phone's
outbox), the director reopens explicitly, and every correction is in the change log with
who, when, the old and the new result and the reason. A table's points stay within the
tournament file's bound, and a table already past it breaks no page."""

from __future__ import annotations

import html
import json
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from stored import MakeMatch
from stored import snapshot
from test_hands import fresh_form
from test_hands import record
from test_tournament_web import ENGLISH
from test_tournament_web import FORM_HAND
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import started_table
from test_tournament_web import table_ids

from anotador.storage import signals
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.operations import tables
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentChange

CLOSED = "This table's round is closed: its result is final."
FINISHED = "The tournament has finished: this table's result is final."


def phone_of(app: Flask, match_id: int) -> FlaskClient:
    """A phone at the table: it opened the table link, no account."""
    with app.app_context():
        token = db.session.get(Match, match_id).table_token  # type: ignore[union-attr]
    phone = app.test_client()
    assert phone.get(f"/enlace/{token}").status_code == 303
    return phone


def version_of(app: Flask, match_id: int) -> int:
    with app.app_context():
        return db.session.get(Match, match_id).version  # type: ignore[union-attr]


def undo(client: FlaskClient, app: Flask, match_id: int) -> Any:
    data = {"confirm": "1", "version": str(version_of(app, match_id))}
    return client.post(f"/partidas/{match_id}/deshacer", data=data, headers=ENGLISH)


def changes(app: Flask) -> list[tuple[str, dict[str, Any], int | None]]:
    with app.app_context():
        rows = db.session.scalars(sa.select(TournamentChange).order_by(TournamentChange.id))
        return [(row.change, row.details, row.account_id) for row in rows]


def closed_table(app: Flask, client: FlaskClient, hands: str = "1") -> tuple[int, int]:
    """A table whose ``hands`` hands were scored by its phone, its round closed."""
    tournament_id, match_id = started_table(app, client, hands)
    phone = phone_of(app, match_id)
    for _ in range(int(hands)):
        assert record(phone, match_id, FORM_HAND).status_code == 302
    assert (
        client.post(
            f"/torneos/{tournament_id}/rondas/1/cerrar", data={"confirmed": "1"}
        ).status_code
        == 303
    )
    with app.app_context():
        assert db.session.get(Tournament, tournament_id).round_rows[0].status == "closed"  # type: ignore[union-attr]
    return tournament_id, match_id


def test_undo_on_a_finished_tournaments_table_is_refused_from_the_table_link_and_the_planilla(
    app: Flask, client: FlaskClient
):
    tournament_id, match_id = closed_table(app, client)
    assert (
        client.post(f"/torneos/{tournament_id}/terminar", data={"confirmed": "1"}).status_code
        == 303
    )
    before = snapshot(app)
    standings = client.get(f"/torneos/{tournament_id}/posiciones.json").data
    # Its table link scores no finished match; its owner is refused by the tournament.
    answer = undo(phone_of(app, match_id), app, match_id)
    assert "/cuenta/entrar" in answer.headers["Location"]
    assert snapshot(app) == before
    answer = undo(client, app, match_id)
    assert answer.status_code == 422
    assert FINISHED in html.unescape(answer.get_data(as_text=True))
    assert snapshot(app) == before
    # Abandoning or resuming it is refused too, and so is its outbox.
    resumed = client.post(
        f"/partidas/{match_id}/abandonar",
        data={"abandoned": "0", "version": str(version_of(app, match_id))},
        headers=ENGLISH,
        follow_redirects=True,
    )
    assert snapshot(app) == before
    assert client.get(f"/torneos/{tournament_id}/posiciones.json").data == standings
    assert resumed.status_code == 200


def test_a_hand_edit_of_a_closed_rounds_table_through_its_planilla_is_refused(
    app: Flask, client: FlaskClient
):
    _tournament_id, match_id = closed_table(app, client, "2")
    before = snapshot(app)
    logged = changes(app)
    form = client.get(f"/partidas/{match_id}/manos/1").get_data(as_text=True)
    assert "version" in form
    edited = client.post(
        f"/partidas/{match_id}/manos/1",
        data={
            **FORM_HAND,
            "s1_table_points": "900",
            "version": str(version_of(app, match_id)),
            "request_key": "k" * 32,
        },
        headers=ENGLISH,
    )
    assert edited.status_code == 422
    assert CLOSED in html.unescape(edited.get_data(as_text=True))
    assert snapshot(app) == before
    assert changes(app) == logged
    # Nor is a new hand scored, nor a hand deleted.
    deleted = client.post(
        f"/partidas/{match_id}/manos/2/borrar",
        data={"confirm": "1", "version": str(version_of(app, match_id))},
        headers=ENGLISH,
    )
    assert deleted.status_code == 422
    assert snapshot(app) == before


def test_the_offline_phones_pending_hand_gets_a_refusal_it_can_show(
    app: Flask, client: FlaskClient
):
    tournament_id, match_id = started_table(app, client, "2")
    phone = phone_of(app, match_id)
    assert record(phone, match_id, FORM_HAND).status_code == 302
    # The director writes the result by hand and closes the round while the phone was offline.
    table_id = table_ids(app, tournament_id, 1)[1]
    client.post(f"/torneos/{tournament_id}/mesas/{table_id}", data={"mp_ns": "1", "mp_ew": "0"})
    assert (
        client.post(
            f"/torneos/{tournament_id}/rondas/1/cerrar", data={"confirmed": "1"}
        ).status_code
        == 303
    )
    before = snapshot(app)
    outbox = phone.get(f"/partidas/{match_id}/manos/pendientes").get_json()
    hand = {"end": "closed", "closer": 0, "sides": [{"clean": 1, "table_points": 200}, {}]}
    sent = phone.post(
        f"/partidas/{match_id}/manos/pendientes",
        data=json.dumps({"request_key": "a" * 32, "number": 2, "hand": hand}),
        content_type="application/json",
        headers={"X-CSRFToken": outbox["csrf_token"], **ENGLISH},
    )
    assert sent.status_code == 422
    assert sent.get_json()["status"] == "refused"
    assert CLOSED in sent.get_json()["message"]
    assert snapshot(app) == before
    # The phone's table link, still scoring its unfinished match, cannot undo either.
    undone = undo(phone, app, match_id)
    assert undone.status_code == 422
    assert CLOSED in html.unescape(undone.get_data(as_text=True))
    assert snapshot(app) == before


def reopen_round(client: FlaskClient, tournament_id: int, reason: str = "") -> Any:
    return client.post(
        f"/torneos/{tournament_id}/rondas/1/reabrir", data={"reason": reason}, headers=ENGLISH
    )


def corrected(
    app: Flask, client: FlaskClient, match_id: int, fields: dict[str, str]
) -> tuple[int, list[int]]:
    """Hand 1 of the match corrected with ``fields`` over FORM_HAND: (status, the totals)."""
    data = {**FORM_HAND, **fields, "version": str(version_of(app, match_id))}
    status = client.post(f"/partidas/{match_id}/manos/1", data=data).status_code
    with app.app_context():
        return status, db.session.get(Match, match_id).totals  # type: ignore[union-attr]


def test_after_reopening_the_round_an_edit_is_accepted_and_logged_with_old_and_new_mp(
    app: Flask, client: FlaskClient
):
    tournament_id, match_id = closed_table(app, client, "2")
    with app.app_context():
        old = db.session.get(Match, match_id).totals  # type: ignore[union-attr]
    round_page = client.get(f"/torneos/{tournament_id}/rondas/1", headers=ENGLISH)
    assert f'action="/torneos/{tournament_id}/rondas/1/reabrir"' in round_page.get_data(
        as_text=True
    )
    assert reopen_round(client, tournament_id, "Hand 1 was misread").status_code == 303
    with app.app_context():
        assert db.session.scalars(sa.select(Round.status)).one() == "playing"
        owner = db.session.scalars(sa.select(Tournament.owner_id)).one()
    assert changes(app)[-1] == (
        "round_reopened",
        {"round": 1, "reason": "Hand 1 was misread"},
        owner,
    )
    status, new = corrected(app, client, match_id, {"s1_table_points": "900"})
    assert status == 302
    assert new != old
    assert changes(app)[-1] == (
        "table_corrected",
        {"round": 1, "table": 1, "hands": "hand_edited", "old": old, "new": new},
        owner,
    )
    page = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "Round reopened" in page
    assert "Hand 1 was misread" in page
    assert "Hand corrected at a table" in page
    assert f"{old[0]:,} – {old[1]:,} → {new[0]:,} – {new[1]:,}" in page
    # Closed again, it is final again.
    assert (
        client.post(
            f"/torneos/{tournament_id}/rondas/1/cerrar", data={"confirmed": "1"}
        ).status_code
        == 303
    )
    assert undo(client, app, match_id).status_code == 422


def test_a_correction_of_a_tables_hand_carries_the_directors_reason_to_the_change_log(
    app: Flask, client: FlaskClient, make_match: MakeMatch
):
    """A finished tournament reopened, then its round: the hand form of a table's match asks
    for a reason, kept with who, when, the old and new MP; a reason too long is refused and
    nothing changes. A match of no tournament asks for none."""
    tournament_id, match_id = closed_table(app, client, "2")
    assert (
        client.post(f"/torneos/{tournament_id}/terminar", data={"confirmed": "1"}).status_code
        == 303
    )
    assert client.post(f"/torneos/{tournament_id}/reabrir").status_code == 303
    assert reopen_round(client, tournament_id).status_code == 303
    form = client.get(f"/partidas/{match_id}/manos/1", headers=ENGLISH).get_data(as_text=True)
    assert 'name="reason"' in form
    with app.app_context():
        old = db.session.get(Match, match_id).totals  # type: ignore[union-attr]
    hand = {"s1_table_points": "900"}
    assert corrected(app, client, match_id, {**hand, "reason": "x" * 201})[0] == 422
    assert changes(app)[-1][0] == "round_reopened"
    status, new = corrected(app, client, match_id, {**hand, "reason": "Scored 900, not 90"})
    assert status == 302
    with app.app_context():
        owner = db.session.scalars(sa.select(Tournament.owner_id)).one()
        at = db.session.scalars(
            sa.select(TournamentChange.at).order_by(TournamentChange.id.desc())
        ).first()
    assert at is not None
    assert changes(app)[-1] == (
        "table_corrected",
        {
            "round": 1,
            "table": 1,
            "hands": "hand_edited",
            "old": old,
            "new": new,
            "reason": "Scored 900, not 90",
        },
        owner,
    )
    page = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "Scored 900, not 90" in page
    other = make_match()
    assert record(client, other, FORM_HAND).status_code == 302
    form = client.get(f"/partidas/{other}/manos/1", headers=ENGLISH).get_data(as_text=True)
    assert 'name="note"' in form
    assert 'name="reason"' not in form


def test_a_finished_tournament_is_reopened_then_its_last_round(app: Flask, client: FlaskClient):
    tournament_id, match_id = closed_table(app, client)
    assert (
        client.post(f"/torneos/{tournament_id}/terminar", data={"confirmed": "1"}).status_code
        == 303
    )
    # The round first: refused while the tournament is finished.
    refused = reopen_round(client, tournament_id)
    assert refused.status_code == 303
    said = client.get(refused.headers["Location"], headers=ENGLISH).get_data(as_text=True)
    assert "The tournament has finished" in said
    page = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert f'action="/torneos/{tournament_id}/reabrir"' in page
    reopened = client.post(
        f"/torneos/{tournament_id}/reabrir", data={"reason": "Late protest"}, headers=ENGLISH
    )
    assert reopened.status_code == 303
    with app.app_context():
        assert db.session.scalars(sa.select(Tournament.status)).one() == "playing"
    assert changes(app)[-1][:2] == ("reopened", {"reason": "Late protest"})
    assert reopen_round(client, tournament_id).status_code == 303
    assert undo(client, app, match_id).status_code == 302
    assert changes(app)[-1][0] == "table_corrected"
    # Reopening what is open is refused.
    again = client.post(f"/torneos/{tournament_id}/reabrir", headers=ENGLISH)
    said = client.get(again.headers["Location"], headers=ENGLISH).get_data(as_text=True)
    assert "The tournament has not finished." in said


def test_a_result_written_by_hand_logs_the_old_value_the_reason_and_the_author(
    app: Flask, client: FlaskClient
):
    tournament_id, match_id = closed_table(app, client)
    with app.app_context():
        totals = db.session.get(Match, match_id).totals  # type: ignore[union-attr]
        owner = db.session.scalars(sa.select(Tournament.owner_id)).one()
    table_id = table_ids(app, tournament_id, 1)[1]
    url = f"/torneos/{tournament_id}/mesas/{table_id}"
    data = {"mp_ns": "11", "mp_ew": "9", "reason": "Scored on paper"}
    assert client.post(url, data=data).status_code == 303
    assert changes(app)[-1] == (
        "result_entered",
        {"round": 1, "table": 1, "old": totals, "mp": [11, 9], "reason": "Scored on paper"},
        owner,
    )
    assert client.post(url, data={"mp_ns": "", "mp_ew": "", "reason": ""}).status_code == 303
    assert changes(app)[-1] == (
        "result_cleared",
        {"round": 1, "table": 1, "old": [11, 9], "mp": None},
        owner,
    )
    client.post(url, data={"mp_ns": "11", "mp_ew": "9"})
    # The table's planilla says the result that counts.
    planilla = html.unescape(
        client.get(f"/partidas/{match_id}", headers=ENGLISH).get_data(as_text=True)
    )
    assert "The director wrote this table's result by hand: 11 – 9 counts" in planilla
    page = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "Scored on paper" in page
    # The planilla's PDF says so too, in its own language, and follows the next change
    # (the director writes over it without changing the match).
    sheet = pdf_text(client.get(f"/partidas/{match_id}/planilla.pdf?idioma=en").data)
    assert "The director wrote this table's result by hand: 11 – 9 counts" in sheet
    sheet = pdf_text(client.get(f"/partidas/{match_id}/planilla.pdf?idioma=it").data)
    assert (
        "Il direttore ha scritto a mano il risultato di questo tavolo: nel torneo conta 11 – 9"
        in sheet
    )
    client.post(url, data={"mp_ns": "12", "mp_ew": "8"})
    sheet = pdf_text(client.get(f"/partidas/{match_id}/planilla.pdf?idioma=en").data)
    assert "by hand: 12 – 8 counts" in sheet
    client.post(url, data={"mp_ns": "", "mp_ew": ""})
    sheet = pdf_text(client.get(f"/partidas/{match_id}/planilla.pdf?idioma=en").data)
    assert "by hand" not in sheet


def test_a_swap_is_logged_with_the_old_and_the_new_seats(app: Flask, client: FlaskClient):
    tournament_id = create(client)
    add_pairs(client, tournament_id, PAIRS)
    client.post(f"/torneos/{tournament_id}/rondas")
    with app.app_context():
        pairs = db.session.get(Tournament, tournament_id).pairs  # type: ignore[union-attr]
        ana, carla = pairs[0].id, pairs[2].id
    swapped = client.post(
        f"/torneos/{tournament_id}/rondas/1/cambio", data={"first": ana, "second": carla}
    )
    assert swapped.status_code == 303
    assert changes(app)[-1][:2] == (
        "pairs_swapped",
        {
            "round": 1,
            "pairs": [1, 3],
            "old": [[1, "ns"], [2, "ns"]],
            "new": [[2, "ns"], [1, "ns"]],
        },
    )
    page = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "1. Ana – Alba: table 1 NS → table 2 NS" in page
    assert "3. Carla – Cecilia: table 2 NS → table 1 NS" in page


def test_after_the_end_no_director_action_changes_anything(app: Flask, client: FlaskClient):
    tournament_id = create(client, system="manual", rounds="2")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    client.post(f"/torneos/{tournament_id}/rondas")
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        ana, beto, carla, dario = (pair.id for pair in tournament.pairs)
        # As the finish/draw race left it: finished, with a round drawn.
        tournament.status = "finished"
        db.session.commit()
    before = snapshot(app)
    base = f"/torneos/{tournament_id}"
    table = table_ids(app, tournament_id, 1)[None]
    for url, data in (
        (f"{base}/rondas/1/cambio", {"first": ana, "second": beto}),
        (f"{base}/rondas/1/empezar", {}),
        (f"{base}/rondas/1/cerrar", {"confirmed": "1"}),
        (f"{base}/rondas", {}),
        (f"{base}/parejas", {"first": "Fede", "second": "Fito"}),
        (f"{base}/parejas/{carla}/retiro", {"withdrawn": "1", "confirmed": "1"}),
        (f"{base}/mesas/{table}", {"mp_ns": "1", "mp_ew": "2"}),
        (f"{base}/terminar", {"confirmed": "1"}),
    ):
        answer = client.post(url, data=data, headers=ENGLISH)
        assert answer.status_code == 303, url
        said = client.get(answer.headers["Location"], headers=ENGLISH).get_data(as_text=True)
        assert "The tournament has finished" in said, url
        assert snapshot(app) == before, url
    assert dario


HAND_20000 = {"closer": "0", "s0_clean": "1", "s0_table_points": "20000"}


def test_a_table_played_to_a_million_stays_within_the_bound_and_every_page_answers(
    app: Flask, client: FlaskClient
):
    tournament_id = create(
        client, variant="uruguaya", hands_per_round="", target="1000000", scale="wdl"
    )
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "AB"})
    client.post(f"/torneos/{tournament_id}/rondas")
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")
    match_id = table_match(app, tournament_id)
    phone = phone_of(app, match_id)
    saved = 0
    for _ in range(60):
        form = {**fresh_form(phone, match_id), **HAND_20000}
        answer = phone.post(f"/partidas/{match_id}/manos/nueva", data=form, headers=ENGLISH)
        if answer.status_code != 302:
            break
        saved += 1
    assert 45 <= saved < 60
    assert answer.status_code == 422
    assert "points stay within 1000000 in size" in answer.get_data(as_text=True)
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        assert (match.hand_count, max(match.totals) <= 1_000_000) == (saved, True)
    # A table already past the bound (stored before the bound was checked): every page shows it.
    signals.match_changing.disconnect(tables.check, sender=app)
    try:
        assert record(phone, match_id, HAND_20000).status_code == 302
    finally:
        signals.match_changing.connect(tables.check, sender=app)
    base = f"/torneos/{tournament_id}"
    with app.app_context():
        pair_id = db.session.get(Tournament, tournament_id).pairs[0].id  # type: ignore[union-attr]
    for page in (
        "",
        "/rondas/1",
        "/posiciones",
        "/tablero",
        "/posiciones.csv",
        "/posiciones.json",
        "/resultados.csv",
        "/archivo.json",
        "/version",
        f"/parejas/{pair_id}",
        "/posiciones.pdf",
        "/rondas/1/resultados.pdf",
    ):
        assert client.get(base + page).status_code == 200, page
    round_page = client.get(f"{base}/rondas/1", headers=ENGLISH).get_data(as_text=True)
    assert "points out of bounds" in round_page
    # The round cannot close with it, nor the next round be drawn, each with a reason.
    closed = client.post(f"{base}/rondas/1/cerrar", data={"confirmed": "1"}, headers=ENGLISH)
    said = client.get(closed.headers["Location"], headers=ENGLISH).get_data(as_text=True)
    assert "Some tables have not finished yet." in said
    drawn = client.post(f"{base}/rondas", headers=ENGLISH)
    assert drawn.status_code == 303
    # Written by hand, it counts, and the round closes.
    table_id = table_ids(app, tournament_id, 1)[1]
    client.post(f"{base}/mesas/{table_id}", data={"mp_ns": "1000000", "mp_ew": "0"})
    assert client.post(f"{base}/rondas/1/cerrar", data={"confirmed": "1"}).status_code == 303
    standings = json.loads(client.get(f"{base}/posiciones.json").data)
    assert standings["rounds"][0]["tables"][0]["mp"] == [1_000_000, 0]


def table_match(app: Flask, tournament_id: int) -> int:
    with app.app_context():
        table = db.session.get(RoundTable, table_ids(app, tournament_id, 1)[1])
        assert table is not None
        assert table.match_id is not None
        return table.match_id
