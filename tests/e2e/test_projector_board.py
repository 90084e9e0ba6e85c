"""The board on a club's projector (issue 38): at 1280×720 and 1920×1080 it shows at least 12
standings rows in large type, each pair on one line, pages through a longer list by itself,
and says the round and, once a round is drawn, who sits where (the bye pair rests)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from conftest import ARTIFACTS
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

from anotador.storage.database import db
from anotador.storage.models import User
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament

pytestmark = pytest.mark.browser

#: 21 pairs: a bye in every round, and long names (the partner must not be cut).
PAIRS = [
    (f"Giovanna Bartolomei {n}", f"Massimiliano Sangiorgi {n}", f"Circolo {n}") for n in range(21)
]
SIZES = [(1280, 720), (1920, 1080)]
#: How often the board turns its page (static/js/board.js), and a little more.
TURN = 8_100


@pytest.fixture(scope="module")
def board_url(live_server: object) -> str:
    """A burraco night of 21 pairs, round 1 drawn and started: its board's spectator address."""
    app = live_server.app  # type: ignore[attr-defined]
    with app.app_context():
        owner = db.session.scalars(db.select(User).order_by(User.id)).first()
        assert owner is not None
        setup = service.SetUp(
            name="Burraco del giovedì al Circolo Ricreativo",
            played_on=datetime.date(2026, 12, 3),
            variant="burraco",
            options={},
            hands_per_round=3,
            scale="fibur-3",
            system="mitchell",
            rounds=3,
        )
        tournament = service.create_tournament(owner.id, setup)
        assert isinstance(tournament, Tournament), tournament
        for first, second, club in PAIRS:
            service.add_pair(tournament, owner.id, first, second, club)
        service.set_spectator_link(tournament, owner.id, True)
        round_row = rounds.draw_round(tournament, owner.id)
        rounds.start_round(round_row, owner.id)
        token = tournament.spectator_token
    return f"{live_server.url}/torneos/ver/{token}/tablero"  # type: ignore[attr-defined]


def open_board(browser: Browser, url: str, width: int, height: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="it-IT")
    page = context.new_page()
    page.clock.install()
    page.goto(url)
    return page


def visible_rows(page: Page, sheet: str = ".t-board-standings") -> list[dict[str, Any]]:
    """The rows of ``sheet`` shown, each with its bottom and height on the screen, its text,
    and whether a cell of it is shortened."""
    return page.evaluate(
        """(sheet) => Array.from(document.querySelectorAll(sheet + ' tbody tr'))
             .filter((row) => row.getClientRects().length)
             .map((row) => { const box = row.getBoundingClientRect();
                             const cut = Array.from(row.cells).some(
                               (cell) => cell.scrollWidth > cell.clientWidth);
                             return {bottom: box.bottom, height: box.height, cut: cut,
                                     text: row.textContent}; })""",
        sheet,
    )


def on_screen(rows: list[dict[str, Any]], height: int) -> None:
    """Every row is on the screen, one line high (names do not wrap), none shortened."""
    assert max(row["bottom"] for row in rows) <= height
    line = min(row["height"] for row in rows)
    assert max(row["height"] for row in rows) < line * 1.5
    assert not [row["text"] for row in rows if row["cut"]]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_board_fits_a_projector_and_pages_by_itself(
    browser: Browser, board_url: str, width: int, height: int
) -> None:
    page = open_board(browser, board_url, width, height)
    try:
        expect(page.locator(".t-board-standings tbody tr")).to_have_count(len(PAIRS))
        expect(page.locator(".t-board-round")).to_have_text("Turno 1 di 3 · in corso")
        first = visible_rows(page)
        assert 12 <= len(first) < len(PAIRS), len(first)
        on_screen(first, height)
        assert "Massimiliano Sangiorgi" in first[0]["text"]  # both partners named
        font = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.t-board tbody td')).fontSize)"
        )
        assert font >= 0.026 * height, font  # readable from the back of the room
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        expect(page.locator(".t-board-seating")).to_be_hidden()
        expect(page.locator(".t-board-page")).to_have_text("1 / 3")
        page.screenshot(path=ARTIFACTS / f"projector-board-{width}x{height}-1.png")

        page.clock.run_for(TURN)  # the board turns its page by itself: the rest of the pairs
        rest = visible_rows(page)
        assert [row["text"] for row in first + rest] == [
            row["text"] for row in visible_rows_all(page)
        ]
        on_screen(rest, height)

        page.clock.run_for(TURN)  # who sits where: 10 tables and the pair that rests
        expect(page.locator(".t-board-standings")).to_be_hidden()
        seating = visible_rows(page, ".t-board-seating")
        assert len(seating) == 11
        page.screenshot(path=ARTIFACTS / f"projector-board-{width}x{height}-3.png")
        on_screen(seating, height)
        assert "riposa" in seating[-1]["text"]
        expect(page.locator(".t-board-page")).to_have_text("3 / 3")

        page.clock.run_for(TURN)
        assert visible_rows(page) == first
    finally:
        page.context.close()


def visible_rows_all(page: Page) -> list[dict[str, Any]]:
    return page.evaluate(
        "Array.from(document.querySelectorAll('.t-board-standings tbody tr'))"
        ".map((row) => ({text: row.textContent}))"
    )
