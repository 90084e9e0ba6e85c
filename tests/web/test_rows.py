"""The lists and rows of the home page and the history are drawn once per content
(anotador.web.rows): whatever a row shows changes, the row changes with it; a kept list loads no
match; and only so many are kept."""

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import MakeMatch
from stored import rename

from anotador import services
from anotador.services.scope import EVERYTHING
from anotador.storage import caching
from anotador.storage.caching import LRU
from anotador.web import rows

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
    rename(app, "Ana", "Anabel")
    page = client.get("/historial").get_data(as_text=True)
    assert "Anabel, Carla" in page
    assert "Ana, Carla" not in page


def test_only_so_many_rows_are_kept(app: Flask, client: FlaskClient, make_match: MakeMatch):
    kept = caching.caches(app)
    kept.rows = LRU(2)
    for _ in range(3):
        make_match(hands=[HAND])
    page = client.get("/").get_data(as_text=True)
    assert page.count('class="match-card') == 3
    assert len(kept.rows) == 2


@pytest.mark.parametrize("url", ["/", "/historial"])
def test_a_kept_list_loads_no_match(
    app: Flask, client: FlaskClient, make_match: MakeMatch, url: str
) -> None:
    for _ in range(3):
        make_match(sides=PAIRS, hands=[HAND])
    with count_statements(app) as cold:
        first = client.get(url).get_data(as_text=True)
    with count_statements(app) as warm:
        second = client.get(url).get_data(as_text=True)
    assert any("side.name" in statement for statement in cold)
    assert not any("side.name" in statement or "totals" in statement for statement in warm)
    assert first.count("Nosotros") == second.count("Nosotros") == 3


def test_a_list_drawn_from_a_newer_state_is_not_kept(app: Flask, make_match: MakeMatch):
    """A match saved between the list's read of its states and the read of its rows is
    drawn as it is now, and that drawing is not kept under the older state's key."""
    match_id = make_match(hands=[HAND])
    with app.app_context():
        listed, _finished = services.queries.home_lists(EVERYTHING)
    save_hand(app, match_id, 1000)
    with app.test_request_context("/"), app.app_context():
        html = rows.cached_list("matches/_lists.html", ongoing=listed, finished=listed)
        assert "1.120" in html
        assert len(caching.caches(app).lists) == 0
        again, _finished = services.queries.home_lists(EVERYTHING)
        rows.cached_list("matches/_lists.html", ongoing=again, finished=again)
        assert len(caching.caches(app).lists) == 1
