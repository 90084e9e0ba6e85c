"""Issue 25, items 1 to 3, on several phones: the copy a phone scores from offline is the
latest it has seen (live updates refresh it), a conflict choice touches only the hand the
panel showed (the person picks which), and the same hand typed on two phones is stored once
without a conflict."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import LiveServer
from phone import Shot
from phone import Table
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect
from test_offline_outbox import ENGINE_ANSWERS
from test_offline_outbox import HANDS
from test_offline_outbox import engine_cached
from test_offline_outbox import match_id_of
from test_offline_outbox import pending
from test_offline_outbox import stored_hands

from anotador import services

pytestmark = pytest.mark.browser

#: A hand none of HANDS is: Ellos went out with two clean canastas.
OTHER = (
    "Ellos",
    {
        "Nosotros": {"Puntos en mesa": 150, "Puntos en mano": 20},
        "Ellos": {"Limpias": 2, "Puntos en mesa": 250},
    },
)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """The phones run the service worker: it keeps the pages a phone opens offline."""
    return {**browser_context_args, "service_workers": "allow"}


def offline(context: BrowserContext) -> None:
    """No signal: nothing leaves the phone, the service worker's own fetches included."""
    context.set_offline(True)
    context.route("**/*", lambda route: route.abort())


def online(context: BrowserContext, page: Page) -> None:
    """The signal returns (the page is told at once: Chromium's own event may come late)."""
    context.unroute("**/*")
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def server_version(server: LiveServer, match_id: int) -> int:
    with server.app.app_context():
        found = services.queries.match_version(match_id)
        assert found is not None
        return found.version


#: The version of the phone's copy of a match file (offline.js keeps it in localStorage).
COPY_VERSION = """(match) => {
  const kept = JSON.parse(localStorage.getItem("anotador.documents") || "{}")[match];
  return kept === undefined ? null : kept.version;
}"""


def copy_is_current(page: Page, server: LiveServer, match_id: int) -> None:
    """Give the phone's live updates time to bring its copy to the server's version of the
    match (15 s at most; what the phone then does offline shows whether they did)."""
    version = server_version(server, match_id)
    for _ in range(60):
        if page.evaluate(COPY_VERSION, match_id) == version:
            return
        page.wait_for_timeout(250)


def installed(page: Page) -> None:
    """Wait until the service worker controls the page (a function: the page's policy
    refuses an expression evaluated as a string)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=250)


def second_phone(
    browser: Browser, browser_context_args: dict[str, Any], shot: Shot, match_id: int
) -> tuple[BrowserContext, Table]:
    """Another phone of the table, its planilla open, the service worker keeping its pages."""
    context = browser.new_context(**browser_context_args)
    phone = Table(context.new_page(), shot)
    phone.page.goto(f"/partidas/{match_id}")
    installed(phone.page)
    phone.page.reload()
    return context, phone


def saves_offline_knowing_the_match(
    phone: Table,
    context: BrowserContext,
    server: LiveServer,
    match_id: int,
    closer: str,
    sides: dict[str, dict[str, int]],
) -> None:
    """The phone opens the hand form once (its pages and copy of the match kept), its copy
    catches up with the server, then it loses the signal and saves a hand to its outbox."""
    phone.open_new_hand()
    phone.page.go_back()
    copy_is_current(phone.page, server, match_id)
    offline(context)
    phone.open_new_hand()
    save_offline(phone, closer, sides)


def save_offline(phone: Table, closer: str, sides: dict[str, dict[str, int]]) -> None:
    phone.fill_hand(closer, sides)
    phone.page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(phone.page).to_have_url(re.compile(r"/partidas/\d+$"))
    expect(pending(phone.page)).to_have_count(1)


def table_points(server: LiveServer, match_id: int) -> list[int]:
    """Each stored hand's Nosotros table points: which hand is which."""
    return [hand["sides"][0]["table_points"] for hand in stored_hands(server, match_id)]


