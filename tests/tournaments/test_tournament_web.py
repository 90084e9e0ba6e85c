"""Tournaments through the pages: the director sets one up, registers pairs, draws, starts
and closes rounds, writes results by hand; tables score themselves as ordinary matches that
end after the round's hands; the standings and exports are the pure code's (the worked
example of TOURNAMENTS.md §6)."""

from __future__ import annotations

import json
import re
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from sql_counting import count_statements
from stored import snapshot
from test_hands import record

from anotador import tournaments
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentChange

ENGLISH = {"Accept-Language": "en"}
#: The worked example's set-up (§6): five pairs A to E.
WORKED = {
    "name": "Club night",
    "played_on": "2026-12-03",
    "variant": "burraco",
    "hands_per_round": "3",
    "scale": "fibur-3",
    "system": "danese-modificato",
    "rounds": "4",
}
PAIRS = {
    "A": ("Ana", "Alba"),
    "B": ("Beto", "Bruno"),
    "C": ("Carla", "Cecilia"),
    "D": ("Dario", "Diego"),
    "E": ("Elsa", "Eva"),
}
#: A hand of uruguaya as the hand form sends it (the NS pair scores).
FORM_HAND = {"closer": "0", "s0_clean": "1", "s0_table_points": "200", "s1_table_points": "100"}


def create(client: FlaskClient, **fields: str) -> int:
    answer = client.post("/torneos", data={**WORKED, **fields})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return int(answer.headers["Location"].rsplit("/", 1)[1])


def add_pairs(client: FlaskClient, tournament_id: int, names: dict[str, tuple[str, str]]) -> None:
    for first, second in names.values():
        answer = client.post(
            f"/torneos/{tournament_id}/parejas", data={"first": first, "second": second}
        )
        assert answer.status_code == 303, answer.get_data(as_text=True)


def seats(app: Flask, tournament_id: int, number: int) -> list[tuple[Any, ...]]:
    """A round's tables as (table, NS players' first, EW players' first), byes as (None, pair)."""
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        round_row = tournament.round_rows[number - 1]
        found = []
        for table in round_row.tables:
            ew = table.ew_pair.first_player.name if table.ew_pair else None
            found.append((table.number, table.ns_pair.first_player.name, ew))
        return sorted(found, key=lambda seat: (seat[0] is None, seat[0] or 0))


def table_ids(app: Flask, tournament_id: int, number: int) -> dict[int | None, int]:
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        return {t.number: t.id for t in tournament.round_rows[number - 1].tables}


def play_round(
    client: FlaskClient, app: Flask, tournament_id: int, number: int, mp: dict[int, tuple]
) -> None:
    """Start round ``number``, write each table's MP by hand, close it."""
    base = f"/torneos/{tournament_id}/rondas/{number}"
    assert client.post(f"{base}/empezar").status_code == 303
    for table, (ns, ew) in mp.items():
        table_id = table_ids(app, tournament_id, number)[table]
        answer = client.post(
            f"/torneos/{tournament_id}/mesas/{table_id}", data={"mp_ns": ns, "mp_ew": ew}
        )
        assert answer.status_code == 303, answer.get_data(as_text=True)
    closed = client.post(f"{base}/cerrar", data={"confirmed": "1"})
    assert closed.status_code == 303
    assert "flash-error" not in client.get(closed.headers["Location"]).get_data(as_text=True)


