"""The round clock in a real browser (issue 38): the director starts it on the round page;
the board and a table's phone, open before it started, count it down without a reload, the
phone rightly though its own clock is two hours ahead; run out, the phone says that the
hand in play is the last and the board that the time is up. A table's phone that called the
director sees the call answered without a reload."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import pytest
from conftest import ARTIFACTS
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect
from test_live_round import POLL
from test_live_round import laptop
from test_live_round import night

from anotador.storage.database import db
from anotador.storage.models import utc_now
from anotador.tournaments.operations import clock
from anotador.tournaments.store.models import Round

pytestmark = pytest.mark.browser

#: What a phone's live poll (every second) and a reload of its part take, and a little more.
FOLLOW = 6_000


def left_of(page: Page, selector: str) -> int:
    """The seconds a clock shows left ("Quedan 0:57" → 57)."""
    text = page.locator(f"{selector} .t-clock-left").inner_text()
    found = re.search(r"(\d+):(\d\d)", text)
    assert found is not None, text
    return int(found[1]) * 60 + int(found[2])


def run_out_soon(live_server: object, tournament_id: int, seconds: int) -> None:
    """The round's clock stopped and started again so that it runs out in ``seconds``."""
    with live_server.app.app_context():  # type: ignore[attr-defined]
        round_row = db.session.scalars(
            db.select(Round).where(Round.tournament_id == tournament_id, Round.number == 1)
        ).one()
        owner = round_row.tournament.owner_id
        clock.stop(round_row, owner)
        ago = utc_now() - datetime.timedelta(minutes=1) + datetime.timedelta(seconds=seconds)
        clock.start(round_row, owner, 1, now=ago)
        db.session.remove()


def test_the_clock_counts_down_on_the_board_and_a_phone_and_runs_out(
    browser: Browser, live_server: object, phones: Callable[..., Page]
) -> None:
    tournament_id, tables = night(live_server)
    context = laptop(browser, live_server)
    errors: list[str] = []
    try:
        director = context.new_page()
        board = context.new_page()
        for page in (director, board):
            page.on("pageerror", lambda error: errors.append(str(error)))
        board.goto(f"/torneos/{tournament_id}/tablero")
        phone = phones()
        # A phone whose own clock is two hours ahead.
        phone.clock.set_system_time(datetime.datetime.now() + datetime.timedelta(hours=2))
        phone.goto(f"/enlace/{tables[0][1]}")
        expect(phone.locator(".t-table-line")).to_be_visible()
        ahead = phone.evaluate("Date.now()") / 1000 - datetime.datetime.now().timestamp()
        assert ahead > 3600, ahead
        expect(phone.locator(".t-clock")).to_have_count(0)
        for page in (phone, board):
            page.evaluate("window.notReloaded = true")

        director.goto(f"/torneos/{tournament_id}/rondas/1")
        expect(director.locator("#reloj")).to_contain_text("Il cronometro non è in funzione.")
        minutes = director.get_by_label("Minuti per turno")
        expect(minutes).to_have_value("45")
        expect(minutes).to_have_attribute("inputmode", "numeric")
        minutes.fill("1")
        director.get_by_role("button", name="Avvia il cronometro").click()
        expect(director.locator("#reloj .t-clock-left")).to_contain_text("Tempo rimasto: 0:5")

        # The board and the phone follow, without a reload, and count down.
        expect(board.locator(".t-board-round .t-clock-left")).to_contain_text(
            "Tempo rimasto: 0:5", timeout=POLL
        )
        expect(phone.locator(".t-phone-clock .t-clock-left")).to_contain_text(
            "Quedan 0:5", timeout=FOLLOW
        )
        expect(phone.locator(".t-phone-clock")).to_contain_text("La ronda termina a las ")
        first = left_of(phone, ".t-phone-clock")
        phone.wait_for_timeout(2_200)
        later = left_of(phone, ".t-phone-clock")
        assert 1 <= first - later <= 3, (first, later)
        assert abs(left_of(board, ".t-board-round") - later) <= 2
        board.screenshot(path=ARTIFACTS / "round-clock-board-1366x768.png")
        phone.screenshot(path=ARTIFACTS / "round-clock-phone.png")

        # It runs out: the phone says the hand in play is the last, the board that time is up.
        run_out_soon(live_server, tournament_id, 4)
        expect(phone.locator(".t-phone-clock .t-clock-text")).to_have_text(
            "Se terminó el tiempo: la mano en juego es la última.", timeout=FOLLOW + 4_000
        )
        expect(phone.locator(".t-phone-clock .t-clock")).to_have_class(re.compile(r"\bis-up\b"))
        expect(board.locator(".t-board-round .t-clock-text")).to_have_text(
            "Tempo scaduto: le smazzate in corso sono le ultime.", timeout=POLL
        )
        phone.screenshot(path=ARTIFACTS / "round-clock-phone-time-up.png")
        for page in (phone, board):
            assert page.evaluate("window.notReloaded") is True
        assert not errors
    finally:
        context.close()


def test_a_phone_sees_its_call_answered_without_a_reload(
    browser: Browser, live_server: object, phones: Callable[..., Page]
) -> None:
    tournament_id, tables = night(live_server)
    context = laptop(browser, live_server)
    try:
        phone = phones()
        phone.goto(f"/enlace/{tables[1][1]}")
        phone.get_by_role("button", name="Llamar al director").tap()
        expect(phone.locator(".t-called")).to_contain_text("Se llamó al director")
        phone.evaluate("window.notReloaded = true")
        director = context.new_page()
        director.goto(f"/torneos/{tournament_id}/rondas/1")
        director.get_by_role("button", name="Segna la chiamata come risolta").click()
        expect(director.locator(".t-call")).to_have_count(0)
        expect(phone.locator(".t-answered")).to_contain_text(
            "El director atendió la llamada", timeout=FOLLOW
        )
        expect(phone.locator(".t-answered")).to_contain_text("y viene a la mesa.")
        expect(phone.locator(".t-called")).to_have_count(0)
        expect(phone.get_by_role("button", name="Llamar al director")).to_be_visible()
        assert phone.evaluate("window.notReloaded") is True
    finally:
        context.close()
