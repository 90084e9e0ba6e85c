"""The live table (issue 11, item 5): every phone showing a match follows it without a reload.

The owner scores on one phone; a table-link phone and a spectator-link phone show the hand
within 3 seconds (the issue's promise, hence the 3 s expectations), and a hand form opened
before another phone's save says so before its own save and carries the typed hand over.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from conftest import LiveServer
from phone import Shot
from phone import Table
from phone import points
from playwright.sync_api import Page
from playwright.sync_api import expect

from anotador import services
from anotador.storage.database import db

pytestmark = pytest.mark.browser

#: The issue's promise: a hand saved on one phone shows on the others within 3 seconds.
WITHIN = 3000

FIRST = {
    "Nosotros": {"Limpias": 2, "Sucias": 1, "Puntos en mesa": 400},
    "Ellos": {"Sucias": 1, "Puntos en mesa": 250, "Puntos en mano": 60},
}
SECOND = {
    "Nosotros": {"Puntos en mesa": 200, "Puntos en mano": 30, "Treses rojos": 1},
    "Ellos": {"Limpias": 1, "Puntos en mesa": 300},
}


def link(server: LiveServer, match_url: str, kind: str) -> str:
    """A new link of ``kind`` ("table", "spectator") to the match at ``match_url``."""
    match_id = int(match_url.rstrip("/").rsplit("/", 1)[1])
    with server.app.app_context():
        token = services.sharing.set_link(services.queries.load_match(match_id), kind, True)
        db.session.remove()
    return f"/enlace/{token}"


def opened(phones: Callable[..., Page], path: str, match_url: str) -> Page:
    phone = phones()
    phone.goto(path)
    expect(phone).to_have_url(match_url)
    phone.evaluate(
        """() => {
          window.liveUpdates = [];
          document.addEventListener("anotador:planilla-updated",
            (event) => window.liveUpdates.push(event.detail.version));
        }"""
    )
    return phone


def expect_total(phone: Page, side: str, total: int, timeout: int = WITHIN) -> None:
    scoreboard = phone.locator(".scoreboard").get_by_role("region", name=side, exact=True)
    expect(scoreboard.locator(".total")).to_have_text(points(total), timeout=timeout)


def test_a_hand_saved_on_one_phone_shows_on_the_others_within_3_seconds(
    page: Page, table: Table, phones: Callable[..., Page], live_server: LiveServer, shot: Shot
) -> None:
    match_url = table.new_match()
    table_phone = opened(phones, link(live_server, match_url, "table"), match_url)
    spectator = opened(phones, link(live_server, match_url, "spectator"), match_url)

    table.record_hand("Nosotros", FIRST)
    for phone in (table_phone, spectator):
        expect_total(phone, "Nosotros", 1800)
        expect_total(phone, "Ellos", 490)
        expect(phone.locator("#mano-1")).to_be_visible()
        expect(phone.locator("#live")).to_have_text(
            re.compile(r"^Otro teléfono anotó la mano 1\. Nosotros 1\.800, Ellos 490$")
        )
    shot("spectator-after-hand-1", of=spectator)
    assert spectator.evaluate("window.liveUpdates.length") == 1
    # Only the table phone may score: the swapped planilla is still its own.
    expect(table_phone.get_by_role("link", name="Anotar mano")).to_have_count(2)
    expect(spectator.get_by_role("link", name="Anotar mano")).to_have_count(0)

    # The spectator reads hand 1's detail, scrolled down; the next hand keeps both.
    spectator.locator("#mano-1 > summary").tap()
    spectator.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    scrolled = spectator.evaluate("window.scrollY")
    assert scrolled > 0
    # The table phone scores the next hand: the owner's phone follows it too.
    Table(table_phone, shot).record_hand("Ellos", SECOND)
    expect_total(page, "Nosotros", 2070)
    expect_total(spectator, "Ellos", 1390)
    expect(spectator.locator("#mano-2")).to_be_visible()
    expect(spectator.locator("#mano-1")).to_have_attribute("open", "")
    assert spectator.evaluate("window.scrollY") == scrolled
    shot("owner-after-hand-2")


def test_a_hand_form_opened_before_another_save_says_so_and_rebases(
    page: Page, table: Table, phones: Callable[..., Page], live_server: LiveServer, shot: Shot
) -> None:
    match_url = table.new_match()
    table_phone = opened(phones, link(live_server, match_url, "table"), match_url)
    table.open_new_hand()
    table.fill_hand("Nosotros", FIRST)
    page.locator("summary", has_text="Nota de la mano").tap()  # behind its own disclosure
    page.get_by_label("Nota").fill("la de las dos limpias")

    Table(table_phone, shot).record_hand("Ellos", SECOND)
    notice = page.locator(".live-notice")
    expect(notice).to_contain_text("Otro teléfono anotó la mano 1 (Cerró: Ellos).", timeout=WITHIN)
    expect(notice).to_contain_text("como la mano 2")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mano 1")  # nothing moved yet
    shot("notice")

    notice.get_by_role("button", name="Actualizar sin perder lo escrito").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mano 2")
    expect(notice).to_have_count(0)
    standing = page.locator("table.standing")
    expect(standing.get_by_role("row", name=re.compile("^Nosotros"))).to_contain_text("270")
    expect(standing.get_by_role("row", name=re.compile("^Ellos"))).to_contain_text("900")
    expect(table.side("Nosotros").get_by_label("Limpias", exact=True)).to_have_value("2")
    expect(page.get_by_label("Nota")).to_have_value("la de las dos limpias")
    shot("rebased")

    table.save()
    expect(page.get_by_text("Mano 2 anotada.")).to_be_visible()
    table.expect_row(2, [1800, 490], [2070, 1390])
    table.expect_totals({"Nosotros": 2070, "Ellos": 1390})


def test_a_correction_whose_hand_another_phone_deleted_says_so(
    page: Page, table: Table, phones: Callable[..., Page], live_server: LiveServer
) -> None:
    match_url = table.new_match()
    table.record_hand("Nosotros", FIRST)
    table_phone = opened(phones, link(live_server, match_url, "table"), match_url)
    page.goto(match_url + "/manos/1")
    table.side("Ellos").get_by_label("Puntos en mano", exact=True).fill("80")

    table_phone.get_by_text("Deshacer última mano").first.tap()
    table_phone.get_by_role("button", name="Sí, deshacer").tap()
    expect(table_phone.get_by_text("Mano 1 borrada.")).to_be_visible()

    notice = page.locator(".live-notice")
    expect(notice).to_contain_text("Otro teléfono borró esta mano.", timeout=WITHIN)
    notice.get_by_role("button", name="Planilla").tap()
    expect(page).to_have_url(match_url)
    expect(page.get_by_text("Todavía no hay manos.")).to_be_visible()


def test_a_spectator_back_online_catches_up_at_once(
    page: Page, table: Table, phones: Callable[..., Page], live_server: LiveServer
) -> None:
    """Offline, the polls fail quietly (no error, longer waits); back online, the next poll
    goes at once and brings what was saved meanwhile."""
    match_url = table.new_match()
    spectator = opened(phones, link(live_server, match_url, "spectator"), match_url)
    spectator.context.set_offline(True)
    # Failed polls at about 1, 3 and 7 s, the next one due 8 s later: only "online" brings it.
    spectator.wait_for_timeout(8000)
    table.record_hand("Nosotros", FIRST)
    expect_total(spectator, "Nosotros", 0, timeout=0)
    spectator.context.set_offline(False)
    expect_total(spectator, "Nosotros", 1800)
    assert spectator.evaluate("window.liveUpdates.length") == 1


def test_a_correction_of_a_hand_nobody_else_touched_is_carried_over(
    page: Page, table: Table, phones: Callable[..., Page], live_server: LiveServer, shot: Shot
) -> None:
    match_url = table.new_match()
    table.record_hand("Nosotros", FIRST)
    table_phone = opened(phones, link(live_server, match_url, "table"), match_url)
    page.goto(match_url + "/manos/1")
    table.side("Ellos").get_by_label("Puntos en mano", exact=True).fill("80")

    Table(table_phone, shot).record_hand("Ellos", SECOND)
    notice = page.locator(".live-notice")
    expect(notice).to_contain_text("Otro teléfono anotó la mano 2.", timeout=WITHIN)
    expect(notice).to_contain_text("La mano 1 sigue como la abriste")
    notice.get_by_role("button", name="Actualizar sin perder lo escrito").tap()
    expect(notice).to_have_count(0)
    expect(table.side("Ellos").get_by_label("Puntos en mano", exact=True)).to_have_value("80")

    table.save("Guardar cambios")
    expect(page.get_by_text("Mano 1 corregida.")).to_be_visible()
    table.expect_row(1, [1800, 470], [1800, 470])
    table.expect_row(2, [270, 900], [2070, 1370])


def test_a_correction_of_a_hand_another_phone_corrected_offers_to_reload(
    page: Page, table: Table, phones: Callable[..., Page], live_server: LiveServer, shot: Shot
) -> None:
    match_url = table.new_match()
    table.record_hand("Nosotros", FIRST)
    table_phone = opened(phones, link(live_server, match_url, "table"), match_url)
    page.goto(match_url + "/manos/1")
    table.side("Ellos").get_by_label("Puntos en mano", exact=True).fill("80")

    other = Table(table_phone, shot)
    table_phone.goto(match_url + "/manos/1")
    other.side("Ellos").get_by_label("Puntos en mano", exact=True).fill("100")
    other.save("Guardar cambios")

    notice = page.locator(".live-notice")
    expect(notice).to_contain_text(
        "Otro teléfono cambió la partida mientras corregías esta mano.", timeout=WITHIN
    )
    expect(notice.get_by_role("button", name="Actualizar sin perder lo escrito")).to_have_count(0)
    notice.get_by_role("button", name="Volver a cargar la mano").tap()
    expect(table.side("Ellos").get_by_label("Puntos en mano", exact=True)).to_have_value("100")
