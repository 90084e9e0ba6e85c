"""Every read of matches and players: the match page, the home lists, the history, the
registry and suggestions, the statistics, and (from :mod:`anotador.services.batches`) every
stored match a batch at a time.

Every function issues a fixed, small number of SQL statements whatever the number of matches
or hands: the match page's state is one light query; the history page is one keyset query
(it stays as fast on page 500 as on page 1) plus the sides and seats of its rows; the
statistics load the selected matches, their seats and their hands with one statement each
(subqueries, never one query per row). A filter every read must apply (private matches and
their owner) is added here and in ``batches``, nowhere else.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador import stats
from anotador.extensions import db
from anotador.models import STATUSES
from anotador.models import Hand
from anotador.models import Match
from anotador.models import Player
from anotador.models import Seat
from anotador.models import Side
from anotador.models import name_key
from anotador.services.batches import BATCH as BATCH
from anotador.services.batches import Stored as Stored
from anotador.services.batches import iter_matches as iter_matches
from anotador.services.batches import last_match_id as last_match_id
from anotador.services.batches import reload_matches as reload_matches
from anotador.services.batches import stored_batches as stored_batches
from anotador.services.batches import stored_copies as stored_copies
from anotador.services.batches import versions_between as versions_between
from anotador.services.documents import document_of

PAGE_SIZE = 25
PLAYERS_PAGE_SIZE = 50


# One match


def load_match(match_id: int) -> Match | None:
    """A match with its sides, seats and players in one query. Its hands are not loaded
    here: ``match.hands`` loads them all in one more query when first used (``score`` only
    needs them when the match is not in the ``scores`` cache)."""
    statement = (
        sa.select(Match)
        .where(Match.id == match_id)
        .options(sa.orm.joinedload(Match.sides).joinedload(Side.seats))
    )
    return db.session.scalars(statement).unique().first()


@dataclasses.dataclass(frozen=True)
class MatchState:
    """Just enough of a stored match to find what was derived from it in a cache."""

    id: int
    version: int
    content_hash: str | None
    first_dealer: int | None
    hand_count: int
    #: Each side's name and its players' names, in seating order.
    names: tuple[tuple[str, tuple[str, ...]], ...]


def state_of(match: Match) -> MatchState:
    """The :class:`MatchState` of a loaded match."""
    names = tuple(
        (side.name, tuple(seat.player.name for seat in side.seats)) for side in match.sides
    )
    return MatchState(
        match.id, match.version, match.content_hash, match.first_dealer, match.hand_count, names
    )


#: The query of :func:`match_state`, built once (the page it serves is meant to be cheap).
MATCH_STATE = (
    sa.select(
        Match.id,
        Match.version,
        Match.content_hash,
        Match.first_dealer,
        Match.hand_count,
        Side.position,
        Side.name,
        Player.name,
    )
    .join(Side, Side.match_id == Match.id)
    .outerjoin(Seat, Seat.side_id == Side.id)
    .outerjoin(Player, Player.id == Seat.player_id)
    .where(Match.id == sa.bindparam("match_id"))
    .order_by(Side.position, Seat.seat)
)


def match_state(match_id: int) -> MatchState | None:
    """The :class:`MatchState` of a match, in one light query (no ORM objects)."""
    rows = db.session.execute(MATCH_STATE, {"match_id": match_id}).all()
    if not rows:
        return None
    sides: dict[int, tuple[str, list[str]]] = {}
    for row in rows:
        side = sides.setdefault(row[5], (row[6], []))
        if row[7] is not None:
            side[1].append(row[7])
    first = rows[0]
    names = tuple((name, tuple(players)) for name, players in sides.values())
    return MatchState(first[0], first[1], first[2], first[3], first[4], names)


# Lists (home page): the summary columns, sides loaded with them, never the hands


def ongoing_matches(limit: int = 50) -> list[Match]:
    """Matches still being played, the most recently changed first."""
    return list_matches(Match.status == "ongoing", limit)


def recent_finished_matches(limit: int = 20) -> list[Match]:
    """Finished or abandoned matches, the most recently changed first."""
    return list_matches(Match.status != "ongoing", limit)


def list_matches(condition: sa.ColumnElement[bool], limit: int) -> list[Match]:
    statement = (
        sa.select(Match)
        .where(condition)
        .order_by(Match.updated_at.desc(), Match.id.desc())
        .limit(limit)
        .options(sa.orm.selectinload(Match.sides).lazyload(Side.seats))
    )
    return list(db.session.scalars(statement))


def recent_player_names(limit: int = 30) -> list[str]:
    """The players seen in the most recent matches, for the new-match form's suggestions."""
    statement = (
        sa.select(Player.name)
        .join(Seat, Seat.player_id == Player.id)
        .join(Side, Side.id == Seat.side_id)
        .group_by(Player.id, Player.name)
        .order_by(sa.func.max(Side.match_id).desc())
        .limit(limit)
    )
    return list(db.session.scalars(statement))


