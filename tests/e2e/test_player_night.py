"""Issue 38: each player opens their night from the spectator link, at 390 px: the pair's
rounds (table, seat, opponents, MP, VP, running total, place) and a text to share, through
the phone's share sheet when the browser has one, else a copy button; without JavaScript the
text is in a read-only box to select. Nothing is wider than the screen."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from phone import Shot
from playwright.sync_api import Page
from playwright.sync_api import expect

from anotador.services.accounts import new_token
from anotador.storage.database import db
from anotador.storage.models import User
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament

pytestmark = pytest.mark.browser

PAIRS = [
    ("Giovanna Bartolomei", "Massimiliano Sangiorgi"),
    ("Ana", "Alba"),
    ("Beto", "Bruno"),
    ("Carla", "Cecilia"),
]
#: What the share sheet was given (a stand-in for the phone's own, which headless lacks).
FAKE_SHARE = """
window.sharedWith = null;
navigator.canShare = () => true;
navigator.share = (data) => { window.sharedWith = data; return Promise.resolve(); };
"""


def played_night(app: Any) -> tuple[str, int]:
    """A burraco night of 4 pairs, Mitchell, two rounds played and shared: (its spectator
    link's token, the long-named pair's id)."""
    with app.app_context():
        owner = db.session.scalars(db.select(User).order_by(User.id)).first()
        assert owner is not None
        setup = service.SetUp(
            name="Burraco del giovedì",
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
        for first, second in PAIRS:
            service.add_pair(tournament, owner.id, first, second, "")
        for _ in range(2):
            round_row = rounds.draw_round(tournament, owner.id)
            rounds.start_round(round_row, owner.id)
            for table in round_row.tables:
                rounds.enter_result(table, owner.id, (1650, 350))
            rounds.close_round(round_row, owner.id)
        tournament.spectator_token = new_token()
        db.session.commit()
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
    # Round 1 at table 1 NS, 1650–350: 19 VP, first; round 2 again NS at table 1: 38.
    first = phone.locator(".t-night tbody tr").first.locator("td")
    expect(first).to_have_text(["1", "1 (NS)", "Beto y Bruno1.650 – 350", "19", "19", "1"])
    text = phone.locator("textarea[data-share-text]")
    expect(text).to_have_value(
        "Burraco del giovedì, 03/12/2026 — Giovanna Bartolomei y Massimiliano Sangiorgi:"
        " 1.º de 4, 38 PV (R1 mesa 1 vs Beto y Bruno; R2 mesa 1 vs Carla y Cecilia)"
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
    expect(box).to_contain_text("1.º de 4, 38 PV")
    expect(no_js_page.get_by_role("button", name="Copiar")).to_be_hidden()
    assert no_js_page.evaluate("document.documentElement.scrollWidth") <= 390
