"""A whole uruguaya match, from "Nueva partida" to the winner banner, as a person does it."""

import pytest
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# Uruguaya, 4 players in 2 pairs, 2 decks: clean 500, dirty 300, going out 100, one red three
# 100 (plus, since the side melded); minimum to open 50 below 1500, 90 below 3000, 120 from 3000.
HANDS = [
    # closer, inputs per side, expected hand scores, expected totals, expected minimums
    (
        "Nosotros",
        {
            "Nosotros": {"Limpias": 2, "Sucias": 1, "Puntos en mesa": 400},
            "Ellos": {"Sucias": 1, "Puntos en mesa": 250, "Puntos en mano": 60},
        },
        [1800, 490],
        [1800, 490],
        [90, 50],
    ),
    (
        "Ellos",
        {
            "Nosotros": {"Puntos en mesa": 200, "Puntos en mano": 30, "Treses rojos": 1},
            "Ellos": {"Limpias": 1, "Puntos en mesa": 300},
        },
        [270, 900],
        [2070, 1390],
        [90, 50],
    ),
    (
        "Nosotros",
        {
            "Nosotros": {"Limpias": 3, "Sucias": 1, "Puntos en mesa": 700},
            "Ellos": {"Limpias": 1, "Puntos en mesa": 350, "Puntos en mano": 45},
        },
        [2600, 805],
        [4670, 2195],
        [120, 90],
    ),
    (
        "Nosotros",
        {
            "Nosotros": {"Limpias": 1, "Puntos en mesa": 300},
            "Ellos": {"Puntos en mesa": 150, "Puntos en mano": 20},
        },
        [900, 130],
        [5570, 2325],
        None,
    ),
]


def test_whole_match_to_the_winner_banner(page: Page, table: Table) -> None:
    table.new_match()
    table.expect_totals({"Nosotros": 0, "Ellos": 0})
    table.expect_minimums({"Nosotros": 50, "Ellos": 50})
    expect(page.get_by_text("Todavía no hay manos.")).to_be_visible()
    table.shot("empty-planilla")

    for number, (closer, sides, scores, totals, minimums) in enumerate(HANDS, start=1):
        table.record_hand(closer, sides)
        expect(
            page.get_by_role("status").filter(has_text=f"Mano {number} anotada.")
        ).to_be_visible()
        table.expect_totals(dict(zip(("Nosotros", "Ellos"), totals, strict=True)))
        table.expect_row(number, scores, totals)
        if minimums:
            table.expect_minimums(dict(zip(("Nosotros", "Ellos"), minimums, strict=True)))
        table.shot(f"after-hand-{number}")

    expect(page.locator(".banner")).to_have_text("¡Ganó Nosotros!")
    expect(page.locator(".score-side.is-winner")).to_have_count(1)
    expect(table.score_side("Nosotros")).to_contain_class("is-winner")
    # The game is over: no more hands to record.
    expect(page.get_by_role("link", name="Anotar mano")).to_have_count(0)
    expect(page.locator(".sheet details.hand")).to_have_count(len(HANDS))

    # Home lists it first among the recent matches, with its winner (the matches other
    # browser tests left on the same server come after it).
    page.get_by_role("link", name="Anotador").tap()
    finished = page.get_by_role("region", name="Partidas recientes")
    expect(finished.get_by_role("link").first).to_contain_text("Ganó Nosotros")
    table.shot("home-finished")
