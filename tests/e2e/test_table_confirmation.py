"""Issue 38: both pairs confirm a table's result, on two phones of one table. The phone that
scored the round's last hand shows the result waiting for EW, and can still undo it; the
table's second phone, following live, shows EW's button; once EW confirm there, the first
phone follows without a reload (the result is final: no undo), and the director's round page
says the table is confirmed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from phone import Shot
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect
from test_tournament_board import WITHIN
from test_tournament_board import set_up

pytestmark = pytest.mark.browser

#: Mitchell, round 1 of two pairs: pair 1 NS against pair 2.
NS, EW = "1. Ana – Alba", "2. Beto – Bruno"
HAND = {
    NS: {"Limpias": 2, "Sucias": 1, "Puntos en mesa": 400},
    EW: {"Sucias": 1, "Puntos en mesa": 250, "Puntos en mano": 60},
}


def test_ew_confirm_on_the_second_phone_and_the_first_follows(
    page: Page, phones: Callable[..., Page], shot: Shot
) -> None:
    set_up(page, "Noche de dos", rounds=1, pairs=[("Ana", "Alba"), ("Beto", "Bruno")])
    page.get_by_role("button", name="Sortear la ronda 1").tap()
    page.get_by_role("button", name="Empezar la ronda").tap()
    link = page.locator(".t-table").first.locator(".share-url").inner_text()
    scorer, other = phones(), phones()
    scorer.goto(link)
    other.goto(link)

    Table(scorer, shot).record_hand(NS, HAND)
    waiting = "Esperando que EO confirmen el resultado."
    expect(scorer.locator(".table-confirmation")).to_contain_text(waiting)
    # Not yet final: the last hand can still be undone (issue 38, item 3).
    expect(scorer.get_by_text("Deshacer última mano")).to_have_count(1)
    shot("awaiting-confirmation", of=scorer)
    page.reload()
    expect(page.locator(".t-table.is-awaiting")).to_have_count(1)

    # The second phone follows live and shows EW's button.
    button = other.get_by_role("button", name=f"EO confirman el resultado: {EW}")
    expect(button).to_be_visible(timeout=WITHIN)
    button.tap()
    expect(other.locator(".flash")).to_contain_text("Resultado confirmado: es definitivo.")
    confirmed = "Resultado confirmado por EO: es definitivo."
    expect(scorer.locator(".table-confirmation")).to_contain_text(confirmed, timeout=WITHIN)
    expect(scorer.get_by_text("Deshacer última mano")).to_have_count(0)
    shot("confirmed", of=scorer)
    page.reload()
    expect(page.locator(".t-table.is-confirmed")).to_have_count(1)
