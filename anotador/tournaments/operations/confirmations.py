"""A tournament table's result, confirmed by both pairs: playing → awaiting confirmation →
confirmed (``docs/tournaments.md``, "Both pairs confirm").

When a table's match ends (the round's hands played, or the target reached) its phone shows
the result and asks the pair that did not keep the score to confirm it: EW, as on a
Bridgemate, where North keeps the score and East-West accept it on the same device. The app
cannot know who holds a phone (both pairs open the same table link, a table may have two
phones), so the button names the pair that confirms and any phone of the table may press
it. Until then the phones can still correct or undo the last hand (a corrected result is
confirmed again: the confirmation names the match's version its page showed). The director
can confirm any table instead, and closing a round confirms its tables still waiting; each
confirmation is in the change log with who and when. Confirmed, the result is final: the
table's phones no longer change it (:mod:`.tables` refuses it), only the director corrects it.

Confirming changes no figure: the standings count a finished table as before.
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any
from typing import cast

import sqlalchemy as sa

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import utc_now
from anotador.tournaments.operations.service import Refused
from anotador.tournaments.operations.service import lock
from anotador.tournaments.operations.service import not_finished
from anotador.tournaments.operations.service import record
from anotador.tournaments.operations.service import table_result
from anotador.tournaments.operations.service import table_state
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable

#: Who may confirm a table's result: the pair that did not keep the score, or the director.
CONFIRMERS = ("ew", "director")


def progress(table: RoundTable) -> str:
    """Where a table is, as the director's round page says it: ``service.table_state``, its
    ``finished`` told apart as ``awaiting`` (its match ended, not confirmed yet) and
    ``confirmed`` (a result written by hand is the director's own: confirmed)."""
    state = table_state(table)
    if state != "finished":
        return state
    if table.confirmed_by is not None or table.mp_ns is not None:
        return "confirmed"
    return "awaiting"


def aware(moment: datetime.datetime | None) -> datetime.datetime | None:
    """A stored moment as an aware UTC one (SQLite hands them back naive)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=datetime.UTC)


def table_of(match_id: int) -> RoundTable | None:
    """The tournament table whose match is ``match_id``, if it is one (one statement; its
    round, tournament and pairs load when read)."""
    statement = sa.select(RoundTable).where(RoundTable.match_id == match_id)
    return db.session.scalars(statement).first()


@dataclasses.dataclass(frozen=True)
class TableResult:
    """What a table's phone shows beside its match: which table, its result and who is to
    confirm it (or who did, and when)."""

    round: int
    table: int
    ns: str
    ew: str
    #: ``progress`` of the table: ``awaiting`` and ``confirmed`` show the result.
    state: str
    mp: tuple[int, int] | None
    hands: int
    confirmed_by: str | None
    confirmed_at: datetime.datetime | None
    #: The tournament's name and its rounds' hands (None: played to a target).
    tournament: str = ""
    hands_per_round: int | None = None
    #: When the table called the director, the call still open (``live.call``).
    called_at: datetime.datetime | None = None
    #: Whether its round is being played (its phones may call the director).
    playing: bool = False
    #: When the director marked its last call answered (None: not since it last called).
    answered_at: datetime.datetime | None = None


def table_result_of(table_id: int) -> TableResult | None:
    """:class:`TableResult` of table ``table_id`` (a match page's ``MatchState.table_id``);
    None for a bye."""
    table = db.session.get(RoundTable, table_id)
    if table is None or table.ew_pair is None or table.number is None:
        return None
    match = table.match
    return TableResult(
        round=table.round.number,
        table=table.number,
        ns=f"{table.ns_pair.position}. {table.ns_pair.label}",
        ew=f"{table.ew_pair.position}. {table.ew_pair.label}",
        state=progress(table),
        mp=table_result(table),
        hands=match.hand_count if match is not None else 0,
        confirmed_by=table.confirmed_by,
        confirmed_at=table.confirmed_at,
        tournament=table.round.tournament.name,
        hands_per_round=table.round.tournament.hands_per_round,
        called_at=aware(table.called_at),
        playing=table.round.status == "playing" and table.round.tournament.status != "finished",
        answered_at=aware(table.answered_at),
    )


#: Bumps a table's match's version if it is still the one the confirmation was given for:
#: the phones following it reload (the result is final), and a result fixed meanwhile is
#: not confirmed unseen.
BUMP = (
    sa.update(Match.__table__)
    .where(
        Match.__table__.c.id == sa.bindparam("match_id"),
        Match.__table__.c.version == sa.bindparam("seen"),
    )
    .values(version=Match.__table__.c.version + 1)
)


def confirm(table: RoundTable, account_id: int | None, by: str, seen: int | None) -> None:
    """Confirm a table's result: ``by`` the pair that did not keep the score (from a phone
    of the table, ``account_id`` None) or the director. ``seen``: the match's version the
    confirming page showed (None: the director's round page, which shows the result as it
    is now). Confirmed already (a double tap, the other phone): nothing changes."""
    assert by in CONFIRMERS
    match = table.match
    if progress(table) == "confirmed":
        return  # a double tap, the other phone: as asked already
    if match is None or progress(table) != "awaiting":
        raise Refused("table_not_ended")
    # The match's row first, as a hand saved at the same instant takes it (then the
    # tournament's, :mod:`.tables`): on PostgreSQL the two never wait for each other in a circle.
    version = match.version if seen is None else seen
    bumped = cast(
        sa.CursorResult[Any], db.session.execute(BUMP, {"match_id": match.id, "seen": version})
    )
    if bumped.rowcount != 1:
        raise Refused("result_changed")
    tournament = table.round.tournament
    lock(tournament)  # every row read again, as they are now
    not_finished(tournament)
    if table.round.status != "playing":
        raise Refused("round_not_playing")
    if progress(table) != "awaiting":  # confirmed or changed at that instant
        raise Refused("result_changed")
    settle(table, account_id, by)
    db.session.commit()


def settle(table: RoundTable, account_id: int | None, by: str, **more: Any) -> None:
    """Mark a table confirmed ``by`` its pair or its director, and log it (in the caller's
    transaction, after :func:`~.service.lock`)."""
    table.confirmed_by, table.confirmed_at = by, utc_now()
    mp = table_result(table)
    record(
        table.round.tournament,
        account_id,
        "table_confirmed",
        round=table.round.number,
        table=table.number,
        by=by,
        mp=list(mp) if mp is not None else None,
        **more,
    )


def confirm_on_close(round_row: Round, account_id: int) -> None:
    """Closing a round confirms, by its director, every table still awaiting its pairs'
    confirmation (logged as such): closing is the director accepting the round's results."""
    for table in round_row.tables:
        if progress(table) == "awaiting":
            settle(table, account_id, "director", on_close=True)
