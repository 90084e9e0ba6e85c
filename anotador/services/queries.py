"""Every read of matches and players: the match page, the home lists, the history, the
registry and suggestions, and (from :mod:`anotador.services.batches`) every stored match a
batch at a time (the statistics' summaries: :mod:`anotador.statistics.reads`).

Every function issues a fixed, small number of SQL statements whatever the number of matches
or hands: the match page's state is one light query (:mod:`anotador.services.one_match`,
offered here); the history page is one keyset query (it stays as fast on page 500 as on
page 1) plus the sides and seats of its rows; the
statistics list the selected matches in one statement and read the seats (and, for figures
stored by another version, the hands) only of the matches whose summary is not kept, one
statement each per 500 matches (never one query per row). A filter every read must apply
(private matches and their owner) is added here and in ``batches``, nowhere else: each list
takes a :class:`~anotador.services.scope.Scope`. A single match is read by id: who may see it is
decided from its ``owner_id``, ``group_id`` and link tokens (:mod:`anotador.web.access`).
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from anotador.services.batches import BATCH as BATCH
from anotador.services.batches import Stored as Stored
from anotador.services.batches import iter_matches as iter_matches
from anotador.services.batches import last_match_id as last_match_id
from anotador.services.batches import reload_matches as reload_matches
from anotador.services.batches import stored_batches as stored_batches
from anotador.services.batches import stored_copies as stored_copies
from anotador.services.batches import versions_between as versions_between
from anotador.services.filters import PLAYED
from anotador.services.filters import Filters as Filters
from anotador.services.filters import filtered
from anotador.services.filters import like_pattern
from anotador.services.lists import LISTED_STATE
from anotador.services.lists import Listed as Listed
from anotador.services.lists import first_of_parts
from anotador.services.lists import home_lists as home_lists
from anotador.services.lists import list_matches
from anotador.services.one_match import MATCH_STATE as MATCH_STATE
from anotador.services.one_match import MATCH_VERSION as MATCH_VERSION
from anotador.services.one_match import MatchState as MatchState
from anotador.services.one_match import MatchVersion as MatchVersion
from anotador.services.one_match import Sharing as Sharing
from anotador.services.one_match import load_match as load_match
from anotador.services.one_match import match_state as match_state
from anotador.services.one_match import match_version as match_version
from anotador.services.one_match import sharing_of as sharing_of
from anotador.services.one_match import state_of as state_of
from anotador.services.one_match import table_result_of as table_result_of
from anotador.services.scope import ACCOUNT_MATCH_PARTS
from anotador.services.scope import ACCOUNT_PLAYERS
from anotador.services.scope import EVERYTHING
from anotador.services.scope import Scope
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side
from anotador.storage.models import name_key

PAGE_SIZE = 25
PLAYERS_PAGE_SIZE = 50


def opened_matches(tokens: list[str]) -> list[Match]:
    """The matches whose table or spectator link is one of ``tokens``, newest first."""
    if not tokens:
        return []
    condition = sa.or_(Match.table_token.in_(tokens), Match.spectator_token.in_(tokens))
    return list_matches(EVERYTHING, condition, len(tokens)).matches


def recent_player_names(scope: Scope, limit: int = 30) -> list[str]:
    """The account's players seen in its most recent matches, for the new-match form's
    suggestions (a match names its owner's players: a group's others are not offered)."""
    statement = (
        sa.select(Player.name)
        .join(Seat, Seat.player_id == Player.id)
        .join(Side, Side.id == Seat.side_id)
        .where(Player.owner_id == scope.user_id)
        .group_by(Player.id, Player.name)
        .order_by(sa.func.max(Side.match_id).desc())
        .limit(limit)
    )
    return list(db.session.scalars(statement))


# The history


Cursor = tuple[datetime.date, int]


@dataclasses.dataclass(frozen=True)
class Page:
    listed: Listed
    next_cursor: Cursor | None
    player: Player | None = None
    unknown_player: bool = False

    @property
    def matches(self) -> list[Match]:
        return self.listed.matches


def encode_cursor(cursor: Cursor) -> str:
    return f"{cursor[0].isoformat()}_{cursor[1]}"


#: :func:`player_by_id` for an account's scope, built once (every statistics page runs it).
ACCOUNT_PLAYER = sa.select(Player).where(Player.id == sa.bindparam("player_id"), ACCOUNT_PLAYERS)


def player_by_id(scope: Scope, player_id: int) -> Player | None:
    """The player, if ``scope`` sees it."""
    if scope.of_account:
        parameters = {**scope.parameters(), "player_id": player_id}
        return db.session.scalars(ACCOUNT_PLAYER, parameters).first()
    statement = sa.select(Player).where(Player.id == player_id, scope.players())
    return db.session.scalars(statement).first()


def find_player(scope: Scope, name: str) -> Player | None:
    """The player called ``name`` (accents, case and spaces aside) that ``scope`` sees: the
    account's own first, then a group's."""
    statement = (
        sa.select(Player)
        .where(Player.name_key == name_key(name), scope.players())
        .order_by((Player.owner_id == scope.user_id).desc(), Player.id)
    )
    return db.session.scalars(statement).first()


def history_page(
    scope: Scope, filters: Filters, after: Cursor | None = None, size: int = PAGE_SIZE
) -> Page:
    """The matches ``scope`` sees after ``after``, newest first (by date played, then id),
    with their sides and players; the cursor of the next page when there is one."""
    if scope.of_account and not filters.active:
        parameters: dict[str, object] = {**scope.parameters(), "limit": size + 1}
        if after is not None:
            parameters.update(after_played_on=after[0], after_id=after[1])
        statement = ACCOUNT_HISTORY[after is not None]
        return history_of(db.session.connection().execute(statement, parameters).all(), size)
    player = None
    if filters.player:
        player = find_player(scope, filters.player)
        if player is None:
            return Page(Listed([]), None, unknown_player=True)
    statement = filtered(scope, sa.select(*LISTED_STATE), filters, player)
    if after is not None:
        statement = statement.where(history_after(*after))
    statement = statement.order_by(*NEWEST_FIRST).limit(size + 1)
    return history_of(db.session.connection().execute(statement).all(), size, player)


#: The history's order, newest first: by the date played, then by id.
HISTORY_ORDER = (Match.played_on, Match.id)
NEWEST_FIRST = tuple(column.desc() for column in HISTORY_ORDER)


def history_after(
    played_on: datetime.date | sa.BindParameter[datetime.date],
    match_id: int | sa.BindParameter[int],
) -> sa.ColumnElement[bool]:
    """The matches a history page lists after the cursor (``played_on``, ``match_id``)."""
    return sa.tuple_(Match.played_on, Match.id) < sa.tuple_(played_on, match_id)


def history_of(states: Sequence[Any], size: int, player: Player | None = None) -> Page:
    """A history page of the ``states`` read (one more than ``size`` when there is more)."""
    next_cursor = None
    if len(states) > size:
        states = states[:size]
        next_cursor = (states[-1].played_on, states[-1].id)
    return Page(Listed(states, seats=True), next_cursor, player)


#: An account's history unfiltered, built once: the first page, and a page after a cursor
#: (the parameters ``after_played_on`` and ``after_id``); ``limit`` rows.
_AFTER = history_after(
    sa.bindparam("after_played_on", type_=sa.Date), sa.bindparam("after_id", type_=sa.Integer)
)
ACCOUNT_HISTORY = (
    first_of_parts(ACCOUNT_MATCH_PARTS, sa.true(), HISTORY_ORDER, sa.bindparam("limit")),
    first_of_parts(ACCOUNT_MATCH_PARTS, _AFTER, HISTORY_ORDER, sa.bindparam("limit")),
)


def cursor_at(scope: Scope, filters: Filters, offset: int) -> Cursor | None:
    """The cursor after the first ``offset`` matches (benchmarks and tests jump pages)."""
    statement = filtered(scope, sa.select(Match.played_on, Match.id), filters, None)
    statement = statement.order_by(Match.played_on.desc(), Match.id.desc()).offset(offset - 1)
    row = db.session.execute(statement.limit(1)).first()
    return (row[0], row[1]) if row else None


# Players


@dataclasses.dataclass(frozen=True)
class PlayerRow:
    id: int
    name: str
    matches: int


def player_registry(
    scope: Scope, search: str = "", after: str | None = None, size: int = PLAYERS_PAGE_SIZE
) -> tuple[list[PlayerRow], str | None]:
    """The players ``scope`` sees by name, with how many of its matches each played (with a
    hand at least); keyset on ``name_key``."""
    seats = (
        sa.select(Seat.player_id, sa.func.count(sa.distinct(Seat.side_id)).label("matches"))
        .join(Side, Side.id == Seat.side_id)
        .join(Match, Match.id == Side.match_id)
        .where(scope.matches(), PLAYED)
        .group_by(Seat.player_id)
        .subquery()
    )
    statement = (
        sa.select(Player.id, Player.name, Player.name_key, seats.c.matches)
        .outerjoin(seats, seats.c.player_id == Player.id)
        .where(scope.players())
    )
    if search:
        statement = statement.where(Player.name_key.like(like_pattern(name_key(search)), "\\"))
    if after:
        statement = statement.where(Player.name_key > after)
    rows = list(db.session.execute(statement.order_by(Player.name_key).limit(size + 1)))
    more = len(rows) > size
    rows = rows[:size]
    players = [PlayerRow(row.id, row.name, row.matches or 0) for row in rows]
    return players, (rows[-1].name_key if more and rows else None)


def suggestions(scope: Scope, text: str, limit: int = 8) -> list[str]:
    """Names of the account's players for a player-name input: those starting with
    ``text`` first, then those with a word starting with it; accents and case aside ("jose"
    finds "José")."""
    key = name_key(text)
    if not key:
        return []
    escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    starts = Player.name_key.like(f"{escaped}%", escape="\\")
    word = Player.name_key.like(f"% {escaped}%", escape="\\")
    statement = (
        sa.select(Player.name)
        .where(Player.owner_id == scope.user_id, sa.or_(starts, word))
        .order_by(sa.case((starts, 0), else_=1), Player.name_key)
        .limit(limit)
    )
    return list(db.session.scalars(statement))


def players_by_id(scope: Scope, ids: Iterable[int]) -> dict[int, Player]:
    """The players of ``ids`` that ``scope`` sees."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    found = db.session.scalars(sa.select(Player).where(Player.id.in_(wanted), scope.players()))
    return {player.id: player for player in found}
