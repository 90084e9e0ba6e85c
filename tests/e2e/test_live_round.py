"""The director's round page follows the round live (issue 38): on a laptop, without a
reload, it shows a table's hand saved (hand k of n, its last save) and a table's call to the
director, made from the table's phone, until the director marks it answered."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from conftest import ARTIFACTS
from conftest import owner_cookies
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect

from anotador import services
from anotador.storage.database import db
from anotador.storage.models import User
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament

pytestmark = pytest.mark.browser

#: Long enough for round.js's poll (every 3 s) and a little more.
POLL = 8_000


def night(live_server: object) -> tuple[int, list[tuple[int, str]]]:
    """A uruguaya night of 4 pairs, 3 hands a round, round 1 started: (the tournament, each
    table's match and table link)."""
    app = live_server.app  # type: ignore[attr-defined]
    with app.app_context():
        owner = db.session.scalars(db.select(User).order_by(User.id)).first()
        assert owner is not None
        setup = service.SetUp(
            "Noche en vivo", datetime.date(2026, 12, 7), "uruguaya", {}, 3, "wdl", "mitchell", 2
        )
        tournament = service.create_tournament(owner.id, setup)
        assert isinstance(tournament, Tournament), tournament
        for first, second in (("Ana", "Alba"), ("Beto", "Bruno"), ("Carla", "Cecilia")):
            service.add_pair(tournament, owner.id, first, second)
        service.add_pair(tournament, owner.id, "Dario", "Diego")
        round_row = rounds.draw_round(tournament, owner.id)
        rounds.start_round(round_row, owner.id)
        seated = sorted((t for t in round_row.tables if t.match), key=lambda t: t.number or 0)
        tables = [(t.match.id, t.match.table_token) for t in seated]  # type: ignore[union-attr]
        return tournament.id, tables  # type: ignore[return-value]


def save_hand(live_server: object, match_id: int) -> None:
    """A hand saved at the table (as its phone's form saves it)."""
    with live_server.app.app_context():  # type: ignore[attr-defined]
        match = services.queries.load_match(match_id)
        hand = {"end": "closed", "closer": 0, "sides": [{"clean": 1, "table_points": 200}, {}]}
        assert services.hands.record_hand(match, hand, match.version, None).ok
        db.session.remove()


def laptop(browser: Browser, live_server: object) -> BrowserContext:
    """The director's laptop: 1366×768, in Italian, signed in as the owner."""
    return browser.new_context(
        viewport={"width": 1366, "height": 768},
        locale="it-IT",
        storage_state=owner_cookies(live_server),  # type: ignore[arg-type]
        base_url=live_server.url,  # type: ignore[attr-defined]
    )


def test_the_round_page_follows_the_tables_without_a_reload(
    browser: Browser, live_server: object, phones: Callable[..., Page]
) -> None:
    tournament_id, tables = night(live_server)
    context = laptop(browser, live_server)
    director = context.new_page()
    errors: list[str] = []
    director.on("pageerror", lambda error: errors.append(str(error)))
    try:
        director.goto(f"/torneos/{tournament_id}/rondas/1")
        director.evaluate("window.notReloaded = true")
        first = director.locator(".t-table").nth(0)
        second = director.locator(".t-table").nth(1)
        expect(first.locator(".t-progress")).to_have_text(
            "Smazzata 1 di 3 · nessuna smazzata salvata finora"
        )

        # Table 1 saves a hand: its card says so, the page not reloaded.
        save_hand(live_server, tables[0][0])
        expect(first.locator(".t-progress")).to_contain_text(
            "Smazzata 2 di 3 · ultimo salvataggio alle ", timeout=POLL
        )
        save_hand(live_server, tables[0][0])
        expect(second).to_have_class("t-table is-not_started is-late", timeout=POLL)
        expect(second.locator(".t-late")).to_contain_text("In ritardo")

        # Table 2 calls the director from its phone; a second tap makes no second call.
        phone = phones()
        phone.goto(f"/enlace/{tables[1][1]}")
        phone.get_by_role("button", name="Llamar al director").tap()
        expect(phone.locator(".t-called")).to_contain_text("Se llamó al director")
        expect(second.locator(".t-call")).to_contain_text(
            "Questo tavolo chiama il direttore", timeout=POLL
        )
        expect(second).to_have_class("t-table is-not_started is-late is-calling")
        assert director.evaluate("window.notReloaded") is True
        director.screenshot(path=ARTIFACTS / "live-round-1366x768.png", full_page=True)

        # The director answers: the call is gone (the page reloads after the form, as every form).
        second.get_by_role("button", name="Segna la chiamata come risolta").click()
        expect(director.locator(".t-call")).to_have_count(0)
        phone.reload()
        expect(phone.get_by_role("button", name="Llamar al director")).to_be_visible()
        assert not errors
    finally:
        context.close()
