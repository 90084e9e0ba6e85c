"""A tournament's exports are safe in a spreadsheet, each pair has its own page, the standings
and a round's results print as PDF, and the set-up takes a club's own scale (issue 28)."""

from __future__ import annotations

import csv
import html
import io
import re

from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from stored import snapshot
from test_tournament_web import ENGLISH
from test_tournament_web import PAIRS
from test_tournament_web import WORKED
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import play_round

from anotador import services
from anotador import tournaments
from anotador.storage.database import db
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.web.pages import as_csv


def worked_example(client: FlaskClient, app: Flask) -> int:
    """Two rounds of TOURNAMENTS.md §6 played through the screens (1 C, 2 A, 3 E, 4 D, 5 B)."""
    tournament_id = create(client)
    add_pairs(client, tournament_id, PAIRS)
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 1, {1: ("1650", "350"), 2: ("1105", "1045")})
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 2, {1: ("780", "1180"), 2: ("1330", "1080")})
    return tournament_id


def test_a_csv_cell_a_spreadsheet_would_run_is_written_as_text():
    rows = [
        {"name": '=HYPERLINK("http://x")', "club": "+1", "mp": -460},
        {"name": "@SUM(A1)", "club": "-2", "mp": 0},
        {"name": "\tTab", "club": "\rReturn", "mp": 5},
        {"name": "Ana – Alba", "club": "", "mp": 1},
    ]
    written = as_csv(("name", "club", "mp"), rows)
    read = list(csv.reader(io.StringIO(written, newline="")))
    assert read[1:] == [
        ['\'=HYPERLINK("http://x")', "'+1", "-460"],
        ["'@SUM(A1)", "'-2", "0"],
        ["'\tTab", "'\rReturn", "5"],
        ["Ana – Alba", "", "1"],
    ]


def test_the_tournament_csvs_keep_numbers_as_numbers(app: Flask, client: FlaskClient):
    tournament_id = worked_example(client, app)
    standings = client.get(f"/torneos/{tournament_id}/posiciones.csv").get_data(as_text=True)
    # The last pair's MP difference is negative: a number, not a quoted text.
    last = list(csv.reader(io.StringIO(standings, newline="")))[-1]
    assert last[:2] == ["5", "2"]
    assert int(last[6]) == -1300


def pair_ids(app: Flask, tournament_id: int) -> dict[str, int]:
    """Each pair's first player → its row's id."""
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        return {pair.first_player.name: pair.id for pair in tournament.pairs}


def test_a_pairs_page_shows_its_tables_and_place_from_the_standings(
    app: Flask, client: FlaskClient
):
    tournament_id = worked_example(client, app)
    ids = pair_ids(app, tournament_id)
    standings = client.get(f"/torneos/{tournament_id}/posiciones", headers=ENGLISH)
    carla_url = f"/torneos/{tournament_id}/parejas/{ids['Carla']}"
    assert f'href="{carla_url}"' in standings.get_data(as_text=True)
    page = client.get(carla_url, headers=ENGLISH)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    # C: 1st; round 1 NS at table 2 v D (1105–1045), round 2 EW at table 1 v A (1180–780).
    assert "Place 1 of 5" in text
    cells = [
        re.sub(r"<[^>]+>|\s+", " ", row).split()
        for row in re.findall(r"<tr><td>.*?</tr>", text, re.S)
    ]
    assert cells == [
        ["1", "2", "(NS)", "4.", "Dario", "–", "Diego", "1,105", "1,045", "11"],
        ["2", "1", "(EW)", "1.", "Ana", "–", "Alba", "1,180", "780", "14"],
    ]
    # A bye: its VP only.
    elsa = client.get(f"/torneos/{tournament_id}/parejas/{ids['Elsa']}", headers=ENGLISH)
    assert re.search(r"<td>1</td><td>Bye</td>.*?<td>12</td>", elsa.get_data(as_text=True))


