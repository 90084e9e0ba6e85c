"""Issue 38, item 8: at 390 px the director corrects a pair's partner from the pair's page
(round 1 being played), and the table's phone shows the new name without a reload; the
tournament's form shows the chosen variant's own rules only (a burraco night's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from phone import Shot
from playwright.sync_api import Page
from playwright.sync_api import expect
from test_next_seat import night
from test_tournament_board import WITHIN

from anotador.storage.database import db
from anotador.tournaments.store.models import Tournament

pytestmark = pytest.mark.browser


def test_the_director_corrects_a_partner_at_a_phones_width(
    live_server: Any, page: Page, phones: Callable[..., Page], shot: Shot
) -> None:
    app = live_server.app
    tournament_id, _owner, link = night(app)
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        pair_id = tournament.pairs[0].id  # at table 1 of round 1 (Mitchell)
    phone = phones()
    phone.goto(link)
    expect(phone.locator(".planilla")).to_contain_text("Massimiliano Sangiorgi")

    page.goto(f"/torneos/{tournament_id}/parejas/{pair_id}")
    page.get_by_text("Corregir los nombres").tap()
    page.get_by_label("Compañero", exact=True).fill("Massimo Sangiorgi")
    shot("form", of=page)
    page.get_by_role("button", name="Guardar los nombres").tap()
    expect(page.locator("h1")).to_have_text("1. Giovanna Bartolomei – Massimo Sangiorgi")
    expect(page.locator(".flash-success")).to_contain_text("Nombres guardados")
    # The form fits the phone (the page's own width is the phone-widths work's, item 5).
    page.get_by_text("Corregir los nombres").tap()
    for part in (".t-pair-names", ".t-pair-names input[name=second]", ".t-pair-names button"):
        box = page.locator(part).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390, part
    shot("saved", of=page)
    # The table's match is named anew; its phone follows (its version moved).
    expect(phone.locator(".planilla")).to_contain_text("Massimo Sangiorgi", timeout=WITHIN)


def test_the_tournament_form_shows_the_chosen_variants_rules(page: Page, shot: Shot) -> None:
    page.goto("/torneos")
    burraco = page.locator('[data-options-for="burraco"]')
    page.get_by_label("Variante").select_option("burraco")
    expect(burraco).to_be_visible()
    expect(burraco.get_by_label("Burraco semipulito (150)")).to_be_checked()
    expect(page.locator("[data-options-for]:visible")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot("burraco", of=page)
