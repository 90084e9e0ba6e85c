"""Telling a tournament table's phones that what they show beside its match changed (the
next round's seats, the round's clock, the director answering the table's call): their
matches' versions are bumped in the change's transaction, so the phones following them
reload the page and their live poll stays one statement on the match's row
(``services.one_match.match_version``).

The match's last save (``updated_at``) is written back as it was: nothing was saved at the
table, and the round page's "last save at" and its idle tables go by it
(``operations.live``)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.store.models import RoundTable

MATCH = Match.__table__


def bump(matches: Any) -> Any:
    """The UPDATE bumping the versions of the matches ``matches`` picks (a WHERE clause)."""
    return (
        sa.update(MATCH)
        .where(matches)
        .values(version=MATCH.c.version + 1, updated_at=MATCH.c.updated_at)
    )


#: Bumps the versions of the matches of a round's tables.
BUMP_ROUND = bump(
    MATCH.c.id.in_(
        sa.select(RoundTable.match_id).where(
            RoundTable.round_id == sa.bindparam("round_id"), RoundTable.match_id.is_not(None)
        )
    )
)
#: Bumps the version of one match.
BUMP_MATCH = bump(MATCH.c.id == sa.bindparam("match_id"))


def tell_round(round_id: int) -> None:
    """The phones of every table of round ``round_id`` reload (in the caller's transaction)."""
    db.session.execute(BUMP_ROUND, {"round_id": round_id})


def tell_table(table: RoundTable) -> None:
    """The phones of ``table`` reload (in the caller's transaction); a bye has none."""
    if table.match_id is not None:
        db.session.execute(BUMP_MATCH, {"match_id": table.match_id})
