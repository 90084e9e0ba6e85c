"""Scoring without a connection where browsers give no service worker (plain HTTP on the LAN,
the address ``make run`` prints): the hand form saves without leaving the page; without a
signal the hand waits in the outbox and the planilla, drawn in the same page, shows it pending
with the engine's totals; it reaches the server once when the signal returns. No save tap ends
on the browser's error page.

These phones block service workers (conftest's ``PHONE``: ``service_workers="block"``)."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from conftest import LiveServer
from phone import Shot
from phone import Table
from phone import points
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect
from test_offline_outbox import match_id_of
from test_offline_outbox import pending
from test_offline_outbox import stored_hands

pytestmark = pytest.mark.browser

# Uruguaya 4p (test_offline_outbox.py's first two hands): what the server computes.
FIRST = (
    "Nosotros",
    {
        "Nosotros": {"Limpias": 2, "Sucias": 1, "Puntos en mesa": 400},
        "Ellos": {"Sucias": 1, "Puntos en mesa": 250, "Puntos en mano": 60},
    },
)
SECOND = (
    "Ellos",
    {
        "Nosotros": {"Puntos en mesa": 200, "Puntos en mano": 30, "Treses rojos": 1},
        "Ellos": {"Limpias": 1, "Puntos en mesa": 300},
    },
)
#: The engine's start: seconds on a phone, far more on a busy two-core CI machine.
ENGINE_STARTS = 120_000


def no_service_worker(page: Page) -> None:
    assert page.evaluate("!navigator.serviceWorker || navigator.serviceWorker.controller === null")


def fill_while_online(page: Page, table: Table, closer: str, sides: dict[str, Any]) -> None:
    """The hand typed with a signal: a few seconds into it the page starts the phone's engine
    by itself while it can still fetch its files (its rules bundle arrives), and it is ready."""
    with page.expect_request_finished(lambda r: "/motor/reglas-" in r.url, timeout=ENGINE_STARTS):
        table.fill_hand(closer, sides)
    page.evaluate("() => window.anotadorEngine.start()")


def signal_lost(context: BrowserContext) -> None:
    context.set_offline(True)
    context.route("**/*", lambda route: route.abort())


def signal_back(context: BrowserContext, page: Page) -> None:
    """As test_offline_outbox.py's: the page is told too (Chromium's own event may come late);
    the outbox may already have reloaded the page, which ends the script that tells it."""
    context.unroute_all(behavior="ignoreErrors")
    context.set_offline(False)
    with contextlib.suppress(PlaywrightError):
        page.evaluate("window.dispatchEvent(new Event('online'))")


def on_the_planilla_drawn_here(page: Page, match_id: int) -> None:
    """The app's own page (the planilla, in the same document), never the browser's error."""
    expect(page).to_have_url(re.compile(rf"/partidas/{match_id}$"))
    expect(page.locator("#planilla-here .planilla")).to_be_visible()
    assert page.evaluate("!!window.anotadorEngine && !!document.getElementById('hand-form')")
    assert "ERR_" not in page.content()


def test_a_hand_saved_without_signal_waits_on_the_same_page_and_is_sent_once(
    page: Page, context: BrowserContext, table: Table, live_server: LiveServer
):
    match_id = match_id_of(table.new_match())
    table.open_new_hand()
    no_service_worker(page)
    fill_while_online(page, table, *FIRST)

    signal_lost(context)
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    on_the_planilla_drawn_here(page, match_id)
    expect(pending(page)).to_have_count(1)
    expect(pending(page).locator(".running")).to_have_text(
        [points(1800), points(490)], timeout=ENGINE_STARTS
    )
    table.expect_totals({"Nosotros": 1800, "Ellos": 490})
    table.expect_minimums({"Nosotros": 90, "Ellos": 50})
    table.shot("pending-here")
    assert stored_hands(live_server, match_id) == []

    # The next hand, still without signal, typed in the same page.
    page.get_by_role("button", name="Anotar mano").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mano 2")
    expect(page.locator("table.standing .big")).to_have_text([points(1800), points(490)])
    table.fill_hand(*SECOND)
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    on_the_planilla_drawn_here(page, match_id)
    expect(pending(page)).to_have_count(2)
    table.expect_totals({"Nosotros": 2070, "Ellos": 1390})
    assert stored_hands(live_server, match_id) == []

    signal_back(context, page)
    expect(pending(page)).to_have_count(0, timeout=15_000)
    expect(page.locator("#planilla-here")).to_have_count(0)  # the real planilla, reloaded
    table.expect_row(2, [270, 900], [2070, 1390])
    table.expect_totals({"Nosotros": 2070, "Ellos": 1390})
    hands = stored_hands(live_server, match_id)
    assert [hand["closer"] for hand in hands] == [0, 1]
    assert [hand["sides"][0]["table_points"] for hand in hands] == [400, 200]


def test_an_unreachable_server_with_the_phone_online_queues_the_hand_too(
    page: Page, context: BrowserContext, table: Table, live_server: LiveServer
):
    """On the LAN the phone may keep its wifi while the server is out of reach: the browser
    says it is online, the save's request fails, and the hand waits just the same."""
    match_id = match_id_of(table.new_match())
    table.open_new_hand()
    fill_while_online(page, table, *FIRST)

    context.route("**/*", lambda route: route.abort())
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    on_the_planilla_drawn_here(page, match_id)
    expect(pending(page).locator(".running")).to_have_text(
        [points(1800), points(490)], timeout=ENGINE_STARTS
    )

    # The server is back (no "online" event: the phone never knew it was gone) while the next
    # hand is typed: it goes after the waiting one, both in the order played.
    context.unroute("**/*")
    page.get_by_role("button", name="Anotar mano").tap()
    table.fill_hand(*SECOND)
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(page.locator("#planilla-here")).to_have_count(0, timeout=15_000)
    expect(pending(page)).to_have_count(0)
    table.expect_row(1, [1800, 490], [1800, 490])
    table.expect_row(2, [270, 900], [2070, 1390])
    assert [hand["closer"] for hand in stored_hands(live_server, match_id)] == [0, 1]


