"""The director corrects a pair's names (a typo, a substitute partner) from the pair's page
(issue 38, item 8): while the tournament is open, after rounds were played too (the pair keeps
its results); refused once it has finished, for a player of another pair or a look-alike of
one, and for a name the registration refuses; logged with the old and new names and who; the
kept pages and the open round's tables' matches show the new names at once."""

# ruff: noqa: F811 - the race takes test_tournament_races' ``hosts`` fixture, imported here
from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from stored import snapshot
from test_tournament_races import TABS
from test_tournament_races import changes
from test_tournament_races import hosts  # noqa: F401 - the fixture, by that name
from test_tournament_races import posted
from test_tournament_races import statuses
from test_tournament_races import tabs
from test_tournament_web import ENGLISH
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import play_round
from test_tournament_web import table_ids

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentChange


def second_round_started(app: Flask, client: FlaskClient) -> tuple[int, dict[str, int]]:
    """Pairs A–D, round 1 played and closed, round 2 started: the tournament and each pair's
    first player → its row's id."""
    tournament_id = create(client)
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 1, {1: ("1650", "350"), 2: ("1105", "1045")})
    client.post(f"/torneos/{tournament_id}/rondas")
    assert client.post(f"/torneos/{tournament_id}/rondas/2/empezar").status_code == 303
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        return tournament_id, {pair.first_player.name: pair.id for pair in tournament.pairs}


def rename(client: FlaskClient, tournament_id: int, pair_id: int, first: str, second: str) -> Any:
    path = f"/torneos/{tournament_id}/parejas/{pair_id}/nombres"
    return client.post(path, data={"first": first, "second": second}, headers=ENGLISH)


def pair_state(app: Flask, tournament_id: int) -> tuple[Any, ...]:
    """What a refused change must leave as it was: the version, every pair's players, the
    change log, the registry."""
    with app.app_context():
        db.session.expire_all()
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        pairs = [(p.first_player.name, p.second_player.name) for p in tournament.pairs]
        changes = db.session.scalar(sa.select(sa.func.count()).select_from(TournamentChange))
        players = sorted(db.session.scalars(sa.select(Player.name)))
        return tournament.version, pairs, changes, players


def table_match_of(app: Flask, tournament_id: int, number: int, table: int) -> dict[str, Any]:
    """The sides of a round's table's match (names and players) and its version."""
    with app.app_context():
        row = db.session.get(RoundTable, table_ids(app, tournament_id, number)[table])
        assert row is not None
        match = db.session.get(Match, row.match_id)
        assert match is not None
        sides = [(s.name, [seat.player.name for seat in s.seats]) for s in match.sides]
        return {"id": match.id, "sides": sides, "version": match.version}


def test_a_typo_is_corrected_after_a_round_was_played(app: Flask, client: FlaskClient):
    tournament_id, ids = second_round_started(app, client)
    base = f"/torneos/{tournament_id}"
    # Every kept page and export drawn (and kept) before the change.
    kept = ("/posiciones", "/tablero", "/posiciones.csv", "/resultados.csv", "/archivo.json")
    for path in kept:
        assert "Alba" in client.get(base + path).get_data(as_text=True)
    assert "Ana – Alba" in pdf_text(client.get(f"{base}/posiciones.pdf").data)
    before = json.loads(client.get(f"{base}/posiciones.json").data)
    # Round 2 seats A against C at table 1 (the Danish draw).
    assert table_match_of(app, tournament_id, 2, 1)["sides"][0] == (
        "1. Ana – Alba",
        ["Ana", "Alba"],
    )
    played = table_match_of(app, tournament_id, 1, 1)
    open_match = table_match_of(app, tournament_id, 2, 1)

    page = client.get(f"{base}/parejas/{ids['Ana']}", headers=ENGLISH).get_data(as_text=True)
    assert f'action="{base}/parejas/{ids["Ana"]}/nombres"' in page
    answer = rename(client, tournament_id, ids["Ana"], "Ana", "Alma")
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"{base}/parejas/{ids['Ana']}")
    said = client.get(answer.headers["Location"], headers=ENGLISH).get_data(as_text=True)
    assert "1. Ana – Alma" in said

    # The kept pages and exports show the new name at once; the results are the pair's still.
    for path in kept:
        text = client.get(base + path).get_data(as_text=True)
        assert "Alma" in text, path
        assert "Alba" not in text, path
    printed = pdf_text(client.get(f"{base}/posiciones.pdf").data)
    assert "Ana – Alma" in printed
    assert "Alba" not in printed
    assert json.loads(client.get(f"{base}/posiciones.json").data) == before
    document = json.loads(client.get(f"{base}/archivo.json").data)
    assert document["pairs"][0]["players"] == ["Ana", "Alma"]

    # The open round's table plays under the new names; the closed round's match keeps the
    # names it was played under (a record of who sat there).
    renamed = table_match_of(app, tournament_id, 2, 1)
    assert renamed["sides"][0] == ("1. Ana – Alma", ["Ana", "Alma"])
    assert renamed["version"] == open_match["version"] + 1  # its phones reload
    assert table_match_of(app, tournament_id, 1, 1) == played
    planilla = client.get(f"/partidas/{renamed['id']}").get_data(as_text=True)
    assert "Ana – Alma" in planilla

    # The change log keeps both names and who changed them.
    with app.app_context():
        change = db.session.scalars(
            sa.select(TournamentChange).where(TournamentChange.change == "pair_renamed")
        ).one()
        assert change.details == {"pair": 1, "old": ["Ana", "Alba"], "new": ["Ana", "Alma"]}
        assert change.account is not None
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        assert change.account_id == tournament.owner_id
    log = client.get(base, headers=ENGLISH).get_data(as_text=True)
    assert "Pair renamed · Ana – Alba → Ana – Alma" in log


