"""The hand form's helpers: the card calculator, the live preview, one save per double tap."""

import re

import pytest
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def tap_times(button, times: int) -> None:
    for _ in range(times):
        button.tap()


def test_card_calculator_fills_the_points_with_the_variant_values(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    nosotros = table.side("Nosotros")
    nosotros.get_by_text("Calculadora de cartas").tap()

    # On the table: 2 jokers (50) + 3 aces (20) + 4 kings (8 to K, 10) = 200, by tapping "+".
    on_table = nosotros.get_by_role("group", name=re.compile("^Cartas en mesa"))
    tap_times(on_table.get_by_role("button", name="Uno más: Comodines (50)"), 2)
    tap_times(on_table.get_by_role("button", name="Uno más: Ases (20)"), 3)
    tap_times(on_table.get_by_role("button", name="Uno más: 8 a K (10)"), 4)
    expect(on_table.get_by_label("Comodines (50)", exact=True)).to_have_value("2")
    expect(nosotros.get_by_label("Puntos en mesa", exact=True)).to_have_value("200")
    expect(on_table.locator("output")).to_have_text("200")

    # In hand, typed on the keypad: 1 joker + 2 fours-to-sevens = 60; one tap back on "−".
    in_hand = nosotros.get_by_role("group", name=re.compile("^Cartas en mano"))
    in_hand.get_by_label("Comodines (50)", exact=True).fill("1")
    in_hand.get_by_label("4 a 7 (5)", exact=True).fill("3")
    in_hand.get_by_role("button", name="Uno menos: 4 a 7 (5)").tap()
    expect(nosotros.get_by_label("Puntos en mano", exact=True)).to_have_value("60")
    table.shot("calculator")

    table.fill_hand("Nosotros", {"Nosotros": {"Limpias": 1}, "Ellos": {"Puntos en mesa": 50}})
    table.save()
    # 500 (clean) + 200 (table) + 100 (going out) − 60 (hand) = 740.
    table.expect_row(1, [740, 50], [740, 50])
    table.expect_totals({"Nosotros": 740, "Ellos": 50})
    table.shot("saved")


def test_live_preview_follows_the_typing(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    preview = page.get_by_role("region", name="Vista previa")
    expect(preview.get_by_text("Completá la mano")).to_be_visible()

    table.fill_hand("Nosotros", {"Nosotros": {"Limpias": 1, "Puntos en mesa": 300}})
    row = preview.get_by_role("row", name="Nosotros")
    expect(row.get_by_role("cell")).to_have_text(["+900", "900", "50"])
    expect(page.locator("#preview-line")).to_contain_text("Nosotros +900 → 900")
    table.shot("preview-900")

    # Typing more table points moves the preview, nothing saved yet.
    table.side("Nosotros").get_by_label("Puntos en mesa", exact=True).fill("1350")
    expect(row.get_by_role("cell")).to_have_text(["+1.950", "1.950", "90"])
    table.side("Ellos").get_by_label("Puntos en mano", exact=True).fill("40")
    expect(preview.get_by_role("row", name="Ellos").get_by_role("cell")).to_have_text(
        ["\u221240", "\u221240", "15"]  # a real minus, as on the planilla
    )
    table.shot("preview-1950")

    page.get_by_role("link", name="← Planilla").tap()
    table.expect_totals({"Nosotros": 0, "Ellos": 0})
    expect(page.get_by_text("Todavía no hay manos.")).to_be_visible()


def test_double_tap_on_save_records_the_hand_once(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Ellos", {"Ellos": {"Limpias": 1, "Puntos en mesa": 120}})
    page.get_by_role("button", name="Guardar mano", exact=True).dblclick()
    expect(page).to_have_url(re.compile(r"/partidas/\d+$"))
    table.expect_totals({"Nosotros": 0, "Ellos": 720})
    expect(page.locator(".sheet details.hand")).to_have_count(1)
    table.shot("after-double-tap")


def test_a_retried_save_without_javascript_records_the_hand_once(
    no_js_page: Page, table: Table
) -> None:
    """No script to block the second tap: the form's one-time key must do it on the server.
    The network sends the same POST twice (a retry); the person sees the second answer."""
    page = table.page = no_js_page
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Ellos", {"Ellos": {"Limpias": 1, "Puntos en mesa": 120}})
    table.shot("hand-form-without-js")

    sent: list[int] = []

    def twice(route: Route) -> None:
        sent.append(route.fetch(max_redirects=0).status)
        second = route.fetch(max_redirects=0)
        sent.append(second.status)
        route.fulfill(response=second)

    page.route(
        re.compile(r"/manos/nueva$"),
        lambda route: twice(route) if route.request.method == "POST" else route.continue_(),
    )
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(page).to_have_url(re.compile(r"/partidas/\d+$"))
    assert len(sent) == 2
    assert all(300 <= status < 400 for status in sent), sent  # both answered with a redirect
    expect(page.get_by_role("status")).to_have_text("Esta mano ya estaba anotada.")
    table.expect_totals({"Nosotros": 0, "Ellos": 720})
    expect(page.locator(".sheet details.hand")).to_have_count(1)
    table.shot("retried")


def test_en_mano_appears_only_once_a_side_went_out(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    en_mano = page.get_by_label(re.compile("^Cerró en mano"))
    closer = page.get_by_role("group", name="¿Quién cerró?")
    expect(en_mano).to_be_hidden()  # nobody chosen yet
    closer.get_by_label("Nosotros", exact=True).check()
    expect(en_mano).to_be_visible()
    closer.get_by_label("Nadie, se acabó el mazo", exact=True).check()
    expect(en_mano).to_be_hidden()
    table.shot("en-mano-hidden")
