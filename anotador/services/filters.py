"""What the history and the statistics are narrowed to, as SQL over ``Match``."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from anotador.services.scope import Scope
from anotador.storage.models import STATUSES
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side
from anotador.storage.models import name_key


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


#: A match counts in a player's statistics once a hand of it was played: a rematch nobody
#: scored yet (or a match opened and left) is not a match played.
PLAYED = Match.hand_count > 0


def like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def matches_of(player_ids: Iterable[int]) -> sa.Select[int]:
    """The ids of the matches where any of these players sat."""
    return (
        sa.select(Side.match_id)
        .join(Seat, Seat.side_id == Side.id)
        .where(Seat.player_id.in_(list(player_ids)))
    )


def played_by(player: int | sa.BindParameter[int]) -> sa.Select[int]:
    """The ids of the matches where the player sat (its id, or the parameter that gives it
    to a statement built once)."""
    return (
        sa.select(Side.match_id).join(Seat, Seat.side_id == Side.id).where(Seat.player_id == player)
    )


def filtered(
    scope: Scope, statement: sa.Select[*tuple[Any, ...]], filters: Filters, player: Player | None
) -> sa.Select[*tuple[Any, ...]]:
    """``statement`` (over Match) narrowed to ``scope`` and by every filter but the player
    name lookup."""
    statement = statement.where(scope.matches())
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
