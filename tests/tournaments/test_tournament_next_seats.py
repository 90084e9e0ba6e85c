"""Every pair knows its next seat, and the phone says what it scores (issue 38): once the next
round is drawn, each table phone of the round before and each pair's page say where its
pairs sit ("Round 2: table 1, NS, against …", with the new table's link once the round has
started) or that a pair rests; a tournament table's phone says its tournament, round, table
and hand k of n. A spectator sees nothing more than before."""

from __future__ import annotations

import html

from flask import Flask
from flask.testing import FlaskClient
from test_hands import record
from test_tournament_final import phone_of
from test_tournament_final import version_of
from test_tournament_printouts import spectator
from test_tournament_printouts import spectator_link
from test_tournament_web import ENGLISH
from test_tournament_web import FORM_HAND
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import seats
from test_tournament_web import table_ids

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament

ITALIAN = {"Accept-Language": "it"}
NAMES = {"Ana": "1. Ana – Alba", "Beto": "2. Beto – Bruno", "Carla": "3. Carla – Cecilia"}


def page(client: FlaskClient, url: str, headers: dict[str, str] = ENGLISH) -> str:
    answer = client.get(url, headers=headers)
    assert answer.status_code == 200, answer.status_code
    shown = html.unescape(answer.get_data(as_text=True))
    return shown.replace("<strong>", "").replace("</strong>", "")


def played_round_one(app: Flask, client: FlaskClient) -> tuple[int, int, FlaskClient]:
    """Three pairs, rounds of 2 hands: round 1's table played on its phone, confirmed by the
    director and closed. (the tournament, round 1's match, its phone)."""
    tournament_id = create(client, variant="uruguaya", hands_per_round="2", scale="wdl")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABC"})
    assert client.post(f"/torneos/{tournament_id}/rondas").status_code == 303
    assert client.post(f"/torneos/{tournament_id}/rondas/1/empezar").status_code == 303
    with app.app_context():
        table = db.session.get(RoundTable, table_ids(app, tournament_id, 1)[1])
        assert table is not None
        assert table.match_id is not None
        match_id = table.match_id
    phone = phone_of(app, match_id)
    line = "Club night · Round 1 · Table 1 · hand 1 of 2"
    assert line in page(phone, f"/partidas/{match_id}")
    assert "Turno 1 · Tavolo 1 · smazzata 1 di 2" in page(phone, f"/partidas/{match_id}", ITALIAN)
    assert record(phone, match_id, FORM_HAND).status_code == 302
    shown = page(phone, f"/partidas/{match_id}")
    assert "Club night · Round 1 · Table 1 · hand 2 of 2" in shown
    # A round of 2 hands plays them both: no target to reach, no points "to go".
    assert "in 2 hands" in shown
    assert "to-target" not in shown
    assert record(phone, match_id, FORM_HAND).status_code == 302
    shown = page(phone, f"/partidas/{match_id}")
    assert "Round 1 · Table 1 · 2 of 2 hands played" in shown
    assert "won!" not in shown
    assert "The 2 hands are played." in shown
    closed = client.post(f"/torneos/{tournament_id}/rondas/1/cerrar", data={"confirmed": "1"})
    assert closed.status_code == 303
    return tournament_id, match_id, phone


def pair_page(app: Flask, tournament_id: int, first: str) -> str:
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        pair = next(p for p in tournament.pairs if p.first_player.name == first)
        return f"/parejas/{pair.id}"


def seat_line(number: int, table: int, side: str, against: str) -> str:
    return f"Round {number}: table {table}, {side}, against {NAMES[against]}"