def test_the_worked_example_through_the_director_screens(app: Flask, client: FlaskClient):
    tournament_id = create(client)
    add_pairs(client, tournament_id, PAIRS)
    drawn = client.post(f"/torneos/{tournament_id}/rondas")
    assert drawn.headers["Location"].endswith(f"/torneos/{tournament_id}/rondas/1")
    # Round 1 in the pairs' order, the bye to the last (§6).
    assert seats(app, tournament_id, 1) == [
        (1, "Ana", "Beto"),
        (2, "Carla", "Dario"),
        (None, "Elsa", None),
    ]
    play_round(client, app, tournament_id, 1, {1: ("1650", "350"), 2: ("1.105", "1045")})
    client.post(f"/torneos/{tournament_id}/rondas")
    # The Danish draw avoids round 1's meetings (§6: A–C, E–D, bye B).
    assert seats(app, tournament_id, 2) == [
        (1, "Ana", "Carla"),
        (2, "Elsa", "Dario"),
        (None, "Beto", None),
    ]
    play_round(client, app, tournament_id, 2, {1: ("780", "1180"), 2: ("1330", "1080")})

    page = client.get(f"/torneos/{tournament_id}/posiciones", headers=ENGLISH)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    order = [text.index(f"{first} – {second}") for first, second in PAIRS.values()]
    # 1 C, 2 A, 3 E, 4 D, 5 B.
    assert sorted(range(5), key=lambda i: order[i]) == [2, 0, 4, 3, 1]

    exported = client.get(f"/torneos/{tournament_id}/posiciones.json")
    computed = json.loads(exported.data)
    assert [row["pair"] for row in computed["standings"]] == ["3", "1", "5", "4", "2"]
    assert computed["standings"][0] == {
        "pair": "3", "rank": 1, "vp": 25, "mp_for": 2285, "mp_against": 1825,
        "mp_diff": 460, "played": 2, "byes": 0, "withdrawn": False,
    }  # fmt: skip
    # The tournament file reads back in the pure code, with the same standings.
    document = json.loads(client.get(f"/torneos/{tournament_id}/archivo.json").data)
    assert tournaments.standings_document(tournaments.read_tournament(document)) == computed
    assert tournaments.draw_document(
        tournaments.next_round(tournaments.read_tournament(document))
    ) == {
        "round": 3,
        "tables": [
            {"table": 1, "ns": "3", "ew": "5"},
            {"table": 2, "ns": "1", "ew": "2"},
            {"bye": "4"},
        ],
    }
    csv_rows = client.get(f"/torneos/{tournament_id}/posiciones.csv").get_data(as_text=True)
    assert csv_rows.splitlines()[1].startswith("1,3,3. Carla – Cecilia,25,2285,1825,460,2,0")
    results = client.get(f"/torneos/{tournament_id}/resultados.csv").get_data(as_text=True)
    assert "1,1,1,1. Ana – Alba,2,2. Beto – Bruno,1650,350,19,1" in results
    with app.app_context():
        kept = db.session.scalars(sa.select(TournamentChange.change)).all()
    assert kept.count("result_entered") == 4
    assert kept.count("round_closed") == 2


def started_table(app: Flask, client: FlaskClient, hands: str, **fields: str) -> tuple[int, int]:
    """A uruguaya tournament of pairs A and B with ``hands`` a round, won, drawn or lost (and
    the set-up's other ``fields``), its round 1 started: (the tournament, its table's match)."""
    tournament_id = create(client, variant="uruguaya", hands_per_round=hands, scale="wdl", **fields)
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "AB"})
    client.post(f"/torneos/{tournament_id}/rondas")
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")
    with app.app_context():
        table = db.session.get(RoundTable, table_ids(app, tournament_id, 1)[1])
        assert table is not None
        assert table.match_id is not None
        return tournament_id, table.match_id


