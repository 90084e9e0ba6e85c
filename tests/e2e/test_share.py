"""Issue 25, item 8: the table and spectator links are copied or shared with one tap (the
phone's share sheet where the browser has one), and a finished match is shared as a short
text (winner, totals, date); without JavaScript the link and the text stay readable."""

from __future__ import annotations

import pytest
from conftest import LiveServer
from phone import Shot
from playwright.sync_api import Page
from playwright.sync_api import expect
from stored import BIG_HAND
from stored import create_stored_match
from stored import match_document

from anotador import services
from anotador.storage.database import db

pytestmark = pytest.mark.browser

#: A phone with a share sheet: what it was asked to share is kept in window.shared.
SHARE_SHEET = """
window.shared = [];
Object.defineProperty(navigator, "share", {
  value: (data) => { window.shared.push(data); return Promise.resolve(); },
});
"""


def shared_match(server: LiveServer, hands: list[dict[str, object]]) -> int:
    document = match_document(layout="4p", hands=hands, played_on="2026-11-28")
    match_id = create_stored_match(server.app, document)
    with server.app.app_context():
        match = services.queries.load_match(match_id)
        services.sharing.set_link(match, "table", True)
        services.sharing.set_link(match, "spectator", True)
        db.session.remove()
    return match_id


def test_a_link_is_copied_or_shared_in_one_tap(
    page: Page, live_server: LiveServer, shot: Shot
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script(SHARE_SHEET)
    page.goto(f"/partidas/{shared_match(live_server, [])}/compartir")
    for title in ("Enlace de mesa", "Enlace de espectador"):
        box = page.locator("[data-share]").filter(has=page.get_by_label(title, exact=True))
        url = box.get_by_label(title, exact=True).input_value()
        assert "/enlace/" in url
        box.get_by_role("button", name="Copiar").tap()
        expect(box.get_by_role("status")).to_have_text("Copiado.")
        assert page.evaluate("() => navigator.clipboard.readText()") == url
        box.get_by_role("button", name="Compartir…").tap()
        assert page.evaluate("() => window.shared.pop()") == {
            "title": f"{title} · Nosotros · Ellos",
            "url": url,
        }
    shot("share-links")


def test_a_finished_match_is_shared_as_a_short_text(
    page: Page, live_server: LiveServer, shot: Shot
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script(SHARE_SHEET)
    page.goto(f"/partidas/{shared_match(live_server, [BIG_HAND, BIG_HAND])}")
    box = page.locator(".share-result")
    # 2 × (4 × 500 + 2 × 300 + 900 + 100 + 100) = 7.400; 2 × (100 − 40) = 120.
    text = "¡Ganó Nosotros! Nosotros 7.400 · Ellos 120 · Uruguaya · 28 nov 2026"
    expect(box.locator(".share-text")).to_have_text(text)
    box.get_by_role("button", name="Copiar").tap()
    expect(box.get_by_role("status")).to_have_text("Copiado.")
    assert page.evaluate("() => navigator.clipboard.readText()") == text
    box.get_by_role("button", name="Compartir…").tap()
    assert page.evaluate("() => window.shared.pop()") == {"title": "¡Ganó Nosotros!", "text": text}
    shot("share-result")


def test_without_a_share_sheet_only_copy_is_offered(page: Page, live_server: LiveServer) -> None:
    page.goto(f"/partidas/{shared_match(live_server, [])}/compartir")
    expect(page.get_by_role("button", name="Copiar")).to_have_count(2)
    expect(page.get_by_role("button", name="Compartir…")).to_have_count(0)


def test_without_javascript_the_links_and_the_result_stay_readable(
    no_js_page: Page, live_server: LiveServer
) -> None:
    page = no_js_page
    page.goto(f"/partidas/{shared_match(live_server, [])}/compartir")
    for title in ("Enlace de mesa", "Enlace de espectador"):
        assert "/enlace/" in page.get_by_label(title, exact=True).input_value()
    expect(page.get_by_role("button", name="Copiar")).to_have_count(0)
    page.goto(f"/partidas/{shared_match(live_server, [BIG_HAND, BIG_HAND])}")
    expect(page.locator(".share-text")).to_contain_text("¡Ganó Nosotros! Nosotros 7.400")