def test_a_substitute_partner_and_a_respelling(app: Flask, client: FlaskClient):
    """A new player joins the registry (the one who left stays in it); a name that is a known
    player's, accents and case aside, is that player, spelt as now typed."""
    tournament_id, ids = second_round_started(app, client)
    assert rename(client, tournament_id, ids["Carla"], "Carla", "Zoe").status_code == 303
    assert rename(client, tournament_id, ids["Dario"], "Darío", "diego").status_code == 303
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        pairs = {p.position: (p.first_player.name, p.second_player.name) for p in tournament.pairs}
        assert pairs[3] == ("Carla", "Zoe")
        assert pairs[4] == ("Darío", "diego")
        names = set(db.session.scalars(sa.select(Player.name)))
        assert {"Cecilia", "Zoe", "Darío", "diego"} <= names
        assert "Dario" not in names
    # Table 1 of round 2 is A against C: C's side is seated with Zoe now.
    assert table_match_of(app, tournament_id, 2, 1)["sides"][1] == (
        "3. Carla – Zoe",
        ["Carla", "Zoe"],
    )


def test_the_same_names_posted_twice_are_one_change(app: Flask, client: FlaskClient):
    tournament_id, ids = second_round_started(app, client)
    assert rename(client, tournament_id, ids["Beto"], "Beto", "Bruna").status_code == 303
    once = pair_state(app, tournament_id)
    match = table_match_of(app, tournament_id, 2, 2)
    assert rename(client, tournament_id, ids["Beto"], "Beto", "Bruna").status_code == 303
    assert pair_state(app, tournament_id) == once
    assert table_match_of(app, tournament_id, 2, 2) == match


def test_names_are_final_once_the_tournament_has_finished(app: Flask, client: FlaskClient):
    tournament_id = create(client, rounds="1")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "AB"})
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 1, {1: ("900", "100")})
    assert client.post(f"/torneos/{tournament_id}/terminar", data={"confirmed": "1"}).status_code
    with app.app_context():
        pair_id = db.session.get(Tournament, tournament_id).pairs[0].id  # type: ignore[union-attr]
    page = client.get(f"/torneos/{tournament_id}/parejas/{pair_id}").get_data(as_text=True)
    assert "/nombres" not in page  # no form to fill in vain
    before, stored = pair_state(app, tournament_id), snapshot(app)
    answer = rename(client, tournament_id, pair_id, "Ana", "Alma")
    assert answer.status_code == 303
    said = client.get(answer.headers["Location"], headers=ENGLISH).get_data(as_text=True)
    assert "The tournament has finished: its names are final." in said
    assert pair_state(app, tournament_id) == before
    assert snapshot(app) == stored


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        # Another pair's player, as registering refuses it: accents, case and look-alikes aside.
        ("Ana", "Beto", "That player is already in a pair of this tournament."),
        ("Ana", "BRUNO", "That player is already in a pair of this tournament."),
        ("Ana", "Вeto", "That player is already in a pair of this tournament."),  # Cyrillic В
        ("Ana", "ána", "A pair is two different players."),
    ],
)
def test_a_player_of_another_pair_is_refused(
    app: Flask, client: FlaskClient, first: str, second: str, message: str
):
    tournament_id, ids = second_round_started(app, client)
    before, stored = pair_state(app, tournament_id), snapshot(app)
    answer = rename(client, tournament_id, ids["Ana"], first, second)
    assert answer.status_code == 303
    said = client.get(answer.headers["Location"], headers=ENGLISH).get_data(as_text=True)
    assert message in said
    assert pair_state(app, tournament_id) == before
    assert snapshot(app) == stored