def test_the_phones_of_the_round_before_and_the_pairs_pages_tell_the_next_seat(
    app: Flask, client: FlaskClient
):
    tournament_id, match_id, phone = played_round_one(app, client)
    (_number, ns1, ew1), _bye = seats(app, tournament_id, 1)
    before = page(phone, f"/partidas/{match_id}")
    assert "where each pair sits" not in before
    pages = {first: pair_page(app, tournament_id, first) for first in NAMES}
    base = f"/torneos/{tournament_id}"
    for first in NAMES:
        assert "Next seat" not in page(client, base + pages[first])

    seen = version_of(app, match_id)
    assert client.post(f"{base}/rondas").status_code == 303
    # The round before's phones follow their match: its version tells them to reload.
    assert version_of(app, match_id) > seen
    (table, ns2, ew2), (_none, bye2, _ew) = seats(app, tournament_id, 2)
    shown = page(phone, f"/partidas/{match_id}")
    assert "Round 2: where each pair sits" in shown
    for first in (ns1, ew1):
        if first == bye2:
            assert f"{NAMES[first]}: Round 2: you rest this round." in shown
        else:
            side, other = ("NS", ew2) if first == ns2 else ("EW", ns2)
            assert f"{NAMES[first]}: {seat_line(2, table, side, other)}" in shown
    # Drawn, not started: no link yet, and it says when it comes.
    assert "The table's link comes when the director starts the round." in shown
    assert "/enlace/" not in shown.split("where each pair sits")[1]

    # Each pair's page says it too, and the pair that rests is told so (never "NS").
    director = page(client, base + pages[bye2])
    assert f"{NAMES[bye2]}: Round 2: you rest this round." in director
    assert "Riposo riposo" not in page(client, base + pages[bye2], ITALIAN)
    assert "Turno 2: riposa in questo turno." in page(client, base + pages[bye2], ITALIAN)
    director = page(client, base + pages[ns2])
    assert seat_line(2, table, "NS", ew2) in director
    assert seat_line(2, table, "EW", ns2) in page(client, base + pages[ew2])

    seen = version_of(app, match_id)
    assert client.post(f"{base}/rondas/2/empezar").status_code == 303
    assert version_of(app, match_id) > seen
    with app.app_context():
        table_row = db.session.get(RoundTable, table_ids(app, tournament_id, 2)[table])
        assert table_row is not None
        assert table_row.match is not None
        token = table_row.match.table_token
    shown = page(phone, f"/partidas/{match_id}")
    next_part = shown.split("where each pair sits")[1]
    assert f"/enlace/{token}" in next_part
    assert "<svg" in next_part  # its QR code
    assert f"/enlace/{token}" in page(client, base + pages[ns2])

    # A spectator of the tournament reads the seating the board shows, never a table link.
    link = spectator_link(app, client, tournament_id)
    watcher = spectator(app)
    shared = page(watcher, link + pages[ns2])
    assert seat_line(2, table, "NS", ew2) in shared
    assert "/enlace/" not in shared
    # A phone that follows round 1's match by its spectator link sees no next seat.
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        match.spectator_token = "s" * 43
        db.session.commit()
    viewer = spectator(app, "192.0.2.7")
    assert viewer.get("/enlace/" + "s" * 43).status_code == 303
    watched = page(viewer, f"/partidas/{match_id}")
    assert "Club night · Round 1 · Table 1" in watched
    assert "where each pair sits" not in watched
    assert "/enlace/" not in watched


def test_a_phone_two_rounds_back_shows_no_seat(app: Flask, client: FlaskClient):
    tournament_id, match_id, phone = played_round_one(app, client)
    base = f"/torneos/{tournament_id}"
    client.post(f"{base}/rondas")
    client.post(f"{base}/rondas/2/empezar")
    for table_id in table_ids(app, tournament_id, 2).values():
        client.post(f"{base}/mesas/{table_id}", data={"mp_ns": "100", "mp_ew": "50"})
    assert client.post(f"{base}/rondas/2/cerrar", data={"confirmed": "1"}).status_code == 303
    assert client.post(f"{base}/rondas").status_code == 303
    assert "where each pair sits" not in page(phone, f"/partidas/{match_id}")
