"""A tournament's printouts within bounds (issue 36: 8 spectators asking the standings PDF of
400 pairs at once stalled the server): each is drawn once per state of the tournament and
kept as the match sheets are, a change of state draws it anew, and it is drawn only in a
free render slot, one printout of a tournament at a time and one slot per viewer; beyond
that the viewer is told to come back (503 with ``Retry-After``). Drawing is stubbed
(``test_sheet_bounds.Drawing``) but where the PDF itself is read."""

# ruff: noqa: F811 - the tests take test_sheet_bounds' ``drawing`` fixture, imported here

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from stored import create_account
from stored import signed_in
from test_sheet_bounds import FAKE
from test_sheet_bounds import Drawing
from test_sheet_bounds import drawing  # noqa: F401 - the fixture, by that name
from test_sheet_bounds import in_background
from test_tournament_pair_pages import worked_example
from test_tournament_web import ENGLISH
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create

from anotador.sheets import shelf
from anotador.storage.database import db
from anotador.tournaments.store.models import Tournament

AppFactory = Callable[..., Flask]


def spectator_link(app: Flask, client: FlaskClient, tournament_id: int) -> str:
    assert client.post(f"/torneos/{tournament_id}/enlace", data={"on": "1"}).status_code == 303
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        return f"/torneos/ver/{tournament.spectator_token}"


def spectator(app: Flask, address: str = "192.0.2.1") -> FlaskClient:
    """A browser without an account, from its own address."""
    browser = app.test_client()
    browser.environ_base["REMOTE_ADDR"] = address
    return browser


