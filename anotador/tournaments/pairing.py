"""The next round's tables (§4): the fixed schedules (``mitchell``, ``round-robin``) from the
order of ``pairs``, the Danish systems and ``swiss`` (anotador/tournaments/swiss.py) from
the standings; ``manual`` draws nothing. An individual tournament's draw is
anotador/tournaments/individual.py (:func:`next_draw` draws either kind)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from anotador.tournaments.individual import IndividualDraw
from anotador.tournaments.individual import next_individual_round
from anotador.tournaments.problems import TournamentProblems
from anotador.tournaments.problems import undrawable
from anotador.tournaments.standings import standings
from anotador.tournaments.swiss import first_round
from anotador.tournaments.swiss import later_round
from anotador.tournaments.swiss import meetings
from anotador.tournaments.tournament import AnyTournament
from anotador.tournaments.tournament import IndividualTournament
from anotador.tournaments.tournament import Tournament


@dataclass(frozen=True, slots=True)
class Seat:
    """A table of the next round: NS against EW."""

    table: int
    ns: str
    ew: str


@dataclass(frozen=True, slots=True)
class Draw:
    """The next round: its number, its tables by number, then its byes in ``pairs`` order."""

    round: int
    tables: tuple[Seat, ...]
    byes: tuple[str, ...]


def next_draw(tournament: AnyTournament) -> Draw | IndividualDraw:
    """The next round of a tournament of either kind (what ``anotador tournament pair``
    prints): :func:`next_round` for pairs, :func:`next_individual_round` for players."""
    if isinstance(tournament, IndividualTournament):
        return next_individual_round(tournament)
    return next_round(tournament)


def next_round(tournament: Tournament) -> Draw:
    """The tables of round r + 1; raises :class:`TournamentProblems` when there is none to
    draw (every round played: ``all_rounds_played``; a ``manual`` tournament)."""
    played = len(tournament.results)
    problems = undrawable(played, tournament.rounds, tournament.system)
    if problems:
        raise TournamentProblems(problems)
    if tournament.system == "mitchell":
        schedule = mitchell(len(tournament.pairs), played)
    elif tournament.system == "round-robin":
        schedule = round_robin(len(tournament.pairs), played)
    elif tournament.system == "swiss":
        return swiss(tournament, played)
    else:
        return danish(tournament, played)
    return fixed_draw(tournament, played + 1, schedule)


def mitchell(count: int, played: int) -> list[tuple[int, int, int | None]]:
    """(table, NS, EW) by position in ``pairs``; EW None: the NS pair sits alone."""
    tables = (count + 1) // 2
    east_west = {(k + played) % tables: tables + k for k in range(count - tables)}
    return [(table + 1, table, east_west.get(table)) for table in range(tables)]


def round_robin(count: int, played: int) -> list[tuple[int, int, int | None]]:
    """(table, NS, EW) by the circle method; the dummy of an odd count is None."""
    size = count + count % 2
    turn = played % (size - 1)
    others = list(range(1, size))
    others = others[len(others) - turn :] + others[: len(others) - turn]
    positions: list[int | None] = [0, *others]
    if count % 2:
        positions = [None if position == count else position for position in positions]
    meetings: list[tuple[int, int, int | None]] = []
    for table in range(size // 2):
        one, other = positions[table], positions[size - 1 - table]
        if one is None or (other is not None and other < one):
            one, other = other, one
        assert one is not None
        meetings.append((table + 1, one, other))
    return meetings


def fixed_draw(
    tournament: Tournament, number: int, meetings: Iterable[tuple[int, int, int | None]]
) -> Draw:
    """A fixed schedule's round: a pair without an opponent who plays has the bye."""
    pairs = tournament.pairs
    seats = []
    byes: set[int] = set()
    for table, ns, ew in meetings:
        playing = [k for k in (ns, ew) if k is not None and not pairs[k].withdrawn]
        if len(playing) == 2:
            seats.append(Seat(table, pairs[ns].id, pairs[playing[1]].id))
        byes.update(playing if len(playing) == 1 else ())
    return Draw(number, tuple(seats), tuple(pairs[k].id for k in sorted(byes)))


def danish(tournament: Tournament, played: int) -> Draw:
    """``danese`` and ``danese-modificato``: the standings' order, the bye to the
    lowest-placed pair with the fewest byes, then first against second, and so on."""
    withdrawn = {pair.id for pair in tournament.pairs if pair.withdrawn}
    rows = [row for row in standings(tournament) if row.pair not in withdrawn]
    byes: tuple[str, ...] = ()
    if len(rows) % 2:
        fewest = min(row.byes for row in rows)
        bye = next(row for row in reversed(rows) if row.byes == fewest)
        rows.remove(bye)
        byes = (bye.pair,)
    order = [row.pair for row in rows]
    pairing = None
    if tournament.system == "danese-modificato" and played + 1 < tournament.rounds and played:
        last = tournament.results[played - 1]
        met = {frozenset((table.ns, table.ew)) for table in last.tables}
        pairing = avoiding(order, met)
    if pairing is None:
        pairing = [(k, k + 1) for k in range(0, len(order), 2)]
    seats = tuple(Seat(table, order[ns], order[ew]) for table, (ns, ew) in enumerate(pairing, 1))
    return Draw(played + 1, seats, byes)


def swiss(tournament: Tournament, played: int) -> Draw:
    """``swiss`` (§4.6): round 1 the top half of ``pairs`` against the bottom half, later
    rounds the fewest rematches, then the closest VP; the tables in their NS pairs' order."""
    withdrawn = {pair.id for pair in tournament.pairs if pair.withdrawn}
    if played == 0:
        tables, byes = first_round([p.id for p in tournament.pairs if p.id not in withdrawn])
    else:
        rows = [row for row in standings(tournament) if row.pair not in withdrawn]
        tables, byes = later_round(rows, meetings(tournament))
    seats = tuple(Seat(table, ns, ew) for table, (ns, ew) in enumerate(tables, 1))
    return Draw(played + 1, seats, byes)


def avoiding(order: list[str], met: set[frozenset[str]]) -> list[tuple[int, int]] | None:
    """The lexicographically smallest tables (by place) in which no two pairs of ``met``
    meet again: the highest-placed unseated pair takes the highest-placed allowed opponent,
    and a dead end takes back the latest choice that has an untried alternative. None when
    no table list avoids them."""
    count = len(order)
    free = [True] * count
    chosen: list[tuple[int, int]] = []
    # For each table seated so far, the next opponent to try were it taken back.
    next_try = [0]
    while True:
        if len(chosen) * 2 == count:
            return chosen
        first = free.index(True)
        start = max(next_try[-1], first + 1)
        opponent = next(
            (
                k
                for k in range(start, count)
                if free[k] and frozenset((order[first], order[k])) not in met
            ),
            None,
        )
        if opponent is not None:
            free[first] = free[opponent] = False
            chosen.append((first, opponent))
            next_try[-1] = opponent + 1
            next_try.append(0)
            continue
        # A dead end: take back the latest table and try its next opponent.
        next_try.pop()
        if not chosen:
            return None
        ns, ew = chosen.pop()
        free[ns] = free[ew] = True
