"""Where people look at the ratings: the leaderboard, a player's page, the match page before
its first hand and the new-match form (RATINGS.md §6)."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient
from openskill.models import PlackettLuce
from stored import create_account
from stored import create_stored_match
from stored import match_document
from stored import signed_in
from test_ratings_store import finished

from anotador import services


def rows_of(page: str) -> list[list[str]]:
    """The leaderboard's rows as their cells' text."""
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_the_leaderboard_orders_marks_and_filters(app: Flask, client: FlaskClient) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    create_stored_match(app, finished("2p", [["Ana"], ["Caro"]], "2026-05-02", 1))
    classic = finished("2p", [["Dani"], ["Eli"]], "2026-05-03")
    create_stored_match(app, {**classic, "variant": "classic"})
    page = client.get("/ranking/")
    assert page.status_code == 200
    rows = rows_of(page.get_data(as_text=True))
    assert [row[1].split(" (")[0] for row in rows] == ["Caro", "Dani", "Ana", "Beto", "Eli"]
    assert all("(provisorio)" in row[1] for row in rows)  # nobody has 5 matches
    ana = next(row for row in rows if row[1].startswith("Ana"))
    assert ana[3] == "2"
    assert ana[4].startswith("\u2212")  # lost her last match
    assert "Solo partidas terminadas, por fecha" in page.get_data(as_text=True)

    only_classic = rows_of(client.get("/ranking/?variante=classic").get_data(as_text=True))
    assert [row[1].split(" (")[0] for row in only_classic] == ["Dani", "Eli"]
    refused = client.get("/ranking/?variante=truco")
    assert refused.status_code == 400
    assert "truco" in refused.get_data(as_text=True)


def test_the_leaderboard_filters_by_game(app: Flask, client: FlaskClient) -> None:
    """A game is its family of variants (rules.FAMILIES): canasta's five, or Burako and
    Burraco; a game that is none, or a variant not of the game asked for, is refused."""
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    classic = finished("2p", [["Dani"], ["Eli"]], "2026-05-03")
    create_stored_match(app, {**classic, "variant": "classic"})
    burako = {
        "end": "stock_out",
        "sides": [{"pura": 1, "table_points": 300}, {"table_points": 100}],
    }
    create_stored_match(
        app,
        {
            "format": "anotador-match/1",
            "variant": "burako",
            "layout": "2p",
            "sides": [{"name": "Uno", "players": ["Fede"]}, {"name": "Dos", "players": ["Gabi"]}],
            "start_scores": [2900, 0],
            "hands": [burako],
            "played_on": "2026-05-04",
        },
    )

    def names(query: str) -> set[str]:
        page = client.get(f"/ranking/?{query}")
        assert page.status_code == 200
        return {row[1].split(" (")[0] for row in rows_of(page.get_data(as_text=True))}

    assert names("juego=canasta") == {"Ana", "Beto", "Dani", "Eli"}
    assert names("juego=burraco") == {"Fede", "Gabi"}
    assert names("juego=canasta&variante=classic") == {"Dani", "Eli"}
    assert names("") == {"Ana", "Beto", "Dani", "Eli", "Fede", "Gabi"}
    unknown = client.get("/ranking/?juego=truco")
    assert unknown.status_code == 400
    assert "No hay ningún juego «truco»." in unknown.get_data(as_text=True)
    mixed = client.get("/ranking/?juego=burraco&variante=classic")
    assert mixed.status_code == 400
    assert "Clásica no es una variante de Burako y Burraco." in mixed.get_data(as_text=True)


def test_another_account_sees_only_its_own_ratings(app: Flask) -> None:
    create_account(app, "Otra")
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    other = signed_in(app, "Otra")
    page = other.get("/ranking/").get_data(as_text=True)
    assert "Ana" not in page
    assert "Todavía no hay jugadores con ranking" in page


def test_a_players_page_shows_the_rating_and_its_history(app: Flask, client: FlaskClient) -> None:
    first = create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    create_stored_match(app, finished("3p", [["Ana"], ["Beto"], ["Caro"]], "2026-05-02", 2))
    with app.app_context():
        ana = services.players.find_or_create_player(
            "Ana", services.accounts.first_administrator_id()
        )
        ana_id = ana.id
    page = client.get(f"/jugadores/{ana_id}").get_data(as_text=True)
    assert "Puesto 1 de 2" in page
    assert "Puesto 2 compartido de 3" in page
    assert f'href="/partidas/{first}"' in page
    assert "<svg" in page
    model = PlackettLuce()
    [[ana_after], [_beto]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    shown_after_first = round(100 * (ana_after.mu - 3 * ana_after.sigma))
    assert f"{shown_after_first}" in page


def test_the_match_page_shows_the_chances_before_the_first_hand(
    app: Flask, client: FlaskClient
) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    sides = [{"name": "Uno", "players": ["Ana"]}, {"name": "Dos", "players": ["Beto"]}]
    fresh = create_stored_match(app, match_document(layout="2p", sides=sides))
    page = client.get(f"/partidas/{fresh}").get_data(as_text=True)
    model = PlackettLuce()
    [[ana], [beto]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    chance = model.predict_win([[ana], [beto]])[0]
    assert "Chance de ganar" in page
    assert f"{round(100 * chance)}\u00a0%" in page

    played = create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-02"))
    assert "Chance de ganar" not in client.get(f"/partidas/{played}").get_data(as_text=True)


def test_the_new_match_form_suggests_names_with_their_rating(
    app: Flask, client: FlaskClient
) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    page = client.get("/partidas/nueva").get_data(as_text=True)
    assert 'value="Ana" label="Ana · 344"' in page


def test_the_pages_speak_english_and_italian(app: Flask, client: FlaskClient) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    client.get("/idioma/en")
    assert "<h1>Ratings</h1>" in client.get("/ranking/").get_data(as_text=True)
    client.get("/idioma/it")
    assert "<h1>Classifica</h1>" in client.get("/ranking/").get_data(as_text=True)
