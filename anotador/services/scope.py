"""Whose matches and players a read sees: one account's (its own and its groups'), or all.

Every read in :mod:`anotador.services.queries` and :mod:`anotador.services.batches` takes a
:class:`Scope` and adds its condition; nothing else filters by owner. The web builds the scope
of the signed-in account (``anotador.access.scope``); an administrator's command line uses
:data:`EVERYTHING`.
"""

from __future__ import annotations

import dataclasses

import sqlalchemy as sa

from anotador.models import Match
from anotador.models import Membership
from anotador.models import Player
from anotador.models import Seat
from anotador.models import Side


@dataclasses.dataclass(frozen=True)
class Scope:
    """The matches of ``user_id`` and of every group it belongs to (``everything``: all)."""

    user_id: int | None
    everything: bool = False

    def groups(self) -> sa.Select[int]:
        return sa.select(Membership.group_id).where(Membership.user_id == self.user_id)

    def matches(self) -> sa.ColumnElement[bool]:
        """The condition on ``Match`` rows this scope sees."""
        if self.everything:
            return sa.true()
        if self.user_id is None:
            return sa.false()
        return sa.or_(Match.owner_id == self.user_id, Match.group_id.in_(self.groups()))

    def players(self) -> sa.ColumnElement[bool]:
        """The condition on ``Player`` rows: the account's own, and whoever sat in a match
        it sees (a group's matches bring their owners' players)."""
        if self.everything:
            return sa.true()
        if self.user_id is None:
            return sa.false()
        seated = (
            sa.select(Seat.player_id)
            .join(Side, Side.id == Seat.side_id)
            .join(Match, Match.id == Side.match_id)
            .where(Match.group_id.in_(self.groups()))
        )
        return sa.or_(Player.owner_id == self.user_id, Player.id.in_(seated))


#: An administrator's command line: every match of the installation.
EVERYTHING = Scope(None, everything=True)
#: Nobody signed in: no list shows anything (links open single matches, see anotador.access).
NOBODY = Scope(None)
