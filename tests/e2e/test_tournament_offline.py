"""A tournament table's phone without a connection: its own engine knows the round's hands
(the match file's ``hand_limit``), so the preview of the round's last hand shows the match
over and won, as the server will."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from phone import Shot
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PAIRS = [("Ana", "Alba"), ("Beto", "Bruno")]
#: Mitchell, round 1: pair 1 NS against pair 2; the sides are named after the pairs.
NS, EW = "1. Ana – Alba", "2. Beto – Bruno"
HAND = {
    NS: {"Limpias": 2, "Sucias": 1, "Puntos en mesa": 400},
    EW: {"Sucias": 1, "Puntos en mesa": 250, "Puntos en mano": 60},
}
#: EW go out; the totals after it, 2070 to 1390, are far from uruguaya's 3000.
SECOND = {
    NS: {"Puntos en mesa": 200, "Puntos en mano": 30, "Treses rojos": 1},
    EW: {"Limpias": 1, "Puntos en mesa": 300},
}
#: The phone's engine starts from scratch (Pyodide: seconds, far more on a busy CI machine).
ENGINE_ANSWERS = 120_000


def test_an_offline_table_phone_sees_the_match_end_after_the_rounds_hands(
    page: Page, phones: Callable[..., Page], shot: Shot
) -> None:
    page.goto("/torneos")
    page.get_by_label("Nombre").fill("Noche sin señal")
    page.get_by_label("Variante").select_option("uruguaya")
    page.get_by_label("Manos por ronda (vacío: hasta la meta)").fill("2")
    page.get_by_label("Puntos de victoria").select_option("wdl")
    page.get_by_label("Sistema de emparejamiento").select_option("mitchell")
    page.get_by_label("Rondas").fill("1")
    page.get_by_role("button", name="Crear el torneo").tap()
    for first, second in PAIRS:
        page.get_by_label("Jugador", exact=True).fill(first)
        page.get_by_label("Compañero", exact=True).fill(second)
        page.get_by_role("button", name="Agregar la pareja").tap()
        expect(page.locator(".t-pairs")).to_contain_text(f"{first} – {second}")
    page.get_by_role("button", name="Sortear la ronda 1").tap()
    page.get_by_role("button", name="Empezar la ronda").tap()
    link = page.locator(".t-table").first.locator(".share-url").inner_text()

    phone = phones()
    phone.goto(link)
    table = Table(phone, shot)
    table.record_hand(NS, HAND)  # hand 1 of 2, with a connection
    table.open_new_hand()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Mano 2")
    phone.evaluate("window.anotadorEngine.start()")  # its files fetched while there is signal
    table.fill_hand(NS, SECOND)
    phone.locator('label[for="closer-1"]').tap()  # EW went out (its chip's label)
    expect(phone.locator("#closer-1")).to_be_checked()
    phone.context.set_offline(True)
    # Typed again without a connection: the phone's own engine previews it.
    table.side(EW).get_by_label("Puntos en mesa", exact=True).fill("305")
    preview = phone.locator("#preview-table tbody tr")
    # The round's second hand ends the match: the pair ahead wins (the target is far off).
    expect(preview.locator("td.big")).to_have_text(["2.070", "1.395"], timeout=ENGINE_ANSWERS)
    expect(preview.nth(0).locator("th")).to_have_text(f"{NS} 🏆", timeout=ENGINE_ANSWERS)
    expect(preview.nth(1).locator("th")).to_have_text(EW)
    table.shot("offline-last-hand")
    phone.context.set_offline(False)
