"""A director's action arriving several times at once (tabs, double taps, two workers or two
hosts) takes effect exactly once: the others are answered with the page of what happened
(a redirect, the reason flashed), never a 500, never a second set of matches, a lost pair or a
second "round closed". And the tournament's version never loses a change, so the kept pages
follow every one (``service.lock``, ``service.record``).

Each race runs its requests in threads of their own, all released together, spread over two
apps on one database (two hosts), on SQLite and on PostgreSQL alike; a few trials each, every
trial a tournament of its own.
"""

from __future__ import annotations

import collections
import itertools
import json
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from stored import OWNER
from stored import signed_in
from test_tournament_web import ENGLISH
from test_tournament_web import FORM_HAND
from test_tournament_web import PAIRS
from test_tournament_web import WORKED
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import table_ids

from anotador.storage.caching import caches
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.tournaments.operations import draws
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentChange
from anotador.tournaments.store.models import TournamentPair

TABS = 4
TRIALS = 3
#: Only there so that a request that hangs fails the test instead of blocking the run.
WAIT_SECONDS = 60
#: Six pairs: three tables a round, no bye.
SIX = {f"P{n}": (f"Primera {n}", f"Segunda {n}") for n in range(1, 7)}
EIGHT = {f"P{n}": (f"Primera {n}", f"Segunda {n}") for n in range(1, 9)}


@pytest.fixture
def hosts(app_factory: Callable[..., Flask]) -> list[Flask]:
    """Two apps on one database, as two hosts (each with its own pool of connections)."""
    return [app_factory(), app_factory()]


def tabs(hosts: list[Flask], count: int = TABS) -> list[FlaskClient]:
    """``count`` browsers of the director's, spread over the hosts."""
    return [signed_in(hosts[n % len(hosts)], OWNER) for n in range(count)]


def at_once(requests: list[Callable[[], Any]]) -> list[Any]:
    """Run every request in a thread of its own, all released together; their answers (a
    500 is an exception in a test app: it fails here)."""
    barrier = threading.Barrier(len(requests))
    answers: dict[int, Any] = {}
    errors: list[BaseException] = []

    def run(number: int, request: Callable[[], Any]) -> None:
        try:
            barrier.wait(WAIT_SECONDS)
            answers[number] = request()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_SECONDS)
    assert not errors, errors
    assert len(answers) == len(requests)
    return [answers[number] for number in range(len(requests))]


def post(client: FlaskClient, path: str, data: dict[str, str] | None = None) -> Callable[[], Any]:
    """A form ``client`` will post (in English: the tests read what it is told)."""
    return lambda: client.post(path, data={**(data or {}), "confirmed": "1"}, headers=ENGLISH)


def statuses(answers: list[Any]) -> collections.Counter[int]:
    return collections.Counter(answer.status_code for answer in answers)


def posted(clients: list[FlaskClient], path: str, data: dict[str, str] | None = None) -> list[Any]:
    """The same form posted by every client at once."""
    return at_once([post(client, path, data) for client in clients])


def changes(app: Flask, tournament_id: int, change: str) -> int:
    with app.app_context():
        statement = sa.select(sa.func.count()).where(
            TournamentChange.tournament_id == tournament_id, TournamentChange.change == change
        )
        return db.session.scalar(statement) or 0


def tournament_with(client: FlaskClient, pairs: dict[str, tuple[str, str]], **fields: str) -> int:
    tournament_id = create(client, **fields)
    add_pairs(client, tournament_id, pairs)
    return tournament_id


def drawn(client: FlaskClient, pairs: dict[str, tuple[str, str]] = SIX, **fields: str) -> int:
    tournament_id = tournament_with(client, pairs, **fields)
    assert client.post(f"/torneos/{tournament_id}/rondas").status_code == 303
    return tournament_id


def matches_of_owner(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Match)) or 0


def request_key_of(client: FlaskClient) -> str:
    """The one-time key the new tournament's form carries (a new one each time it is shown)."""
    page = client.get("/torneos").get_data(as_text=True)
    found = re.search(r'name="request_key"[^>]*value="([0-9a-f]{32})"', page)
    assert found is not None, "the form carries no request key"
    return found.group(1)


def tournaments_named(app: Flask, name: str) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(sa.select(Tournament.id).where(Tournament.name == name)))


