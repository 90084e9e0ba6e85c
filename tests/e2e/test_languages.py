"""The language switch: Spanish by default, English and Italian with their card-table words."""

import pytest
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# What a side's section and the closing question say in each language (from the catalogs).
WORDS = {
    "es": {
        "nav": "Idioma",
        "heading": "Mano 1",
        "closer": "¿Quién cerró?",
        "nobody": "Nadie, se acabó el mazo",
        "fields": ["Limpias", "Sucias", "Treses rojos", "Puntos en mesa", "Puntos en mano"],
        "save": "Guardar mano",
    },
    "en": {
        "nav": "Language",
        "heading": "Hand 1",
        "closer": "Who went out?",
        "nobody": "Nobody, the stock ran out",
        "fields": [
            "Clean canastas",
            "Dirty canastas",
            "Red threes",
            "Points on the table",
            "Points in hand",
        ],
        "save": "Save hand",
    },
    "it": {
        "nav": "Lingua",
        "heading": "Mano 1",
        "closer": "Chi ha chiuso?",
        "nobody": "Nessuno, è finito il tallone",
        "fields": ["Pulite", "Sporche", "Tre rossi", "Punti in tavola", "Punti in mano"],
        "save": "Salva la mano",
    },
}


def expect_hand_form_in(page: Page, lang: str) -> None:
    words = WORDS[lang]
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_role("heading", level=1)).to_have_text(words["heading"])
    closer = page.get_by_role("group", name=words["closer"])
    expect(closer.get_by_label(words["nobody"])).to_be_visible()
    side = page.get_by_role("region", name="Nosotros", exact=True)
    for label in words["fields"]:
        expect(side.get_by_label(label, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=words["save"], exact=True)).to_be_visible()


def switch(page: Page, current: str, to: str) -> None:
    url = page.url
    nav = page.get_by_role("navigation", name=WORDS[current]["nav"])
    nav.get_by_role("link", name=to.upper(), exact=True).tap()
    expect(page).to_have_url(url)  # the switch comes back to the same screen
    expect(
        page.get_by_role("navigation", name=WORDS[to]["nav"]).locator("[aria-current]")
    ).to_have_text(to.upper())


def test_language_switch_changes_the_card_table_words(page: Page, table: Table) -> None:
    table.new_match()
    table.open_new_hand()
    expect_hand_form_in(page, "es")  # the phone says es-AR
    table.shot("es")

    switch(page, "es", "en")
    expect_hand_form_in(page, "en")
    table.shot("en")

    switch(page, "en", "it")
    expect_hand_form_in(page, "it")
    table.shot("it")

    # The choice sticks while moving around: the planilla is in Italian too.
    page.get_by_role("link", name="← Foglio dei punti").tap()
    expect(page.get_by_role("link", name="Segna una mano").first).to_be_visible()
    table.shot("it-planilla")

    switch(page, "it", "es")
    expect(page.get_by_role("link", name="Anotar mano").first).to_be_visible()
    table.open_new_hand()
    expect_hand_form_in(page, "es")