def test_a_pairs_page_by_the_spectator_link_and_not_of_another_tournament(
    app: Flask, client: FlaskClient
):
    tournament_id = worked_example(client, app)
    other = create(client, name="Other night")
    add_pairs(client, other, {"A": ("Zoe", "Zulema")})
    ids = pair_ids(app, tournament_id)
    stranger = pair_ids(app, other)["Zoe"]
    assert client.get(f"/torneos/{tournament_id}/parejas/{stranger}").status_code == 404
    client.post(f"/torneos/{tournament_id}/enlace", data={"on": "1"})
    with app.app_context():
        token = db.session.get(Tournament, tournament_id).spectator_token
    assert token
    anonymous = app.test_client()
    standings = anonymous.get(f"/torneos/ver/{token}/posiciones").get_data(as_text=True)
    shared = f"/torneos/ver/{token}/parejas/{ids['Beto']}"
    assert f'href="{shared}"' in standings
    page = anonymous.get(shared, headers=ENGLISH)
    assert page.status_code == 200
    assert "Place 5 of 5" in page.get_data(as_text=True)
    assert anonymous.get(f"/torneos/{tournament_id}/parejas/{ids['Beto']}").status_code != 200


def test_the_standings_and_a_rounds_results_print_as_pdf(app: Flask, client: FlaskClient):
    tournament_id = worked_example(client, app)
    standings = client.get(f"/torneos/{tournament_id}/posiciones.pdf", headers=ENGLISH)
    assert standings.mimetype == "application/pdf"
    text = pdf_text(standings.data)
    assert text.startswith("Club night")
    assert "Standings" in text
    # 1 C, 2 A, 3 E, 4 D, 5 B, each with its VP (TOURNAMENTS.md §6).
    places = [text.index(name) for name in ("3. Carla", "1. Ana", "5. Elsa", "4. Dario", "2. Beto")]
    assert places == sorted(places)
    assert re.search(r"1 3\. Carla – Cecilia 25 460", text)
    round_two = client.get(f"/torneos/{tournament_id}/rondas/2/resultados.pdf", headers=ENGLISH)
    text = pdf_text(round_two.data)
    assert "Round 2" in text
    assert "1,330 – 1,080" in text
    assert "780 – 1,180" in text
    assert "1,650" not in text  # round 1's table
    assert client.get(f"/torneos/{tournament_id}/rondas/3/resultados.pdf").status_code == 404
    page = client.get(f"/torneos/{tournament_id}/posiciones").get_data(as_text=True)
    assert f"/torneos/{tournament_id}/posiciones.pdf" in page
    round_page = client.get(f"/torneos/{tournament_id}/rondas/2").get_data(as_text=True)
    assert f"/torneos/{tournament_id}/rondas/2/resultados.pdf" in round_page


#: A club's scale for two-hand rounds (TOURNAMENTS.md §2.2): a 20-point scale.
CLUB = {"scale": "club", "bands": "0 10 10\n100 12 8\n300 15 5", "above": "20 0"}


def stored_setup(app: Flask, tournament_id: int) -> tuple[object, int | None]:
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        return tournament.scale, tournament.bye_vp


def test_a_club_scale_and_its_bye_vp_count_in_the_standings(app: Flask, client: FlaskClient):
    tournament_id = create(client, **CLUB, bye_vp="7")
    assert stored_setup(app, tournament_id) == (
        {"bands": [[0, 10, 10], [100, 12, 8], [300, 15, 5]], "above": [20, 0]},
        7,
    )
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABC"})
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 1, {1: ("900", "700")})
    standings = client.get(f"/torneos/{tournament_id}/posiciones.json").get_json()
    # A difference of 200 is in the band up to 300 (15–5); the bye is worth 7.
    assert {row["pair"]: row["vp"] for row in standings["standings"]} == {
        "1": 15,
        "2": 5,
        "3": 7,
    }
    show = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "Club scale" in show


def test_a_club_scale_without_a_bye_vp_takes_the_rules_default(app: Flask, client: FlaskClient):
    tournament_id = create(client, **CLUB)
    assert stored_setup(app, tournament_id)[1] is None
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "AB"})
    with app.app_context():
        document = service.tournament_document(db.session.get(Tournament, tournament_id))
    assert tournaments.read_tournament(document).bye_vp == 12  # every band adds up to 20


