"""The round as its director follows it live (``docs/tournaments.md``, "The live round"):
where each table is, which tables are late, and the tables' calls to the director.

A table is **late** while its round is being played and its match has not ended when either

- it has been idle :data:`IDLE_MINUTES` minutes: no hand saved since then (or since its
  match was made, when the round started, if it has none yet); or
- it is :data:`BEHIND_HANDS` hands or more behind the table of the round that has played
  the most.

A table's phone **calls the director** (:func:`call`): the call stays open, one per table
however often it is tapped, until the director marks it answered (:func:`answer`). Both are
in the tournament's change log, and bump its version: the round page shows them at once. The
answer also tells the table's phones (:mod:`.phones`): they say the director is coming
without a reload.
"""

from __future__ import annotations

import dataclasses
import datetime

from anotador.storage.database import db
from anotador.storage.models import utc_now
from anotador.tournaments.operations.confirmations import aware
from anotador.tournaments.operations.confirmations import progress
from anotador.tournaments.operations.phones import tell_table
from anotador.tournaments.operations.service import Refused
from anotador.tournaments.operations.service import lock
from anotador.tournaments.operations.service import not_finished
from anotador.tournaments.operations.service import record
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable

#: A table with no hand saved for this long is late.
IDLE_MINUTES = 15
#: A table this many hands behind the round's furthest table is late.
BEHIND_HANDS = 2
#: The states of a table still playing its match (``confirmations.progress``).
UNENDED = ("not_started", "playing")


@dataclasses.dataclass(frozen=True)
class Progress:
    """Where a table is in its round, as the live round page shows it."""

    #: ``confirmations.progress`` of the table.
    state: str
    #: Hands saved at the table.
    hands: int
    #: The round's hands (None: the round plays to a target).
    of: int | None
    #: When its last hand was saved (None: no hand yet).
    last_save: datetime.datetime | None
    #: Why the table is late: ``idle``, ``behind``, or None.
    late: str | None
    #: When its open call to the director was made (None: no open call).
    called_at: datetime.datetime | None


def hands_of(table: RoundTable) -> int:
    return table.match.hand_count if table.match is not None else 0


def lateness(table: RoundTable, state: str, most: int, now: datetime.datetime) -> str | None:
    """Why ``table`` (in ``state``) is late, ``most`` the hands of its round's furthest table."""
    match = table.match
    if table.round.status != "playing" or state not in UNENDED or match is None:
        return None
    if most - hands_of(table) >= BEHIND_HANDS:
        return "behind"
    since = aware(match.updated_at if match.hand_count else match.created_at)
    if since is not None and now - since >= datetime.timedelta(minutes=IDLE_MINUTES):
        return "idle"
    return None


def round_progress(round_row: Round, now: datetime.datetime | None = None) -> dict[int, Progress]:
    """Each table of the round (by id) → its :class:`Progress` at ``now``."""
    now = now or utc_now()
    most = max((hands_of(t) for t in round_row.tables), default=0)
    found = {}
    for table in round_row.tables:
        state = progress(table)
        hands = hands_of(table)
        match = table.match
        found[table.id] = Progress(
            state=state,
            hands=hands,
            of=round_row.tournament.hands_per_round,
            last_save=aware(match.updated_at) if match is not None and hands else None,
            late=lateness(table, state, most, now),
            called_at=aware(table.called_at),
        )
    return found


def call(table: RoundTable) -> None:
    """A table's phone calls the director; a call already open stays the one call."""
    if table.is_bye:
        raise Refused("round_not_playing")
    lock(table.round.tournament)
    not_finished(table.round.tournament)
    if table.round.status != "playing":
        raise Refused("round_not_playing")
    if table.called_at is not None:
        db.session.rollback()  # the lock's end
        return  # a second tap, the other phone: called already
    table.called_at = utc_now()
    table.answered_at = None
    record(
        table.round.tournament,
        None,
        "director_called",
        round=table.round.number,
        table=table.number,
    )
    db.session.commit()


def answer(table: RoundTable, account_id: int) -> None:
    """The director marks a table's call answered; none open (answered already): nothing."""
    lock(table.round.tournament)
    if table.called_at is None:
        db.session.rollback()  # the lock's end
        return
    table.called_at = None
    table.answered_at = utc_now()
    record(
        table.round.tournament,
        account_id,
        "call_answered",
        round=table.round.number,
        table=table.number,
    )
    tell_table(table)
    db.session.commit()