def test_creating_a_tournament_from_a_double_tap_creates_one(hosts: list[Flask]):
    """The same form (its one key) posted from 4 tabs at once, then once more: one
    tournament, every answer the way to it (it made two before)."""
    app = hosts[0]
    clients = tabs(hosts)
    for trial in range(TRIALS):
        name = f"Noche {trial}"
        form = {**WORKED, "name": name, "request_key": request_key_of(clients[0])}
        answers = [*posted(clients, "/torneos", form), post(clients[1], "/torneos", form)()]
        assert statuses(answers) == {303: TABS + 1}
        (made,) = tournaments_named(app, name)
        assert {answer.headers["Location"] for answer in answers} == {f"/torneos/{made}"}
        assert changes(app, made, "created") == 1
    # A form shown again has a new key: the same set-up is another tournament.
    form = {**WORKED, "name": "Noche 0", "request_key": request_key_of(clients[0])}
    assert post(clients[0], "/torneos", form)().status_code == 303
    assert len(tournaments_named(app, "Noche 0")) == 2


def test_starting_a_round_from_four_tabs_makes_one_match_per_table(hosts: list[Flask]):
    app = hosts[0]
    clients = tabs(hosts)
    for trial in range(TRIALS):
        tournament_id = drawn(clients[0])
        answers = posted(clients, f"/torneos/{tournament_id}/rondas/1/empezar")
        assert statuses(answers) == {303: TABS}
        with app.app_context():
            tournament = db.session.get(Tournament, tournament_id)
            assert tournament is not None
            tables = tournament.round_rows[0].tables
            assert len(tables) == 3
            assert all(table.match is not None for table in tables)
        # No stray match in the history: three tables, three matches a trial.
        assert matches_of_owner(app) == 3 * (trial + 1)
        assert changes(app, tournament_id, "round_started") == 1


def test_drawing_from_four_tabs_draws_one_round(hosts: list[Flask]):
    app = hosts[0]
    clients = tabs(hosts)
    for _ in range(TRIALS):
        tournament_id = tournament_with(clients[0], SIX)
        answers = posted(clients, f"/torneos/{tournament_id}/rondas")
        assert statuses(answers) == {303: TABS}
        with app.app_context():
            tournament = db.session.get(Tournament, tournament_id)
            assert tournament is not None
            assert [round_row.number for round_row in tournament.round_rows] == [1]
        assert changes(app, tournament_id, "round_drawn") == 1
        # The others are told the round was drawn already.
        pages = [
            client.get(answer.headers["Location"])
            for client, answer in zip(clients, answers, strict=True)
        ]
        told = ["has already been drawn" in page.get_data(as_text=True) for page in pages]
        assert told.count(True) == TABS - 1


def test_four_pairs_added_at_once_are_four_pairs(hosts: list[Flask]):
    app = hosts[0]
    clients = tabs(hosts)
    for trial in range(TRIALS):
        tournament_id = create(clients[0])
        path = f"/torneos/{tournament_id}/parejas"
        requests = [
            post(client, path, {"first": f"Ana {trial} {n}", "second": f"Beto {trial} {n}"})
            for n, client in enumerate(clients)
        ]
        assert statuses(at_once(requests)) == {303: TABS}
        with app.app_context():
            statement = sa.select(TournamentPair.position).where(
                TournamentPair.tournament_id == tournament_id
            )
            assert sorted(db.session.scalars(statement)) == [1, 2, 3, 4]
        assert changes(app, tournament_id, "pair_added") == TABS


def players_named(app: Flask, name: str) -> int:
    with app.app_context():
        statement = sa.select(sa.func.count()).where(Player.name == name)
        return db.session.scalar(statement) or 0


def test_two_pairs_naming_the_same_new_player_at_once_make_one_player(hosts: list[Flask]):
    app = hosts[0]
    clients = tabs(hosts, 2)
    for trial in range(TRIALS):
        one, other = create(clients[0]), create(clients[0])
        shared = f"Nueva {trial}"
        # In one tournament: one pair, the other refused (the player is in a pair already).
        requests = [
            post(client, f"/torneos/{one}/parejas", {"first": shared, "second": f"Otra {n}"})
            for n, client in enumerate(clients)
        ]
        assert statuses(at_once(requests)) == {303: 2}
        assert changes(app, one, "pair_added") == 1
        # In two tournaments of the account's: both pairs, of the one player of the registry.
        fresh = f"Otra nueva {trial}"
        requests = [
            post(client, f"/torneos/{where}/parejas", {"first": fresh, "second": f"Más {n}"})
            for n, (client, where) in enumerate(zip(clients, (one, other), strict=True))
        ]
        assert statuses(at_once(requests)) == {303: 2}
        assert changes(app, one, "pair_added") + changes(app, other, "pair_added") == 3
        assert players_named(app, shared) == 1
        assert players_named(app, fresh) == 1


