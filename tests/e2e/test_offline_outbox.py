"""Scoring without a connection: the installed app opens offline, hands saved offline wait on
the phone as pending (with the engine's totals), and reach the server once each, in order."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from conftest import LiveServer
from conftest import owner_cookies
from phone import Shot
from phone import Table
from phone import points
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from playwright.sync_api import expect

from anotador import services

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """The phones of these tests run the service worker (conftest's phones block it)."""
    return {**browser_context_args, "service_workers": "allow"}


# Uruguaya 4p, as test_match.py: the hand scores, totals and minimums the server computes.
HANDS = [
    (
        "Nosotros",
        {
            "Nosotros": {"Limpias": 2, "Sucias": 1, "Puntos en mesa": 400},
            "Ellos": {"Sucias": 1, "Puntos en mesa": 250, "Puntos en mano": 60},
        },
        [1800, 490],
        [90, 50],
    ),
    (
        "Ellos",
        {
            "Nosotros": {"Puntos en mesa": 200, "Puntos en mano": 30, "Treses rojos": 1},
            "Ellos": {"Limpias": 1, "Puntos en mesa": 300},
        },
        [2070, 1390],
        [90, 50],
    ),
    (
        "Nosotros",
        {
            "Nosotros": {"Limpias": 3, "Sucias": 1, "Puntos en mesa": 700},
            "Ellos": {"Limpias": 1, "Puntos en mesa": 350, "Puntos en mano": 45},
        },
        [4670, 2195],
        [120, 90],
    ),
]


#: Each planilla opened offline starts the engine afresh (Pyodide: seconds on a phone, far
#: more on a busy two-core CI machine); what it shows is checked once it has answered.
ENGINE_ANSWERS = 120_000


def expect_standing(page: Page, totals: list[int], minimums: list[int]) -> None:
    """The scoreboard's totals and opening minimums (Nosotros, Ellos) as the engine put them."""
    expect(page.locator(".scoreboard .total")).to_have_text(
        [points(total) for total in totals], timeout=ENGINE_ANSWERS
    )
    expect(page.locator(".scoreboard .minimum strong")).to_have_text(
        [points(minimum) for minimum in minimums]
    )


def installed(page: Page) -> None:
    """Wait until the service worker controls the page (it caches what it serves then)."""
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")


#: True once the service worker holds every file the engine needs to start offline.
ENGINE_CACHED = """async () => {
  if (!window.anotadorEngine) return false;  // the page is still loading its scripts
  const urls = window.anotadorEngine.assetUrls();
  for (const url of urls) if (!(await caches.match(url))) return false;
  return urls.length > 0;
}"""


def engine_cached(page: Page) -> None:
    """Wait for the background fetch of the engine's files (on a visit after the first)."""
    page.wait_for_function(ENGINE_CACHED, polling=500, timeout=60_000)


def stored_hands(server: LiveServer, match_id: int) -> list[dict[str, Any]]:
    with server.app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        return [hand.inputs for hand in match.hands]


def match_id_of(url: str) -> int:
    found = re.search(r"/partidas/(\d+)$", url)
    assert found, url
    return int(found.group(1))


def pending(page: Page) -> Any:
    return page.locator(".hand.is-pending")


def record_offline(table: Table, closer: str, sides: dict[str, dict[str, int]]) -> None:
    table.open_new_hand()
    table.fill_hand(closer, sides)
    table.page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(table.page).to_have_url(re.compile(r"/partidas/\d+$"))


def back_online(context: BrowserContext, page: Page) -> None:
    """The connection comes back; the page is told too, as Chromium's own ``online`` event
    may come late. The outbox may already have sent its hands and reloaded the page (it does
    when what it holds changed), which ends the script that would tell it: nothing is left
    to tell then."""
    context.set_offline(False)
    with contextlib.suppress(PlaywrightError):
        page.evaluate("window.dispatchEvent(new Event('online'))")


def test_three_hands_offline_reach_the_server_once_each_in_order(
    page: Page, context: BrowserContext, table: Table, live_server: LiveServer
):
    url = table.new_match()
    match_id = match_id_of(url)
    installed(page)
    page.reload()
    table.open_new_hand()
    engine_cached(page)
    page.go_back()
    context.set_offline(True)
    for closer, sides, totals, minimums in HANDS:
        record_offline(table, closer, sides)
        expect_standing(page, totals, minimums)
    expect(pending(page)).to_have_count(3)
    table.shot("three-pending")
    assert stored_hands(live_server, match_id) == []

    page.reload()
    expect(pending(page)).to_have_count(3)
    expect(pending(page).nth(2).locator(".running")).to_have_text(
        [points(total) for total in HANDS[2][2]], timeout=ENGINE_ANSWERS
    )

    back_online(context, page)
    expect(pending(page)).to_have_count(0, timeout=15_000)
    table.expect_totals({"Nosotros": 4670, "Ellos": 2195})
    for number in (1, 2, 3):
        expect(page.locator(f"#mano-{number}")).to_have_count(1)
    hands = stored_hands(live_server, match_id)
    assert [hand["closer"] for hand in hands] == [0, 1, 0]
    assert [hand["sides"][0]["table_points"] for hand in hands] == [400, 200, 700]


def test_a_server_without_its_database_leaves_the_kept_planilla_on_screen(
    page: Page, context: BrowserContext, table: Table
):
    """A 503 for a page the phone keeps (the server cannot reach its database): the kept
    planilla shows, not the error."""
    url = table.new_match()
    installed(page)
    closer, sides, totals, _minimums = HANDS[0]
    table.record_hand(closer, sides)
    page.reload()  # the planilla with its hand, kept by the service worker

    context.route(
        url, lambda route: route.fulfill(status=503, body="sin base", content_type="text/html")
    )
    page.reload()

    table.expect_totals({"Nosotros": totals[0], "Ellos": totals[1]})
    expect(page.get_by_text("sin base")).to_have_count(0)
    context.unroute(url)


def test_the_preview_is_the_phones_own_without_a_connection(
    page: Page, context: BrowserContext, table: Table
):
    """The hand form's preview, offline: the engine on the phone gives the server's figures,
    after the hands already queued, and says what stops it in the page's language."""
    table.new_match()
    table.open_new_hand()
    context.set_offline(True)
    closer, sides, totals, minimums = HANDS[0]
    table.fill_hand(closer, sides)

    preview = page.locator("#preview-table tbody tr")
    expect(preview.locator("td.big")).to_have_text(
        [points(total) for total in totals], timeout=ENGINE_ANSWERS
    )
    expect(preview.nth(0).locator("td").nth(2)).to_have_text(points(minimums[0]))
    table.shot("preview-offline")

    table.side("Ellos").get_by_label("Puntos en mesa", exact=True).fill("33")
    expect(page.locator("#f-s1_table_points .msg")).to_contain_text("múltiplo de 5")
    expect(page.locator("#preview-table")).to_be_hidden()
    context.set_offline(False)


def test_a_hand_queued_in_a_killed_browser_is_sent_when_the_app_opens_again(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer, shot: Shot
):
    first = browser.new_context(**browser_context_args)
    table = Table(first.new_page(), shot)
    match_id = match_id_of(table.new_match())
    installed(table.page)
    table.open_new_hand()
    engine_cached(table.page)
    table.page.go_back()
    first.set_offline(True)
    closer, sides, _totals, _minimums = HANDS[0]
    record_offline(table, closer, sides)
    expect(pending(table.page)).to_have_count(1)
    left = first.storage_state()
    first.close()  # the browser is killed with the hand still on the phone
    assert stored_hands(live_server, match_id) == []

    # Its storage only (a new profile would install the worker afresh; the outbox is the test).
    again = browser.new_context(
        **{**browser_context_args, "storage_state": left, "service_workers": "block"}
    )
    page = again.new_page()
    page.goto(f"/partidas/{match_id}")
    expect(page.locator("#mano-1")).to_have_count(1, timeout=15_000)
    expect(pending(page)).to_have_count(0)
    again.close()
    assert [hand["sides"][0]["table_points"] for hand in stored_hands(live_server, match_id)] == [
        400
    ]


def test_two_phones_save_hand_one_and_the_offline_one_chooses_to_keep_both(
    page: Page,
    context: BrowserContext,
    table: Table,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    shot: Shot,
):
    match_id = match_id_of(table.new_match())
    installed(page)
    table.open_new_hand()
    engine_cached(page)
    page.go_back()
    context.set_offline(True)
    closer, sides, _totals, _minimums = HANDS[0]
    record_offline(table, closer, sides)

    other_context = browser.new_context(**{**browser_context_args, "service_workers": "block"})
    other = Table(other_context.new_page(), shot)
    other.page.goto(f"/partidas/{match_id}")
    other_closer, other_sides, _totals, _minimums = HANDS[1]
    other.record_hand(other_closer, other_sides)
    other_context.close()

    back_online(context, page)
    conflict = page.get_by_role("alert").filter(has_text="otro teléfono")
    expect(conflict).to_be_visible(timeout=15_000)
    expect(conflict.locator(".conflict-hand")).to_have_count(2)
    expect(conflict.locator(".conflict-hand").first).to_contain_text("Cerró: Ellos")
    expect(conflict.locator(".conflict-hand").last).to_contain_text("Cerró: Nosotros")
    table.shot("conflict")
    assert len(stored_hands(live_server, match_id)) == 1  # nothing dropped before choosing

    conflict.get_by_role("button", name=re.compile("^Conservar las dos")).tap()
    expect(page.locator("#mano-2")).to_have_count(1, timeout=15_000)
    expect(pending(page)).to_have_count(0)
    closers = [hand["closer"] for hand in stored_hands(live_server, match_id)]
    assert closers == [1, 0]  # theirs as hand 1, mine as hand 2


def test_undo_without_a_connection_is_refused_with_a_message(
    page: Page, context: BrowserContext, table: Table, live_server: LiveServer
):
    match_id = match_id_of(table.new_match())
    closer, sides, _totals, _minimums = HANDS[0]
    table.record_hand(closer, sides)
    installed(page)
    engine_cached(page)
    context.set_offline(True)
    page.get_by_text("Deshacer última mano").tap()
    page.get_by_role("button", name="Sí, deshacer").tap()
    expect(page.get_by_role("alert")).to_contain_text(
        "para corregir o deshacer hace falta conexión"
    )
    table.shot("undo-refused")
    context.set_offline(False)
    assert len(stored_hands(live_server, match_id)) == 1


def test_signing_out_forgets_the_pages_kept_on_the_phone(
    page: Page, context: BrowserContext, table: Table, live_server: LiveServer
):
    # A sign-in of its own: signing out ends it on the server, and the other tests' phones
    # share the session's.
    context.clear_cookies()
    context.add_cookies(owner_cookies(live_server)["cookies"])
    match_id = match_id_of(table.new_match())
    installed(page)
    page.reload()
    engine_cached(page)
    page.goto("/cuenta")
    page.get_by_role("button", name="Salir").tap()
    expect(page.get_by_role("link", name="Entrar").first).to_be_visible()
    context.set_offline(True)
    page.goto(f"/partidas/{match_id}")
    expect(page.get_by_role("heading", name="Sin conexión", level=1)).to_be_visible()
    expect(page.locator(".planilla")).to_have_count(0)
    table.shot("signed-out-offline")
    context.set_offline(False)
