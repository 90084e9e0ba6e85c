"""The ``individual-danese`` draw (TOURNAMENTS.md §6.4): players in the standings' order,
one to three byes to the lowest-placed with the fewest byes, then tables of four in order,
the first with the second against the third and the fourth, unless that seats two partners
of the round just played together again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from anotador.tournaments.problems import TournamentProblems
from anotador.tournaments.problems import undrawable
from anotador.tournaments.standings import individual_standings
from anotador.tournaments.tournament import IndividualTournament
from anotador.tournaments.tournament import Partnership

#: Players at a table: two partnerships.
TABLE = 4


@dataclass(frozen=True, slots=True)
class PartnershipSeat:
    """A table of the next round: the NS partnership against the EW one, each the
    higher-placed player first."""

    table: int
    ns: Partnership
    ew: Partnership


@dataclass(frozen=True, slots=True)
class IndividualDraw:
    """The next round: its tables by number, then its byes in ``players`` order."""

    round: int
    tables: tuple[PartnershipSeat, ...]
    byes: tuple[str, ...]


def next_individual_round(tournament: IndividualTournament) -> IndividualDraw:
    """The tables of round r + 1 of an individual tournament; raises
    :class:`TournamentProblems` when there is none to draw (``all_rounds_played``,
    ``manual_pairing``), as :func:`anotador.tournaments.pairing.next_round` does."""
    played = len(tournament.results)
    problems = undrawable(played, tournament.rounds, tournament.system)
    if problems:
        raise TournamentProblems(problems)
    rows = [row for row in individual_standings(tournament) if not row.withdrawn]
    # Round 1's standings are all zeros: the order of ``players``, as §6.4 draws it.
    order = [row.player for row in rows]
    byes = {row.player: row.byes for row in rows}
    partners: set[frozenset[str]] = set()
    if played:
        last = tournament.results[played - 1]
        partners = {frozenset(side) for table in last.tables for side in (table.ns, table.ew)}
    tables, resting = individual_danese(order, byes, partners)
    seats = tuple(PartnershipSeat(k, ns, ew) for k, (ns, ew) in enumerate(tables, 1))
    listed = {player: k for k, player in enumerate(tournament.player_ids())}
    return IndividualDraw(played + 1, seats, tuple(sorted(resting, key=listed.__getitem__)))


def individual_danese(
    order: Sequence[str], byes: dict[str, int], partners: set[frozenset[str]]
) -> tuple[list[tuple[Partnership, Partnership]], list[str]]:
    """The tables (NS, EW) and the byes of players drawn in ``order`` (best-placed first),
    ``byes`` the byes each has had, ``partners`` the partnerships of the round just played.

    N mod 4 players have a bye: the fewest byes first, the lowest-placed among equals. The
    rest make tables of four a, b, c, d in order: NS a b, EW c d, or NS a c, EW b d when a
    and b, or c and d, were partners (a and c, b and d cannot have been: each player had one
    partner)."""
    place = {player: k for k, player in enumerate(order)}
    resting = sorted(order, key=lambda player: (byes[player], -place[player]))
    resting = resting[: len(order) % TABLE]
    out = set(resting)
    seated = [player for player in order if player not in out]
    tables = []
    for k in range(0, len(seated), TABLE):
        a, b, c, d = seated[k : k + TABLE]
        if frozenset((a, b)) in partners or frozenset((c, d)) in partners:
            tables.append(((a, c), (b, d)))
        else:
            tables.append(((a, b), (c, d)))
    return tables, resting
