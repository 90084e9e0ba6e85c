"""Issue 13, items 4 to 6 in the browser: the planilla's rows say they open, the hand form's
opening minimum is as prominent as the planilla's, and back after saving shows a clean form."""

from __future__ import annotations

import re

import pytest
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

FONT = """(el) => {
  const style = getComputedStyle(el);
  return [parseFloat(style.fontSize), parseInt(style.fontWeight, 10)];
}"""
FIRST_HAND = {"Nosotros": {"Limpias": 1, "Puntos en mesa": 1340}, "Ellos": {"Puntos en mesa": 600}}


def test_the_rows_show_they_open_and_the_minimum_is_as_big_on_the_hand_form(
    page: Page, table: Table
) -> None:
    table.new_match()
    table.record_hand("Nosotros", FIRST_HAND)
    row = page.locator("details.hand summary").first
    chevron = row.locator(".row-opens")
    expect(chevron).to_be_visible()
    assert (
        page.evaluate("(el) => getComputedStyle(el, '::after').content", chevron.element_handle())
        == '"›"'
    )
    expect(page.get_by_text("Tocá una mano para ver el detalle y corregirla.")).to_be_visible()
    row.tap()
    expect(page.get_by_role("link", name="Editar")).to_be_visible()
    table.shot("row-open")
    planilla = page.locator(".score-side .minimum strong").first.evaluate(FONT)
    table.open_new_hand()
    form = page.locator(".standing td.opening").first
    expect(form).to_have_text(re.compile(r"^\d"))
    size, weight = form.evaluate(FONT)
    assert size >= planilla[0], (size, planilla)
    assert weight >= planilla[1], (weight, planilla)
    table.shot("hand-form-minimum")


def test_back_after_saving_shows_the_next_hands_form_clean(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Nosotros", FIRST_HAND)
    table.save()
    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mano 2")
    closers = page.get_by_role("group", name="¿Quién cerró?").locator('input[type="radio"]')
    assert closers.count() >= 2
    for index in range(closers.count()):
        expect(closers.nth(index)).not_to_be_checked()
    expect(table.side("Nosotros").get_by_label("Puntos en mesa", exact=True)).to_have_value("")
    table.shot("back-after-saving")
    # And the form still saves the next hand.
    table.fill_hand("Ellos", {"Ellos": {"Limpias": 1, "Puntos en mesa": 500}})
    table.save()
    expect(page.locator("details.hand")).to_have_count(2)
