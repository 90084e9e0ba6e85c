"""A tournament's pages on the real server as ratios to ``/healthz`` in the same run (issue 28):
the standings of 40 tables after 6 rounds, and the director's live view of a round; the
standings' CSV and JSON exports a spectator downloads.

gunicorn on loopback (``benchmarks.server``: the production settings, 2 workers of 4 threads)
on a temporary SQLite database (``BENCH_DATABASE_URL`` for PostgreSQL) seeded through the use
cases, not through HTTP: a burraco club night of 80 pairs (Danish system, FIBUR 3 hands) with
6 rounds closed, every table an ordinary match of 3 hands that scored itself, and a 7th round
being played (a third of its tables finished, a third playing, a third not started). Each
page is loaded by 4 client threads for a second right after a second of ``/healthz``, in 5
rounds (``server_pages.measure_rounds``): the median over the rounds of the page's median
over ``/healthz``'s, each round's ratio and the target (at most 5x) beside it, after a
second of warming (each worker renders each page once, then keeps it until the tournament
changes). The director
is signed in through the sign-in form; the spectator link's standings are shown too.
"""

from __future__ import annotations

import datetime
from typing import Any

from anotador import rules
from anotador import services
from anotador.services.accounts import new_token
from anotador.services.documents import refresh_summary
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import Tournament
from benchmarks import server
from benchmarks import server_pages

PAIRS = 80
PLAYED = 6
HANDS = 3
TARGET = 5.0


def hand(seed: int) -> dict[str, Any]:
    """A burraco hand whose points vary with ``seed`` (so do the tables' MP and VP)."""
    return {
        "end": "stock_out",
        "sides": [
            {"table_points": 100 + 5 * (seed * 7 % 60), "hand_points": 5 * (seed % 9)},
            {"table_points": 100 + 5 * (seed * 13 % 60), "hand_points": 5 * (seed % 7)},
        ],
    }


def play_tables(tournament: Tournament, round_row: Round, hands_at: list[int]) -> None:
    """What :func:`rounds.start_round` does, each table's match then given ``hands_at[k]``
    hands at once (the k-th table), as its phones would have saved them."""
    for index, table in enumerate(t for t in round_row.tables if not t.is_bye):
        match = service.table_match(tournament, round_row, table)
        match.table_token = new_token()
        assert table.ew_pair is not None
        seed = round_row.number * 100 + index
        document = {
            "format": rules.MATCH_FORMAT,
            "variant": tournament.variant,
            "layout": tournament.layout,
            "options": tournament.options,
            "sides": [service.side_of(table.ns_pair), service.side_of(table.ew_pair)],
            "hands": [hand(seed + k) for k in range(hands_at[index])],
            "hand_limit": tournament.hands_per_round,
        }
        game, problems = rules.read_match(document)
        assert game is not None, problems
        for number, played in enumerate(game.hands, start=1):
            inputs = rules.hand_to_document(game.rules, played)
            match.hands.append(Hand(number=number, inputs=inputs))
        refresh_summary(match, game, rules.score_match(game))
        table.match = match
    round_row.status = "playing"


def seed_tournament(
    owner_id: int, system: str = "danese", pairs: int = PAIRS, played: int = PLAYED
) -> int:
    """The club night: ``pairs`` pairs, ``played`` rounds closed, the next being played; its
    id."""
    setup = service.SetUp(
        name="Burraco del jueves",
        played_on=datetime.date(2026, 12, 3),
        variant="burraco",
        options={},
        hands_per_round=HANDS,
        scale="fibur-3",
        system=system,
        rounds=played + 2,
    )
    tournament = service.create_tournament(owner_id, setup)
    assert isinstance(tournament, Tournament), tournament
    for k in range(pairs):
        service.add_pair(tournament, owner_id, f"Norte {k}", f"Sur {k}", f"Club {k % 5}")
    tables = pairs // 2
    for number in range(1, played + 2):
        round_row = rounds.draw_round(tournament, owner_id)
        if number <= played:
            play_tables(tournament, round_row, [HANDS] * tables)
            round_row.status = "closed"
        else:  # finished, playing, not started
            play_tables(tournament, round_row, [(HANDS, 1, 0)[k % 3] for k in range(tables)])
        service.record(tournament, owner_id, "round_started", round=number)
        db.session.commit()
    tournament.spectator_token = new_token()
    db.session.commit()
    return tournament.id


def seed(app: Any) -> dict[str, Any]:
    user = services.accounts.create_account(server.ACCOUNT, server.PASSWORD)
    tournament_id = seed_tournament(user.id)
    tournament = db.session.get(Tournament, tournament_id)
    assert tournament is not None
    return {"id": tournament_id, "token": tournament.spectator_token, "round": PLAYED + 1}


#: (label, target ratio to /healthz; None: shown only)
TARGETS = {
    f"standings, {PAIRS // 2} tables after {PLAYED} rounds": TARGET,
    f"the director's live view of round {PLAYED + 1}": TARGET,
    "standings by the spectator link": None,
    "standings CSV by the spectator link": TARGET,
    "standings JSON by the spectator link": TARGET,
}


def run() -> list[str]:
    with server.LiveServer(seed, workers=2, threads=4) as live:
        seeded = live.seeded
        cookie = live.sign_in()
        base = f"/torneos/{seeded['id']}"
        paths = [
            f"{base}/posiciones",
            f"{base}/rondas/{seeded['round']}",
            f"/torneos/ver/{seeded['token']}/posiciones",
            f"/torneos/ver/{seeded['token']}/posiciones.csv",
            f"/torneos/ver/{seeded['token']}/posiciones.json",
        ]
        routes = {
            name: server.getter(path, cookie) for name, path in zip(TARGETS, paths, strict=True)
        }
        # Warm: each worker has rendered each page once (the first is a miss).
        server.load(live.port, list(routes.values()), server_pages.SECONDS)
        measured = server_pages.measure_rounds(live.port, routes)
    healthz = measured.healthz()
    lines = [
        f"tournament pages (gunicorn 2 workers x 4 threads, {server_pages.CLIENTS} clients per "
        f"page, {server_pages.ROUNDS} rounds of {server_pages.SECONDS:.0f} s each; {PAIRS} "
        f"pairs, {PLAYED} rounds closed, round {PLAYED + 1} being played):",
        f"  /healthz: {healthz.text()}",
        *measured.target_lines(TARGETS),
    ]
    errors = sum(measured.figure(name).errors for name in TARGETS) + healthz.errors
    lines.append(
        f"  server errors in the run: {errors} ({'ok' if errors == 0 else 'OVER'}; target 0)"
    )
    return lines
