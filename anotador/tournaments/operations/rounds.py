"""A tournament's rounds: draw one (by the tournament's system, through the same pure code
as ``anotador tournament pair``), swap pairs before it starts, start it (each table's match
with its table link), write a table's result by hand, close it, finish the tournament; and
reopen the last round or the finished tournament when a correction is needed. Nothing
changes once the tournament has finished, until it is reopened; every change is in the
change log with who made it, what it replaced and the reason given."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from anotador.storage import signals
from anotador.storage.database import db
from anotador.tournaments.operations import confirmations
from anotador.tournaments.operations import draws
from anotador.tournaments.operations import seeding
from anotador.tournaments.operations.seats import tell_round_before
from anotador.tournaments.operations.service import Refused
from anotador.tournaments.operations.service import current_round
from anotador.tournaments.operations.service import lock
from anotador.tournaments.operations.service import not_finished
from anotador.tournaments.operations.service import record
from anotador.tournaments.operations.service import table_result
from anotador.tournaments.operations.service import table_state
from anotador.tournaments.operations.service import tournament_document
from anotador.tournaments.operations.table_matches import table_match
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair


def draw_round(tournament: Tournament, account_id: int, by_rating: bool = False) -> Round:
    """Draw the next round's tables (the director may swap pairs before starting it);
    ``by_rating``: the first round's, with the pairs seeded by rating first."""
    lock(tournament)
    not_finished(tournament)
    latest = current_round(tournament)
    if latest is not None and latest.status == "drawn":
        raise Refused("round_drawn")
    if latest is not None and latest.status != "closed":
        raise Refused("round_open")
    if len(tournament.round_rows) >= tournament.rounds:
        raise Refused("all_rounds_played")
    number = len(tournament.round_rows) + 1
    if by_rating and number == 1:
        order = seeding.seed_by_rating(tournament)
        record(tournament, account_id, "pairs_seeded", order=order)
    by_key = {pair.key: pair for pair in tournament.pairs}
    if tournament.system == "manual":
        # No proposal: every pair waits for the director to seat it (see :func:`swap`).
        seats = draws.Seats([], [p.key for p in tournament.pairs if active(p, number)])
    else:
        found = draws.next_seats(tournament_document(tournament))
        if found is None:
            raise Refused("unreadable")
        seats = found
    drawn = len(seats.tables) * 2 + len(seats.byes)
    if drawn < 2 or (tournament.system != "manual" and not seats.tables):
        raise Refused("too_few_pairs")
    round_row = Round(number=number, status="drawn")
    for table_number, ns, ew in seats.tables:
        round_row.tables.append(
            RoundTable(number=table_number, ns_pair=by_key[ns], ew_pair=by_key[ew])
        )
    for bye in seats.byes:
        round_row.tables.append(RoundTable(number=None, ns_pair=by_key[bye], ew_pair=None))
    tournament.round_rows.append(round_row)
    tournament.status = "playing"
    record(tournament, account_id, "round_drawn", round=number)
    tell_round_before(tournament, number)
    db.session.commit()
    return round_row


def active(pair: TournamentPair, number: int) -> bool:
    return not pair.withdrawn and pair.joined_round <= number


def swap(
    round_row: Round,
    account_id: int,
    first: TournamentPair,
    second: TournamentPair,
    seen: int | None = None,
) -> None:
    """Exchange the seats of two pairs of a round not started yet (a bye's too); in a manual
    tournament, two pairs not seated yet sit at a new table instead (``first`` NS).
    ``seen``: the tournament's version the director's page showed. A swap asked twice would
    undo itself (and a seating, swap the new table's pairs): refused when the tournament
    changed since."""
    lock(round_row.tournament)
    not_finished(round_row.tournament)
    if round_row.status != "drawn":
        raise Refused("round_started")
    if seen is not None and seen != round_row.tournament.version:
        raise Refused("changed")
    waiting = {table.ns_pair_id: table for table in round_row.tables if table.is_bye}
    manual = round_row.tournament.system == "manual"
    if manual and first.id in waiting and second.id in waiting and first.id != second.id:
        seat(round_row, account_id, waiting[first.id], waiting[second.id])
        return
    seats = {}
    for table in round_row.tables:
        seats[table.ns_pair_id] = (table, "ns_pair")
        if table.ew_pair_id is not None:
            seats[table.ew_pair_id] = (table, "ew_pair")
    if first.id not in seats or second.id not in seats or first.id == second.id:
        raise Refused("not_in_round")
    (first_table, first_seat), (second_table, second_seat) = seats[first.id], seats[second.id]
    old = [seat_of(first_table, first_seat), seat_of(second_table, second_seat)]
    setattr(first_table, first_seat, second)
    setattr(second_table, second_seat, first)
    tournament = round_row.tournament
    record(
        tournament,
        account_id,
        "pairs_swapped",
        round=round_row.number,
        pairs=[first.position, second.position],
        old=old,
        new=old[::-1],
    )
    tell_round_before(tournament, round_row.number)
    db.session.commit()


def seat_of(table: RoundTable, side: str) -> list[Any]:
    """Where a pair sits, as the change log keeps it: its table (None: a bye) and its seat."""
    return [table.number, side.removesuffix("_pair")]