def test_registering_refuses_a_look_alike_of_a_seated_player(app: Flask, client: FlaskClient):
    tournament_id = create(client)
    add_pairs(client, tournament_id, {"A": PAIRS["A"]})
    before = pair_state(app, tournament_id)
    answer = client.post(
        f"/torneos/{tournament_id}/parejas", data={"first": "Аna", "second": "Zoe"}, headers=ENGLISH
    )
    said = client.get(answer.headers["Location"], headers=ENGLISH).get_data(as_text=True)
    assert "That player is already in a pair of this tournament." in said
    assert pair_state(app, tournament_id) == before


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("An\u200ba", "Alba", "invisible"),
        ("Ana", "", "Write the name."),
        ("Ana", "A" * 61, "60"),
        ("Ana\x00", "Alba", "control"),
        ("Ana", "Al\u202eba", "invisible"),
    ],
)
def test_a_name_registration_refuses_changes_nothing(
    app: Flask, client: FlaskClient, first: str, second: str, message: str
):
    tournament_id, ids = second_round_started(app, client)
    before, stored = pair_state(app, tournament_id), snapshot(app)
    answer = rename(client, tournament_id, ids["Ana"], first, second)
    assert answer.status_code == 422
    text = answer.get_data(as_text=True)
    assert message in text
    assert 'name="second"' in text  # the form again, with what was typed
    assert pair_state(app, tournament_id) == before
    assert snapshot(app) == stored


def test_only_the_director_sees_the_form(app: Flask, client: FlaskClient):
    tournament_id, ids = second_round_started(app, client)
    assert client.post(f"/torneos/{tournament_id}/enlace", data={"on": "1"}).status_code == 303
    with app.app_context():
        token = db.session.get(Tournament, tournament_id).spectator_token  # type: ignore[union-attr]
    shared = app.test_client().get(f"/torneos/ver/{token}/parejas/{ids['Ana']}")
    assert shared.status_code == 200
    assert "/nombres" not in shared.get_data(as_text=True)
    other_pair = rename(app.test_client(), tournament_id, ids["Ana"], "Ana", "Alma")
    assert other_pair.status_code in (302, 303)
    assert pair_state(app, tournament_id)[1][0] == ("Ana", "Alba")


def test_the_same_correction_from_four_tabs_at_once_is_one_change(hosts: list[Flask]):
    """Four tabs (over two hosts) send the same names at one moment, a new player among
    them: one change logged, one new player, the open round's match renamed once."""
    clients = tabs(hosts)
    app = hosts[0]
    tournament_id, ids = second_round_started(app, clients[0])
    match = table_match_of(app, tournament_id, 2, 1)
    before = pair_state(app, tournament_id)
    path = f"/torneos/{tournament_id}/parejas/{ids['Ana']}/nombres"
    answers = posted(clients, path, {"first": "Anita", "second": "Alba"})
    assert statuses(answers) == {303: TABS}
    assert changes(app, tournament_id, "pair_renamed") == 1
    version, pairs, _, players = pair_state(app, tournament_id)
    assert version == before[0] + 1
    assert pairs[0] == ("Anita", "Alba")
    assert players.count("Anita") == 1
    renamed = table_match_of(app, tournament_id, 2, 1)
    assert renamed["version"] == match["version"] + 1
    assert renamed["sides"][0] == ("1. Anita – Alba", ["Anita", "Alba"])
