"""The standings and their PDF show each pair's byes and mark a withdrawn pair (issue 38,
item 8); the exports carry the same (``byes``, ``withdrawn``), their other fields unchanged."""

from __future__ import annotations

import csv
import io
import json

from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from test_tournament_pair_pages import worked_example
from test_tournament_web import ENGLISH

from anotador.storage.database import db
from anotador.tournaments.store.models import Tournament

ITALIAN = {"Accept-Language": "it"}


def withdrawn_beto(client: FlaskClient, app: Flask) -> int:
    """The worked example (1 C, 2 A, 3 E, 4 D, 5 B; E and B had a bye), B withdrawn."""
    tournament_id = worked_example(client, app)
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        beto = tournament.pairs[1].id
    answer = client.post(
        f"/torneos/{tournament_id}/parejas/{beto}/retiro",
        data={"withdrawn": "1", "confirmed": "1"},
    )
    assert answer.status_code == 303
    return tournament_id


def test_the_standings_page_has_a_byes_column_and_marks_the_withdrawn_pair(
    app: Flask, client: FlaskClient
):
    tournament_id = withdrawn_beto(client, app)
    page = client.get(f"/torneos/{tournament_id}/posiciones", headers=ENGLISH)
    text = page.get_data(as_text=True)
    assert ">Byes</th>" in text
    rows = text.split("<tr>")[2:]
    beto = next(row for row in rows if "Beto" in row)
    assert "(withdrawn)" in beto
    assert '<td class="t-more">1</td><td class="t-more">1</td></tr>' in beto  # played, byes
    assert all("(withdrawn)" not in row for row in rows if "Beto" not in row)
    italian = client.get(f"/torneos/{tournament_id}/posiciones", headers=ITALIAN)
    assert ">Riposi</th>" in italian.get_data(as_text=True)
    assert "(ritirata)" in italian.get_data(as_text=True)


def test_the_standings_pdf_has_the_byes_and_the_withdrawn_mark(app: Flask, client: FlaskClient):
    tournament_id = withdrawn_beto(client, app)
    answer = client.get(f"/torneos/{tournament_id}/posiciones.pdf", headers=ENGLISH)
    assert answer.status_code == 200
    text = pdf_text(answer.data)
    assert "Played Byes" in text
    # B: 5th, withdrawn, 1 table played, 1 bye; C: 1st, 2 played, no bye.
    assert "5 2. Beto – Bruno (withdrawn) 13 −1,300 350 1,650 1 1 Results" in text
    assert "1 3. Carla – Cecilia 25 460 2,285 1,825 2 0 2" in text
    assert text.count("(withdrawn)") == 1
    italian = pdf_text(client.get(f"/torneos/{tournament_id}/posiciones.pdf", headers=ITALIAN).data)
    assert "Giocate Riposi" in italian
    assert "Beto – Bruno (ritirata)" in italian


def test_the_exports_carry_byes_and_withdrawn(app: Flask, client: FlaskClient):
    tournament_id = withdrawn_beto(client, app)
    computed = json.loads(client.get(f"/torneos/{tournament_id}/posiciones.json").data)
    rows = {row["pair"]: row for row in computed["standings"]}
    assert {pair: (row["byes"], row["withdrawn"]) for pair, row in rows.items()} == {
        "1": (0, False),
        "2": (1, True),
        "3": (0, False),
        "4": (0, False),
        "5": (1, False),
    }
    exported = client.get(f"/torneos/{tournament_id}/posiciones.csv").get_data(as_text=True)
    read = list(csv.DictReader(io.StringIO(exported, newline="")))
    assert list(read[0]) == [
        "rank", "pair", "name", "vp", "mp_for", "mp_against", "mp_diff", "played", "byes",
        "withdrawn", "name_1", "membership_1", "name_2", "membership_2",
    ]  # fmt: skip
    assert [(row["pair"], row["byes"], row["withdrawn"]) for row in read if row["pair"] == "2"] == [
        ("2", "1", "True")
    ]
