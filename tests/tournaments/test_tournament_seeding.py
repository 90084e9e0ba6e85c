"""Seeding a tournament's first round by rating (docs/ratings.md): the pairs are put in order of
their players' ratings summed, and every system reads that order (TOURNAMENTS.md §4)."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import create_stored_match
from test_ratings_store import finished
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import play_round
from test_tournament_web import seats

from anotador.storage.database import db
from anotador.tournaments.store.models import TournamentChange

FOUR = {
    "A": ("Ana", "Alba"),
    "B": ("Beto", "Bruno"),
    "C": ("Carla", "Cecilia"),
    "D": ("Dario", "Diego"),
}


def rated(app: Flask) -> None:
    """Carla and Cecilia beat Beto and Bruno: C's rating sum is the highest, B's the lowest,
    A's and D's (nobody rated) 0."""
    create_stored_match(app, finished("4p", [["Carla", "Cecilia"], ["Beto", "Bruno"]], None))


def test_danish_round_one_seeded_by_rating(app: Flask, client: FlaskClient) -> None:
    rated(app)
    tournament_id = create(client, system="danese", rounds="2")
    add_pairs(client, tournament_id, FOUR)
    drawn = client.post(f"/torneos/{tournament_id}/rondas", data={"by_rating": "1"})
    assert drawn.status_code == 303
    # Order C, A, D, B (A and D tie at 0 and keep their order): 1st v 2nd, 3rd v 4th.
    assert seats(app, tournament_id, 1) == [(1, "Carla", "Ana"), (2, "Dario", "Beto")]
    page = client.get(f"/torneos/{tournament_id}", headers={"Accept-Language": "en"})
    text = page.get_data(as_text=True)
    listed = text[text.index('id="parejas"') :]
    order = [listed.index(f"{first} – {second}") for first, second in FOUR.values()]
    assert sorted("ABCD", key=lambda key: order["ABCD".index(key)]) == list("CADB")
    assert "Pairs seeded by rating" in text
    with app.app_context():
        change = db.session.scalars(
            sa.select(TournamentChange).where(TournamentChange.change == "pairs_seeded")
        ).one()
        assert change.details["order"] == [3, 1, 4, 2]


def test_without_the_option_the_order_of_registration(app: Flask, client: FlaskClient) -> None:
    rated(app)
    tournament_id = create(client, system="danese", rounds="2")
    add_pairs(client, tournament_id, FOUR)
    client.post(f"/torneos/{tournament_id}/rondas")
    assert seats(app, tournament_id, 1) == [(1, "Ana", "Beto"), (2, "Carla", "Dario")]


def test_the_seeded_order_holds_for_a_fixed_schedule(app: Flask, client: FlaskClient) -> None:
    rated(app)
    tournament_id = create(client, system="mitchell", rounds="2")
    add_pairs(client, tournament_id, FOUR)
    client.post(f"/torneos/{tournament_id}/rondas", data={"by_rating": "1"})
    # Mitchell: the first half of the order (C, A) sits NS for good, D and B move.
    assert seats(app, tournament_id, 1) == [(1, "Carla", "Dario"), (2, "Ana", "Beto")]
    play_round(client, app, tournament_id, 1, {1: ("900", "500"), 2: ("700", "600")})
    client.post(f"/torneos/{tournament_id}/rondas")
    assert seats(app, tournament_id, 2) == [(1, "Carla", "Beto"), (2, "Ana", "Dario")]


def test_a_bad_option_is_refused_and_changes_nothing(app: Flask, client: FlaskClient) -> None:
    tournament_id = create(client, system="danese", rounds="2")
    add_pairs(client, tournament_id, FOUR)
    assert (
        client.post(f"/torneos/{tournament_id}/rondas", data={"by_rating": "x"}).status_code == 400
    )
    with app.app_context():
        kept = db.session.scalars(sa.select(TournamentChange.change)).all()
    assert "round_drawn" not in kept