# The history


@dataclasses.dataclass(frozen=True)
class Filters:
    """What the history (or a statistics page) is narrowed to; empty means everything."""

    player: str = ""
    variant: str = ""
    status: str = ""
    since: datetime.date | None = None
    until: datetime.date | None = None
    search: str = ""

    @property
    def active(self) -> bool:
        return any((self.player, self.variant, self.status, self.since, self.until, self.search))


Cursor = tuple[datetime.date, int]


@dataclasses.dataclass(frozen=True)
class Page:
    matches: list[Match]
    next_cursor: Cursor | None
    player: Player | None = None
    unknown_player: bool = False


def encode_cursor(cursor: Cursor) -> str:
    return f"{cursor[0].isoformat()}_{cursor[1]}"


def like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def player_by_id(player_id: int) -> Player | None:
    return db.session.get(Player, player_id)


def find_player(name: str) -> Player | None:
    """The registered player called ``name`` (accents, case and spaces aside)."""
    return db.session.scalars(sa.select(Player).where(Player.name_key == name_key(name))).first()


def matches_of(player_ids: Iterable[int]) -> sa.Select[int]:
    """The ids of the matches where any of these players sat."""
    return (
        sa.select(Side.match_id)
        .join(Seat, Seat.side_id == Side.id)
        .where(Seat.player_id.in_(list(player_ids)))
    )


def filtered(
    statement: sa.Select[*tuple[Any, ...]], filters: Filters, player: Player | None
) -> sa.Select[*tuple[Any, ...]]:
    """``statement`` (over Match) narrowed by every filter but the player name lookup."""
    if filters.variant:
        statement = statement.where(Match.variant == filters.variant)
    if filters.status in STATUSES:
        statement = statement.where(Match.status == filters.status)
    if filters.since:
        statement = statement.where(Match.played_on >= filters.since)
    if filters.until:
        statement = statement.where(Match.played_on <= filters.until)
    if player is not None:
        statement = statement.where(Match.id.in_(matches_of([player.id])))
    if filters.search:
        key, text = like_pattern(name_key(filters.search)), like_pattern(filters.search.lower())
        by_player = (
            sa.select(Side.match_id)
            .join(Seat, Seat.side_id == Side.id)
            .join(Player, Player.id == Seat.player_id)
            .where(Player.name_key.like(key, escape="\\"))
        )
        by_side = sa.select(Side.match_id).where(sa.func.lower(Side.name).like(text, escape="\\"))
        statement = statement.where(sa.or_(Match.id.in_(by_player), Match.id.in_(by_side)))
    return statement


def history_page(filters: Filters, after: Cursor | None = None, size: int = PAGE_SIZE) -> Page:
    """The matches after ``after``, newest first (by date played, then id), with their sides
    and players; the cursor of the next page when there is one."""
    player = None
    if filters.player:
        player = find_player(filters.player)
        if player is None:
            return Page([], None, unknown_player=True)
    statement = filtered(sa.select(Match), filters, player)
    if after is not None:
        statement = statement.where(sa.tuple_(Match.played_on, Match.id) < sa.tuple_(*after))
    statement = (
        statement.order_by(Match.played_on.desc(), Match.id.desc())
        .limit(size + 1)
        .options(sa.orm.selectinload(Match.sides))
    )
    matches = list(db.session.scalars(statement))
    next_cursor = None
    if len(matches) > size:
        matches = matches[:size]
        next_cursor = (matches[-1].played_on, matches[-1].id)
    return Page(matches, next_cursor, player)


