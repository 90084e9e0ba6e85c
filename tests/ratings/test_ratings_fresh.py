"""The ratings pages keep what they draw (docs/ratings.md, "How the pages stay fresh") and
never show it stale: after every change that moves the ratings or the names, each page is
what it would be drawn from nothing (the caches emptied)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner
from stored import create_account
from stored import create_stored_match
from stored import signed_in
from test_ratings_pages import rows_of
from test_ratings_store import MATCHES
from test_ratings_store import finished
from test_ratings_store import import_lines
from test_ratings_store import match_id_on

from anotador import services
from anotador.storage.caching import caches
from anotador.storage.database import db
from anotador.storage.models import User


def rating_section(page: str) -> str:
    """A player's page's rating, its history and club points."""
    return page[page.index('<section class="player-rating">') : page.index("</section>")]


def player_id(app: Flask, name: str) -> int:
    with app.app_context():
        owner = services.accounts.first_administrator_id()
        return services.players.find_or_create_player(name, owner).id


class Pages:
    """The Ranking page's rows and one player's rating section, as a client sees them."""

    def __init__(self, app: Flask, client: FlaskClient, player: str) -> None:
        self.app, self.client, self.player = app, client, player_id(app, player)

    def shown(self) -> tuple[list[list[str]], str]:
        ranking = self.client.get("/ranking/")
        player = self.client.get(f"/jugadores/{self.player}")
        assert ranking.status_code == player.status_code == 200
        return rows_of(ranking.get_data(as_text=True)), rating_section(
            player.get_data(as_text=True)
        )

    def fresh(self) -> tuple[list[list[str]], str]:
        """What is shown, checked against the same pages drawn with nothing kept."""
        warm = self.shown()
        caches(self.app).clear()
        assert self.shown() == warm
        return warm


def test_a_corrected_hand_of_an_old_match_changes_the_pages(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    import_lines(runner, tmp_path, MATCHES)
    pages = Pages(app, client, "Caro")
    before = pages.fresh()
    old = match_id_on(app, "2026-01-10", "4p")
    data = {"closer": "none", "s0_table_points": "200", "s1_table_points": "100", "version": "0"}
    assert client.post(f"/partidas/{old}/manos/1", data=data).status_code == 302
    after = pages.fresh()
    assert after[0] != before[0]
    assert after[1] != before[1]


def test_undoing_an_old_matchs_finishing_hand_changes_the_pages(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    import_lines(runner, tmp_path, MATCHES)
    pages = Pages(app, client, "Fede")
    before = pages.fresh()
    old = match_id_on(app, "2026-02-01", "6p-3x2")
    deleted = client.post(f"/partidas/{old}/manos/1/borrar", data={"version": "0", "confirm": "1"})
    assert deleted.status_code in (302, 303)
    after = pages.fresh()
    assert after[0] != before[0]
    assert f'href="/partidas/{old}"' in before[1]
    assert f'href="/partidas/{old}"' not in after[1]


def test_an_import_of_older_matches_changes_the_pages(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    pages = Pages(app, client, "Beto")
    before = pages.fresh()
    import_lines(runner, tmp_path, [finished("2p", [["Beto"], ["Ana"]], "2026-04-01")])
    after = pages.fresh()
    assert after != before
    assert "2026-04-01" in after[1]


def test_merged_and_renamed_players_change_the_pages(app: Flask, client: FlaskClient) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    create_stored_match(app, finished("2p", [["Anita"], ["Caro"]], "2026-05-02"))
    pages = Pages(app, client, "Ana")
    rows, section = pages.fresh()
    assert [row[1].split(" (")[0] for row in rows].count("Anita") == 1
    merged = client.post(
        f"/jugadores/{pages.player}/fusionar", data={"other": "Anita", "confirm": "y"}
    )
    assert merged.status_code == 302
    rows_merged, section_merged = pages.fresh()
    assert "Anita" not in [row[1].split(" (")[0] for row in rows_merged]
    assert section_merged != section

    renamed = client.post(f"/jugadores/{pages.player}/nombre", data={"name": "Ana María"})
    assert renamed.status_code == 302
    rows_renamed, _ = pages.fresh()
    assert "Ana María" in [row[1].split(" (")[0] for row in rows_renamed]


def test_the_pages_are_kept_per_language(app: Flask, client: FlaskClient) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    pages = Pages(app, client, "Ana")
    assert "Puesto 1 de 2" in pages.shown()[1]
    client.get("/idioma/en")
    assert "Place 1 of 2" in pages.shown()[1]


def scoreboard(page: str) -> str:
    """The planilla's totals with the names and their ratings."""
    return page[page.index('<div class="scoreboard">') : page.index('<div class="sheet">')]


def seat_rating(shown: str) -> str:
    hidden = '<span class="visually-hidden">Puntaje</span>'
    return f'<span class="seat-rating"><span aria-hidden="true">·</span>{hidden} {shown}</span>'


def test_the_planilla_shows_the_ratings_during_play_and_follows_them(
    app: Flask, client: FlaskClient
) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    # One hand of 200 against 100 towards 5000: in play.
    playing = create_stored_match(
        app, {**finished("2p", [["Ana"], ["Beto"]], "2026-05-02"), "start_scores": [0, 0]}
    )
    page = client.get(f"/partidas/{playing}").get_data(as_text=True)
    assert f"Ana {seat_rating(344)}" in page
    assert "Chance de ganar" not in page  # only before the first hand

    # Another match moves Ana's rating: the kept planilla is not shown again.
    create_stored_match(app, finished("2p", [["Ana"], ["Caro"]], "2026-05-03", 1))
    page = client.get(f"/partidas/{playing}").get_data(as_text=True)
    assert f"Ana {seat_rating(344)}" not in page
    caches(app).clear()
    drawn = client.get(f"/partidas/{playing}").get_data(as_text=True)
    assert scoreboard(drawn) == scoreboard(page)  # (the page's CSRF tokens are timed)


def test_only_the_owner_sees_the_ratings_on_the_planilla(app: Flask, client: FlaskClient) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    playing = create_stored_match(
        app, {**finished("2p", [["Ana"], ["Beto"]], "2026-05-02"), "start_scores": [0, 0]}
    )
    with app.app_context():
        match = services.queries.load_match(playing)
        assert match is not None
        token = services.sharing.set_link(match, "spectator", True)
    assert "seat-rating" in client.get(f"/partidas/{playing}").get_data(as_text=True)
    spectator = app.test_client()
    assert spectator.get(f"/enlace/{token}").status_code == 303
    page = spectator.get(f"/partidas/{playing}")
    assert page.status_code == 200
    assert "Ana" in page.get_data(as_text=True)
    assert "seat-rating" not in page.get_data(as_text=True)


def test_a_new_account_never_sees_what_was_kept_for_a_deleted_one(app: Flask) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("only SQLite gives a new row the id of a deleted one")
    create_account(app, "Otra")
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"), owner="Otra")
    assert "Beto" in signed_in(app, "Otra").get("/ranking/").get_data(as_text=True)
    with app.app_context():
        gone = db.session.get(User, services.accounts.find_account("Otra").id)
        services.accounts.remove_account(gone)
    create_account(app, "Nueva")  # SQLite gives it the deleted account's id
    create_stored_match(app, finished("2p", [["Caro"], ["Dani"]], "2026-05-01"), owner="Nueva")
    page = signed_in(app, "Nueva").get("/ranking/").get_data(as_text=True)
    assert "Dani" in page
    assert "Beto" not in page
