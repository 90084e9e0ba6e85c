"""Standings (§3): every pair's VP, MP and tables, ranked by VP, the meetings of exactly two
tied pairs, MP difference, MP for and the order of ``pairs``."""

from __future__ import annotations

from collections import Counter
from collections import defaultdict
from dataclasses import dataclass

from anotador.tournaments.tournament import Bye
from anotador.tournaments.tournament import Round
from anotador.tournaments.tournament import Table
from anotador.tournaments.tournament import Tournament
from anotador.tournaments.victory_points import victory_points


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the standings."""

    pair: str
    rank: int
    vp: int
    mp_for: int
    mp_against: int
    played: int
    byes: int
    #: The pair has left the tournament (it keeps its results and its place).
    withdrawn: bool = False

    @property
    def mp_diff(self) -> int:
        return self.mp_for - self.mp_against


@dataclass(frozen=True, slots=True)
class TableResult:
    """A table of a played round with its VP (NS first)."""

    table: Table
    vp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ByeResult:
    pair: str
    vp: int


def round_results(tournament: Tournament, played: Round) -> list[TableResult | ByeResult]:
    """A played round's entries, in the order of the file, each with its VP."""
    return [
        ByeResult(entry.pair, tournament.bye_vp)
        if isinstance(entry, Bye)
        else TableResult(entry, victory_points(tournament.scale, *entry.mp))
        for entry in played.entries
    ]


def standings(tournament: Tournament) -> list[Standing]:
    """The pairs in the order of §3, ranked 1 to n (withdrawn pairs too)."""
    vp: Counter[str] = Counter()
    mp_for: Counter[str] = Counter()
    mp_against: Counter[str] = Counter()
    played: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    # VP each pair took from each opponent, summed over all their meetings.
    meetings: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for played_round in tournament.results:
        for result in round_results(tournament, played_round):
            if isinstance(result, ByeResult):
                vp[result.pair] += result.vp
                byes[result.pair] += 1
                continue
            table = result.table
            for us, them, ours, theirs, our_vp in (
                (table.ns, table.ew, table.mp[0], table.mp[1], result.vp[0]),
                (table.ew, table.ns, table.mp[1], table.mp[0], result.vp[1]),
            ):
                vp[us] += our_vp
                mp_for[us] += ours
                mp_against[us] += theirs
                played[us] += 1
                meetings[us][them] += our_vp
    ids = tournament.pair_ids()
    withdrawn = {pair.id for pair in tournament.pairs if pair.withdrawn}
    on_vp: defaultdict[int, list[str]] = defaultdict(list)
    for pair in ids:
        on_vp[vp[pair]].append(pair)
    won_meetings = set()
    for tied in on_vp.values():
        if len(tied) == 2 and tied[1] in meetings[tied[0]]:
            first, second = meetings[tied[0]][tied[1]], meetings[tied[1]][tied[0]]
            if first != second:
                won_meetings.add(tied[0] if first > second else tied[1])
    order = sorted(
        range(len(ids)),
        key=lambda k: (
            -vp[ids[k]],
            ids[k] not in won_meetings,
            -(mp_for[ids[k]] - mp_against[ids[k]]),
            -mp_for[ids[k]],
            k,
        ),
    )
    return [
        Standing(
            pair=ids[k],
            rank=rank,
            vp=vp[ids[k]],
            mp_for=mp_for[ids[k]],
            mp_against=mp_against[ids[k]],
            played=played[ids[k]],
            byes=byes[ids[k]],
            withdrawn=ids[k] in withdrawn,
        )
        for rank, k in enumerate(order, 1)
    ]
