"""Whole matches of the variants of issue 12, as a person plays them on the phone: Modern
American Canasta with a special hand, Burako with a side that never takes its muerto, and
Burraco in Italian."""

from __future__ import annotations

import re
from typing import Any

import pytest
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SIDES = ("Nosotros", "Ellos")


def play(
    table: Table,
    hands: list[dict[str, Any]],
    first: int = 1,
    sides: tuple[str, ...] = SIDES,
    **words: str,
) -> None:
    """Record each hand (its closer, typed fields, ticks and choices) and check the planilla;
    the first of ``hands`` is hand number ``first``."""
    for number, hand in enumerate(hands, start=first):
        table.open_new_hand(words.get("link", "Anotar mano"))
        table.fill_hand(hand["closer"], hand["fields"], words.get("question", "¿Quién cerró?"))
        for side, label in hand.get("ticks", ()):
            table.tick(side, label)
        for side, group, option in hand.get("choices", ()):
            table.choose(side, group, option)
        table.shot(f"hand-{number}-form")
        table.save(words.get("save", "Guardar mano"))
        table.expect_totals(dict(zip(sides, hand["totals"], strict=True)))
        table.expect_row(number, hand["scores"], hand["totals"])
        table.shot(f"after-hand-{number}")


# mac: natural 500, mixed 300, natural aces 2500, going out 100 with two canastas; threes
# count plus from two canastas, not at all with one; without a canasta the table counts minus.
MAC_HANDS = [
    {
        "closer": "Nosotros",
        "fields": {
            "Nosotros": {"Naturales": 2, "Mixtas": 1, "Treses rojos": 1, "Puntos en mesa": 500},
            "Ellos": {"Mixtas": 1, "Treses negros": 1, "Puntos en mesa": 200, "Puntos en mano": 60},
        },
        "scores": [2000, 440],
        "totals": [2000, 440],
    },
    {
        # Ellos lay down a straight (3000): it replaces their score; nobody goes out.
        "closer": "Nadie: un equipo bajó una mano especial",
        "fields": {"Nosotros": {"Naturales": 1, "Puntos en mesa": 250, "Puntos en mano": 40}},
        "choices": [("Ellos", "Mano especial", "Escalera")],
        "scores": [710, 3000],
        "totals": [2710, 3440],
    },
    {
        "closer": "Ellos",
        "fields": {
            "Nosotros": {"Puntos en mesa": 150, "Puntos en mano": 90},
            "Ellos": {"De ases naturales": 1, "Naturales": 1, "Puntos en mesa": 700},
        },
        "ticks": [("Nosotros", "Juego de sietes sin completar")],
        "scores": [-2740, 3800],
        "totals": [-30, 7240],
    },
    {
        "closer": "Ellos",
        "fields": {
            "Nosotros": {"Puntos en mesa": 100, "Puntos en mano": 20},
            "Ellos": {"Naturales": 2, "Puntos en mesa": 400},
        },
        "scores": [-120, 1500],
        "totals": [-150, 8740],
    },
]


def test_a_whole_mac_match_with_a_special_hand(page: Page, table: Table) -> None:
    table.new_match_of("Americana moderna")
    expect(page.get_by_text("Americana moderna").first).to_be_visible()
    table.expect_minimums({"Nosotros": 125, "Ellos": 125})
    play(table, MAC_HANDS[:2])
    # The hand's details (folded on the planilla) say who laid down which special hand.
    expect(page.locator("#mano-2 .ending")).to_have_text("Mano especial de Ellos: Escalera.")
    table.expect_minimums({"Nosotros": 125, "Ellos": 155})
    play(table, MAC_HANDS[2:], first=3)
    expect(page.locator(".banner")).to_have_text("¡Ganó Ellos!")
    expect(page.get_by_role("link", name="Anotar mano")).to_have_count(0)


