"""A round's clock (``docs/tournaments.md``, "The round clock"): the director starts it with
the minutes a round lasts, adds minutes or stops it, while the round is being played. The
board and every table phone of the round count down to its end; once it has run out, the
hand being played at a table is its last, as clubs play it.

The end is stored, not the minutes left: every page works it out from the server's time
(``static/js/clock.js`` counts down from the end and the server's now, so a phone whose own
clock is wrong still counts right). Each change is in the change log and tells the round's
phones (:mod:`.phones`). A change asked twice (a double tap, another tab) changes nothing
the second time: a start of the clock already running with those minutes, minutes added to
an end the director no longer sees (``seen``), a stop of a clock not running.
"""

from __future__ import annotations

import dataclasses
import datetime

from anotador.storage.database import db
from anotador.storage.models import utc_now
from anotador.tournaments.limits import DEFAULT_CLOCK_MINUTES
from anotador.tournaments.operations.confirmations import aware
from anotador.tournaments.operations.phones import tell_round
from anotador.tournaments.operations.rounds import being_played
from anotador.tournaments.operations.service import Refused
from anotador.tournaments.operations.service import record
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament


@dataclasses.dataclass(frozen=True)
class Clock:
    """A round's clock running: the minutes it was started with and when it runs out."""

    minutes: int
    ends_at: datetime.datetime

    @property
    def seen(self) -> int:
        """Its end in whole seconds since the epoch: what a page that shows it sends back."""
        return int(self.ends_at.timestamp())

    def up(self, now: datetime.datetime | None = None) -> bool:
        """Whether it has run out at ``now`` (the hand being played is each table's last)."""
        return self.ends_at <= (now or utc_now())


def clock_of(round_row: Round) -> Clock | None:
    """The clock of a round being played (of a tournament not finished), if it runs."""
    ends_at = aware(round_row.clock_ends_at)
    if ends_at is None or round_row.clock_minutes is None or not in_play(round_row):
        return None
    return Clock(round_row.clock_minutes, ends_at)


def table_clock(table_id: int) -> Clock | None:
    """The clock of table ``table_id``'s round (a match page's ``MatchState.table_id``)."""
    table = db.session.get(RoundTable, table_id)
    return None if table is None or table.is_bye else clock_of(table.round)


def in_play(round_row: Round) -> bool:
    """Whether a round's clock may run: the round being played, the tournament not finished."""
    return round_row.status == "playing" and round_row.tournament.status != "finished"


def default_minutes(tournament: Tournament) -> int:
    """What the start form offers: the minutes the latest round's clock was started with,
    else :data:`DEFAULT_CLOCK_MINUTES`."""
    started = [r.clock_minutes for r in tournament.round_rows if r.clock_minutes is not None]
    return started[-1] if started else DEFAULT_CLOCK_MINUTES


def whole_seconds(now: datetime.datetime | None) -> datetime.datetime:
    return (now or utc_now()).replace(microsecond=0)


def start(
    round_row: Round, account_id: int, minutes: int, now: datetime.datetime | None = None
) -> None:
    """Start the round's clock: it runs out ``minutes`` after ``now``. Running already, with
    these minutes: nothing (a double tap); with others: refused (add minutes, or stop it)."""
    being_played(round_row)
    if round_row.clock_ends_at is not None:
        if round_row.clock_minutes == minutes:
            db.session.rollback()  # the lock's end
            return
        raise Refused("clock_running")
    round_row.clock_minutes = minutes
    round_row.clock_ends_at = whole_seconds(now) + datetime.timedelta(minutes=minutes)
    record(
        round_row.tournament, account_id, "clock_started", round=round_row.number, minutes=minutes
    )
    tell_round(round_row.id)
    db.session.commit()


def add(
    round_row: Round,
    account_id: int,
    minutes: int,
    seen: int,
    now: datetime.datetime | None = None,
) -> None:
    """Give the round ``minutes`` more: from its end, or from ``now`` when it has run out
    (the tables play on that long from the moment the director gives them). ``seen``: the
    end the director's page showed (:attr:`Clock.seen`); another end is a second tap or
    another tab's change, and nothing is added."""
    being_played(round_row)
    clock = clock_of(round_row)
    if clock is None:
        raise Refused("no_clock")
    if clock.seen != seen:
        raise Refused("clock_changed")
    start_from = max(clock.ends_at, whole_seconds(now))
    round_row.clock_ends_at = start_from + datetime.timedelta(minutes=minutes)
    record(
        round_row.tournament, account_id, "clock_extended", round=round_row.number, minutes=minutes
    )
    tell_round(round_row.id)
    db.session.commit()


def stop(round_row: Round, account_id: int) -> None:
    """Stop the round's clock (its pages no longer show it); not running: nothing."""
    being_played(round_row)
    if round_row.clock_ends_at is None:
        db.session.rollback()  # the lock's end
        return
    round_row.clock_ends_at = None
    record(round_row.tournament, account_id, "clock_stopped", round=round_row.number)
    tell_round(round_row.id)
    db.session.commit()
