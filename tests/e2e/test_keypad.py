"""Issue 25, item 6: the keypad's "next" (Enter) goes through what is shown, field to field
in reading order across the sides and then to Save, never into a closed section (the card
calculator, the adjustment, canastone's "more kinds"); a count takes one digit and moves on."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import LiveServer
from playwright.sync_api import Page
from playwright.sync_api import expect
from stored import create_stored_match
from stored import match_document

pytestmark = pytest.mark.browser

NAMES = ("Nosotros", "Ellos", "Aquellos")

#: What the focused element is: its id (a field's, or "save" for the Save button), whether a
#: person sees it (a box on the screen, no closed section around it) and its side.
FOCUSED = """() => {
  const element = document.activeElement;
  const box = element.getBoundingClientRect();
  const side = element.closest("section.side");
  return {
    id: element.matches("button.save") ? "save" : element.id,
    shown: box.width > 0 && box.height > 0 && !element.closest("details:not([open])"),
    side: side ? side.dataset.side : null,
  };
}"""

#: Every field a person can type into, as the screen shows it: each input with a box of its
#: own, outside any closed section, in the order of the page.
SHOWN_FIELDS = """() => Array.from(document.querySelectorAll(
    "#hand-form input:not([type=hidden]):not([type=radio]):not([type=checkbox])"))
  .filter((input) => {
    const box = input.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && !input.disabled
      && !input.closest("details:not([open])");
  })
  .map((input) => input.id)"""


def open_form(
    page: Page, server: LiveServer, variant: str, layout: str, sides: int, lang: str = "es"
) -> None:
    document = match_document(
        variant, layout=layout, sides=[{"name": name} for name in NAMES[:sides]]
    )
    match_id = create_stored_match(server.app, document)
    page.goto(f"/idioma/{lang}")
    page.goto(f"/partidas/{match_id}/manos/nueva")


def walk(page: Page) -> list[dict[str, Any]]:
    """Enter from the focused field until the focus reaches a button (at most 60 times)."""
    stops = [page.evaluate(FOCUSED)]
    for _ in range(60):
        page.keyboard.press("Enter")
        stops.append(page.evaluate(FOCUSED))
        if stops[-1]["id"] == "save":
            break
    return stops


@pytest.mark.parametrize(
    ("variant", "layout", "sides", "lang"),
    [
        ("uruguaya", "4p", 2, "es"),
        ("canastone", "6p-3x2", 3, "it"),
        ("burraco", "4p", 2, "it"),
        ("uruguaya", "6p-3x2", 3, "es"),
    ],
)
def test_next_goes_through_every_shown_field_then_to_save(
    page: Page, live_server: LiveServer, variant: str, layout: str, sides: int, lang: str
) -> None:
    open_form(page, live_server, variant, layout, sides, lang)
    closer = page.locator('input[name="closer"]').nth(1)  # the second side went out
    closer.check()
    expect(page.locator("section.side").first).to_have_attribute("data-side", "1")
    first = page.locator("#side-section-1 input[data-kind]").first
    expect(first).to_be_focused()
    stops = walk(page)
    ids = [stop["id"] for stop in stops]
    assert ids[-1] == "save", ids
    assert all(stop["shown"] for stop in stops), stops
    # Every shown field once, in the order of the page (the closer's side first), then Save.
    shown = page.evaluate(SHOWN_FIELDS)
    assert ids[:-1] == shown[shown.index(ids[0]) :], (ids, shown)
    sides_seen = [stop["side"] for stop in stops[:-1]]
    assert sides_seen[0] == "1"
    assert len(set(sides_seen)) == sides  # across every side
    # The keypad says "next" on each field but the last, which says "done".
    hints = [page.locator(f"#{name}").get_attribute("enterkeyhint") for name in ids[:-1]]
    assert hints == ["next"] * (len(hints) - 1) + ["done"], hints
    # A second Enter on Save saves (or says what stops it): the form is submitted.
    with page.expect_request(lambda request: request.method == "POST"):
        page.keyboard.press("Enter")


def test_a_count_takes_one_digit_and_an_open_section_is_walked_through(
    page: Page, live_server: LiveServer
) -> None:
    open_form(page, live_server, "canastone", "6p-3x2", 3, "it")
    page.locator('input[name="closer"]').first.check()
    nosotros = page.locator("#side-section-0")
    counts = nosotros.locator(".grid.counts").first.locator("input")
    expect(counts.first).to_be_focused()
    # One digit per count: pure, impure, red threes, then the table's points (not "more
    # kinds", closed). What is typed next lands in the points.
    page.keyboard.type("1")
    expect(counts.nth(1)).to_be_focused()
    page.keyboard.type("2")
    expect(counts.nth(2)).to_be_focused()
    page.keyboard.type("1")
    table_points = nosotros.locator(".points-row input").first
    expect(table_points).to_be_focused()
    page.keyboard.type("45120")
    expect(table_points).to_have_value("45120")
    for closed in page.locator("details:not([open]) input").all():
        assert closed.input_value() == ""  # nothing typed into a closed section
    # Opened, "more kinds" is in the way again: the last red three leads into it.
    nosotros.locator("details.more-kinds > summary").tap()
    counts.nth(2).focus()
    page.keyboard.press("Enter")
    expect(nosotros.locator("details.more-kinds input").first).to_be_focused()
