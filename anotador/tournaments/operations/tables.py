"""A table's match under its tournament's rules, whichever door a change comes through (the
planilla, the table link, a phone's outbox): every change that claims a match's version is
put here (:data:`anotador.storage.signals.match_changing`), in its transaction, right after
the claim.

- A table of a closed round or of a finished tournament is final: its hands are not saved,
  corrected, deleted or undone, and it is not abandoned or resumed, until the director
  reopens the round (``rounds.reopen_round``; a finished tournament first, ``rounds.reopen``).
- A table whose result was confirmed (``confirmations``) is final too: only a correction of
  its reopened round changes it.
- A table's points stay within the tournament file's bound (``service.MAX_MP``), so its
  match is always a result ``anotador.tournaments`` reads: a change that takes them past it,
  or further past it, is refused.
- Every change to a table of a reopened round is a correction: it is kept in the
  tournament's change log with who made it, the table's MP before and after, and the reason
  the hand form gave (:func:`give_reason`).

On PostgreSQL the tournament's row is locked first (after the match's own claim): the
director's changes take it too, so a round closed at the same instant comes wholly before
or after the save. On SQLite the claim already holds the database's one write lock.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import ClassVar

import sqlalchemy as sa
from flask import Flask
from flask import g
from flask import has_request_context

from anotador.rules.problems import N_
from anotador.rules.problems import Problem
from anotador.storage import signals
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.operations.rounds import reasoned
from anotador.tournaments.operations.service import MAX_MP
from anotador.tournaments.operations.service import record
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentChange

MESSAGES: dict[str, str] = {
    "table_finished": N_(
        "The tournament has finished: this table's result is final. Its director can reopen "
        "the tournament and the round to correct it."
    ),
    "table_closed": N_(
        "This table's round is closed: its result is final. Its director can reopen the "
        "round to correct it."
    ),
    "table_confirmed": N_(
        "This table's result was confirmed: it is final. Its director can write a correction "
        "by hand, or reopen the round once it is closed."
    ),
    "table_out_of_bounds": N_(
        "A tournament table's points stay within {maximum} in size: this would take them "
        "past it. The director can write the table's result by hand."
    ),
}


@dataclass(frozen=True, slots=True)
class TableProblem(Problem):
    """Why a change to a tournament table's match is refused."""

    messages: ClassVar[Mapping[str, str]] = MESSAGES


#: Where :func:`init_app` keeps who makes a change in a request (a correction's author).
ACTING_USER = "anotador.tournaments.acting_user"


def init_app(app: Flask, acting_user: Callable[[], int | None]) -> None:
    """Put every change to ``app``'s matches to :func:`check`; ``acting_user`` says who makes a
    change in a request (the factory gives the web's :func:`anotador.web.access.user_id`: the
    use cases sit below the web and import none of it)."""
    app.extensions[ACTING_USER] = acting_user
    signals.match_changing.connect(check, sender=app)


def holder(match_id: Any) -> Any:
    """The tournament holding match ``match_id`` at one of its tables (a subquery)."""
    return (
        sa.select(Round.tournament_id)
        .join(RoundTable, RoundTable.round_id == Round.id)
        .where(RoundTable.match_id == match_id)
        .scalar_subquery()
    )


#: Locks the row of the tournament whose table the match is (no row: not a table).
LOCK = (
    sa.select(Tournament.id)
    .where(Tournament.id == holder(sa.bindparam("match_id")))
    .with_for_update()
)
#: The table's round and tournament as they are once locked, and whether the round was
#: reopened (only the last round can be: while it is reopened, no later round exists).
STATE = (
    sa.select(
        RoundTable.number.label("table"),
        Round.number.label("round"),
        Round.status.label("round_status"),
        RoundTable.confirmed_by,
        Tournament.status.label("status"),
        sa.exists()
        .where(
            TournamentChange.tournament_id == Tournament.id,
            TournamentChange.change == "round_reopened",
            TournamentChange.details["round"].as_integer() == Round.number,
        )
        .label("reopened"),
    )
    .join(Round, Round.id == RoundTable.round_id)
    .join(Tournament, Tournament.id == Round.tournament_id)
    .where(RoundTable.match_id == sa.bindparam("match_id"))
)


def is_table(match_id: int) -> bool:
    """Whether match ``match_id`` is a tournament table's (its hand form asks for a reason)."""
    return db.session.scalar(sa.select(holder(match_id))) is not None


def give_reason(reason: str) -> None:
    """The director's reason for the change this request makes to a table's match (the hand
    form's optional field): the change log keeps it with the correction."""
    g.table_correction_reason = reason


def check(app: Flask, *, match: Match, change: str, before: Mapping[str, Any]) -> list[Problem]:
    """The problems that refuse ``change`` to ``match`` (its row's new columns set), or none;
    a correction of a reopened round's table is logged in the same transaction."""
    tournament_id = db.session.execute(LOCK, {"match_id": match.id}).scalar()
    if tournament_id is None:
        return []
    table = db.session.execute(STATE, {"match_id": match.id}).one()
    if table.status == "finished":
        return [TableProblem("", "table_finished")]
    if table.round_status == "closed":
        return [TableProblem("", "table_closed")]
    if table.confirmed_by is not None and not table.reopened:
        return [TableProblem("", "table_confirmed")]
    if peak(match.totals) > MAX_MP and peak(match.totals) > peak(before["totals"]):
        return [TableProblem("", "table_out_of_bounds", {"maximum": MAX_MP})]
    if table.round_status == "playing" and table.reopened:
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        requested = has_request_context()
        record(
            tournament,
            app.extensions[ACTING_USER]() if requested else None,
            "table_corrected",
            round=table.round,
            table=table.table,
            hands=change,
            old=list(before["totals"]),
            new=list(match.totals),
            **reasoned(g.get("table_correction_reason", "") if requested else ""),
        )
    return []


def peak(totals: Sequence[int]) -> int:
    """The size of a table's larger total."""
    return max((abs(total) for total in totals), default=0)
