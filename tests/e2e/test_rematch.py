"""Issue 25, item 7: a rematch keeps the table. The owner taps "Revancha" on the finished
match; the phone that opened its table link and the one that opened its spectator link move to
the rematch by themselves (no QR scanned again), the first keeps scoring, the second watches."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from conftest import LiveServer
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect
from stored import BIG_HAND
from stored import create_stored_match
from stored import match_document

from anotador import services
from anotador.storage.database import db

pytestmark = pytest.mark.browser

#: The live poll runs about once a second.
WITHIN = 5000


def finished_match_with_links(server: LiveServer) -> tuple[int, str, str]:
    match_id = create_stored_match(
        server.app, match_document(layout="4p", hands=[BIG_HAND, BIG_HAND])
    )
    with server.app.app_context():
        match = services.queries.load_match(match_id)
        table = services.sharing.set_link(match, "table", True)
        spectator = services.sharing.set_link(match, "spectator", True)
        db.session.remove()
    return match_id, f"/enlace/{table}", f"/enlace/{spectator}"


def test_the_link_phones_follow_the_rematch(
    page: Page, table: Table, phones: Callable[..., Page], live_server: LiveServer
) -> None:
    match_id, table_link, spectator_link = finished_match_with_links(live_server)
    old_url = f"{live_server.url}/partidas/{match_id}"
    table_phone, spectator = phones(), phones()
    for phone, path in ((table_phone, table_link), (spectator, spectator_link)):
        phone.goto(path)
        expect(phone).to_have_url(old_url)
    page.goto(old_url)
    page.get_by_role("button", name="Revancha").tap()
    expect(page).not_to_have_url(old_url)
    new_url = page.url
    assert re.search(r"/partidas/\d+$", new_url)

    for phone in (table_phone, spectator):
        expect(phone).to_have_url(new_url, timeout=WITHIN)
        expect(phone.get_by_text("Todavía no hay manos")).to_be_visible()
    expect(spectator.get_by_role("link", name="Anotar mano")).to_have_count(0)

    # The table phone scores the rematch; the spectator sees the hand live.
    other = Table(table_phone, lambda name, of=None: table.shot(name))
    other.record_hand(
        "Nosotros",
        {"Nosotros": {"Limpias": 1, "Puntos en mesa": 300}, "Ellos": {"Puntos en mesa": 50}},
    )
    other.expect_totals({"Nosotros": 900, "Ellos": 50})
    Table(spectator, lambda name, of=None: table.shot(name)).expect_totals(
        {"Nosotros": 900, "Ellos": 50}
    )
    # The finished match is still there for them, and points to the rematch.
    spectator.goto(old_url)
    spectator.get_by_role("link", name="Ir a la revancha").tap()
    expect(spectator).to_have_url(new_url)