def test_a_printout_is_drawn_once_per_state_of_the_tournament(
    app: Flask, client: FlaskClient, drawing: Drawing
):
    tournament_id = worked_example(client, app)
    link = spectator_link(app, client, tournament_id)
    printouts = [f"{link}/posiciones.pdf", f"{link}/rondas/2/resultados.pdf"]
    first = [spectator(app).get(url) for url in printouts]
    assert [(answer.status_code, answer.data) for answer in first] == [(200, FAKE)] * 2
    assert len(drawing.drawn) == 2
    # Asked again, by others, by the director: kept, nothing drawn; a browser that has it: 304.
    again = [spectator(app, "192.0.2.2").get(url) for url in printouts]
    assert [(answer.status_code, answer.data) for answer in again] == [(200, FAKE)] * 2
    assert client.get(f"/torneos/{tournament_id}/posiciones.pdf").data == FAKE
    etag = first[0].headers["ETag"]
    unchanged = spectator(app).get(printouts[0], headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert len(drawing.drawn) == 2
    # Another language is another printout.
    assert spectator(app).get(printouts[0], headers=ENGLISH).status_code == 200
    assert len(drawing.drawn) == 3
    # A change of the tournament's state (a pair joins): drawn anew.
    add_pairs(client, tournament_id, {"F": ("Fede", "Flor")})
    changed = spectator(app).get(printouts[0], headers={"If-None-Match": etag})
    assert (changed.status_code, changed.data) == (200, FAKE)
    assert changed.headers["ETag"] != etag
    assert len(drawing.drawn) == 4
    assert spectator(app).get(printouts[0]).status_code == 200
    assert len(drawing.drawn) == 4


def test_a_spectators_printout_is_the_real_pdf_of_the_standings(app: Flask, client: FlaskClient):
    tournament_id = worked_example(client, app)
    link = spectator_link(app, client, tournament_id)
    answer = spectator(app).get(f"{link}/posiciones.pdf", headers=ENGLISH)
    assert answer.status_code == 200
    assert answer.headers["Content-Disposition"].startswith("inline")
    text = pdf_text(answer.data)
    assert "Standings" in text
    assert text.index("3. Carla") < text.index("1. Ana") < text.index("2. Beto")


def test_without_a_free_render_slot_a_spectator_is_told_to_come_back(
    app: Flask, client: FlaskClient, drawing: Drawing
):
    tournament_id = create(client)
    add_pairs(client, tournament_id, PAIRS)
    link = spectator_link(app, client, tournament_id)
    with app.app_context(), shelf.render_slot() as held:
        assert held  # the only usual slot: a match's sheet being drawn
        busy = spectator(app).get(f"{link}/posiciones.pdf", headers={"Accept-Language": "it"})
    with app.app_context(), shelf.render_slot():  # (a request's language stays in its context)
        english = spectator(app).get(f"{link}/posiciones.pdf", headers=ENGLISH)
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == str(shelf.RETRY_SECONDS)
    assert busy.headers["Cache-Control"] == "no-store"
    assert "Preparazione della stampa" in busy.get_data(as_text=True)
    assert "Preparing the printout" in english.get_data(as_text=True)
    assert drawing.drawn == []
    ready = spectator(app).get(f"{link}/posiciones.pdf")
    assert (ready.status_code, ready.data) == (200, FAKE)


def test_a_tournament_is_drawn_one_printout_at_a_time_and_a_viewer_holds_one_slot(
    app_factory: AppFactory, drawing: Drawing
):
    app = app_factory(PDF_RENDER_SLOTS=3)
    create_account(app, "Otra")
    director, other_director = signed_in(app), signed_in(app, "Otra")
    ours, theirs = create(director), create(other_director)
    add_pairs(director, ours, PAIRS)
    add_pairs(other_director, theirs, PAIRS)
    our_link = spectator_link(app, director, ours)
    their_link = spectator_link(app, other_director, theirs)
    drawing.holds = lambda wanted: "Beto" in wanted["html"] and "Standings" in wanted["html"]
    first, answers = in_background(
        lambda: spectator(app).get(f"{our_link}/posiciones.pdf", headers=ENGLISH)
    )
    assert drawing.started.wait(30)
    drawing.holds = lambda wanted: False
    # Slots are free, but this tournament's printout is being drawn: everyone else waits.
    assert spectator(app, "192.0.2.9").get(f"{our_link}/posiciones.pdf").status_code == 503
    assert director.get(f"/torneos/{ours}/posiciones.pdf").status_code == 503
    # The viewer drawing it holds its one slot: another tournament's printout waits for it...
    assert spectator(app).get(f"{their_link}/posiciones.pdf").status_code == 503
    # ... and is drawn for another viewer meanwhile.
    other = spectator(app, "192.0.2.9").get(f"{their_link}/posiciones.pdf")
    assert (other.status_code, other.data) == (200, FAKE)
    drawing.release.set()
    first.join(30)
    assert answers[0].status_code == 200
    assert len(drawing.drawn) == 2
    kept = spectator(app, "192.0.2.9").get(f"{our_link}/posiciones.pdf", headers=ENGLISH)
    assert kept.data == FAKE
    assert len(drawing.drawn) == 2


def test_a_big_tournaments_printout_is_drawn_in_the_costly_sheets_slot(
    app: Flask, client: FlaskClient, drawing: Drawing, monkeypatch
):
    tournament_id = worked_example(client, app)  # 4 matches
    link = spectator_link(app, client, tournament_id)
    assert spectator(app).get(f"{link}/posiciones.pdf").status_code == 200
    monkeypatch.setattr(shelf, "COSTLY_ROWS", 3)
    assert spectator(app).get(f"{link}/posiciones.pdf", headers=ENGLISH).status_code == 200
    assert [unusual for _, unusual in drawing.drawn] == [False, True]
    with app.app_context(), shelf.render_slot(unusual=True):
        italian = {"Accept-Language": "it"}
        assert spectator(app).get(f"{link}/posiciones.pdf", headers=italian).status_code == 503


def test_a_round_that_is_not_there_is_a_404_even_when_the_slots_are_busy(
    app: Flask, client: FlaskClient
):
    tournament_id = worked_example(client, app)
    link = spectator_link(app, client, tournament_id)
    with app.app_context(), shelf.render_slot():
        assert spectator(app).get(f"{link}/rondas/3/resultados.pdf").status_code == 404
    with app.app_context(), shelf.render_slot():  # (who is signed in stays in its context)
        assert client.get(f"/torneos/{tournament_id}/rondas/3/mesas.pdf").status_code == 404
