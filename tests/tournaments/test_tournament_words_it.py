"""The Italian words a club night tripped over (issue 38, item 9): one term for the setup code,
"Tavolo" for a table, seeding and a rating said as rating (not "punteggio", a score), the change
log naming pairs, and the tournament's date in one format (dd/mm/yyyy, as the history's)."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from test_tournament_pair_pages import worked_example
from test_tournament_web import create

from anotador.storage.database import db
from anotador.tournaments.store.models import Tournament

ITALIAN = {"Accept-Language": "it"}
CATALOG = Path(__file__).resolve().parents[2] / "anotador/words/translations/it/LC_MESSAGES"


def italian() -> dict[str, str]:
    with (CATALOG / "messages.po").open("rb") as po:
        return {str(m.id): str(m.string) for m in read_po(po) if m.id and m.string}


def test_the_italian_catalog_says_one_word_for_each_thing():
    words = italian()
    assert words["Setup code"] == "Codice di configurazione"
    assert not [s for s in words.values() if "installazione" in s.lower() and "codice" in s.lower()]
    assert not [s for s in words.values() if "Tavola" in s]
    assert words["Table"] == "Tavolo"
    assert words["Seed by rating"] == "Ordina per classifica (rating)"
    assert words["Rating"] == "Rating"
    rating = [
        (m, s) for m, s in words.items() if "rating" in m.lower() and "punteggio" in s.lower()
    ]
    assert rating == []


def test_a_tournament_in_italian_dates_names_and_seeding(app: Flask, client: FlaskClient):
    tournament_id = worked_example(client, app)
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        beto = tournament.pairs[1].id
    client.post(
        f"/torneos/{tournament_id}/parejas/{beto}/retiro",
        data={"withdrawn": "1", "confirmed": "1"},
    )
    page = client.get(f"/torneos/{tournament_id}", headers=ITALIAN).get_data(as_text=True)
    assert '<time datetime="2026-12-03">03/12/2026</time>' in page
    assert "2026-12-03 ·" not in page
    # The change log names the pair.
    assert "Coppia ritirata · 2. Beto – Bruno" in page
    assert "Coppia 2" not in page
    standings = client.get(f"/torneos/{tournament_id}/posiciones", headers=ITALIAN)
    assert "03/12/2026" in standings.get_data(as_text=True)
    printed = pdf_text(client.get(f"/torneos/{tournament_id}/posiciones.pdf", headers=ITALIAN).data)
    assert printed.startswith("Club night 03/12/2026 · Burraco")
    assert "Tavolo" in printed
    assert "Tavola" not in printed
    listed = client.get("/torneos", headers=ITALIAN).get_data(as_text=True)
    assert "03/12/2026" in listed


def test_seeding_by_rating_is_said_as_such(client: FlaskClient):
    page = client.get(f"/torneos/{create(client)}", headers=ITALIAN).get_data(as_text=True)
    assert "Ordina per classifica (rating)" in page
