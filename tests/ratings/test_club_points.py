"""Club points (docs/ratings.md): points that only grow, from the places of an account's
finished tournaments, both players of a pair; shown on the player's page and the Ranking."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from stored import create_account
from stored import create_stored_match
from stored import signed_in
from test_ratings_pages import rows_of
from test_ratings_store import finished
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import play_round

from anotador.ratings import points_reads
from anotador.ratings.club_points import club_points
from anotador.ratings.club_points import place_points
from anotador.ratings.club_points import tournament_points
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.storage.models import User
from anotador.storage.models import name_key

THREE = {"A": ("Ana", "Alba"), "B": ("Beto", "Bruno"), "C": ("Carla", "Cecilia")}


def test_the_default_table_is_the_fields_size_down_to_one() -> None:
    assert [place_points(place, 4) for place in (1, 2, 3, 4)] == [4, 3, 2, 1]
    placings = [("ana", "alba"), ("beto", "bruno"), ("carla", "cecilia")]
    assert tournament_points(placings) == {
        "ana": 3, "alba": 3, "beto": 2, "bruno": 2, "carla": 1, "cecilia": 1,
    }  # fmt: skip


def test_a_clubs_own_table_gives_nothing_beyond_it_and_points_add_up() -> None:
    assert [place_points(place, 5, (10, 6)) for place in (1, 2, 3)] == [10, 6, 0]
    first = [("ana", "alba"), ("beto", "bruno")]
    second = [("beto", "alba"), ("ana", "carla")]
    assert club_points([first, second], (10, 6)) == {
        "ana": 16, "alba": 20, "beto": 16, "bruno": 6, "carla": 6,
    }  # fmt: skip
    assert club_points([]) == {}


def one_round(app: Flask, client: FlaskClient, *, finish: bool) -> int:
    """Three pairs, one round of wdl: A beats B, C has the bye (2 VP, as A); A is 1st by its
    MP difference, C 2nd, B 3rd."""
    tournament_id = create(client, system="danese", scale="wdl", rounds="1")
    add_pairs(client, tournament_id, THREE)
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 1, {1: ("1000", "500")})
    if finish:
        assert (
            client.post(f"/torneos/{tournament_id}/terminar", data={"confirmed": "1"}).status_code
            == 303
        )
    return tournament_id


def account_points(app: Flask, owner_name: str) -> dict[str, int]:
    """Each player's club points in account ``owner_name``, by name."""
    with app.app_context():
        owner = db.session.scalars(db.select(User).where(User.name == owner_name)).one()
        own = db.select(Player).where(Player.owner_id == owner.id)
        names = {p.id: p.name for p in db.session.scalars(own)}  # another's player: KeyError
        found = points_reads.points_by_player(owner.id)
        return {names[player]: points for player, points in found.items()}


def test_a_finished_tournament_gives_the_tables_points(app: Flask, client: FlaskClient) -> None:
    one_round(app, client, finish=True)
    assert account_points(app, "Dueña") == {
        "Ana": 3, "Alba": 3, "Carla": 2, "Cecilia": 2, "Beto": 1, "Bruno": 1,
    }  # fmt: skip
    # A second finished tournament adds up: points only grow.
    one_round(app, client, finish=True)
    assert account_points(app, "Dueña")["Ana"] == 6
    with app.app_context():
        ana_id = db.session.scalars(
            db.select(Player.id).where(Player.name_key == name_key("Ana"))
        ).one()
    page = client.get(f"/jugadores/{ana_id}", headers={"Accept-Language": "en"})
    text = page.get_data(as_text=True)
    assert "Club points: <strong>6</strong>" in text
    # The Ranking lists rated players (a finished match), each with its club points.
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    ranking = client.get("/ranking/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Club points</th>" in ranking
    assert {row[1].split(" (")[0]: row[-1] for row in rows_of(ranking)} == {"Ana": "6", "Beto": "2"}


def test_an_unfinished_tournament_gives_none(app: Flask, client: FlaskClient) -> None:
    one_round(app, client, finish=False)
    assert account_points(app, "Dueña") == {}


def test_two_accounts_never_see_each_others_points(app: Flask, client: FlaskClient) -> None:
    one_round(app, client, finish=True)
    create_account(app, "Otra")
    other = signed_in(app, "Otra")
    assert account_points(app, "Otra") == {}
    one_round(app, other, finish=True)
    assert account_points(app, "Otra")["Ana"] == 3
    assert account_points(app, "Dueña")["Ana"] == 3