def test_a_table_is_a_match_that_ends_after_the_rounds_hands(app: Flask, client: FlaskClient):
    tournament_id, match_id = started_table(app, client, "2")
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        token = match.table_token
        assert match.hand_limit == 2
    # A phone at the table scores through the table link, without an account.
    phone = app.test_client()
    assert phone.get(f"/enlace/{token}").status_code == 303
    round_page = client.get(f"/torneos/{tournament_id}/rondas/1", headers=ENGLISH)
    assert "not started" in round_page.get_data(as_text=True)
    assert record(phone, match_id, FORM_HAND).status_code == 302
    assert "playing" in client.get(f"/torneos/{tournament_id}/rondas/1", headers=ENGLISH).get_data(
        as_text=True
    )
    standings = json.loads(client.get(f"/torneos/{tournament_id}/posiciones.json").data)
    assert standings["rounds"] == [{"round": 1, "tables": []}]  # not finished: not counted
    assert record(phone, match_id, FORM_HAND).status_code == 302
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        assert (match.status, match.hand_count) == ("finished", 2)
    # The game is over after the round's hands: a third is refused, nothing stored.
    assert phone.get(f"/partidas/{match_id}/manos/nueva").status_code in (302, 303)
    with app.app_context():
        from anotador import services

        match = db.session.get(Match, match_id)
        assert match is not None
        hand = {"end": "closed", "closer": 0, "sides": [{"clean": 1, "table_points": 200}, {}]}
        outcome = services.hands.record_hand(match, hand, match.version, None)
        assert not outcome.ok
        assert [p.code for p in outcome.problems] == ["after_game_end"]
    standings = json.loads(client.get(f"/torneos/{tournament_id}/posiciones.json").data)
    table_result = standings["rounds"][0]["tables"][0]
    assert table_result["vp"] == [2, 0]
    assert table_result["mp"][0] > table_result["mp"][1]
    # The downloadable file gives the table as its whole match document.
    document = json.loads(client.get(f"/torneos/{tournament_id}/archivo.json").data)
    assert len(document["results"][0]["tables"][0]["match"]["hands"]) == 2
    assert tournaments.standings_document(tournaments.read_tournament(document)) == standings
    assert (
        client.post(
            f"/torneos/{tournament_id}/rondas/1/cerrar", data={"confirmed": "1"}
        ).status_code
        == 303
    )


def token_in(page: str) -> str:
    found = re.search(r"/torneos/ver/([A-Za-z0-9_-]{43})/posiciones", page)
    assert found, page
    return found.group(1)