def started(client: FlaskClient, app: Flask, pairs: dict[str, tuple[str, str]] = SIX) -> int:
    tournament_id = drawn(client, pairs)
    assert client.post(f"/torneos/{tournament_id}/rondas/1/empezar").status_code == 303
    return tournament_id


def write_results(client: FlaskClient, app: Flask, tournament_id: int) -> None:
    for table_id in table_ids(app, tournament_id, 1).values():
        answer = client.post(
            f"/torneos/{tournament_id}/mesas/{table_id}", data={"mp_ns": "1200", "mp_ew": "800"}
        )
        assert answer.status_code == 303


def test_closing_a_round_from_four_tabs_records_one_round_closed(hosts: list[Flask]):
    app = hosts[0]
    clients = tabs(hosts)
    for _ in range(TRIALS):
        tournament_id = started(clients[0], app)
        write_results(clients[0], app, tournament_id)
        answers = posted(clients, f"/torneos/{tournament_id}/rondas/1/cerrar")
        assert statuses(answers) == {303: TABS}
        assert changes(app, tournament_id, "round_closed") == 1


def test_finishing_and_drawing_at_once_never_draws_after_the_end(hosts: list[Flask]):
    app = hosts[0]
    clients = tabs(hosts, 2)
    for _ in range(TRIALS):
        tournament_id = started(clients[0], app)
        write_results(clients[0], app, tournament_id)
        assert (
            clients[0]
            .post(f"/torneos/{tournament_id}/rondas/1/cerrar", data={"confirmed": "1"})
            .status_code
            == 303
        )
        finishing, drawing = clients
        answers = at_once(
            [
                post(finishing, f"/torneos/{tournament_id}/terminar"),
                post(drawing, f"/torneos/{tournament_id}/rondas"),
            ]
        )
        assert statuses(answers) == {303: 2}
        with app.app_context():
            tournament = db.session.get(Tournament, tournament_id)
            assert tournament is not None
            rounds = len(tournament.round_rows)
            finished = tournament.status == "finished"
        # Finished after round 1 (the draw refused), or round 2 drawn (the end refused).
        assert (finished, rounds) in ((True, 1), (False, 2))


def version_of(app: Flask, tournament_id: int) -> int:
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        return tournament.version


#: A row of the board's standings: rank, pair, VP.
#: A standings row of the board: its rank, its pair (a withdrawn one marked after the name)
#: and its VP.
ROW = re.compile(
    r'<tr><td>(\d+)</td><td>([^<]*)(?: <span class="muted t-withdrawn">[^<]*</span>)?</td>'
    r'<td class="t-vp">([^<]*)</td>'
)


def read_board(client: FlaskClient, tournament_id: int) -> Callable[[], Any]:
    return lambda: board_rows(client, tournament_id)


def board_rows(client: FlaskClient, tournament_id: int) -> list[tuple[str, ...]]:
    page = client.get(f"/torneos/{tournament_id}/tablero", headers=ENGLISH)
    assert page.status_code == 200
    return ROW.findall(page.get_data(as_text=True))


def test_four_results_written_at_once_raise_the_version_by_four_and_the_board_follows(
    hosts: list[Flask],
):
    app = hosts[0]
    clients = tabs(hosts)
    for _ in range(TRIALS):
        tournament_id = started(clients[0], app, EIGHT)
        before = version_of(app, tournament_id)
        requests = [
            post(
                client,
                f"/torneos/{tournament_id}/mesas/{table_id}",
                {"mp_ns": str(1000 + 100 * n), "mp_ew": "900"},
            )
            for n, (client, table_id) in enumerate(
                zip(clients, table_ids(app, tournament_id, 1).values(), strict=True)
            )
        ]
        # The board read while the results are written: a page kept under a version a lost
        # update would give again is what went stale.
        requests += [read_board(client, tournament_id) for client in clients]
        answers = at_once(requests)
        assert statuses(answers[:TABS]) == {303: TABS}
        assert version_of(app, tournament_id) == before + TABS
        shown = board_rows(clients[0], tournament_id)
        for host in hosts:
            with host.app_context():
                caches().tournaments.clear()
        assert shown == board_rows(clients[0], tournament_id)
        exported = json.loads(clients[0].get(f"/torneos/{tournament_id}/posiciones.json").data)
        assert [int(vp) for _rank, _name, vp in shown] == [
            row["vp"] for row in exported["standings"]
        ]


