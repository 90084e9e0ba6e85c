"""Every stored match, a batch at a time (export, ``anotador check``, hash backfill).

Keyset-paginated on the id with a fixed number of statements per batch, so memory stays one
batch however many matches there are. Offered with the other reads by
:mod:`anotador.services.queries`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from anotador.services.documents import document_of
from anotador.services.scope import Scope
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side

BATCH = 500


def iter_matches(batch: int = BATCH, where: Any = None) -> Iterator[Match]:
    """Every stored match (optionally only those matching ``where``) by id, with sides,
    seats, players and hands, a batch at a time; each batch leaves the session afterwards."""
    last = 0
    while True:
        statement = (
            sa.select(Match)
            .where(Match.id > last)
            .order_by(Match.id)
            .limit(batch)
            .options(
                sa.orm.selectinload(Match.sides).selectinload(Side.seats),
                sa.orm.selectinload(Match.hands),
            )
        )
        if where is not None:
            statement = statement.where(where)
        matches = list(db.session.scalars(statement))
        if not matches:
            return
        yield from matches
        last = matches[-1].id
        db.session.flush()  # keep what the caller changed before letting the batch go
        db.session.expunge_all()


@dataclass(frozen=True)
class Stored:
    """A stored match read as plain rows: no ORM objects, so a batch loads fast."""

    row: sa.Row[Any]
    sides: list[tuple[str, list[str]]]  # side name, player names in seat order
    hands: list[dict[str, Any]]

    def document(self) -> dict[str, Any]:
        """The match file of this match as it is stored."""
        sides = [{"name": name, "players": players} for name, players in self.sides]
        return document_of(self.row, sides, self.hands)


MATCH_COLUMNS = (
    Match.id,
    Match.variant,
    Match.layout,
    Match.settings,
    Match.start_scores,
    Match.title,
    Match.notes,
    Match.played_on,
    Match.abandoned,
    Match.hand_limit,
    Match.play_every_hand,
    Match.status,
    Match.totals,
    Match.winner,
    Match.hand_count,
)


def stored_batches(scope: Scope, batch: int = BATCH, hands: bool = True) -> Iterator[list[Stored]]:
    """Every stored match ``scope`` sees by id, a batch at a time, in three statements per
    batch (matches; sides with their seats' players; hands), keyset-paginated on the id."""
    last = 0
    while True:
        statement = sa.select(*MATCH_COLUMNS).where(Match.id > last, scope.matches())
        rows = db.session.execute(statement.order_by(Match.id).limit(batch)).all()
        if not rows:
            return
        first, last = rows[0].id, rows[-1].id
        sides: dict[int, list[tuple[str, list[str]]]] = {row.id: [] for row in rows}
        statement = (
            sa.select(Side.match_id, Side.id, Side.name, Player.name)
            .outerjoin(Seat, Seat.side_id == Side.id)
            .outerjoin(Player, Player.id == Seat.player_id)
            .where(Side.match_id.between(first, last), Side.match_id.in_(list(sides)))
            .order_by(Side.match_id, Side.position, Seat.seat)
        )
        previous = None
        for match_id, side_id, side_name, player in db.session.execute(statement):
            if side_id != previous:
                sides[match_id].append((side_name, []))
                previous = side_id
            if player is not None:
                sides[match_id][-1][1].append(player)
        played: dict[int, list[dict[str, Any]]] = {row.id: [] for row in rows}
        if hands:
            of_hands = (
                sa.select(Hand.match_id, Hand.inputs)
                .where(Hand.match_id.between(first, last), Hand.match_id.in_(list(played)))
                .order_by(Hand.match_id, Hand.number)
            )
            for match_id, inputs in db.session.execute(of_hands):
                played[match_id].append(inputs)
        yield [Stored(row, sides[row.id], played[row.id]) for row in rows]


def versions_between(first: int, last: int) -> dict[int, sa.Row[int, str | None, int]]:
    """``id``, ``content_hash`` and ``version`` of the matches with ids in [first, last]."""
    statement = sa.select(Match.id, Match.content_hash, Match.version).where(
        Match.id.between(first, last)
    )
    return {row.id: row for row in db.session.execute(statement)}


def reload_matches(match_ids: list[int]) -> list[Match]:
    """These matches read afresh (what the session holds is overwritten) with their sides,
    seats with their players and hands, by id: four statements."""
    statement = (
        sa.select(Match)
        .where(Match.id.in_(match_ids))
        .order_by(Match.id)
        .options(
            sa.orm.selectinload(Match.sides).selectinload(Side.seats),
            sa.orm.selectinload(Match.hands),
        )
        .execution_options(populate_existing=True)
    )
    return list(db.session.scalars(statement))


def stored_copies(hashes: set[str], owner_id: int | None, up_to: int) -> dict[str, list[int]]:
    """The ids (up to ``up_to``, in order) of the matches of ``owner_id`` with each content
    hash."""
    copies: dict[str, list[int]] = {}
    statement = (
        sa.select(Match.content_hash, Match.id)
        .where(Match.content_hash.in_(hashes), Match.owner_id == owner_id)
        .where(Match.id <= up_to)
        .order_by(Match.id)
    )
    for content, match_id in db.session.execute(statement):
        if content is not None:
            copies.setdefault(content, []).append(match_id)
    return copies


def last_match_id() -> int:
    """The highest match id stored (0 when there is none)."""
    return db.session.scalar(sa.select(sa.func.max(Match.id))) or 0