def test_anotador_check_leaves_a_table_that_ended_after_its_hands_finished(
    app: Flask, client: FlaskClient
):
    tournament_id = create(client, variant="uruguaya", hands_per_round="1", scale="wdl")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "AB"})
    client.post(f"/torneos/{tournament_id}/rondas")
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")
    with app.app_context():
        match_id = db.session.scalars(sa.select(Match.id)).one()
    assert record(client, match_id, FORM_HAND).status_code == 302
    result = app.test_cli_runner().invoke(args=["check", "--fix"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        assert (match.status, match.version) == ("finished", 1)


def test_table_cards_print_each_tables_pairs_and_link(app: Flask, client: FlaskClient):
    tournament_id = create(client)
    add_pairs(client, tournament_id, PAIRS)
    client.post(f"/torneos/{tournament_id}/rondas")
    url = f"/torneos/{tournament_id}/rondas/1/mesas.pdf"
    # Before the round starts its tables have no links yet.
    assert client.get(url).status_code == 303
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")
    answer = client.get(url, headers=ENGLISH)
    assert answer.status_code == 200
    assert answer.mimetype == "application/pdf"
    text = pdf_text(answer.data)
    with app.app_context():
        tokens = db.session.scalars(sa.select(Match.table_token).order_by(Match.id)).all()
    for number, token in enumerate(tokens, start=1):
        assert f"Table {number}" in text
        assert token in text.replace(" ", "")
    assert "1. Ana – Alba" in text
    assert "3 hands per round" in text
    assert "Elsa" not in text  # the bye has no card


def test_the_standings_read_a_fixed_number_of_statements(app: Flask, client: FlaskClient):
    """However many rounds and tables: every page reads the tournament a table at a time."""
    tournament_id = create(client, system="round-robin", rounds="5")
    six = {**PAIRS, "F": ("Fabio", "Flor")}
    add_pairs(client, tournament_id, six)
    counts = []
    for number in (1, 2, 3):
        client.post(f"/torneos/{tournament_id}/rondas")
        results = {1: ("700", "300"), 2: ("5", "5"), 3: ("0", "-50")}
        play_round(client, app, tournament_id, number, results)
        with count_statements(app) as statements:
            assert client.get(f"/torneos/{tournament_id}/posiciones").status_code == 200
            assert client.get(f"/torneos/{tournament_id}/rondas/{number}").status_code == 200
        counts.append(len(statements))
    assert counts[0] == counts[1] == counts[2], counts


def test_a_late_pair_is_drawn_next_round_and_a_withdrawn_one_no_more(
    app: Flask, client: FlaskClient
):
    tournament_id = create(client, system="danese", scale="wdl")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 1, {1: ("700", "300"), 2: ("200", "500")})
    # E joins late, B leaves: round 2 seats A, C, D, E.
    add_pairs(client, tournament_id, {"E": PAIRS["E"]})
    page = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "from round 2" in page
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        beto = tournament.pairs[1].id
    withdrawn = client.post(
        f"/torneos/{tournament_id}/parejas/{beto}/retiro", data={"withdrawn": "1", "confirmed": "1"}
    )
    assert withdrawn.status_code == 303
    client.post(f"/torneos/{tournament_id}/rondas")
    seated = {name for seat in seats(app, tournament_id, 2) for name in seat[1:] if name}
    assert seated == {"Ana", "Carla", "Dario", "Elsa"}
    standings = json.loads(client.get(f"/torneos/{tournament_id}/posiciones.json").data)
    # The withdrawn pair keeps its result and its place.
    assert {row["pair"] for row in standings["standings"]} == {"1", "2", "3", "4", "5"}


def test_a_manual_tournament_is_seated_by_the_director_then_finished(
    app: Flask, client: FlaskClient
):
    tournament_id = create(client, system="manual", rounds="1")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    client.post(f"/torneos/{tournament_id}/rondas")
    # No proposal: every pair waits for a table, and the round does not start without one.
    assert seats(app, tournament_id, 1) == [
        (None, name, None) for name in ("Ana", "Beto", "Carla", "Dario")
    ]
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        ana, beto, carla, dario = (pair.id for pair in tournament.pairs)
    base = f"/torneos/{tournament_id}/rondas/1"
    started = client.post(f"{base}/empezar", headers=ENGLISH, follow_redirects=True)
    assert "A round needs at least two pairs to play." in started.get_data(as_text=True)
    # Two waiting pairs sit at the next table, the first NS.
    for first, second in ((ana, beto), (carla, dario)):
        seated = client.post(f"{base}/cambio", data={"first": first, "second": second})
        assert seated.status_code == 303
    assert seats(app, tournament_id, 1) == [(1, "Ana", "Beto"), (2, "Carla", "Dario")]
    swap = client.post(
        f"/torneos/{tournament_id}/rondas/1/cambio", data={"first": beto, "second": carla}
    )
    assert swap.status_code == 303
    assert seats(app, tournament_id, 1) == [(1, "Ana", "Carla"), (2, "Beto", "Dario")]
    # Not finished while a round is open.
    open_round = client.post(
        f"/torneos/{tournament_id}/terminar", data={"confirmed": "1"}, headers=ENGLISH
    )
    assert open_round.headers["Location"].endswith(f"/torneos/{tournament_id}")
    said = client.get(open_round.headers["Location"], headers=ENGLISH).get_data(as_text=True)
    assert "Close the round being played first." in said
    play_round(client, app, tournament_id, 1, {1: ("900", "100"), 2: ("100", "900")})
    # Every round played: no more draws.
    drawn = client.post(f"/torneos/{tournament_id}/rondas", headers=ENGLISH, follow_redirects=True)
    assert "Every round of the tournament has been played." in drawn.get_data(as_text=True)
    finished = client.post(f"/torneos/{tournament_id}/terminar", data={"confirmed": "1"})
    assert finished.headers["Location"].endswith(f"/torneos/{tournament_id}/posiciones")
    before = snapshot(app)
    table = table_ids(app, tournament_id, 1)[1]
    late = client.post(f"/torneos/{tournament_id}/mesas/{table}", data={"mp_ns": "1", "mp_ew": "2"})
    assert late.status_code == 303
    assert snapshot(app)["counts"] == before["counts"]
    with app.app_context():
        row = db.session.get(RoundTable, table)
        assert row is not None
        assert (row.mp_ns, row.mp_ew) == (900, 100)
