"""Issue 38: every pair knows its next seat. A table phone of round 1, at 390 px, says what it
scores (tournament, round, table, hand k of n); once the director draws round 2 it shows,
without a reload, where each of its two pairs sits (table, side, opponents) or that one
rests, and once round 2 starts, the new table's link and its QR code. Nothing is wider than
the screen."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from phone import Shot
from playwright.sync_api import Page
from playwright.sync_api import expect
from test_tournament_board import WITHIN

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import User
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament

pytestmark = pytest.mark.browser

PAIRS = [
    ("Giovanna Bartolomei", "Massimiliano Sangiorgi"),
    ("Ana", "Alba"),
    ("Beto", "Bruno"),
    ("Carla", "Cecilia"),
    ("Dario", "Diego"),
]


def night(app: Any) -> tuple[int, int, str]:
    """A burraco night of 5 pairs, rounds of 3 hands, round 1 started: (the tournament, its
    owner, table 1's link)."""
    with app.app_context():
        owner = db.session.scalars(db.select(User).order_by(User.id)).first()
        assert owner is not None
        setup = service.SetUp(
            name="Burraco del giovedì",
            played_on=datetime.date(2026, 12, 3),
            variant="burraco",
            options={},
            hands_per_round=3,
            scale="fibur-3",
            system="mitchell",
            rounds=3,
        )
        tournament = service.create_tournament(owner.id, setup)
        assert isinstance(tournament, Tournament), tournament
        for first, second in PAIRS:
            service.add_pair(tournament, owner.id, first, second, "")
        round_row = rounds.draw_round(tournament, owner.id)
        rounds.start_round(round_row, owner.id)
        table = next(t for t in round_row.tables if t.number == 1)
        match = db.session.get(Match, table.match_id)
        assert match is not None
        return tournament.id, owner.id, f"/enlace/{match.table_token}"


def next_round(app: Any, tournament_id: int, owner_id: int, start: bool) -> None:
    """Round 1's results written by the director, the round closed, round 2 drawn (and
    ``start``: started)."""
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        if not start:
            round_row = tournament.round_rows[0]
            for table in round_row.tables:
                if not table.is_bye:
                    rounds.enter_result(table, owner_id, (1200, 800))
            rounds.close_round(round_row, owner_id)
            rounds.draw_round(tournament, owner_id)
        else:
            rounds.start_round(tournament.round_rows[1], owner_id)


def test_a_table_phone_of_round_one_shows_its_pairs_next_seats(
    live_server: Any, phones: Callable[..., Page], shot: Shot
) -> None:
    app = live_server.app
    tournament_id, owner_id, link = night(app)
    phone = phones()
    phone.goto(link)
    expect(phone.locator(".t-table-line")).to_have_text(
        "Burraco del giovedì · Ronda 1 · Mesa 1 · mano 1 de 3"
    )
    expect(phone.locator(".t-next-seats")).to_have_count(0)
    # A round of 3 hands plays them all: no target, no points "to go".
    expect(phone.locator(".planilla .match-info")).to_contain_text("en 3 manos")
    expect(phone.locator(".to-target")).to_have_count(0)

    next_round(app, tournament_id, owner_id, start=False)
    seats = phone.locator(".t-next-seat")
    expect(seats).to_have_count(2, timeout=WITHIN)  # followed live, no reload
    expect(phone.locator(".t-next-seats h2")).to_have_text("Ronda 2: dónde se sienta cada pareja")
    texts = seats.all_inner_texts()
    for text in texts:
        assert "Ronda 2: " in text
        assert ("contra" in text) != ("descansa" in text), text
        assert "descansa" not in text or "NS" not in text
    expect(
        phone.get_by_text("El enlace de la mesa llega cuando el director empieza la ronda.").first
    ).to_be_visible()
    shot("drawn", of=phone)

    next_round(app, tournament_id, owner_id, start=True)
    opened = phone.locator(".t-next-seat a.button")
    playing = sum("contra" in text for text in texts)
    expect(opened).to_have_count(playing, timeout=WITHIN)
    expect(phone.locator(".t-next-seat svg.qr-code")).to_have_count(playing)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot("started", of=phone)
    opened.first.tap()
    expect(phone.locator(".t-table-line")).to_contain_text("Ronda 2 · Mesa ")
