"""A match's links and group: what its owner shares (see :mod:`anotador.web.access`).

A link is an unguessable token in the match's row. Revoking a link clears it; making it
again gives a new token, so an old link never comes back to life.
"""

from __future__ import annotations

from typing import Literal

import sqlalchemy as sa

from anotador.services.accounts import new_token
from anotador.services.groups import group_ids_of
from anotador.services.one_match import Sharing
from anotador.storage.database import db
from anotador.storage.models import Match

LinkKind = Literal["table", "spectator"]
LINK_KINDS: tuple[LinkKind, ...] = ("table", "spectator")


def set_link(match: Match, kind: LinkKind, on: bool) -> str | None:
    """Make (a new token) or revoke the match's link of ``kind`` (commits); the token."""
    token = new_token() if on else None
    if kind == "table":
        match.table_token = token
    else:
        match.spectator_token = token
    db.session.commit()
    return token


def match_for_token(token: str) -> Match | None:
    """The match whose table or spectator link is ``token``."""
    statement = sa.select(Match).where(
        sa.or_(Match.table_token == token, Match.spectator_token == token)
    )
    return db.session.scalars(statement).first()


def token_of(sharing: Sharing, kind: LinkKind) -> str | None:
    return sharing.table_token if kind == "table" else sharing.spectator_token


REMATCH = sa.orm.aliased(Match)
#: The rematch of a match and how it is shared, in one statement past the ORM.
REMATCH_OF = (
    sa.select(
        REMATCH.id,
        REMATCH.owner_id,
        REMATCH.group_id,
        REMATCH.table_token,
        REMATCH.spectator_token,
        REMATCH.status,
    )
    .join(Match, Match.rematch_id == REMATCH.id)
    .where(Match.id == sa.bindparam("match_id"))
)


def rematch_of(match_id: int) -> tuple[int, Sharing] | None:
    """The rematch made from match ``match_id``, and how it is shared, if there is one."""
    row = db.session.connection().execute(REMATCH_OF, {"match_id": match_id}).first()
    if row is None:
        return None
    ongoing = row.status == "ongoing"
    shared = Sharing(row.owner_id, row.group_id, row.table_token, row.spectator_token, ongoing)
    return row.id, shared


def set_group(match: Match, owner_id: int, group_id: int | None) -> bool:
    """Share the match with one of its owner's groups, or with none (commits); False for a
    group the owner is not in."""
    if group_id is not None and group_id not in group_ids_of(owner_id):
        return False
    match.group_id = group_id
    db.session.commit()
    return True
