"""Correcting the past, and the opening minimum stepping across 1500."""

import pytest
from phone import Table
from phone import points
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_editing_a_middle_hand_recomputes_later_totals_and_minimums(
    page: Page, table: Table
) -> None:
    table.new_match()
    table.record_hand(
        "Nosotros",
        {
            "Nosotros": {"Limpias": 1, "Puntos en mesa": 300},
            "Ellos": {"Puntos en mesa": 200, "Puntos en mano": 50},
        },
    )
    table.record_hand(
        "Ellos",
        {
            "Nosotros": {"Puntos en mesa": 150, "Puntos en mano": 30},
            "Ellos": {"Limpias": 1, "Puntos en mesa": 400},
        },
    )
    table.record_hand(
        "Nosotros",
        {"Nosotros": {"Limpias": 1, "Puntos en mesa": 250}, "Ellos": {"Puntos en mesa": 100}},
    )
    table.expect_row(2, [120, 1000], [1020, 1150])
    table.expect_row(3, [850, 100], [1870, 1250])
    table.expect_totals({"Nosotros": 1870, "Ellos": 1250})
    table.expect_minimums({"Nosotros": 90, "Ellos": 50})
    table.shot("three-hands")

    # Tap hand 2's row: its breakdown opens with an "Editar" button.
    page.locator("#mano-2 > summary").tap()
    breakdown = page.locator("#mano-2 .breakdown")
    expect(breakdown).to_contain_text("Cerró: Ellos.")
    table.shot("hand-2-breakdown")
    breakdown.get_by_role("link", name="Editar").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Corregir la mano 2")

    # The form shows what was stored; the standing is the one before hand 2.
    ellos = table.side("Ellos")
    expect(ellos.get_by_label("Limpias", exact=True)).to_have_value("1")
    expect(ellos.get_by_label("Puntos en mesa", exact=True)).to_have_value("400")
    standing = page.get_by_role("table").filter(has_text="Antes de la mano 2")
    expect(standing.get_by_role("row", name="Ellos")).to_contain_text("150")
    expect(page.get_by_role("group", name="¿Quién cerró?").get_by_label("Ellos")).to_be_checked()

    # Ellos had two clean canastas, not one: +500 for hand 2 and everything after it.
    ellos.get_by_role("button", name="Uno más: Limpias").tap()
    expect(ellos.get_by_label("Limpias", exact=True)).to_have_value("2")
    table.shot("edit-hand-2")
    table.save("Guardar cambios")
    expect(page.get_by_role("status").filter(has_text="Mano 2 corregida.")).to_be_visible()

    table.expect_row(1, [900, 150], [900, 150])
    table.expect_row(2, [120, 1500], [1020, 1650])
    table.expect_row(3, [850, 100], [1870, 1750])
    table.expect_totals({"Nosotros": 1870, "Ellos": 1750})
    table.expect_minimums({"Nosotros": 90, "Ellos": 90})
    expect(page.locator(".sheet details.hand")).to_have_count(3)
    table.shot("after-edit")


def test_opening_minimum_steps_from_50_to_90_at_1500(page: Page, table: Table) -> None:
    # Carrying on from a paper sheet: Nosotros 1400, Ellos 695.
    table.new_match(start={"Nosotros": 1400, "Ellos": 695})
    table.expect_totals({"Nosotros": 1400, "Ellos": 695})
    table.expect_minimums({"Nosotros": 50, "Ellos": 50})
    start_row = page.locator(".sheet-start .running")
    expect(start_row).to_have_text([points(1400), points(695)])
    table.shot("started-from-paper")

    table.open_new_hand()
    table.fill_hand(
        "Ellos",
        {"Nosotros": {"Puntos en mesa": 100}, "Ellos": {"Limpias": 1, "Puntos en mesa": 200}},
    )
    # The preview already tells the next minimums: 1500 needs 90, 1495 still 50.
    preview = page.get_by_role("region", name="Vista previa")
    expect(preview.get_by_role("row", name="Nosotros").get_by_role("cell")).to_have_text(
        [points(100, signed=True), points(1500), "90"]
    )
    expect(preview.get_by_role("row", name="Ellos").get_by_role("cell")).to_have_text(
        [points(800, signed=True), points(1495), "50"]
    )
    table.shot("preview-crossing-1500")
    table.save()

    table.expect_totals({"Nosotros": 1500, "Ellos": 1495})
    table.expect_minimums({"Nosotros": 90, "Ellos": 50})
    table.shot("minimum-90")
