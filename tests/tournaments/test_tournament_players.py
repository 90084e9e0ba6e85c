"""Federation-ready records and each player's night (issue 38): a player's membership number
(its tessera) kept in the registry, typed at a pair's registration or on the player's page,
printed on the standings, the PDF and the exports, kept by backups; and each pair's night,
round by round, by the spectator link, with a text to share."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from stored import create_account
from stored import signed_in
from test_backup import upload
from test_tournament_web import ENGLISH
from test_tournament_web import create
from test_tournament_web import play_round

from anotador.backup import memberships
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.tournaments.store.models import Tournament

#: Six pairs, Mitchell: NS 1 2 3 stay, EW 4 5 6 move one table up each round.
SIX = [
    ("Ana", "Alba"),
    ("Beto", "Bruno"),
    ("Carla", "Cecilia"),
    ("Dario", "Diego"),
    ("Elsa", "Eva"),
    ("Fede", "Flor"),
]
#: Round → table → (NS MP, EW MP). Round 1: 1–4, 2–5, 3–6; 2: 1–6, 2–4, 3–5; 3: 1–5, 2–6, 3–4.
NIGHT = {
    1: {1: ("1650", "350"), 2: ("1000", "800"), 3: ("700", "1400")},
    2: {1: ("900", "1000"), 2: ("1500", "500"), 3: ("1100", "1000")},
    3: {1: ("1200", "1200"), 2: ("600", "1300"), 3: ("1000", "950")},
}


def register(client: FlaskClient, tournament_id: int, first: str, second: str, **more: str):
    data = {"first": first, "second": second, **more}
    return client.post(f"/torneos/{tournament_id}/parejas", data=data, headers=ENGLISH)


def flashed(client: FlaskClient, answer) -> str:
    return client.get(answer.headers["Location"], headers=ENGLISH).get_data(as_text=True)


def membership(app: Flask, name: str) -> str | None:
    with app.app_context():
        player = db.session.scalars(db.select(Player).where(Player.name == name)).one()
        return player.membership


def six_pair_night(client: FlaskClient, app: Flask, rounds: int = 3) -> int:
    tournament_id = create(client, system="mitchell", rounds="3", name="Noche de prueba")
    for first, second in SIX:
        assert register(client, tournament_id, first, second).status_code == 303
    for number in range(1, rounds + 1):
        client.post(f"/torneos/{tournament_id}/rondas")
        play_round(client, app, tournament_id, number, NIGHT[number])
    return tournament_id


def shared_token(client: FlaskClient, app: Flask, tournament_id: int) -> str:
    client.post(f"/torneos/{tournament_id}/enlace", data={"on": "1"})
    with app.app_context():
        token = db.session.get(Tournament, tournament_id).spectator_token
    assert token
    return token


def pair_id(app: Flask, tournament_id: int, first: str) -> int:
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        return next(p.id for p in tournament.pairs if p.first_player.name == first)


# --- The membership number ---------------------------------------------------------------


def test_a_pair_registered_with_membership_numbers_keeps_them_in_the_registry(
    app: Flask, client: FlaskClient
):
    tournament_id = create(client)
    answer = register(
        client, tournament_id, "Ana", "Alba", first_membership=" ab-123 ", second_membership=""
    )
    assert answer.status_code == 303
    assert membership(app, "Ana") == "AB-123"  # trimmed, upper case
    assert membership(app, "Alba") is None
    # A known player registered again without a number keeps hers: typed once.
    other = create(client, name="Second night")
    assert register(client, other, "ana", "Beto").status_code == 303
    assert membership(app, "Ana") == "AB-123"


@pytest.mark.parametrize(
    "typed",
    ["12 345", "AB_1", "１２３", "АВ-12", "-12", "12-", "A" * 21, "12\u200b3", "a/-b"],
)
def test_a_membership_number_out_of_the_rule_is_refused_and_nothing_changes(
    app: Flask, client: FlaskClient, typed: str
):
    tournament_id = create(client)
    answer = register(client, tournament_id, "Ana", "Alba", first_membership=typed)
    assert answer.status_code == 422
    text = answer.get_data(as_text=True)
    assert "letters, digits" in text or "at most 20 characters" in text or "control" in text
    with app.app_context():
        assert db.session.get(Tournament, tournament_id).pairs == []


def test_two_players_of_an_account_cannot_share_a_membership_number(
    app: Flask, client: FlaskClient
):
    tournament_id = create(client)
    register(client, tournament_id, "Ana", "Alba", first_membership="777")
    answer = register(client, tournament_id, "Beto", "Bruno", second_membership="777")
    assert answer.status_code == 303
    assert "another player&#39;s already" in flashed(client, answer)
    with app.app_context():  # nothing changed: not even the new players were added
        assert len(db.session.get(Tournament, tournament_id).pairs) == 1
        assert db.session.scalars(db.select(Player).where(Player.name == "Bruno")).all() == []
    same = register(
        client, tournament_id, "Carla", "Cecilia", first_membership="9", second_membership="9"
    )
    assert "another player&#39;s already" in flashed(client, same)


def test_the_players_page_sets_changes_and_clears_the_number(app: Flask, client: FlaskClient):
    tournament_id = create(client)
    register(client, tournament_id, "Ana", "Alba", first_membership="100")
    with app.app_context():
        ana = db.session.scalars(db.select(Player).where(Player.name == "Ana")).one().id
        alba = db.session.scalars(db.select(Player).where(Player.name == "Alba")).one().id
    page = client.get(f"/jugadores/{ana}/editar", headers=ENGLISH).get_data(as_text=True)
    assert 'value="100"' in page
    taken = client.post(f"/jugadores/{alba}/socio", data={"membership": "100"}, headers=ENGLISH)
    assert taken.status_code == 400
    assert "another player&#39;s already" in taken.get_data(as_text=True)
    bad = client.post(f"/jugadores/{alba}/socio", data={"membership": "1 00"}, headers=ENGLISH)
    assert bad.status_code == 400
    assert membership(app, "Alba") is None
    done = client.post(f"/jugadores/{alba}/socio", data={"membership": "fi-200"})
    assert done.status_code == 302
    assert membership(app, "Alba") == "FI-200"
    cleared = client.post(f"/jugadores/{ana}/socio", data={"membership": " "})
    assert cleared.status_code == 302
    assert membership(app, "Ana") is None


def test_the_standings_the_pdf_and_the_exports_carry_the_numbers(app: Flask, client: FlaskClient):
    tournament_id = create(client)
    register(client, tournament_id, "Ana", "Alba", first_membership="FI-1", second_membership="2")
    register(client, tournament_id, "Beto", "Bruno", second_membership="33/B")
    base = f"/torneos/{tournament_id}"
    page = client.get(f"{base}/posiciones", headers=ENGLISH).get_data(as_text=True)
    assert '<small class="t-membership">FI-1 · 2</small>' in page
    assert '<small class="t-membership">– · 33/B</small>' in page
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"{base}/posiciones.csv").get_data(as_text=True)))
    )
    assert [(r["name_1"], r["membership_1"], r["name_2"], r["membership_2"]) for r in rows] == [
        ("Ana", "FI-1", "Alba", "2"),
        ("Beto", "", "Bruno", "33/B"),
    ]
    # The standings JSON stays what ``anotador tournament standings`` prints for the file.
    standings = json.loads(client.get(f"{base}/posiciones.json").get_data(as_text=True))
    assert "players" not in standings["standings"][0]
    text = pdf_text(client.get(f"{base}/posiciones.pdf").data)
    assert "FI-1 · 2" in text
    assert "– · 33/B" in text
    # A number changed in the registry is on the next answer (the kept parts' key).
    with app.app_context():
        bruno = db.session.scalars(db.select(Player).where(Player.name == "Bruno")).one().id
    client.post(f"/jugadores/{bruno}/socio", data={"membership": "44"})
    page = client.get(f"{base}/posiciones", headers=ENGLISH).get_data(as_text=True)
    assert "– · 44</small>" in page
    assert "44" in client.get(f"{base}/posiciones.csv").get_data(as_text=True)


# --- A player's night --------------------------------------------------------------------


def night_cells(text: str) -> list[list[str]]:
    body = text.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        re.sub(r"<[^>]+>|\s+", " ", row).split() for row in re.findall(r"<tr>.*?</tr>", body, re.S)
    ]


def test_a_pairs_night_round_by_round_by_the_spectator_link(app: Flask, client: FlaskClient):
    tournament_id = six_pair_night(client, app)
    token = shared_token(client, app, tournament_id)
    anonymous = app.test_client()
    listing = anonymous.get(f"/torneos/ver/{token}/noche", headers=ENGLISH)
    assert listing.status_code == 200
    ana = pair_id(app, tournament_id, "Ana")
    url = f"/torneos/ver/{token}/noche/{ana}"
    assert f'href="{url}"' in listing.get_data(as_text=True)
    page = anonymous.get(url, headers=ENGLISH)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    # Ana–Alba: 19 (1650–350), 9 (900–1000), 10 (1200–1200); places 1, 2, 2 of 6.
    assert "Place 2 of 6" in text
    assert night_cells(text) == [
        ["1", "1", "(NS)", "Dario", "and", "Diego", "1,650", "–", "350", "19", "19", "1"],
        ["2", "1", "(NS)", "Fede", "and", "Flor", "900", "–", "1,000", "9", "28", "2"],
        ["3", "1", "(NS)", "Elsa", "and", "Eva", "1,200", "–", "1,200", "10", "38", "2"],
    ]
    # Dario–Diego, EW, moving up: 1, 3, 10; last after every round.
    dario = anonymous.get(
        f"/torneos/ver/{token}/noche/{pair_id(app, tournament_id, 'Dario')}", headers=ENGLISH
    )
    assert night_cells(dario.get_data(as_text=True)) == [
        ["1", "1", "(EW)", "Ana", "and", "Alba", "350", "–", "1,650", "1", "1", "6"],
        ["2", "2", "(EW)", "Beto", "and", "Bruno", "500", "–", "1,500", "3", "4", "6"],
        ["3", "3", "(EW)", "Carla", "and", "Cecilia", "950", "–", "1,000", "10", "14", "6"],
    ]


def test_the_share_text_says_the_night_in_one_line(app: Flask, client: FlaskClient):
    tournament_id = six_pair_night(client, app)
    token = shared_token(client, app, tournament_id)
    ana = pair_id(app, tournament_id, "Ana")
    english = app.test_client().get(f"/torneos/ver/{token}/noche/{ana}", headers=ENGLISH)
    box = re.search(
        r"<textarea[^>]*readonly[^>]*>(.*?)</textarea>", english.get_data(as_text=True), re.S
    )
    assert box is not None
    assert box[1] == (
        "Noche de prueba, 03/12/2026 — Ana and Alba: place 2 of 6, 38 VP (R1 table 1 vs Dario"
        " and Diego; R2 table 1 vs Fede and Flor; R3 table 1 vs Elsa and Eva)"
    )
    spanish = app.test_client().get(
        f"/torneos/ver/{token}/noche/{ana}", headers={"Accept-Language": "es"}
    )
    assert (
        "Noche de prueba, 03/12/2026 — Ana y Alba: 2.º de 6, 38 PV (R1 mesa 1 vs Dario y Diego;"
        in spanish.get_data(as_text=True)
    )
    italian = app.test_client().get(
        f"/torneos/ver/{token}/noche/{ana}", headers={"Accept-Language": "it"}
    )
    assert "Ana e Alba: 2º su 6, 38 PV (T1 tavolo 1 vs Dario e Diego;" in italian.get_data(
        as_text=True
    )


def test_a_night_while_a_round_is_played_and_a_bye(app: Flask, client: FlaskClient):
    tournament_id = create(client, system="mitchell", rounds="2")
    for first, second in SIX[:5]:
        register(client, tournament_id, first, second)
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 1, {1: ("1650", "350"), 2: ("1000", "800")})
    client.post(f"/torneos/{tournament_id}/rondas")
    carla = pair_id(app, tournament_id, "Carla")  # NS at table 3, which has no EW pair: a bye
    page = client.get(f"/torneos/{tournament_id}/noche/{carla}", headers=ENGLISH)
    cells = night_cells(page.get_data(as_text=True))
    # 12 for the bye, third: Beto–Bruno has 12 too, and a better MP difference.
    assert cells[0] == ["1", "Bye", "12", "12", "3"]
    assert cells[1][:2] == ["2", "3"]
    assert "not started" in page.get_data(as_text=True)


def test_an_unknown_pair_or_link_is_not_found(app: Flask, client: FlaskClient):
    tournament_id = six_pair_night(client, app, rounds=0)
    token = shared_token(client, app, tournament_id)
    other = create(client, name="Other")
    register(client, other, "Zoe", "Zulema")
    stranger = pair_id(app, other, "Zoe")
    anonymous = app.test_client()
    assert anonymous.get(f"/torneos/ver/{token}/noche/{stranger}").status_code == 404
    assert anonymous.get(f"/torneos/ver/{token}/noche/999999").status_code == 404
    assert anonymous.get(f"/torneos/ver/{'x' * 43}/noche").status_code == 404
    assert anonymous.get(f"/torneos/ver/{'x' * 43}/noche/1").status_code == 404
    assert anonymous.get(f"/torneos/{tournament_id}/noche").status_code in (302, 401)
    client.post(f"/torneos/{tournament_id}/enlace", data={"on": "0"})
    assert anonymous.get(f"/torneos/ver/{token}/noche").status_code == 404


def test_the_board_and_the_table_phone_lead_to_the_nights(app: Flask, client: FlaskClient):
    tournament_id = six_pair_night(client, app, rounds=0)
    client.post(f"/torneos/{tournament_id}/rondas")
    board = client.get(f"/torneos/{tournament_id}/tablero", headers=ENGLISH).get_data(as_text=True)
    assert "t-board-qr" not in board  # not shared: no link to give
    token = shared_token(client, app, tournament_id)
    board = (
        app.test_client()
        .get(f"/torneos/ver/{token}/tablero", headers=ENGLISH)
        .get_data(as_text=True)
    )
    assert re.search(
        rf'class="t-board-qr" href="http://[^"]+/torneos/ver/{token}/noche"><svg', board
    )
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        table = next(t for t in tournament.round_rows[0].tables if t.number == 1)
        link, ana, dario = table.match.table_token, table.ns_pair.id, table.ew_pair.id
    phone = app.test_client()
    page = phone.get(f"/enlace/{link}", headers=ENGLISH, follow_redirects=True).get_data(
        as_text=True
    )
    assert f"/torneos/ver/{token}/noche/{ana}" in page
    assert f"/torneos/ver/{token}/noche/{dario}" in page


# --- Backups -----------------------------------------------------------------------------


def numbered_backup(app: Flask, client: FlaskClient) -> list[str]:
    tournament_id = create(client)
    register(client, tournament_id, "Ana", "Alba", first_membership="FI-1")
    register(client, tournament_id, "Beto", "Bruno", second_membership="33/B")
    client.post(f"/torneos/{tournament_id}/rondas")
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")  # its table's match is made
    return client.get("/historial/copia.jsonl").data.decode().splitlines(keepends=True)


def test_a_backup_carries_the_numbers_and_restores_them(app: Flask, client: FlaskClient):
    lines = numbered_backup(app, client)
    line = json.loads(lines[1])
    assert line == {
        "format": memberships.SECTION_FORMAT,
        "players": [{"name": "Ana", "membership": "FI-1"}, {"name": "Bruno", "membership": "33/B"}],
    }
    owner = create_account(app, "Otra")
    other = signed_in(app, "Otra")
    assert upload(other, "".join(lines).encode()).status_code == 200
    with app.app_context():
        restored = db.session.execute(
            sa.select(Player.name, Player.membership).where(Player.owner_id == owner)
        )
        assert dict(restored.all()) == {"Ana": "FI-1", "Alba": None, "Beto": None, "Bruno": "33/B"}
    # Its standings print them again.
    page = other.get("/torneos", headers=ENGLISH).get_data(as_text=True)
    restored_id = re.findall(r'href="/torneos/(\d+)"', page)[0]
    standings = other.get(f"/torneos/{restored_id}/posiciones").get_data(as_text=True)
    assert '<small class="t-membership">FI-1 · –</small>' in standings
    # Restored again, nothing changes; a player with a number keeps it, a number another
    # player holds is not given twice.
    with app.app_context():
        owned = sa.select(Player).where(Player.owner_id == owner)
        by_name = {p.name: p for p in db.session.scalars(owned)}
        by_name["Ana"].membership = "KEPT"
        by_name["Bruno"].membership = None
        db.session.flush()
        by_name["Alba"].membership = "33/B"
        db.session.commit()
    assert upload(other, "".join(lines).encode()).status_code == 200
    with app.app_context():
        again = dict(
            db.session.execute(
                sa.select(Player.name, Player.membership).where(Player.owner_id == owner)
            ).all()
        )
        assert again == {"Ana": "KEPT", "Alba": "33/B", "Beto": None, "Bruno": None}


@pytest.mark.parametrize(
    ("entry", "where"),
    [
        ({"name": "Ana", "membership": "FI 1"}, "Jugador 1 › Número de socio"),
        ({"name": "Ana", "membership": "Ф-1"}, "Jugador 1 › Número de socio"),
        ({"name": "Ana", "membership": "1" * 21}, "Jugador 1 › Número de socio"),
        ({"name": "Ana", "membership": ""}, "Jugador 1 › Número de socio"),
        ({"name": "Ana", "membership": 12}, "Jugador 1 › Número de socio"),
        ({"name": "", "membership": "12"}, "Jugador 1 › Nombre"),
        ({"name": "Ana", "membership": "12", "club": "x"}, "Jugador 1 › club"),
    ],
)
def test_a_restore_refuses_a_bad_players_line_and_stores_nothing(
    app: Flask, client: FlaskClient, entry: dict, where: str
):
    lines = numbered_backup(app, client)
    lines[1] = json.dumps({"format": memberships.SECTION_FORMAT, "players": [entry]}) + "\n"
    owner = create_account(app, "Otra")
    answer = upload(signed_in(app, "Otra"), "".join(lines).encode())
    assert answer.status_code == 422
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", answer.get_data(as_text=True)))
    assert f"Línea 2 El archivo › {where}:" in said
    with app.app_context():
        assert db.session.scalars(sa.select(Player).where(Player.owner_id == owner)).all() == []
        assert (
            db.session.scalars(sa.select(Tournament).where(Tournament.owner_id == owner)).all()
            == []
        )
