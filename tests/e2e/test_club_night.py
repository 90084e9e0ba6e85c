"""Issue 28's club night, whole, as a club plays it: the director sets up three rounds for six
pairs and registers them, prints each round's table cards, three table phones score through
their table links (one of them without a signal for its hand: plain HTTP, no service
worker), each table's EW confirm its result on its phone (one the director confirms instead,
issue 38), the board opened from the spectator link follows, the next rounds are drawn, and the
final standings and exports are right (the tournament file reads back, by the same code the
command line runs, to the standings the page exported)."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Callable

import pytest
from phone import Shot
from phone import Table
from phone import points
from playwright.sync_api import Page
from playwright.sync_api import expect
from printed import pdf_text
from test_offline_outbox import pending
from test_offline_plain_http import ENGINE_STARTS
from test_offline_plain_http import fill_while_online
from test_offline_plain_http import signal_back
from test_offline_plain_http import signal_lost
from test_tournament_board import WITHIN
from test_tournament_board import set_up

from anotador import tournaments

pytestmark = pytest.mark.browser

PAIRS = [
    ("Ana", "Alba"),
    ("Beto", "Bruno"),
    ("Carla", "Cecilia"),
    ("Dario", "Diego"),
    ("Elsa", "Ema"),
    ("Fabio", "Flor"),
]
ROUNDS = 3
#: Every table's one hand: NS went out, 1,800 to 490 (test_offline_plain_http.FIRST's figures).
NS_MP, EW_MP = 1800, 490
#: The round (1-based) in which the third table's phone loses its signal for its hand.
OFFLINE_ROUND = 2


def hand(ns: str, ew: str) -> tuple[str, dict[str, dict[str, int]]]:
    return ns, {
        ns: {"Limpias": 2, "Sucias": 1, "Puntos en mesa": 400},
        ew: {"Sucias": 1, "Puntos en mesa": 250, "Puntos en mano": 60},
    }


def drawn(page: Page, address: str) -> bytes:
    """A printout as a browser ends up with it: while it is being drawn the server answers
    "preparing" (503, Retry-After) and the page asks again, a bounded number of times."""
    for _ in range(30):
        response = page.request.get(address)
        if response.status != 503:
            return response.body()
        time.sleep(float(response.headers.get("retry-after", "2")))
    raise AssertionError(f"{address} was still being drawn after 30 tries")


def seated(page: Page) -> list[tuple[str, str, str]]:
    """The round page's tables: (NS pair, EW pair, table link), as the sides are named."""
    tables = []
    for card in page.locator(".t-table").all():
        ns, ew = (re.sub(r"^\S+\s+", "", line) for line in card.locator("p").all_inner_texts()[:2])
        tables.append((ns, ew, card.locator(".share-url").inner_text()))
    return tables


