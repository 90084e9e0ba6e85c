"""Issue 38: each player opens their night from the spectator link, at 390 px: the pair's
rounds (table, seat, opponents, MP, VP, running total, place) and a text to share, through
the phone's share sheet when the browser has one, else a copy button; without JavaScript the
text is in a read-only box to select. Nothing is wider than the screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from phone import Shot
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect
from test_next_seat import next_round
from test_next_seat import night

from anotador.storage.database import db
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament

pytestmark = pytest.mark.browser

#: What the share sheet was given (a stand-in for the phone's own, which headless lacks).
FAKE_SHARE = """
window.sharedWith = null;
navigator.canShare = () => true;
navigator.share = (data) => { window.sharedWith = data; return Promise.resolve(); };
"""


def played_night(app: Any) -> tuple[str, int]:
    """The next seats' burraco night of 5 pairs (Mitchell), two rounds played, every table
    1200–800, and shared: (its spectator link's token, the long-named pair's id, which has
    table 1 in round 1 and the bye in round 2)."""
    tournament_id, owner_id, _ = night(app)
    next_round(app, tournament_id, owner_id, start=False)
    next_round(app, tournament_id, owner_id, start=True)
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        round_row = tournament.round_rows[1]
        for table in round_row.tables:
            if not table.is_bye:
                rounds.enter_result(table, owner_id, (1200, 800))
        rounds.close_round(round_row, owner_id)
        service.set_spectator_link(tournament, owner_id, True)
        assert tournament.spectator_token is not None
        return tournament.spectator_token, tournament.pairs[0].id


def test_a_players_night_and_its_share_at_390_px(
    live_server: Any, phones: Callable[..., Page], shot: Shot
) -> None:
    token, pair_id = played_night(live_server.app)
    phone = phones()
    phone.goto(f"/torneos/ver/{token}/noche")
    phone.get_by_role("link", name="Giovanna Bartolomei · Massimiliano Sangiorgi").tap()
    expect(phone.locator("h1")).to_have_text("Giovanna Bartolomei · Massimiliano Sangiorgi")
    expect(phone.locator(".t-night tbody tr")).to_have_count(2)
    # Round 1 at table 1 NS, 1200–800: 14 VP, first; round 2 a bye: 12 more, second (Ana
    # has 28; Beto 26 too, behind on the order of the pairs).
    rows = phone.locator(".t-night tbody tr")
    expect(rows.first.locator("td")).to_have_text(
        ["1", "1 (NS)", "Carla y Cecilia1.200 – 800", "14", "14", "1"]
    )
    expect(rows.nth(1).locator("td")).to_have_text(["2", "Libre", "12", "26", "2"])
    text = phone.locator("textarea[data-share-text]")
    expect(text).to_have_value(
        "Burraco del giovedì, 03/12/2026 — Giovanna Bartolomei y Massimiliano Sangiorgi:"
        " 2.º de 5, 26 PV (R1 mesa 1 vs Carla y Cecilia; R2 libre)"
    )
    # Headless Chromium has no share sheet: the copy button is the way.
    expect(phone.get_by_role("button", name="Compartir…")).to_be_hidden()
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    # The night's table fits the screen: nothing to scroll sideways, not even its own region.
    fits = "t => t.scrollWidth <= t.clientWidth && t.getBoundingClientRect().right <= 390"
    assert phone.locator(".t-night").locator("xpath=..").evaluate(fits)
    phone.get_by_role("button", name="Copiar").tap()
    expect(phone.locator(".share-status")).to_have_text("Copiado.")
    assert phone.evaluate("navigator.clipboard.readText()") == text.input_value()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot("night", of=phone)

    # A phone with a share sheet gets it, with the same text.
    sharing = phones()
    sharing.add_init_script(FAKE_SHARE)
    sharing.goto(f"/torneos/ver/{token}/noche/{pair_id}")
    sharing.get_by_role("button", name="Compartir…").tap()
    shared = sharing.evaluate("window.sharedWith")
    assert shared == {"title": "Burraco del giovedì", "text": text.input_value()}


def test_without_javascript_the_night_is_a_text_to_select(no_js_page: Page, live_server: Any):
    token, pair_id = played_night(live_server.app)
    no_js_page.goto(f"/torneos/ver/{token}/noche/{pair_id}")
    box = no_js_page.locator("textarea[data-share-text]")
    expect(box).to_be_visible()
    expect(box).to_have_attribute("readonly", "")
    expect(box).to_contain_text("2.º de 5, 26 PV")
    expect(no_js_page.get_by_role("button", name="Copiar")).to_be_hidden()
    assert no_js_page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_boards_qr_code_leads_to_the_nights_and_covers_no_row(
    live_server: Any, browser: Browser
) -> None:
    token, _ = played_night(live_server.app)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="it-IT")
    board = context.new_page()
    board.goto(f"{live_server.url}/torneos/ver/{token}/tablero")
    code = board.locator("a.t-board-qr")
    expect(code.locator("svg.qr-code")).to_be_visible()
    assert code.get_attribute("href") == f"{live_server.url}/torneos/ver/{token}/noche"
    box = code.bounding_box()
    rows = board.locator(".t-board-standings table").bounding_box()
    assert box is not None
    assert rows is not None
    assert box["y"] + box["height"] <= rows["y"]
    assert box["x"] + box["width"] <= 1280
    code.click()
    expect(board.locator("h1")).to_have_text("La tua serata")
    context.close()