def test_an_offline_hand_is_numbered_and_scored_after_every_hand_seen_live(
    page: Page,
    table: Table,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    shot: Shot,
):
    """Item 1: B opened the hand form at hand 2; A saved hands 2 and 3 and corrected hand 1,
    which B saw live; B loses the signal and saves: hand 4, scored after all of that."""
    match_id = match_id_of(table.new_match())
    table.record_hand(*HANDS[0][:2])
    b_context, b = second_phone(browser, browser_context_args, shot, match_id)
    b.open_new_hand()
    expect(b.page.get_by_role("heading", level=1)).to_have_text("Mano 2")
    engine_cached(b.page)

    table.record_hand(*HANDS[1][:2])
    table.record_hand(*HANDS[2][:2])
    page.locator("#mano-1 > summary").tap()
    page.locator("#mano-1 .breakdown").get_by_role("link", name="Editar").tap()
    table.side("Nosotros").get_by_label("Puntos en mesa", exact=True).fill("500")
    table.save("Guardar cambios")
    copy_is_current(b.page, live_server, match_id)

    offline(b_context)
    save_offline(b, *OTHER)
    # The planilla the service worker kept is the one after those changes, not B's first.
    expect(b.page.locator("#mano-3 .running").first).to_have_text("4.770")
    row = pending(b.page).first
    expect(row.locator(".hand-number")).to_contain_text("4")
    running = row.locator(".running")
    expect(running.first).not_to_have_text("…", timeout=ENGINE_ANSWERS)
    offline_totals = running.all_text_contents()
    b.shot("pending-after-live-hands")
    # Offline for a while, the phone cannot know it is still current: it says so.
    expect(row.locator(".provisional-badge")).to_be_visible(timeout=20_000)
    expect(b.page.locator(".pending-note")).to_contain_text("Provisoria")
    b.shot("provisional")

    online(b_context, b.page)
    expect(pending(b.page)).to_have_count(0, timeout=15_000)
    expect(b.page.locator("#mano-4 .running")).to_have_text(offline_totals)
    assert table_points(live_server, match_id) == [500, 200, 700, 150]
    b_context.close()


def test_mine_replaces_the_mistyped_hand_the_person_picks_and_nothing_else(
    page: Page,
    table: Table,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    shot: Shot,
):
    """Item 2: B knew hand 1 and saved the real hand 3 offline (as its hand 2); A saved the
    real hand 2 and a mistyped hand 3. B's panel shows both; B replaces hand 3, and a
    correction of hand 3 by a third phone before the tap makes the panel ask again."""
    match_id = match_id_of(table.new_match())
    table.record_hand(*HANDS[0][:2])
    b_context, b = second_phone(browser, browser_context_args, shot, match_id)
    saves_offline_knowing_the_match(b, b_context, live_server, match_id, *HANDS[2][:2])

    table.record_hand(*HANDS[1][:2])
    table.record_hand(*OTHER)  # the typo: hand 3 was HANDS[2]
    assert table_points(live_server, match_id) == [400, 200, 150]

    online(b_context, b.page)
    panel = b.page.locator(".conflict")
    expect(panel).to_be_visible(timeout=15_000)
    theirs = panel.locator(".conflict-one")
    expect(theirs).to_have_count(3)  # hands 2 and 3 of theirs, and mine
    expect(panel.get_by_role("button", name="La mía reemplaza la mano 2")).to_be_visible()
    b.shot("conflict-panel")

    # A third phone corrects hand 3 meanwhile (still not B's hand).
    c_context = browser.new_context(**browser_context_args)
    c = Table(c_context.new_page(), shot)
    c.page.goto(f"/partidas/{match_id}/manos/3")
    c.side("Nosotros").get_by_label("Puntos en mesa", exact=True).fill("160")
    c.save("Guardar cambios")
    c_context.close()
    assert table_points(live_server, match_id) == [400, 200, 160]
    panel.get_by_role("button", name="La mía reemplaza la mano 3").tap()
    # Not replaced unseen: the panel asks again, with hand 3 as it is now.
    expect(b.page.locator(".conflict")).to_contain_text("160", timeout=15_000)
    b.shot("conflict-asked-again")
    assert table_points(live_server, match_id) == [400, 200, 160]

    b.page.locator(".conflict").get_by_role("button", name="La mía reemplaza la mano 3").tap()
    expect(pending(b.page)).to_have_count(0, timeout=15_000)
    expect(b.page.locator(".conflict")).to_have_count(0)
    assert table_points(live_server, match_id) == [400, 200, 700]
    b_context.close()


def test_the_same_hand_saved_on_two_phones_is_stored_once_without_a_conflict(
    page: Page,
    table: Table,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    shot: Shot,
):
    """Item 3: B offline and A online saved the same inputs for hand 2."""
    match_id = match_id_of(table.new_match())
    table.record_hand(*HANDS[0][:2])
    b_context, b = second_phone(browser, browser_context_args, shot, match_id)
    saves_offline_knowing_the_match(b, b_context, live_server, match_id, *HANDS[1][:2])
    table.record_hand(*HANDS[1][:2])

    online(b_context, b.page)
    expect(pending(b.page)).to_have_count(0, timeout=15_000)
    expect(b.page.locator("#mano-2")).to_have_count(1)
    expect(b.page.locator("#mano-3")).to_have_count(0)
    expect(b.page.locator(".conflict")).to_have_count(0)
    assert table_points(live_server, match_id) == [400, 200]
    b_context.close()
