"""The lists of matches (home page, history): the matches' states first, what their rows show
only for the rows that are drawn, never the hands (offered by
:mod:`anotador.services.queries` with the other reads)."""

from __future__ import annotations

import functools
from collections.abc import Hashable
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from anotador.services.scope import ACCOUNT_MATCH_PARTS
from anotador.services.scope import Scope
from anotador.storage.caching import state_keys
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Side


class Listed:
    """The matches of a list, in order, as their states: what keys their drawn rows
    (``anotador.web.rows.cached_list``). What a row shows (with the sides and, with ``seats``,
    their players) is loaded only if a row is drawn, in two more statements."""

    def __init__(self, states: Sequence[Any], *, seats: bool = False) -> None:
        self.states = list(states)
        self.seats = seats

    def keys(self) -> tuple[Hashable, ...]:
        """The :func:`anotador.storage.caching.match_key` of each match (None for one without a
        content hash)."""
        return tuple(state_keys(self.states))

    @functools.cached_property
    def matches(self) -> list[Match]:
        ids = [state.id for state in self.states]
        if not ids:
            return []
        sides = LISTED_SIDES if self.seats else LISTED_SIDES.lazyload(Side.seats)
        statement = sa.select(Match).where(Match.id.in_(ids)).options(LISTED, sides)
        found = {match.id: match for match in db.session.scalars(statement)}
        return [found[match_id] for match_id in ids if match_id in found]

    def __len__(self) -> int:
        return len(self.states)


#: A listed match's state (``caching.match_key``) and its place in the history's order.
LISTED_STATE = (Match.id, Match.version, Match.content_hash, Match.played_on)
#: What a list of matches shows (home, history): a page of rows decodes no settings, start
#: scores or side figures it would not show.
LISTED = sa.orm.load_only(
    Match.id,
    Match.version,
    Match.content_hash,
    Match.variant,
    Match.status,
    Match.winner,
    Match.totals,
    Match.hand_count,
    Match.updated_at,
    Match.played_on,
    Match.title,
)
LISTED_SIDES = sa.orm.selectinload(Match.sides).load_only(Side.position, Side.name)


#: The home page's order: the most recently changed first.
RECENT_FIRST = (Match.updated_at, Match.id)


def listing(where: sa.ColumnElement[bool], limit: int) -> sa.Select[*tuple[Any, ...]]:
    """The states of the first ``limit`` matches ``where`` holds, the most recently changed
    first."""
    return (
        sa.select(*LISTED_STATE)
        .where(where)
        .order_by(*(column.desc() for column in RECENT_FIRST))
        .limit(limit)
    )


def first_of_parts(
    parts: Sequence[sa.ColumnElement[bool]],
    where: sa.ColumnElement[bool],
    order: Sequence[Any],
    limit: int | sa.BindParameter[int],
) -> sa.Select[*tuple[Any, ...]]:
    """The states of the first ``limit`` matches by ``order`` (columns of ``Match``, each
    descending) that ``where`` holds in any of ``parts`` (which share no match): at most
    ``limit`` of each part, each read along its own index, then merged. The cost of a page
    does not grow with the matches before it (``scope.account_match_parts``)."""
    shown = [column.key for column in LISTED_STATE]
    columns = [*LISTED_STATE, *(column for column in order if column.key not in shown)]
    firsts = [
        sa.select(*columns)
        .where(part, where)
        .order_by(*(column.desc() for column in order))
        .limit(limit)
        .subquery()
        for part in parts
    ]
    merged = sa.union_all(*(sa.select(first) for first in firsts)).subquery()
    return (
        sa.select(*(merged.c[key] for key in shown))
        .order_by(*(merged.c[column.key].desc() for column in order))
        .limit(limit)
    )


ONGOING = Match.status == "ongoing"
#: The home page's lists of any account (``scope.ACCOUNT`` their parameter), built once: the
#: page most requests ask for.
ACCOUNT_HOME = (
    first_of_parts(ACCOUNT_MATCH_PARTS, ONGOING, RECENT_FIRST, 50),
    first_of_parts(ACCOUNT_MATCH_PARTS, ~ONGOING, RECENT_FIRST, 20),
)


def home_lists(scope: Scope) -> tuple[Listed, Listed]:
    """The home page's lists: matches still being played (at most 50), then finished or
    abandoned ones (at most 20), the most recently changed first."""
    if scope.of_account:
        ongoing, others = ACCOUNT_HOME
    else:
        ongoing = listing(sa.and_(scope.matches(), ONGOING), 50)
        others = listing(sa.and_(scope.matches(), ~ONGOING), 20)
    # On the session's connection, past the ORM: plain rows of a few columns.
    connection = db.session.connection()
    parameters = scope.parameters()
    return (
        Listed(connection.execute(ongoing, parameters).all()),
        Listed(connection.execute(others, parameters).all()),
    )


def list_matches(scope: Scope, condition: sa.ColumnElement[bool], limit: int) -> Listed:
    statement = listing(sa.and_(scope.matches(), condition), limit)
    return Listed(db.session.connection().execute(statement).all())
