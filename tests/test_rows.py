"""The rows of the home page and the history are drawn once per content (anotador.rows):
whatever a row shows changes, the row changes with it; and only so many are kept."""

from flask import Flask
from flask.testing import FlaskClient
from stored import MakeMatch

from anotador import rows
from anotador import services
from anotador.services.scope import EVERYTHING

PAIRS = (
    {"name": "Nosotros", "players": ["Ana", "Carla"]},
    {"name": "Ellos", "players": ["Beto", "Dani"]},
)
HAND = {
    "end": "stock_out",
    "sides": [{"table_points": 120, "hand_points": 0}, {"table_points": 50, "hand_points": 0}],
}


def save_hand(app: Flask, match_id: int, table_points: int) -> None:
    hand = {**HAND, "sides": [{"table_points": table_points, "hand_points": 0}, {}]}
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        assert services.hands.record_hand(match, hand, match.version, None).ok


def test_a_home_row_follows_the_match(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    match_id = make_match(hands=[HAND])
    assert "120" in client.get("/").get_data(as_text=True)
    save_hand(app, match_id, 1000)
    page = client.get("/").get_data(as_text=True)
    assert "1.120" in page  # the new total, not the kept row
    assert "2 manos" in page


def test_a_row_is_said_in_the_page_language(client: FlaskClient, make_match: MakeMatch) -> None:
    make_match(hands=[HAND, HAND])
    spanish = client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    english = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "2 manos" in spanish
    assert "2 hands" in english
    assert "2 manos" not in english


def test_a_history_row_follows_a_renamed_player(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    make_match(sides=PAIRS, hands=[HAND])
    assert "Ana, Carla" in client.get("/historial").get_data(as_text=True)
    with app.app_context():
        ana = services.queries.find_player(EVERYTHING, "Ana")
        assert ana is not None
        assert services.players.rename_player(ana, "Anabel") is None
    page = client.get("/historial").get_data(as_text=True)
    assert "Anabel, Carla" in page
    assert "Ana, Carla" not in page


def test_only_so_many_rows_are_kept(
    client: FlaskClient, make_match: MakeMatch, monkeypatch
) -> None:
    monkeypatch.setattr(rows, "KEPT_ROWS", 2)
    monkeypatch.setattr(rows, "_rows", type(rows._rows)())
    for _ in range(3):
        make_match(hands=[HAND])
    page = client.get("/").get_data(as_text=True)
    assert page.count('class="match-card') == 3
    assert len(rows._rows) == 2