def seat(round_row: Round, account_id: int, ns: RoundTable, ew: RoundTable) -> None:
    """Two waiting pairs (their bye rows ``ns`` and ``ew``) at the round's next table."""
    number = max((table.number or 0 for table in round_row.tables), default=0) + 1
    ns.number, ns.ew_pair = number, ew.ns_pair
    round_row.tables.remove(ew)
    db.session.delete(ew)
    pairs = [ns.ns_pair.position, ew.ns_pair.position]
    record(round_row.tournament, account_id, "table_seated", round=round_row.number, pairs=pairs)
    tell_round_before(round_row.tournament, round_row.number)
    db.session.commit()


def start_round(round_row: Round, account_id: int) -> list[int]:
    """Start a drawn round: every table gets its match (with its table link); their ids.
    A pair a manual round left without a table has a bye."""
    lock(round_row.tournament)
    not_finished(round_row.tournament)
    if round_row.status != "drawn":
        raise Refused("round_started")
    if all(table.is_bye for table in round_row.tables):
        raise Refused("too_few_pairs")
    tournament = round_row.tournament
    for table in round_row.tables:
        if not table.is_bye:
            table.match = table_match(tournament, round_row, table)
    round_row.status = "playing"
    record(tournament, account_id, "round_started", round=round_row.number)
    tell_round_before(tournament, round_row.number)
    db.session.commit()
    made = [table.match_id for table in round_row.tables if table.match_id is not None]
    signals.changed_many("created", made)
    return made


def enter_result(
    table: RoundTable, account_id: int, mp: tuple[int, int] | None, reason: str = ""
) -> None:
    """Write a table's match points by hand (a table scored on paper, or a correction),
    or clear them (``mp`` None: the table's match counts again). The change log keeps the
    result it replaces (the hand-written one, else the match's totals) and ``reason``."""
    lock(table.round.tournament)
    round_row = table.round
    tournament = round_row.tournament
    not_finished(tournament)
    if table.is_bye or round_row.status == "drawn":
        raise Refused("no_result_here")
    if (table.mp_ns, table.mp_ew) == (mp or (None, None)):
        db.session.rollback()  # already so (a double tap, another tab): the lock's end
        return
    old = table_result(table)
    table.mp_ns, table.mp_ew = mp if mp is not None else (None, None)
    record(
        tournament,
        account_id,
        "result_entered" if mp is not None else "result_cleared",
        round=round_row.number,
        table=table.number,
        old=list(old) if old is not None else None,
        mp=list(mp) if mp is not None else None,
        **reasoned(reason),
    )
    db.session.commit()


def unfinished(tables: Iterable[RoundTable]) -> list[RoundTable]:
    return [table for table in tables if table_state(table) not in ("finished", "bye")]


def being_played(round_row: Round) -> None:
    """Begin a change of a round being played (the tournament's lock first): refused once it
    is closed or the tournament finished, or before it starts."""
    lock(round_row.tournament)
    not_finished(round_row.tournament)
    if round_row.status == "closed":
        raise Refused("round_closed")
    if round_row.status != "playing":
        raise Refused("round_not_playing")


def close_round(round_row: Round, account_id: int) -> None:
    """Close a round whose every table has finished (its results are then final): the
    tables still awaiting their pairs' confirmation are confirmed by the director."""
    being_played(round_row)
    if unfinished(round_row.tables):
        raise Refused("tables_playing")
    confirmations.confirm_on_close(round_row, account_id)
    round_row.status = "closed"
    round_row.clock_ends_at = None  # its clock ends with it (a round reopened has none)
    record(round_row.tournament, account_id, "round_closed", round=round_row.number)
    db.session.commit()


def finish(tournament: Tournament, account_id: int) -> None:
    """End the tournament (after its last round, or earlier): its standings are final."""
    lock(tournament)
    not_finished(tournament)
    latest = current_round(tournament)
    if latest is not None and latest.status != "closed":
        raise Refused("round_open")
    tournament.status = "finished"
    record(tournament, account_id, "finished")
    db.session.commit()


def reopen_round(round_row: Round, account_id: int, reason: str = "") -> None:
    """Reopen the tournament's last round, closed, to correct a table of it: its tables'
    matches take changes again, each kept in the change log (:mod:`.tables`), until the
    director closes it again."""
    tournament = round_row.tournament
    lock(tournament)
    not_finished(tournament)
    if round_row.status != "closed":
        raise Refused("round_not_closed")
    if round_row is not current_round(tournament):
        raise Refused("not_last_round")
    round_row.status = "playing"
    record(tournament, account_id, "round_reopened", round=round_row.number, **reasoned(reason))
    db.session.commit()


def reopen(tournament: Tournament, account_id: int, reason: str = "") -> None:
    """Reopen a finished tournament (its standings are no longer final): its last round can
    then be reopened, or the next one drawn."""
    lock(tournament)
    if tournament.status != "finished":
        raise Refused("not_finished")
    tournament.status = "playing"
    record(tournament, account_id, "reopened", **reasoned(reason))
    db.session.commit()


def reasoned(reason: str) -> dict[str, str]:
    """A change's details with the director's reason, when one was given."""
    return {"reason": reason} if reason else {}
