"""A tournament's standings, board and a round's live view are kept rendered under the
tournament's state (``tournaments/web/kept.py``): whatever changes what they show (a table
that finishes, a director's correction, a player renamed) shows at once, never a kept page
of before; the CSV and JSON exports are kept so too; and a kept live view's forms carry each
browser's own CSRF token."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import OWNER
from stored import signed_in
from test_hands import record
from test_tournament_web import ENGLISH
from test_tournament_web import FORM_HAND
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import play_round
from test_tournament_web import started_table
from test_tournament_web import table_ids

from anotador import services
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament

#: The server's time in a page's frame (``clock_now``), new with every request.
SERVER_NOW = re.compile(r' data-server-now="\d+"')


def text_of(client: FlaskClient, path: str) -> str:
    """The page at ``path``, but for the server's time its frame gives the round clock."""
    answer = client.get(path, headers=ENGLISH)
    assert answer.status_code == 200, path
    return SERVER_NOW.sub("", html.unescape(answer.get_data(as_text=True)))


def test_a_table_that_finishes_shows_at_once_on_the_kept_pages(app: Flask, client: FlaskClient):
    tournament_id, match_id = started_table(app, client, "1")
    pages = [f"/torneos/{tournament_id}/{page}" for page in ("posiciones", "tablero", "rondas/1")]
    before = [text_of(client, page) for page in pages]
    assert "not started" in before[2]
    # Kept: asked again, the same.
    assert [text_of(client, page) for page in pages[:2]] == before[:2]
    # The table's phone saves its one hand: the match ends, the table has finished.
    assert record(client, match_id, FORM_HAND).status_code == 302
    standings, board, live_view = (text_of(client, page) for page in pages)
    assert re.search(r"<td>1</td><td>1</td><td>1\. Ana – Alba</td>", standings)
    # Ana and Alba won (2 VP): first, with their VP, on the standings and on the board.
    first = r"<td>1</td><td>(<a [^>]*>)?1\. Ana – Alba(</a>)?</td><td class=\"t-vp\">2<"
    for page in (standings, board):
        assert re.search(first, page)
    assert '<span class="t-state">awaiting confirmation</span>' in live_view
    assert "1 hand" in live_view


def test_a_directors_correction_changes_the_standings_at_once(app: Flask, client: FlaskClient):
    tournament_id = create(client, scale="points")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    client.post(f"/torneos/{tournament_id}/rondas")
    play_round(client, app, tournament_id, 1, {1: ("700", "300"), 2: ("200", "500")})
    standings = f"/torneos/{tournament_id}/posiciones"
    live_view = f"/torneos/{tournament_id}/rondas/1"
    assert "700 – 300" in text_of(client, standings)
    assert "700 – 300" in text_of(client, live_view)
    table = table_ids(app, tournament_id, 1)[1]
    corrected = client.post(
        f"/torneos/{tournament_id}/mesas/{table}", data={"mp_ns": "650", "mp_ew": "350"}
    )
    assert corrected.status_code == 303
    after = text_of(client, standings)
    assert "650 – 350" in after
    assert "700 – 300" not in after
    assert "650 – 350" in text_of(client, live_view)
    # By the spectator link too (a page of its own, kept apart).
    client.post(f"/torneos/{tournament_id}/enlace", data={"on": "1"})
    with app.app_context():
        token = db.session.get(Tournament, tournament_id).spectator_token
    shared = f"/torneos/ver/{token}/posiciones"
    assert "650 – 350" in text_of(app.test_client(), shared)
    client.post(f"/torneos/{tournament_id}/mesas/{table}", data={"mp_ns": "600", "mp_ew": "400"})
    assert "600 – 400" in text_of(app.test_client(), shared)


