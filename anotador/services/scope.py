"""Whose matches and players a read sees: one account's (its own and its groups'), or all.

Every read in :mod:`anotador.services.queries` and :mod:`anotador.services.batches` takes a
:class:`Scope` and adds its condition; nothing else filters by owner. The web builds the scope
of the signed-in account (``anotador.web.access.scope``); an administrator's command line uses
:data:`EVERYTHING`.
"""

from __future__ import annotations

import dataclasses

import sqlalchemy as sa

from anotador.storage.models import Match
from anotador.storage.models import Membership
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side


@dataclasses.dataclass(frozen=True)
class Scope:
    """The matches of ``user_id`` and of every group it belongs to (``everything``: all)."""

    user_id: int | None
    everything: bool = False

    def groups(self) -> sa.Select[int]:
        return groups_of(self.user_id)

    @property
    def of_account(self) -> bool:
        """An account's scope: :data:`ACCOUNT_MATCHES` with :meth:`parameters`."""
        return self.user_id is not None and not self.everything

    def parameters(self) -> dict[str, int]:
        """The parameters of :data:`ACCOUNT_MATCHES` for this account's scope."""
        return {"scope_account": self.user_id} if self.user_id is not None else {}

    def matches(self) -> sa.ColumnElement[bool]:
        """The condition on ``Match`` rows this scope sees."""
        if self.everything:
            return sa.true()
        if self.user_id is None:
            return sa.false()
        return account_matches(self.user_id)

    def players(self) -> sa.ColumnElement[bool]:
        """The condition on ``Player`` rows: the account's own, and whoever sat in a match
        it sees (a group's matches bring their owners' players)."""
        if self.everything:
            return sa.true()
        if self.user_id is None:
            return sa.false()
        return account_players(self.user_id)


#: The account a statement built once is run for (its id, as the parameter
#: ``scope_account``: :meth:`Scope.parameters`), in :data:`ACCOUNT_MATCHES`.
ACCOUNT = sa.bindparam("scope_account", type_=sa.Integer)


def groups_of(account: int | sa.BindParameter[int] | None) -> sa.Select[int]:
    """The ids of an account's groups (its id, or :data:`ACCOUNT`)."""
    return sa.select(Membership.group_id).where(Membership.user_id == account)


def account_match_parts(
    account: int | sa.BindParameter[int],
) -> tuple[sa.ColumnElement[bool], sa.ColumnElement[bool]]:
    """The matches an account sees in two parts that share none: its own, and its groups'
    that others own (its id, or :data:`ACCOUNT`). A list of them in some order reads each
    part along its own index and merges the few rows (``lists.first_of_parts``): read as
    one condition with OR, SQLite sorts every match the account sees for each page."""
    own = Match.owner_id == account
    others_in_groups = sa.and_(
        Match.group_id.in_(groups_of(account)),
        sa.or_(Match.owner_id.is_(None), Match.owner_id != account),
    )
    return own, others_in_groups


def account_matches(account: int | sa.BindParameter[int]) -> sa.ColumnElement[bool]:
    """The matches an account sees: its own and its groups' (its id, or :data:`ACCOUNT`)."""
    return sa.or_(*account_match_parts(account))


def account_players(account: int | sa.BindParameter[int]) -> sa.ColumnElement[bool]:
    """The players an account sees: its own, and whoever sat in its groups' matches (its
    id, or :data:`ACCOUNT`)."""
    seated = (
        sa.select(Seat.player_id)
        .join(Side, Side.id == Seat.side_id)
        .join(Match, Match.id == Side.match_id)
        .where(Match.group_id.in_(groups_of(account)))
    )
    return sa.or_(Player.owner_id == account, Player.id.in_(seated))


#: :meth:`Scope.matches` of any account: the pages most requests ask for (the home page's
#: lists, a player's statistics) build their statements with it once.
ACCOUNT_MATCHES = account_matches(ACCOUNT)
#: :func:`account_match_parts` of any account: the lists built once read them part by part.
ACCOUNT_MATCH_PARTS = account_match_parts(ACCOUNT)
#: :meth:`Scope.players` of any account (a player's statistics page finds its player).
ACCOUNT_PLAYERS = account_players(ACCOUNT)

#: An administrator's command line: every match of the installation.
EVERYTHING = Scope(None, everything=True)
#: Nobody signed in: no list shows anything (links open single matches, see anotador.web.access).
NOBODY = Scope(None)
