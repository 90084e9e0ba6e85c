"""A Swiss tournament through the director's pages (TOURNAMENTS.md §4.6): offered by the
new-tournament form in every language, created, drawn and drawn again by the pure code."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import play_round
from test_tournament_web import seats

SIX = {**PAIRS, "F": ("Fabio", "Flor")}


def test_the_form_offers_the_swiss_system_in_every_language(client: FlaskClient):
    for language, label in (("en", "Swiss"), ("es", "Sistema suizo"), ("it", "Sistema svizzero")):
        page = client.get("/torneos", headers={"Accept-Language": language})
        assert f'<option value="swiss">{label}</option>' in page.get_data(as_text=True)


def test_a_swiss_tournament_is_created_and_drawn_through_the_pages(app: Flask, client: FlaskClient):
    tournament_id = create(client, system="swiss", rounds="3")
    add_pairs(client, tournament_id, SIX)
    page = client.get(f"/torneos/{tournament_id}", headers={"Accept-Language": "en"})
    assert "Swiss" in page.get_data(as_text=True)
    assert client.post(f"/torneos/{tournament_id}/rondas").status_code == 303
    # Round 1: the top half of the pairs against the bottom half.
    assert seats(app, tournament_id, 1) == [
        (1, "Ana", "Dario"),
        (2, "Beto", "Elsa"),
        (3, "Carla", "Fabio"),
    ]
    mp = {1: ("1650", "350"), 2: ("1200", "1000"), 3: ("900", "1180")}
    play_round(client, app, tournament_id, 1, mp)
    assert client.post(f"/torneos/{tournament_id}/rondas").status_code == 303
    # §4.6's example: no rematch, the smallest sum of squares (110), either of its two draws.
    assert seats(app, tournament_id, 2) in (
        [(1, "Ana", "Fabio"), (2, "Beto", "Carla"), (3, "Elsa", "Dario")],
        [(1, "Ana", "Beto"), (2, "Fabio", "Elsa"), (3, "Carla", "Dario")],
    )