def test_a_club_night_of_three_rounds_played_at_the_tables(
    page: Page, phones: Callable[..., Page], shot: Shot
) -> None:
    set_up(page, "Noche de seis", rounds=ROUNDS, pairs=PAIRS)
    found = re.match(r".*/torneos/\d+", page.url)
    assert found, page.url
    home = found.group(0)
    page.get_by_role("button", name="Crear el enlace").tap()
    board = phones()
    board.goto(page.locator("#enlace .share-url").inner_text().replace("/posiciones", "/tablero"))
    expect(board.locator(".t-board-standings tbody tr")).to_have_count(len(PAIRS))

    table_phones = [phones() for _ in range(3)]
    for number in range(1, ROUNDS + 1):
        page.goto(home)
        page.get_by_role("button", name=f"Sortear la ronda {number}").tap()
        expect(page.get_by_role("heading", level=1)).to_contain_text(f"Ronda {number}")
        page.get_by_role("button", name="Empezar la ronda").tap()
        expect(page.locator(".t-table.is-not_started")).to_have_count(3)
        cards = page.get_by_role("link", name="Tarjetas de mesa (PDF)").get_attribute("href")
        printed = pdf_text(drawn(page, str(cards)))
        tables = seated(page)
        for index, (ns, ew, link) in enumerate(tables, start=1):
            assert f"Mesa {index}" in printed
            assert ns in printed
            assert ew in printed
            assert link.rsplit("/", 1)[-1] in printed.replace(" ", "")
        if number == 1:
            shot("round-1-started")

        for phone, (ns, ew, link) in zip(table_phones, tables, strict=True):
            phone.goto(link)
            table = Table(phone, shot)
            if number == OFFLINE_ROUND and phone is table_phones[-1]:
                table.open_new_hand()
                fill_while_online(phone, table, *hand(ns, ew))
                signal_lost(phone.context)
                phone.get_by_role("button", name="Guardar mano", exact=True).tap()
                expect(pending(phone)).to_have_count(1)
                expect(pending(phone).locator(".running")).to_have_text(
                    [points(NS_MP), points(EW_MP)], timeout=ENGINE_STARTS
                )
                page.reload()  # the director sees the table still playing
                expect(page.locator(".t-table.is-confirmed")).to_have_count(2)
                signal_back(phone.context, phone)
                expect(pending(phone)).to_have_count(0, timeout=15_000)
            else:
                table.record_hand(*hand(ns, ew))
            if number == 1 and phone is table_phones[-1]:
                continue  # this table's result the director confirms, below
            # The phone is passed across: EW confirm the result (issue 38).
            phone.get_by_role("button", name=f"EO confirman el resultado: {ew}").tap()
            expect(phone.locator(".table-confirmation")).to_contain_text(
                "Resultado confirmado por EO: es definitivo."
            )
        page.reload()
        if number == 1:
            expect(page.locator(".t-table.is-awaiting")).to_have_count(1)
            page.get_by_role("button", name="Confirmar el resultado (director)").tap()
        expect(page.locator(".t-table.is-confirmed")).to_have_count(3)
        # Every NS pair won its table: the board's three leaders have 2 VP a round.
        leaders = board.locator(".t-board-standings tbody tr").locator(".t-vp")
        expect(leaders).to_have_text([str(2 * number)] * 3 + ["0"] * 3, timeout=WITHIN)
        page.once("dialog", lambda dialog: dialog.accept())  # its confirmation
        page.get_by_role("button", name="Cerrar la ronda").tap()
        expect(page.get_by_role("heading", level=1)).to_contain_text("cerrada")

    page.goto(home)
    page.once("dialog", lambda dialog: dialog.accept())  # its confirmation
    page.get_by_role("button", name="Terminar el torneo").tap()
    shot("board-final", of=board)

    exported = json.loads(page.request.get(home + "/posiciones.json").text())
    by_vp = sorted(exported["standings"], key=lambda row: -row["vp"])
    assert [row["vp"] for row in by_vp] == [2 * ROUNDS] * 3 + [0] * 3
    assert {(row["mp_for"], row["mp_against"], row["played"]) for row in by_vp[:3]} == {
        (ROUNDS * NS_MP, ROUNDS * EW_MP, ROUNDS)
    }
    assert {(row["mp_for"], row["mp_against"]) for row in by_vp[3:]} == {
        (ROUNDS * EW_MP, ROUNDS * NS_MP)
    }
    results = list(csv.DictReader(io.StringIO(page.request.get(home + "/resultados.csv").text())))
    assert len(results) == ROUNDS * 3
    assert {(row["mp_ns"], row["mp_ew"], row["vp_ns"], row["vp_ew"]) for row in results} == {
        (str(NS_MP), str(EW_MP), "2", "0")
    }
    # Every pair met three different opponents.
    met = {(row["ns"], row["ew"]) for row in results}
    assert len(met) == ROUNDS * 3
    # The tournament file reads back, by the command line's code, to the same standings.
    document = page.request.get(home + "/archivo.json").body()
    again = tournaments.standings_document(tournaments.parse_tournament(document))
    assert again["standings"] == exported["standings"]