def test_a_club_scale_is_refused_with_the_tournament_readers_words(app: Flask, client: FlaskClient):
    cases = [
        ({**CLUB, "bands": "0 12 8"}, "the first band is a draw (equal VP)"),
        ({**CLUB, "bands": "0 10 10\n100 twelve 8"}, "expected 3 whole numbers up to"),
        ({**CLUB, "bands": "0 10 10\n300 15 5\n100 12 8"}, "The bands of the scale must"),
        ({**CLUB, "above": "20"}, "expected 2 whole numbers"),
        ({"bye_vp": "lots"}, None),
    ]
    before = snapshot(app)
    for fields, said in cases:
        answer = client.post("/torneos", data={**WORKED, **fields}, headers=ENGLISH)
        assert answer.status_code == 422, fields
        text = answer.get_data(as_text=True)
        if said is not None:
            assert said in html.unescape(text), (fields, text)
    assert snapshot(app)["counts"] == before["counts"]


def test_a_manual_round_seats_only_the_directors_tables_the_rest_have_a_bye(
    app: Flask, client: FlaskClient
):
    tournament_id = create(client, system="manual", rounds="2")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABC"})
    client.post(f"/torneos/{tournament_id}/rondas")
    ids = pair_ids(app, tournament_id)
    base = f"/torneos/{tournament_id}/rondas/1"
    page = client.get(base, headers=ENGLISH).get_data(as_text=True)
    assert page.count("Not seated yet") == 3
    assert '<span class="t-state">bye</span>' not in page
    client.post(f"{base}/cambio", data={"first": ids["Carla"], "second": ids["Ana"]})
    # A seated pair and a waiting one swap as before.
    client.post(f"{base}/cambio", data={"first": ids["Ana"], "second": ids["Beto"]})
    play_round(client, app, tournament_id, 1, {1: ("900", "100")})
    standings = client.get(f"/torneos/{tournament_id}/posiciones.json").get_json()
    assert standings["rounds"][0]["tables"] == [
        {"table": 1, "ns": "3", "ew": "2", "mp": [900, 100], "vp": [16, 4]},
        {"bye": "1", "vp": 12},
    ]


def rounds_of(client: FlaskClient, tournament_id: int, pair_id: int) -> list[list[str]]:
    """The rows of a pair's page, each as its cells' words."""
    page = client.get(f"/torneos/{tournament_id}/parejas/{pair_id}", headers=ENGLISH)
    assert page.status_code == 200
    rows = re.findall(r"<tr><td>.*?</tr>", page.get_data(as_text=True), re.S)
    return [re.sub(r"<[^>]+>|\s+", " ", row).split() for row in rows]


def test_a_pairs_page_lists_every_round_it_is_in_the_one_being_played_too(
    app: Flask, client: FlaskClient
):
    tournament_id = worked_example(client, app)
    ids = pair_ids(app, tournament_id)
    # Round 3 drawn (§6: C–E at table 1, A–B at table 2, the bye to D), not started yet.
    client.post(f"/torneos/{tournament_id}/rondas")
    carla = rounds_of(client, tournament_id, ids["Carla"])
    assert carla[:2] == [
        ["1", "2", "(NS)", "4.", "Dario", "–", "Diego", "1,105", "1,045", "11"],
        ["2", "1", "(EW)", "1.", "Ana", "–", "Alba", "1,180", "780", "14"],
    ]
    assert carla[2] == ["3", "1", "(NS)", "5.", "Elsa", "–", "Eva", "not", "started"]
    assert rounds_of(client, tournament_id, ids["Dario"])[2] == ["3", "Bye"]
    # Started: a table whose phones saved a hand is being played; the bye has its VP.
    assert client.post(f"/torneos/{tournament_id}/rondas/3/empezar").status_code == 303
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        match = tournament.round_rows[2].tables[0].match
        assert match is not None
        played = {"end": "stock_out", "sides": [{"table_points": 300}, {"table_points": 150}]}
        assert services.hands.record_hand(match, played, match.version, None).ok
    assert rounds_of(client, tournament_id, ids["Carla"])[2][-1] == "playing"
    assert rounds_of(client, tournament_id, ids["Elsa"])[2] == [
        "3", "1", "(EW)", "3.", "Carla", "–", "Cecilia", "playing",
    ]  # fmt: skip
    assert rounds_of(client, tournament_id, ids["Ana"])[2][-2:] == ["not", "started"]
    assert rounds_of(client, tournament_id, ids["Dario"])[2] == ["3", "Bye", "12"]