def test_a_save_the_server_never_answers_waits_in_the_outbox_and_is_stored_once(
    page: Page, context: BrowserContext, table: Table, live_server: LiveServer
):
    """A request that hangs (the wifi is there, the server is not) is given up after a while:
    the hand waits as pending on the planilla drawn in the page, never on "Guardando…"."""
    match_id = match_id_of(table.new_match())
    table.open_new_hand()
    table.fill_hand(*FIRST)
    hung: list[Route] = []

    def out_of_reach(route: Route) -> None:
        """The save is never answered; anything else (the outbox too) fails at once."""
        if route.request.method == "POST" and route.request.url.endswith("/manos/nueva"):
            hung.append(route)
        else:
            route.abort()

    context.route("**/*", out_of_reach)

    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(pending(page)).to_have_count(1, timeout=30_000)
    on_the_planilla_drawn_here(page, match_id)
    assert len(hung) == 1

    signal_back(context, page)
    expect(page.locator("#planilla-here")).to_have_count(0, timeout=15_000)
    table.expect_row(1, [1800, 490], [1800, 490])
    assert len(stored_hands(live_server, match_id)) == 1


def test_the_preview_without_signal_has_the_engines_totals(
    page: Page, context: BrowserContext, table: Table
):
    table.new_match()
    table.open_new_hand()
    fill_while_online(page, table, *FIRST)

    signal_lost(context)
    table.side("Ellos").get_by_label("Puntos en mesa", exact=True).fill("255")
    expect(page.locator("#preview-table tbody tr td.big")).to_have_text(
        [points(1800), points(495)], timeout=ENGINE_STARTS
    )
    signal_back(context, page)


def test_a_refused_save_is_shown_in_place_with_what_was_typed(
    page: Page, table: Table, live_server: LiveServer
):
    """Online, the save goes by fetch: what the server refuses comes back next to the
    fields of the same page (nothing reloaded, every value kept); once put right, the page
    follows to the planilla, which says the hand was saved."""
    match_id = match_id_of(table.new_match())
    table.open_new_hand()
    closer, sides = FIRST
    table.fill_hand(closer, {**sides, "Ellos": {**sides["Ellos"], "Puntos en mesa": 33}})
    page.evaluate("window.samePage = true")

    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    summary = page.locator("#problemas")  # the server's summary of what stops the save
    expect(summary).to_be_focused()
    expect(summary.get_by_role("link")).to_have_text(["Ellos · Puntos en mesa"])
    expect(page.locator("#f-s1_table_points .msg.error")).to_have_text(
        "Tiene que ser múltiplo de 5."
    )
    ellos = table.side("Ellos")
    assert page.evaluate("window.samePage === true")
    expect(ellos.get_by_label("Puntos en mesa", exact=True)).to_have_value("33")
    expect(ellos.get_by_label("Puntos en mano", exact=True)).to_have_value("60")
    expect(page.get_by_role("button", name="Guardar mano", exact=True)).to_be_enabled()
    assert stored_hands(live_server, match_id) == []

    ellos.get_by_label("Puntos en mesa", exact=True).fill("250")
    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(page).to_have_url(re.compile(rf"/partidas/{match_id}$"))
    expect(page.get_by_role("status").filter(has_text="Mano 1 anotada.")).to_be_visible()
    assert len(stored_hands(live_server, match_id)) == 1


def test_a_save_after_another_phones_is_shown_in_place_with_the_fresh_totals(
    page: Page,
    table: Table,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    shot: Shot,
):
    """The form was opened before another phone saved hand 1: the save is refused in place
    (the fresh totals at the top, what was typed kept), and the next tap records it as hand 2."""
    match_id = match_id_of(table.new_match())
    table.open_new_hand()
    table.fill_hand(*SECOND)
    page.evaluate("window.samePage = true")

    # Without JavaScript: a quick save, its engine never started on this busy machine.
    other_context = browser.new_context(**browser_context_args, java_script_enabled=False)
    other = Table(other_context.new_page(), shot)
    other.page.goto(f"/partidas/{match_id}")
    other.record_hand(*FIRST)
    other_context.close()

    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(page.locator("#problemas")).to_contain_text("Otro teléfono anotó una mano")
    expect(page.locator("table.standing .big")).to_have_text([points(1800), points(490)])
    expect(table.side("Ellos").get_by_label("Puntos en mesa", exact=True)).to_have_value("300")
    assert page.evaluate("window.samePage === true")
    assert len(stored_hands(live_server, match_id)) == 1

    page.get_by_role("button", name="Guardar mano", exact=True).tap()
    expect(page).to_have_url(re.compile(rf"/partidas/{match_id}$"))
    table.expect_row(2, [270, 900], [2070, 1390])
    assert [hand["closer"] for hand in stored_hands(live_server, match_id)] == [0, 1]