def test_a_player_renamed_shows_at_once_on_the_kept_standings(app: Flask, client: FlaskClient):
    tournament_id = create(client)
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "AB"})
    standings = f"/torneos/{tournament_id}/posiciones"
    assert "1. Ana – Alba" in text_of(client, standings)
    with app.app_context():
        ana = db.session.scalars(db.select(Player).where(Player.name == "Ana")).one()
        assert services.players.rename_player(ana, "Anabel") is None
    page = text_of(client, standings)
    assert "1. Anabel – Alba" in page
    assert "1. Ana – Alba" not in page


def csrf_of(page: str) -> list[str]:
    return re.findall(r'name="csrf_token" value="([^"]*)"', page)


def test_a_kept_live_view_gives_each_browser_its_own_csrf_token(app_factory):
    app = app_factory(WTF_CSRF_ENABLED=True)
    with app.app_context():
        owner = services.accounts.find_account(OWNER)
        assert owner is not None
        setup = service.SetUp(
            name="Club night",
            played_on=datetime.date(2026, 12, 3),
            variant="burraco",
            options={},
            hands_per_round=3,
            scale="points",
            system="danese",
            rounds=2,
        )
        tournament = service.create_tournament(owner.id, setup)
        assert isinstance(tournament, Tournament)
        for first, second in list(PAIRS.values())[:4]:
            service.add_pair(tournament, owner.id, first, second)
        round_row = rounds.draw_round(tournament, owner.id)
        rounds.start_round(round_row, owner.id)
        tournament_id, table = tournament.id, round_row.tables[0].id
    first, second = signed_in(app), signed_in(app)
    path = f"/torneos/{tournament_id}/rondas/1"
    first_tokens = csrf_of(text_of(first, path))
    second_tokens = csrf_of(text_of(second, path))  # the kept page
    assert len(set(first_tokens)) == len(set(second_tokens)) == 1
    assert first_tokens[0] != second_tokens[0]
    # The second browser's token is its own: its result is taken, the first's token is not.
    result = f"/torneos/{tournament_id}/mesas/{table}"
    refused = second.post(result, data={"csrf_token": first_tokens[0], "mp_ns": "1", "mp_ew": "2"})
    assert refused.status_code == 400
    data = {"csrf_token": second_tokens[0], "mp_ns": "900", "mp_ew": "100"}
    assert second.post(result, data=data).status_code == 303
    with app.app_context():
        row = db.session.get(RoundTable, table)
        assert row is not None
        assert (row.mp_ns, row.mp_ew) == (900, 100)


EXPORTS = ("posiciones.csv", "resultados.csv", "posiciones.json", "archivo.json")


def test_the_exports_are_computed_once_a_state_and_follow_every_change(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    """A spectator asking the CSV and JSON exports again and again costs one computation of
    the tournament per export and state, by id and by link alike; a table that finishes is
    in the next answer."""
    tournament_id, match_id = started_table(app, client, "1")
    assert client.post(f"/torneos/{tournament_id}/enlace", data={"on": "1"}).status_code == 303
    with app.app_context():
        token = db.session.get(Tournament, tournament_id).spectator_token  # type: ignore[union-attr]
    spectator = app.test_client()
    computed: list[int] = []
    real = service.tournament_document

    def counting(tournament: Tournament, **options: bool) -> dict[str, object]:
        computed.append(tournament.id)
        return real(tournament, **options)

    monkeypatch.setattr(service, "tournament_document", counting)
    where = [(client, f"/torneos/{tournament_id}"), (spectator, f"/torneos/ver/{token}")]
    first = {}
    for _ in range(5):
        for who, base in where:
            for export in EXPORTS:
                answer = who.get(f"{base}/{export}")
                assert answer.status_code == 200, export
                assert first.setdefault(export, answer.data) == answer.data
    assert len(computed) == len(EXPORTS)
    assert record(client, match_id, FORM_HAND).status_code == 302
    for who, base in where:
        for export in EXPORTS:
            assert who.get(f"{base}/{export}").data != first[export], export
    assert len(computed) == 2 * len(EXPORTS)