# burako: pura 200, impura 100, cortar 100, muerto +100 taken / −100 never taken; a side
# without a canasta counts the tiles it laid down against it.
NOT_TAKEN = ("Ellos", "Muerto", "No tomado")
BURAKO_HANDS = [
    {
        "closer": "Nosotros",
        "fields": {
            "Nosotros": {"Puras": 1, "Impuras": 1, "Puntos en mesa": 300},
            "Ellos": {"Puntos en mesa": 120, "Puntos en mano": 50},
        },
        "choices": [NOT_TAKEN],
        "scores": [800, -270],
        "totals": [800, -270],
    },
    {
        "closer": "Nadie, se acabó el mazo",
        "fields": {
            "Nosotros": {"Impuras": 1, "Puntos en mesa": 200, "Puntos en mano": 30},
            "Ellos": {"Puras": 1, "Puntos en mesa": 250, "Puntos en mano": 20},
        },
        "choices": [NOT_TAKEN],
        "scores": [370, 330],
        "totals": [1170, 60],
    },
    {
        "closer": "Nosotros",
        "fields": {
            "Nosotros": {"Puras": 3, "Impuras": 2, "Puntos en mesa": 900},
            "Ellos": {"Puntos en mesa": 80, "Puntos en mano": 100},
        },
        "choices": [NOT_TAKEN],
        "scores": [1900, -280],
        "totals": [3070, -220],
    },
]


def test_a_burako_match_where_a_side_never_takes_its_muerto(page: Page, table: Table) -> None:
    table.new_match_of("Burako")
    # No opening minimum in Burako.
    expect(table.score_side("Nosotros").locator(".minimum")).to_have_text(
        re.compile(r"^\s*Bajada libre\s*$")
    )
    table.open_new_hand()
    calculator = table.side("Nosotros").locator("details.calc")
    calculator.locator("summary").tap()
    expect(calculator.get_by_label("Fichas 1 (15)", exact=True).first).to_be_visible()
    expect(calculator.get_by_label("Comodines (50)", exact=True).first).to_be_visible()
    table.shot("tiles")
    page.go_back()
    play(table, BURAKO_HANDS)
    expect(page.locator(".banner")).to_have_text("¡Ganó Nosotros!")


# burraco (it): pulito 200, semipulito 150, sporco 100, chiusura 100, pozzetto not taken −100;
# melded cards always count plus; target 2005.
BURRACO_HANDS = [
    {
        "closer": "Noi",
        "fields": {
            "Noi": {"Burraco pulito": 1, "Burraco semipulito": 1, "Punti in tavola": 400},
            "Loro": {"Burraco sporco": 1, "Punti in tavola": 150, "Punti in mano": 60},
        },
        "choices": [("Loro", "Pozzetto", "Non preso")],
        "scores": [850, 90],
        "totals": [850, 90],
    },
    {
        "closer": "Loro",
        "fields": {
            "Noi": {"Punti in tavola": 100, "Punti in mano": 40},
            "Loro": {"Burraco pulito": 2, "Punti in tavola": 500},
        },
        "scores": [60, 1000],
        "totals": [910, 1090],
    },
    {
        "closer": "Noi",
        "fields": {
            "Noi": {"Burraco pulito": 1, "Burraco sporco": 2, "Punti in tavola": 600},
            "Loro": {"Punti in tavola": 200, "Punti in mano": 35},
        },
        "scores": [1100, 165],
        "totals": [2010, 1255],
    },
]


def test_a_burraco_match_in_italian(page: Page, table: Table) -> None:
    page.goto("/")
    table.switch_language("Idioma", "IT")
    table.new_match_of("Burraco", link="Nuova partita", start="Inizia")
    play(
        table,
        BURRACO_HANDS,
        sides=("Noi", "Loro"),
        link="Segna una mano",
        question="Chi ha chiuso?",
        save="Salva la mano",
    )
    expect(page.locator(".banner")).to_have_text("Ha vinto Noi!")
