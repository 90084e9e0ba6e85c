"""Issue 13, item 3: wrong input is easy to fix. The preview says what stops it, a failed
save reports every problem at once, each once beside its field, with a summary at the top
that links to each field and takes the focus."""

from __future__ import annotations

import re

import pytest
from phone import AXE
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect
from test_accessibility import BLOCKING
from test_accessibility import axe_violations

pytestmark = pytest.mark.browser

WRONG = {"Nosotros": {"Limpias": 1, "Puntos en mesa": 33, "Treses rojos": 9}}
MESSAGES = ("Tiene que ser múltiplo de 5.", "Como máximo 4 treses rojos con 2 mazos.")


def test_the_preview_says_what_stops_it(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Nosotros", WRONG)
    preview = page.get_by_role("region", name="Vista previa")
    expect(preview.get_by_text("Para ver el resultado, corregí:")).to_be_visible()
    links = preview.get_by_role("link")
    expect(links).to_have_text(["Nosotros · Puntos en mesa", "Nosotros · Treses rojos"])
    expect(page.locator("#preview-line")).to_contain_text("Para ver el resultado, corregí:")
    for message in MESSAGES:
        expect(page.get_by_text(message)).to_have_count(1)
    table.shot("preview-stopped")
    links.first.tap()
    expect(page).to_have_url(re.compile(r"#s0_table_points$"))
    expect(table.side("Nosotros").get_by_label("Puntos en mesa", exact=True)).to_be_in_viewport()


def test_a_failed_save_reports_everything_once_and_focuses_the_summary(
    page: Page, table: Table
) -> None:
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Nosotros", WRONG)
    table.side("Ellos").get_by_label("Puntos en mano", exact=True).fill("−60")
    page.get_by_role("button", name="Guardar mano", exact=True).tap()

    summary = page.locator("#problemas")
    expect(summary).to_be_focused()
    expect(summary).to_be_in_viewport()
    expect(summary.get_by_role("link")).to_have_text(
        ["Nosotros · Puntos en mesa", "Nosotros · Treses rojos", "Ellos · Puntos en mano"]
    )
    hint = "Tiene que estar entre 0 y 20000: sin el signo menos."
    for message in (*MESSAGES, hint):
        expect(page.get_by_text(message, exact=True)).to_have_count(1)
    expect(table.side("Ellos").get_by_text(hint)).to_be_visible()
    # The preview of the form shown again ran (its messages replace the server's, marked
    # live): still each message once.
    expect(table.side("Ellos").locator(".msg.live").first).to_be_attached()
    for message in (*MESSAGES, hint):
        expect(page.get_by_text(message, exact=True)).to_have_count(1)
    table.shot("failed-save")

    summary.get_by_role("link", name="Ellos · Puntos en mano").tap()
    expect(table.side("Ellos").get_by_label("Puntos en mano", exact=True)).to_be_in_viewport()


def test_without_javascript_a_failed_save_lists_every_problem(
    no_js_page: Page, table: Table
) -> None:
    page = table.page = no_js_page
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Nosotros", WRONG)
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(page.locator("#problemas").get_by_role("link")).to_have_count(2)
    for message in MESSAGES:
        expect(page.get_by_text(message, exact=True)).to_have_count(1)
    table.shot("failed-save-without-js")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_summary_and_the_draft_offer_pass_axe(page: Page, table: Table, scheme: str) -> None:
    if not AXE.exists():
        pytest.skip(f"{AXE} is missing: run `npm ci --prefix tests/e2e` (make test does)")
    page.emulate_media(color_scheme=scheme)
    page.add_init_script(path=AXE)
    table.new_match()
    table.open_new_hand()
    table.fill_hand("Nosotros", WRONG)
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(page.locator("#problemas")).to_be_focused()
    page.goto(page.url)  # the form again: the draft offered
    expect(page.get_by_role("button", name="Recuperar")).to_be_visible()
    page.get_by_role("button", name="Recuperar").tap()
    expect(page.get_by_text("Para ver el resultado, corregí:").first).to_be_visible()
    table.shot(f"{scheme}-axe")
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert blocking == [], blocking
