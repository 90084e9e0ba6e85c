"""Issue 11, item 2: what is typed on the hand form is kept on the phone and offered back
(never applied by itself) after a reload or a closed tab; a saved hand's draft is gone."""

from __future__ import annotations

import re

import pytest
from phone import Table
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

HALF_A_HAND = {"Nosotros": {"Limpias": 2, "Puntos en mesa": 1340}}


def offer(page: Page):
    return page.get_by_role("status").filter(has_text="Hay una mano sin guardar")


def wait_for_draft(page: Page) -> None:
    """Until the typed hand is kept (other keys of the app's, the outbox's, come earlier)."""
    page.wait_for_function(
        "() => Object.keys(localStorage).some(k => k.startsWith('anotador:draft:'))"
    )


def draft_count(page: Page) -> int:
    return page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('anotador:draft:')).length"
    )


def test_a_half_typed_hand_is_offered_back_after_a_reload(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Nosotros", HALF_A_HAND)
    nosotros = table.side("Nosotros")
    wait_for_draft(page)
    page.reload()

    # Offered, not applied: the form is empty until "Recuperar".
    expect(offer(page)).to_contain_text(re.compile(r"Hay una mano sin guardar \(.+\)"))
    expect(nosotros.get_by_label("Puntos en mesa", exact=True)).to_have_value("")
    table.shot("draft-offered")
    offer(page).get_by_role("button", name="Recuperar").tap()
    expect(offer(page)).to_have_count(0)
    expect(nosotros.get_by_label("Limpias", exact=True)).to_have_value("2")
    expect(nosotros.get_by_label("Puntos en mesa", exact=True)).to_have_value("1340")
    closer = page.get_by_role("group", name="¿Quién cerró?")
    expect(closer.get_by_label("Nosotros", exact=True)).to_be_checked()
    table.shot("draft-recovered")

    table.side("Ellos").get_by_label("Puntos en mesa", exact=True).fill("600")
    table.save()
    table.expect_totals({"Nosotros": 2440, "Ellos": 600})
    page.go_back()  # the form of hand 2: nothing to offer
    expect(page.get_by_role("heading", level=1)).to_have_text("Mano 2")
    expect(offer(page)).to_have_count(0)
    assert draft_count(page) == 0


def test_discard_drops_the_draft(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Ellos", {"Ellos": {"Sucias": 1}})
    wait_for_draft(page)
    page.reload()
    offer(page).get_by_role("button", name="Descartar").tap()
    expect(offer(page)).to_have_count(0)
    page.reload()
    expect(offer(page)).to_have_count(0)
    expect(table.side("Ellos").get_by_label("Sucias", exact=True)).to_have_value("")


def test_a_closed_tab_and_a_hand_saved_elsewhere(
    page: Page, context: BrowserContext, table: Table, phones
) -> None:
    match_url = table.new_match()
    table.open_new_hand()
    table.fill_hand("Nosotros", HALF_A_HAND)
    wait_for_draft(page)
    page.close()  # the tab is closed with hand 1 half typed

    again = context.new_page()
    again.goto(match_url + "/manos/nueva")
    expect(offer(again)).to_be_visible()  # offered in a new tab of the same phone

    # Meanwhile another phone saves hand 1: the next form is hand 2, which offers nothing.
    other = Table(phones(), table._shot)
    other.page.context.add_cookies(context.cookies())
    other.page.goto(match_url)
    other.record_hand("Ellos", {"Ellos": {"Limpias": 1, "Puntos en mesa": 120}})
    again.goto(match_url + "/manos/nueva")
    expect(again.get_by_role("heading", level=1)).to_have_text("Mano 2")
    expect(offer(again)).to_have_count(0)
    assert draft_count(again) == 0  # hand 1's draft is done with


def test_a_refused_save_keeps_the_draft_without_offering_it(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Nosotros", {"Nosotros": {"Puntos en mesa": 33}})
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(page.locator("#problemas")).to_be_visible()
    expect(offer(page)).to_have_count(0)  # the form itself shows what was typed
    page.goto(page.url)  # the form opened again: a fresh one, the draft offered
    expect(offer(page)).to_be_visible()


def test_an_edit_keeps_its_own_draft_until_it_is_saved(page: Page, table: Table) -> None:
    match_url = table.new_match()
    table.record_hand("Nosotros", HALF_A_HAND)
    page.goto(match_url + "/manos/1")
    table.side("Ellos").get_by_label("Puntos en mesa", exact=True).fill("600")
    page.wait_for_function("() => Object.keys(localStorage).some(k => k.includes(':edit:1'))")
    page.reload()
    expect(offer(page)).to_be_visible()  # the edit's draft, offered on the edit of hand 1
    offer(page).get_by_role("button", name="Recuperar").tap()
    table.save("Guardar cambios")
    table.expect_totals({"Nosotros": 2440, "Ellos": 600})
    page.goto(match_url + "/manos/1")  # the saved edit: what the draft held, nothing to offer
    expect(table.side("Ellos").get_by_label("Puntos en mesa", exact=True)).to_have_value("600")
    expect(offer(page)).to_have_count(0)
    assert draft_count(page) == 0
