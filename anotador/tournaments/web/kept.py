"""A tournament's state in one statement, and the rendered parts of its pages (and its
exports' bodies) kept under it.

Reading a whole tournament (pairs, rounds, tables and their matches) and working out its
standings costs tens of milliseconds for 40 tables after 6 rounds; reading its state does
not: the tournament's row with its ``version`` (bumped by every change of the director's,
``service.record``), its tables' matches (how many, and the sum of their versions: every hand
saved, corrected or deleted at a table bumps its match's version) and its pairs' players'
names and membership numbers (a player renamed or numbered in the registry). The version
and the sum only grow, and a match deleted takes far more off than any sum of versions
adds, so every change of what a page shows is a new key: as ``storage/caching.py`` says,
nothing is ever cleared on a write and nothing stale is ever served. A part is kept only
when the state read again after rendering it is the one read before (else it may show a
newer state than its key says).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from collections.abc import Hashable
from typing import Any

import sqlalchemy as sa
from markupsafe import Markup

from anotador.storage.caching import caches
from anotador.storage.caching import kept
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair

#: What each table's match adds to :data:`TABLES` beside its version: far more than all
#: the versions of a tournament add up to, so the one number says both how many matches its
#: tables have (a match deleted lowers it) and the sum of their versions (every hand saved,
#: corrected or deleted anywhere raises it).
PER_MATCH = 2**32
TABLES = (
    sa.select(sa.func.coalesce(sa.func.sum(sa.cast(Match.version, sa.BigInteger) + PER_MATCH), 0))
    .select_from(RoundTable)
    .join(Round, Round.id == RoundTable.round_id)
    .join(Match, Match.id == RoundTable.match_id)
    .where(Round.tournament_id == Tournament.id)
    .correlate(Tournament)
    .scalar_subquery()
)


def names(seat: Any) -> Any:
    """The names and membership numbers of the tournament's pairs' first (or second)
    players in one text: any player renamed or given another number changes it (a stored
    name or number never holds the separators, control characters). One player per pair,
    found by its key: a join on either player at once would compare every pair with every
    player of the registry."""
    shown = Player.name + "\x1e" + sa.func.coalesce(Player.membership, "")
    return (
        sa.select(sa.func.aggregate_strings(shown, "\x1f"))
        .select_from(TournamentPair)
        .join(Player, Player.id == seat)
        .where(TournamentPair.tournament_id == Tournament.id)
        .correlate(Tournament)
        .scalar_subquery()
    )


#: A tournament's row (the columns a page's frame shows, its owner) and its state; built
#: once (building a statement costs more than running it).
STATE = sa.select(
    Tournament.id,
    Tournament.owner_id,
    Tournament.name,
    Tournament.status,
    Tournament.spectator_token,
    Tournament.version,
    TABLES.label("tables"),
    names(TournamentPair.first_player_id).label("first_names"),
    names(TournamentPair.second_player_id).label("second_names"),
)
BY_ID = STATE.where(Tournament.id == sa.bindparam("tournament_id"))
BY_TOKEN = STATE.where(Tournament.spectator_token == sa.bindparam("token"))
#: What a board's poll reads (200 boards ask once a second each): the owner, the status and
#: the two numbers of :func:`live`, no names.
LIVE = sa.select(Tournament.owner_id, Tournament.status, Tournament.version, TABLES.label("tables"))
LIVE_BY_ID = LIVE.where(Tournament.id == sa.bindparam("tournament_id"))
LIVE_BY_TOKEN = LIVE.where(Tournament.spectator_token == sa.bindparam("token"))
#: A part is rendered by one thread of the process at a time (per stripe of keys): when a
#: table finishes, every board asks for the new standings at once, and threads rendering
#: the same part side by side would each take as long as all of them.
RENDERING = tuple(threading.Lock() for _ in range(16))


def state_of(tournament_id: int | None, token: str | None = None) -> Any:
    """The tournament ``tournament_id`` (or the one whose spectator link is ``token``) as one
    row of :data:`STATE`; None when there is none."""
    if tournament_id is not None:
        return db.session.execute(BY_ID, {"tournament_id": tournament_id}).first()
    return db.session.execute(BY_TOKEN, {"token": token}).first()


def live_of(tournament_id: int | None, token: str | None = None) -> Any:
    """As :func:`state_of`, only what a board's poll needs (a row of :data:`LIVE`)."""
    if tournament_id is not None:
        return db.session.execute(LIVE_BY_ID, {"tournament_id": tournament_id}).first()
    return db.session.execute(LIVE_BY_TOKEN, {"token": token}).first()


def live(state: Any) -> int:
    """A number that changes whenever the standings may: the director's changes and every
    change to a table's match (what the board's live poll compares)."""
    return int(state.version) * 1_000_003 + int(state.tables)


def part(state: Any, view: tuple[Hashable, ...], make: Callable[[], str]) -> Markup:
    """The part of a page ``make`` renders for the tournament in ``state`` (a row of
    :func:`state_of`) and ``view`` (the page and whatever else it depends on: language,
    mount point, link...), kept under both."""
    cache = caches().tournaments
    key = (db.engine.url.render_as_string(), tuple(state), *view)
    found = cache.get(key)
    if found is not None:
        return found

    def unchanged() -> Hashable | None:
        return key if tuple(state_of(state.id) or ()) == tuple(state) else None

    with RENDERING[hash(key) % len(RENDERING)]:  # kept() looks again: rendered meanwhile?
        return kept(cache, key, lambda: Markup(make()), unchanged)
