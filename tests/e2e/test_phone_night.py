"""Issue 38, what a club night tripped over on the table phones (items 1, 5 and 6): a digit
typed into a box arrives in that box, every page of the night fits a 390 px phone with both
partners' names, and a hand saved offline shows its totals in the page's own words."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import LiveServer
from phone import Shot
from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect
from stored import OWNER

from anotador import services
from anotador.storage.database import db
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament

pytestmark = pytest.mark.browser

#: Each language's night: its variant, and the labels of the fields typed on the phone.
NIGHTS = {
    "it": {
        "variant": "burraco",
        "table": "Punti in tavola",
        "hand": "Punti in mano",
        "north_south": {"Burraco pulito": "1", "Burraco sporco": "1", "Punti in tavola": "150"},
        "east_west_clean": "Burraco pulito",
    },
    "es": {
        "variant": "uruguaya",
        "table": "Puntos en mesa",
        "hand": "Puntos en mano",
        "north_south": {"Limpias": "2", "Sucias": "1", "Puntos en mesa": "400"},
        "east_west_clean": "Limpias",
    },
}
#: A club's pairs, whose labels ("1. Maria Grazia … – Giovanni …") take lines on a phone.
PAIRS = [
    ("Maria Grazia Bellandi", "Giovanni Battista Ferretti"),
    ("Anna Lucia Carboni", "Bruno Maria Castellani"),
]


def night(server: LiveServer, variant: str, pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """A Mitchell night of ``pairs`` (3 hands a round), round 1 started: the tournament's id,
    its first table's match id and table link, and each pair's id."""
    with server.app.app_context():
        owner = services.accounts.find_account(OWNER)
        setup = service.SetUp(
            "Serata del giovedì", datetime.date(2026, 12, 7), variant, {}, 3, "wdl", "mitchell", 1
        )
        tournament = service.create_tournament(owner.id, setup)
        assert isinstance(tournament, Tournament), tournament
        pair_ids = [service.add_pair(tournament, owner.id, *pair).id for pair in pairs]
        round_row = rounds.draw_round(tournament, owner.id)
        rounds.start_round(round_row, owner.id)
        table = min((t for t in round_row.tables if t.match), key=lambda t: t.number or 0)
        assert table.match is not None
        found = {
            "tournament": tournament.id,
            "match": table.match.id,
            "link": f"/enlace/{table.match.table_token}",
            "pairs": pair_ids,
        }
        db.session.remove()
        return found


def table_phone(phones: Callable[..., Page], lang: str, link: str) -> Page:
    """A phone at the table, in ``lang``, on the new-hand form of the table's link."""
    phone = phones()
    phone.goto(f"/idioma/{lang}")
    phone.goto(link)
    phone.locator('a[href$="/manos/nueva"]').first.tap()
    expect(phone.locator("#hand-form")).to_be_visible()
    return phone


#: Scrolls the hand form so that ``id``'s box sits just above the sticky save bar, as the
#: next field of a phone's form does while the keypad is open; its centre, where a thumb taps.
ABOVE_THE_BAR = """(id) => {
  const field = document.getElementById(id);
  const bar = document.querySelector("#hand-form .actions").getBoundingClientRect();
  window.scrollBy(0, field.getBoundingClientRect().bottom - (bar.top - 8));
  const box = field.getBoundingClientRect();
  return {x: box.left + box.width / 2, y: box.top + box.height / 2};
}"""