def cursor_at(filters: Filters, offset: int) -> Cursor | None:
    """The cursor after the first ``offset`` matches (benchmarks and tests jump pages)."""
    statement = filtered(sa.select(Match.played_on, Match.id), filters, None)
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
    search: str = "", after: str | None = None, size: int = PLAYERS_PAGE_SIZE
) -> tuple[list[PlayerRow], str | None]:
    """Players by name with how many matches each played; keyset on ``name_key``."""
    seats = (
        sa.select(Seat.player_id, sa.func.count(sa.distinct(Seat.side_id)).label("matches"))
        .group_by(Seat.player_id)
        .subquery()
    )
    statement = sa.select(Player.id, Player.name, Player.name_key, seats.c.matches).outerjoin(
        seats, seats.c.player_id == Player.id
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


def suggestions(text: str, limit: int = 8) -> list[str]:
    """Names for a player-name input: those starting with ``text`` first, then those with a
    word starting with it; accents and case aside ("jose" finds "José")."""
    key = name_key(text)
    if not key:
        return []
    escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    starts = Player.name_key.like(f"{escaped}%", escape="\\")
    word = Player.name_key.like(f"% {escaped}%", escape="\\")
    statement = (
        sa.select(Player.name)
        .where(sa.or_(starts, word))
        .order_by(sa.case((starts, 0), else_=1), Player.name_key)
        .limit(limit)
    )
    return list(db.session.scalars(statement))


def players_by_id(ids: Iterable[int]) -> dict[int, Player]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    found = db.session.scalars(sa.select(Player).where(Player.id.in_(wanted)))
    return {player.id: player for player in found}


# Statistics


def summaries(
    player_ids: Iterable[int], filters: Filters = Filters(), *, all_players: bool = False
) -> list[stats.MatchSummary]:
    """Per-match summaries (scored by the engine) of the matches where every one of
    ``player_ids`` sat (any of them with ``all_players=False``), oldest first.

    Three statements: the matches, their seats with players, their hands.
    """
    ids = list(player_ids)
    statement = filtered(sa.select(Match), filters, None)
    if all_players:
        for player_id in ids:
            statement = statement.where(Match.id.in_(matches_of([player_id])))
    else:
        statement = statement.where(Match.id.in_(matches_of(ids)))
    selected = statement.with_only_columns(Match.id).scalar_subquery()
    matches = list(db.session.scalars(statement.order_by(Match.played_on, Match.id)))
    seats = db.session.execute(
        sa.select(Side.match_id, Side.position, Side.name, Seat.seat, Player.id, Player.name)
        .join(Seat, Seat.side_id == Side.id)
        .join(Player, Player.id == Seat.player_id)
        .where(Side.match_id.in_(selected))
        .order_by(Side.match_id, Side.position, Seat.seat)
    )
    sides: dict[int, dict[int, tuple[str, list[tuple[int, str]]]]] = defaultdict(dict)
    for match_id, position, side_name, _, player_id, player_name in seats:
        sides[match_id].setdefault(position, (side_name, []))[1].append((player_id, player_name))
    hands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    statement = (
        sa.select(Hand.match_id, Hand.inputs)
        .where(Hand.match_id.in_(selected))
        .order_by(Hand.match_id, Hand.number)
    )
    for match_id, inputs in db.session.execute(statement):
        hands[match_id].append(inputs)
    return [
        summary
        for match in matches
        if (summary := summarize(match, sides[match.id], hands[match.id])) is not None
    ]


def summarize(
    match: Match,
    sides: dict[int, tuple[str, list[tuple[int, str]]]],
    hands: list[dict[str, Any]],
) -> stats.MatchSummary | None:
    """One stored match scored by the engine (None if the engine refuses it)."""
    ordered = [sides.get(position, ("", [])) for position in range(len(match.totals))]
    named = [{"name": name, "players": [p for _, p in seated]} for name, seated in ordered]
    game, _ = rules.read_match(document_of(match, named, hands))
    if game is None:
        return None
    players = [tuple(player_id for player_id, _ in seated) for _, seated in ordered]
    return stats.summarize(match.id, match.played_on, game, rules.score_match(game), players)
