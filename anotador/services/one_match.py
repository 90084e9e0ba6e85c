"""One match's reads by id: the match with its sides and players, and the light states the
match page, its sheet and the live poll read first (one statement each, past the ORM).
Who may see the match is decided from what they read (:mod:`anotador.web.access`)."""

from __future__ import annotations

import dataclasses
from typing import Any

import sqlalchemy as sa

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import open_result


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
    #: Who may see it (anotador.web.access).
    sharing: Sharing
    #: Its rules and seating (the blank sheet the page offers).
    variant: str
    layout: str
    #: The rematch made from it, if any (the phones of its links follow there).
    rematch_id: int | None = None
    #: A tournament table's match points its director wrote by hand over this match: what
    #: counts in the tournament instead of its totals (read by :func:`match_state`).
    table_result: tuple[int, int] | None = None
    #: The tournament table (``RoundTable.id``) whose match it is, if any.
    table_id: int | None = None


@dataclasses.dataclass(frozen=True)
class Sharing:
    """A match's owner, group, links and whether it is still being played (or, a
    tournament table's that has ended, its result is still its pairs' to fix: not confirmed
    yet, :mod:`anotador.tournaments.operations.confirmations`)."""

    owner_id: int | None
    group_id: int | None
    table_token: str | None
    spectator_token: str | None
    ongoing: bool


#: Asked only of a match that has ended and has a table link: whether it is a tournament
#: table's whose result its pairs may still fix.
OPEN_RESULT = sa.select(open_result(sa.bindparam("match_id")))


def still_scored(match_id: int, status: str, table_token: str | None) -> bool:
    """Whether a match's table link still scores it (``Sharing.ongoing``). The tournament's
    tables are looked at only once the match has ended: the live poll of a match being
    played stays one statement on its own row."""
    if status == "ongoing":
        return True
    if table_token is None:
        return False
    found = db.session.connection().execute(OPEN_RESULT, {"match_id": match_id}).scalar()
    return bool(found)


def sharing_of(match: Match) -> Sharing:
    ongoing = still_scored(match.id, match.status, match.table_token)
    return Sharing(
        match.owner_id, match.group_id, match.table_token, match.spectator_token, ongoing
    )


def state_of(match: Match) -> MatchState:
    """The :class:`MatchState` of a loaded match."""
    names = tuple(
        (side.name, tuple(seat.player.name for seat in side.seats)) for side in match.sides
    )
    return MatchState(
        match.id,
        match.version,
        match.content_hash,
        match.first_dealer,
        match.hand_count,
        names,
        sharing_of(match),
        match.variant,
        match.layout,
        match.rematch_id,
    )


def table_mp(column: Any) -> Any:
    """A column of the tournament table the match is, if any (its id, or one of the match
    points written by hand there)."""
    return (
        sa.select(column)
        .where(RoundTable.match_id == Match.id)
        .correlate(Match)
        .limit(1)
        .scalar_subquery()
    )


def table_result_of(match_id: int) -> tuple[int, int] | None:
    """The match points a tournament's director wrote by hand over match ``match_id`` (what
    counts instead of its totals), if any."""
    statement = sa.select(RoundTable.mp_ns, RoundTable.mp_ew).where(RoundTable.match_id == match_id)
    row = db.session.execute(statement.limit(1)).first()
    if row is None or row.mp_ns is None or row.mp_ew is None:
        return None
    return row.mp_ns, row.mp_ew


#: The query of :func:`match_state`, built once (the page it serves is meant to be cheap).
MATCH_STATE = (
    sa.select(
        Match.id,
        Match.version,
        Match.content_hash,
        Match.first_dealer,
        Match.hand_count,
        Match.owner_id,
        Match.group_id,
        Match.table_token,
        Match.spectator_token,
        Match.status,
        Match.variant,
        Match.layout,
        Side.position,
        Side.name,
        Player.name,
        Match.rematch_id,
        table_mp(RoundTable.mp_ns),
        table_mp(RoundTable.mp_ew),
        open_result(Match.id),
        table_mp(RoundTable.id),
    )
    .join(Side, Side.match_id == Match.id)
    .outerjoin(Seat, Seat.side_id == Side.id)
    .outerjoin(Player, Player.id == Seat.player_id)
    .where(Match.id == sa.bindparam("match_id"))
    .order_by(Side.position, Seat.seat)
)


def match_state(match_id: int) -> MatchState | None:
    """The :class:`MatchState` of a match, in one light query on the session's connection,
    past the ORM (it runs for every match page and every sheet asked for)."""
    rows = db.session.connection().execute(MATCH_STATE, {"match_id": match_id}).all()
    if not rows:
        return None
    sides: dict[int, tuple[str, list[str]]] = {}
    for row in rows:
        side = sides.setdefault(row[12], (row[13], []))
        if row[14] is not None:
            side[1].append(row[14])
    first = rows[0]
    names = tuple((name, tuple(players)) for name, players in sides.values())
    sharing = Sharing(
        first[5], first[6], first[7], first[8], first[9] == "ongoing" or bool(first[18])
    )
    return MatchState(
        first[0],
        first[1],
        first[2],
        first[3],
        first[4],
        names,
        sharing,
        first[10],
        first[11],
        first[15],
        (first[16], first[17]) if first[16] is not None and first[17] is not None else None,
        first[19],
    )


@dataclasses.dataclass(frozen=True)
class MatchVersion:
    """What a live viewer polls for (``views.live``): the match's version, how many hands
    it has, whether it is over, and who may see it."""

    version: int
    hand_count: int
    finished: bool
    sharing: Sharing
    #: The rematch made from it, if any.
    rematch_id: int | None = None


#: The query of :func:`match_version`: one row of one table, polled every second by each
#: phone showing the match.
MATCH_VERSION = sa.select(
    Match.version,
    Match.hand_count,
    Match.status,
    Match.owner_id,
    Match.group_id,
    Match.table_token,
    Match.spectator_token,
    Match.rematch_id,
).where(Match.id == sa.bindparam("match_id"))


def match_version(match_id: int) -> MatchVersion | None:
    """The :class:`MatchVersion` of a match, in one statement (no ORM objects, no sides)."""
    # On the session's connection, past the ORM: this runs for every poll of every phone.
    row = db.session.connection().execute(MATCH_VERSION, {"match_id": match_id}).first()
    if row is None:
        return None
    ongoing = still_scored(match_id, row.status, row.table_token)
    sharing = Sharing(row.owner_id, row.group_id, row.table_token, row.spectator_token, ongoing)
    finished = row.status == "finished"
    return MatchVersion(row.version, row.hand_count, finished, sharing, row.rematch_id)