@pytest.mark.parametrize("lang", ["it", "es"])
def test_a_digit_typed_into_a_box_arrives_in_that_box(
    live_server: LiveServer, phones: Callable[..., Page], shot: Shot, lang: str
) -> None:
    """Item 1: the EW table points tapped after the NS fields and typed 75 stayed empty,
    and the hand was saved with 0. The preview's answer grew the sticky save bar over the
    field just above it: the tap aimed at the field landed on the bar. Typed through touch
    (keys, and text inserted by the phone's keyboard) and a keyboard's Enter, every digit
    reaches its box and the saved hand."""
    words = NIGHTS[lang]
    found = night(live_server, words["variant"], PAIRS)
    phone = table_phone(phones, lang, found["link"])
    north_south = phone.locator("section.side").nth(0)
    east_west = phone.locator("section.side").nth(1)
    # The previews wait until the person has aimed at the next field.
    held: list[Route] = []
    phone.route("**/vista-previa", lambda route: held.append(route))
    phone.locator('label[for="closer-0"]').tap()
    for label, value in words["north_south"].items():
        north_south.get_by_label(label, exact=True).tap()
        phone.keyboard.type(value)
    shot("north-south-typed", of=phone)  # (a full-page shot scrolls: not after the aim)
    table_points = east_west.get_by_label(words["table"], exact=True)
    aim = phone.evaluate(ABOVE_THE_BAR, table_points.get_attribute("id"))
    phone.wait_for_timeout(1000)  # the last change's preview asked (350 ms after it)
    assert held
    for route in held:
        route.continue_()
    phone.unroute("**/vista-previa")
    expect(phone.locator("#preview-table")).to_be_visible()
    phone.touchscreen.tap(aim["x"], aim["y"])
    phone.keyboard.type("75")
    expect(table_points).to_have_value("75")
    # The keypad's "next" (Enter) leads to the hand's points, typed on a keyboard.
    phone.keyboard.press("Enter")
    hand_points = east_west.get_by_label(words["hand"], exact=True)
    expect(hand_points).to_be_focused()
    phone.keyboard.type("40")
    expect(hand_points).to_have_value("40")
    # A phone's keyboard inserts the text without key events: a count takes it too.
    clean = east_west.get_by_label(words["east_west_clean"], exact=True)
    clean.tap()
    phone.keyboard.insert_text("1")
    expect(clean).to_have_value("1")
    shot("typed", of=phone)
    phone.locator("#hand-form .actions button.save").tap()
    expect(phone).to_have_url(re.compile(r"/partidas/\d+$"))
    with live_server.app.app_context():
        match = services.queries.load_match(found["match"])
        assert match is not None
        east_west_typed = match.hands[0].inputs["sides"][1]
        db.session.remove()
    assert east_west_typed["table_points"] == 75, east_west_typed
    assert east_west_typed["hand_points"] == 40, east_west_typed


def signal_lost(page: Page) -> None:
    page.context.set_offline(True)
    page.context.route("**/*", lambda route: route.abort())


def signal_back(page: Page) -> None:
    page.context.unroute_all(behavior="ignoreErrors")
    page.context.set_offline(False)


def test_a_hand_saved_offline_shows_its_totals_in_the_pages_words(
    live_server: LiveServer, phones: Callable[..., Page], shot: Shot
) -> None:
    """Item 6: a table phone on the club's wifi (plain HTTP, no service worker) lost its
    signal before the engine's 13 MB had arrived: the pending row showed "…" instead of its
    totals, and the preview named the closer "closer". The hand keeps the figures of the
    preview it was saved with, and every word is the page's."""
    found = night(live_server, "burraco", PAIRS)
    phone = table_phone(phones, "it", found["link"])
    # The engine's files never arrive (the wifi was lost while they downloaded).
    phone.route("**/motor/**", lambda route: route.abort())
    north_south = phone.locator("section.side").nth(0)
    phone.locator('label[for="closer-0"]').tap()
    north_south.get_by_label("Burraco pulito", exact=True).fill("1")
    north_south.get_by_label("Punti in tavola", exact=True).fill("150")
    preview = phone.locator("#preview-table tbody tr td.big")
    expect(preview).to_have_text(["450", "0"])  # the server's
    signal_lost(phone)
    phone.locator("#hand-form .actions button.save").tap()
    expect(phone.locator("#planilla-here .planilla")).to_be_visible()
    row = phone.locator(".hand.is-pending > summary")
    expect(row.locator(".delta")).to_have_text(["+450", "0"])
    expect(row.locator(".running")).to_have_text(["450", "0"])
    expect(phone.locator("#planilla-here .scoreboard .total")).to_have_text(["450", "0"])
    expect(phone.locator("#planilla-here .scoreboard .minimum:visible")).to_have_count(0)  # burraco
    expect(phone.locator(".pending-note")).not_to_contain_text("quando torna la connessione")
    shot("pending", of=phone)
    # The next hand, still offline: what stops its preview is named in Italian.
    phone.locator("#planilla-here .actions button").tap()
    phone.locator("section.side").nth(1).get_by_label("Punti in tavola", exact=True).fill("75")
    blocked = phone.locator("#preview-blocked")
    expect(blocked.get_by_role("link")).to_have_text(["Chi ha chiuso?"])
    expect(phone.locator("#hand-form")).not_to_contain_text("closer")
    shot("offline-preview", of=phone)
    signal_back(phone)