def test_a_swap_posted_from_two_tabs_swaps_once(hosts: list[Flask]):
    app = hosts[0]
    clients = tabs(hosts, 2)
    for _ in range(TRIALS):
        tournament_id = drawn(clients[0])
        with app.app_context():
            tournament = db.session.get(Tournament, tournament_id)
            assert tournament is not None
            first, second = (table.ns_pair_id for table in tournament.round_rows[0].tables[:2])
            seen = str(tournament.version)
        data = {"first": str(first), "second": str(second), "seen": seen}
        answers = posted(clients, f"/torneos/{tournament_id}/rondas/1/cambio", data)
        assert statuses(answers) == {303: 2}
        assert changes(app, tournament_id, "pairs_swapped") == 1
        with app.app_context():
            tournament = db.session.get(Tournament, tournament_id)
            assert tournament is not None
            tables = tournament.round_rows[0].tables
            assert (tables[0].ns_pair_id, tables[1].ns_pair_id) == (second, first)


def test_withdrawing_a_pair_and_the_spectator_link_from_four_tabs_change_once(
    hosts: list[Flask],
):
    app = hosts[0]
    clients = tabs(hosts)
    tournament_id = tournament_with(clients[0], SIX)
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        pair_id = tournament.pairs[0].id
    withdraw = f"/torneos/{tournament_id}/parejas/{pair_id}/retiro"
    assert statuses(posted(clients, withdraw, {"withdrawn": "1"})) == {303: TABS}
    assert changes(app, tournament_id, "pair_withdrawn") == 1
    assert statuses(posted(clients, f"/torneos/{tournament_id}/enlace", {"on": "1"})) == {303: TABS}
    assert changes(app, tournament_id, "link_made") == 1
    assert statuses(posted(clients, f"/torneos/{tournament_id}/enlace", {"on": "0"})) == {303: TABS}
    assert changes(app, tournament_id, "link_revoked") == 1


def test_a_result_written_from_four_tabs_is_written_once(hosts: list[Flask]):
    app = hosts[0]
    clients = tabs(hosts)
    tournament_id = started(clients[0], app)
    table_id = table_ids(app, tournament_id, 1)[1]
    path = f"/torneos/{tournament_id}/mesas/{table_id}"
    assert statuses(posted(clients, path, {"mp_ns": "1300", "mp_ew": "700"})) == {303: TABS}
    assert changes(app, tournament_id, "result_entered") == 1
    assert statuses(posted(clients, path, {"mp_ns": "", "mp_ew": ""})) == {303: TABS}
    assert changes(app, tournament_id, "result_cleared") == 1


#: What a director or a table may do at any moment, as the property test draws it: a
#: director's action, or a hand saved at a table of the latest round (by its place).
ACTIONS = st.sampled_from(
    [
        *[("draw",), ("start",), ("close",), ("close",), ("close",), ("finish",)],
        *[("hand", table) for table in (0, 1, 0, 1)],
        *[("result", table, (1200, 800)) for table in (0, 1)],
        ("result", 0, None),
        ("add_pair",),
        *[("withdraw", pair, leaves) for pair in (0, 4) for leaves in (True, False)],
    ]
)
#: Answers that say what happened, or why not (a round or table not there yet: 404).
TOLD = {200, 302, 303, 404, 409, 422}
names = itertools.count()


def latest_round(app: Flask, tournament_id: int) -> tuple[int, list[int], list[int | None]]:
    """The latest round's number (0: none yet), its tables' ids and matches' ids."""
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        if not tournament.round_rows:
            return 0, [], []
        latest = tournament.round_rows[-1]
        tables = [table for table in latest.tables if not table.is_bye]
        return latest.number, [t.id for t in tables], [t.match_id for t in tables]


