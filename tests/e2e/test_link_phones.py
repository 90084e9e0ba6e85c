"""Issue 25, item 8: a phone that opened a link says what it may do there, and a one-time
message ("Mano 1 anotada.") leaves the planilla when another phone's hand replaces it (after
three more hands, a phone still showed "Mano 4 anotada.")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import LiveServer
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect

from anotador import services
from anotador.storage.database import db

pytestmark = pytest.mark.browser

FIRST = {"Nosotros": {"Limpias": 1, "Puntos en mesa": 300}, "Ellos": {"Puntos en mesa": 50}}
SECOND = {"Nosotros": {"Puntos en mesa": 50}, "Ellos": {"Limpias": 1, "Puntos en mesa": 200}}


def link(server: LiveServer, match_url: str, kind: str) -> str:
    match_id = int(match_url.rsplit("/", 1)[1])
    with server.app.app_context():
        token = services.sharing.set_link(services.queries.load_match(match_id), kind, True)
        db.session.remove()
    return f"/enlace/{token}"


def test_a_saved_hands_message_goes_when_another_phone_saves(
    page: Page, table: Table, phones: Callable[..., Page], live_server: LiveServer
) -> None:
    match_url = table.new_match()
    table_phone, spectator = phones(), phones()
    table_phone.goto(link(live_server, match_url, "table"))
    spectator.goto(link(live_server, match_url, "spectator"))
    expect(table_phone.locator(".link-role")).to_have_text(
        "Enlace de mesa: este teléfono anota y corrige las manos de esta partida."
    )
    expect(spectator.locator(".link-role")).to_have_text(
        "Este teléfono solo mira: las manos aparecen acá a medida que se anotan."
    )
    expect(page.locator(".link-role")).to_have_count(0)  # the owner's phone

    other = Table(table_phone, lambda name, of=None: table.shot(name))
    other.record_hand("Nosotros", FIRST)
    saved = table_phone.locator(".flash", has_text="Mano 1 anotada.")
    expect(saved).to_be_visible()
    page.goto(match_url)
    expect(page.locator(".flash")).to_have_count(0)  # the message was the table phone's
    table.record_hand("Ellos", SECOND)
    expect(table_phone.locator("#mano-2")).to_be_visible(timeout=5000)
    expect(saved).to_have_count(0)
    expect(table_phone.locator(".link-role")).to_be_visible()