#: Pairs of long names: each pair's label ("1. María Josefina … – Giovanni …") is longer
#: than a side's name may be (60 characters), the first name alone nearly as long.
LONG_PAIRS = [
    ("María Josefina Bellandi de la Torre y Montefeltro", "Giovanni Battista Ferretti"),
    ("Anna Lucia Carboni Montefeltro", "Bruno Maria Castellani di Rocca"),
]
#: How each player is known at a glance: the first two words of the name.
GLANCES = [" ".join(player.split()[:2]) for pair in LONG_PAIRS for player in pair]

#: The page's width, and what it clips: every element whose text overflows a box that hides
#: the rest (a scroller shows it), with its text. Aside: what is off the screen or takes no
#: room (the form's default button, the visually hidden words), the save bar's line,
#: which shortens each name by design (the preview's table above it names them whole), and
#: the fields, whose long value scrolls inside them as any text box's does.
WIDTH_AND_CLIPS = """() => {
  const clipped = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (!["hidden", "clip"].includes(getComputedStyle(el).overflowX)) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.right <= 0 || el.closest("#preview-line")) continue;
    if (el.matches("input, textarea, select")) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      const name = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
      clipped.push(`${name}: ${el.textContent.trim()}`);
    }
  }
  return {width: document.scrollingElement.scrollWidth, clipped};
}"""

#: How many lines a cell's text takes.
LINES = """(cell) => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
}"""


@pytest.mark.parametrize("lang", ["es", "it"])
def test_every_page_of_the_night_fits_a_390_px_phone_with_both_names(
    page: Page, live_server: LiveServer, phones: Callable[..., Page], shot: Shot, lang: str
) -> None:
    """Item 5: at 390 px the director's tournament page was 837 px wide (the spectators'
    link), a pair's page 461 px; the planilla's header clipped the names, the preview's
    headers broke mid-word ("Parzia/le") and a pair's label was cut at 60 characters (the
    partner gone). No page of the night is wider than the phone, none clips a name, and
    each pair shows both its players wherever it is named."""
    found = night(live_server, "burraco", LONG_PAIRS)
    base = f"/torneos/{found['tournament']}"
    phone = table_phone(phones, lang, found["link"])
    phone.locator('label[for="closer-0"]').tap()
    north_south = phone.locator("section.side").nth(0)
    north_south.locator(".counts input").first.fill("1")
    north_south.locator(".points-row input").first.fill("150")
    expect(phone.locator("#preview-table")).to_be_visible()
    pages: dict[str, Page] = {"hand-form": phone}
    page.goto(f"/idioma/{lang}")
    for name, url in [
        ("tournament", base),
        ("pair", f"{base}/parejas/{found['pairs'][0]}"),
        ("round", f"{base}/rondas/1"),
        ("standings", f"{base}/posiciones"),
        ("planilla", f"/partidas/{found['match']}"),
    ]:
        if name != "tournament":
            page = page.context.new_page()
        page.goto(url)
        pages[name] = page
        if name == "tournament":  # the spectators' link made
            page.locator("#enlace form button").tap()
            expect(page.locator("#enlace .share-url")).to_be_visible()
    problems = {}
    for name, shown in pages.items():
        shot(f"{lang}-{name}", of=shown)
        measured = shown.evaluate(WIDTH_AND_CLIPS)
        text = shown.locator("body").inner_text()
        missing = [player for player in GLANCES if player not in text]
        if measured["width"] > 390 or measured["clipped"] or missing:
            problems[name] = {**measured, "missing": missing}
    # The preview's headers are whole words on their lines.
    for header in phone.locator("#preview-table thead th").all():
        if header.evaluate(LINES) > len(header.inner_text().split()):
            problems.setdefault("preview-headers", []).append(header.inner_text())
    assert not problems, problems