def action_request(
    app: Flask, client: FlaskClient, tournament_id: int, action: tuple[Any, ...]
) -> Callable[[], Any]:
    """The request of ``action``, its target found now (before the requests are let go)."""
    base = f"/torneos/{tournament_id}"
    number, tables, matches = latest_round(app, tournament_id)
    kind = action[0]
    if kind == "draw":
        return post(client, f"{base}/rondas")
    if kind in ("start", "close"):
        return post(client, f"{base}/rondas/{number}/{'empezar' if kind == 'start' else 'cerrar'}")
    if kind == "finish":
        return post(client, f"{base}/terminar")
    if kind == "add_pair":
        n = next(names)
        return post(client, f"{base}/parejas", {"first": f"Late {n}", "second": f"Tarde {n}"})
    if kind == "withdraw":
        with app.app_context():
            tournament = db.session.get(Tournament, tournament_id)
            assert tournament is not None
            pair_id = tournament.pairs[action[1] % len(tournament.pairs)].id
        path = f"{base}/parejas/{pair_id}/retiro"
        return post(client, path, {"withdrawn": "1" if action[2] else "0"})
    if not tables:
        return post(client, f"{base}/mesas/0")  # no table yet: a 404
    place = action[1] % len(tables)
    if kind == "result":
        mp = action[2]
        data = {"mp_ns": str(mp[0]), "mp_ew": str(mp[1])} if mp else {"mp_ns": "", "mp_ew": ""}
        return post(client, f"{base}/mesas/{tables[place]}", data)
    match_id = matches[place]
    if match_id is None:
        return post(client, f"{base}/mesas/0")
    return lambda: saved_hand(client, match_id)


def saved_hand(client: FlaskClient, match_id: int) -> Any:
    """A hand saved at a table through its form; the form's answer when there is none (the
    table's match over: it sends the phone to its sheet)."""
    form = client.get(f"/partidas/{match_id}/manos/nueva")
    if form.status_code != 200:
        return form
    page = form.get_data(as_text=True)
    hidden = dict(re.findall(r'name="(request_key|version)" type="hidden" value="([^"]*)"', page))
    return client.post(f"/partidas/{match_id}/manos/nueva", data={**hidden, **FORM_HAND})


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.lists(ACTIONS, min_size=1, max_size=3), min_size=3, max_size=10))
def test_any_interleaving_leaves_one_match_a_table_and_the_files_standings(
    hosts: list[Flask], steps: list[list[tuple[Any, ...]]]
):
    app = hosts[0]
    clients = tabs(hosts, 3)
    name = f"Noche {next(names)}"
    tournament_id = tournament_with(
        clients[0],
        {key: PAIRS[key] for key in "ABCDE"},
        name=name,
        variant="uruguaya",
        hands_per_round="1",
        scale="wdl",
        system="danese",
        rounds="3",
    )
    for action in ("draw", "start"):  # round 1 being played: its tables have a match each
        action_request(app, clients[0], tournament_id, (action,))()
    for step in steps:
        requests = [
            action_request(app, client, tournament_id, action)
            for client, action in zip(clients, step, strict=False)
        ]
        assert set(statuses(at_once(requests))) <= TOLD
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        started_rounds = [r for r in tournament.round_rows if r.status != "drawn"]
        tables = [t for r in started_rounds for t in r.tables if not t.is_bye]
        # Exactly one match a table of every started round, and no other in the history.
        assert all(table.match_id is not None for table in tables)
        assert len({table.match_id for table in tables}) == len(tables)
        made = sa.select(sa.func.count()).where(Match.title.startswith(f"{name} · "))
        assert db.session.scalar(made) == len(tables)
        # Finished only after its last round's close, never with a round drawn after.
        if tournament.status == "finished":
            assert all(r.status == "closed" for r in tournament.round_rows)
        # Every change kept once, and each raised the version by one.
        kept = list(
            db.session.scalars(
                sa.select(TournamentChange.change).where(
                    TournamentChange.tournament_id == tournament_id
                )
            )
        )
        assert tournament.version == len(kept)
        assert kept.count("round_drawn") == len(tournament.round_rows)
        assert kept.count("round_started") == len(started_rounds)
        assert kept.count("round_closed") == sum(
            r.status == "closed" for r in tournament.round_rows
        )
        computed = draws.standings_document(service.tournament_document(tournament))
    # What the pages show is what the pure code computes from the tournament file.
    exported = json.loads(clients[0].get(f"/torneos/{tournament_id}/posiciones.json").data)
    assert exported == computed
    shown = [(int(rank), int(vp)) for rank, _name, vp in board_rows(clients[1], tournament_id)]
    assert shown == [(row["rank"], row["vp"]) for row in computed["standings"]]
