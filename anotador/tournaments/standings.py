"""Standings (§3): every pair's VP, MP and tables, ranked by VP, the meetings of exactly two
tied pairs, MP difference, MP for and the order of ``pairs``. In an individual tournament
(§6.3) every player's, from the side the player sat in, ranked the same way without the
meetings."""

from __future__ import annotations

from collections import Counter
from collections import defaultdict
from collections.abc import Set
from dataclasses import dataclass
from typing import Any

from anotador.tournaments.tournament import Bye
from anotador.tournaments.tournament import IndividualRound
from anotador.tournaments.tournament import IndividualTournament
from anotador.tournaments.tournament import PartnershipTable
from anotador.tournaments.tournament import PlayerBye
from anotador.tournaments.tournament import Round
from anotador.tournaments.tournament import Table
from anotador.tournaments.tournament import Tournament
from anotador.tournaments.victory_points import victory_points


@dataclass(frozen=True, slots=True, kw_only=True)
class Figures:
    """What a row of the standings says of its pair or player."""

    rank: int
    vp: int
    mp_for: int
    mp_against: int
    played: int
    byes: int
    #: The pair (the player) has left the tournament (it keeps its results and its place).
    withdrawn: bool = False

    @property
    def mp_diff(self) -> int:
        return self.mp_for - self.mp_against


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing(Figures):
    """One row of the standings of pairs."""

    pair: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStanding(Figures):
    """One row of an individual tournament's standings (§6.3)."""

    player: str


@dataclass(frozen=True, slots=True)
class TableResult:
    """A table of a played round with its VP (NS first)."""

    table: Table
    vp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ByeResult:
    pair: str
    vp: int


@dataclass(frozen=True, slots=True)
class PartnershipResult:
    """A table of an individual tournament's played round with its VP (NS first)."""

    table: PartnershipTable
    vp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PlayerByeResult:
    player: str
    vp: int


class Tally:
    """Every entrant's VP, MP, tables and byes, summed over the results."""

    def __init__(self) -> None:
        self.vp: Counter[str] = Counter()
        self.mp_for: Counter[str] = Counter()
        self.mp_against: Counter[str] = Counter()
        self.played: Counter[str] = Counter()
        self.byes: Counter[str] = Counter()

    def bye(self, entrant: str, vp: int) -> None:
        self.vp[entrant] += vp
        self.byes[entrant] += 1

    def table(self, entrant: str, ours: int, theirs: int, vp: int) -> None:
        self.vp[entrant] += vp
        self.mp_for[entrant] += ours
        self.mp_against[entrant] += theirs
        self.played[entrant] += 1

    def order(self, ids: tuple[str, ...], first: Set[str] = frozenset()) -> list[int]:
        """The positions of ``ids`` in the standings' order: VP, then (pairs) the winners of
        a meeting, ``first``, then MP difference, MP for and the order of ``ids``."""
        return sorted(
            range(len(ids)),
            key=lambda k: (
                -self.vp[ids[k]],
                ids[k] not in first,
                -(self.mp_for[ids[k]] - self.mp_against[ids[k]]),
                -self.mp_for[ids[k]],
                k,
            ),
        )

    def figures(self, entrant: str, rank: int, withdrawn: set[str]) -> dict[str, Any]:
        return {
            "rank": rank,
            "vp": self.vp[entrant],
            "mp_for": self.mp_for[entrant],
            "mp_against": self.mp_against[entrant],
            "played": self.played[entrant],
            "byes": self.byes[entrant],
            "withdrawn": entrant in withdrawn,
        }


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
    tally = Tally()
    # VP each pair took from each opponent, summed over all their meetings.
    meetings: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for played_round in tournament.results:
        for result in round_results(tournament, played_round):
            if isinstance(result, ByeResult):
                tally.bye(result.pair, result.vp)
                continue
            table = result.table
            for us, them, ours, theirs, our_vp in (
                (table.ns, table.ew, table.mp[0], table.mp[1], result.vp[0]),
                (table.ew, table.ns, table.mp[1], table.mp[0], result.vp[1]),
            ):
                tally.table(us, ours, theirs, our_vp)
                meetings[us][them] += our_vp
    ids = tournament.pair_ids()
    withdrawn = {pair.id for pair in tournament.pairs if pair.withdrawn}
    on_vp: defaultdict[int, list[str]] = defaultdict(list)
    for pair in ids:
        on_vp[tally.vp[pair]].append(pair)
    won_meetings = set()
    for tied in on_vp.values():
        if len(tied) == 2 and tied[1] in meetings[tied[0]]:
            first, second = meetings[tied[0]][tied[1]], meetings[tied[1]][tied[0]]
            if first != second:
                won_meetings.add(tied[0] if first > second else tied[1])
    return [
        Standing(pair=ids[k], **tally.figures(ids[k], rank, withdrawn))
        for rank, k in enumerate(tally.order(ids, won_meetings), 1)
    ]


def individual_round_results(
    tournament: IndividualTournament, played: IndividualRound
) -> list[PartnershipResult | PlayerByeResult]:
    """A played round of an individual tournament, in the order of the file, with VP."""
    return [
        PlayerByeResult(entry.player, tournament.bye_vp)
        if isinstance(entry, PlayerBye)
        else PartnershipResult(entry, victory_points(tournament.scale, *entry.mp))
        for entry in played.entries
    ]


def individual_standings(tournament: IndividualTournament) -> list[PlayerStanding]:
    """The players in the order of §6.3 (VP, MP difference, MP for, the order of
    ``players``: no meetings), ranked 1 to n (withdrawn players too). Both players of a
    partnership take their side's MP and VP."""
    tally = Tally()
    for played_round in tournament.results:
        for result in individual_round_results(tournament, played_round):
            if isinstance(result, PlayerByeResult):
                tally.bye(result.player, result.vp)
                continue
            table = result.table
            for side, ours, theirs, our_vp in (
                (table.ns, table.mp[0], table.mp[1], result.vp[0]),
                (table.ew, table.mp[1], table.mp[0], result.vp[1]),
            ):
                for player in side:
                    tally.table(player, ours, theirs, our_vp)
    ids = tournament.player_ids()
    withdrawn = {player.id for player in tournament.players if player.withdrawn}
    return [
        PlayerStanding(player=ids[k], **tally.figures(ids[k], rank, withdrawn))
        for rank, k in enumerate(tally.order(ids), 1)
    ]
