"""The results of a tournament file (§1.2): its rounds, their tables and byes, and the MP of a
table given as a match document, scored by the rules engine (§1.3). An individual file's
tables seat two partnerships of two players, its byes players (§6.2); the rest is the same."""

from __future__ import annotations

from typing import Any
from typing import ClassVar
from typing import overload

from anotador.rules import Match
from anotador.rules import read_match
from anotador.rules import score_match
from anotador.rules.paths import join
from anotador.rules.reading import is_int
from anotador.tournaments.limits import MAX_SIZE
from anotador.tournaments.limits import MAX_TABLE
from anotador.tournaments.problems import PlayerProblem
from anotador.tournaments.problems import Problem
from anotador.tournaments.reading import Checker
from anotador.tournaments.tournament import AnyTournament
from anotador.tournaments.tournament import Bye
from anotador.tournaments.tournament import IndividualRound
from anotador.tournaments.tournament import IndividualTournament
from anotador.tournaments.tournament import Partnership
from anotador.tournaments.tournament import PartnershipTable
from anotador.tournaments.tournament import PlayerBye
from anotador.tournaments.tournament import Round
from anotador.tournaments.tournament import Table
from anotador.tournaments.tournament import Tournament

ROUND_KEYS = ("round", "tables")
TABLE_KEYS = ("table", "ns", "ew", "mp", "match")
#: A table's layout: two pairs (a match document without one is read in it).
LAYOUT = "4p"


@overload
def read_results(checker: Checker, tournament: Tournament, raw: list[Any]) -> tuple[Round, ...]: ...
@overload
def read_results(
    checker: Checker, tournament: IndividualTournament, raw: list[Any]
) -> tuple[IndividualRound, ...]: ...
def read_results(checker: Checker, tournament: AnyTournament, raw: list[Any]) -> tuple[Any, ...]:
    """Every round of ``raw`` (the file's ``results``) read for ``tournament``'s set-up; an
    individual tournament's rounds seat partnerships and players (§6.2)."""
    if len(raw) > tournament.rounds:
        path = join("$.results", tournament.rounds)
        checker.add(path, "too_many_rounds", rounds=tournament.rounds)
    rounds: list[Round | IndividualRound] = []
    for index, value in enumerate(raw):
        path = join("$.results", index)
        doc = checker.mapping(value, path, ROUND_KEYS, ROUND_KEYS)
        if doc is None:
            continue
        if "round" in doc and not (is_int(doc["round"]) and doc["round"] == index + 1):
            checker.add(join(path, "round"), "round_order", round=index + 1)
        tables = checker.array(doc["tables"], join(path, "tables")) if "tables" in doc else None
        if tables is None:
            continue
        where = join(path, "tables")
        if isinstance(tournament, IndividualTournament):
            players = PlayerSeats(checker, tournament.player_ids())
            entries = read_round(checker, tournament, players, tables, where)
            rounds.append(IndividualRound(index + 1, entries))
        else:
            pairs = PairSeats(checker, tournament.pair_ids())
            rounds.append(Round(index + 1, read_round(checker, tournament, pairs, tables, where)))
    return tuple(rounds)


class Seats:
    """Who may sit in one round and who already sat: each pair (each player) once."""

    #: The problem of an id that is not the tournament's, and the problems' name for one.
    unknown: ClassVar[str] = "unknown_pair"
    one: ClassVar[str] = "pair"
    problem: ClassVar[type[Problem]] = Problem

    def __init__(self, checker: Checker, ids: tuple[str, ...]) -> None:
        self.checker = checker
        self.ids = set(ids)
        self.seated: set[str] = set()

    def seat(self, value: object, where: str) -> str | None:
        """The id at ``where``, seated, or None with its problem."""
        seated = self.checker.text(value, where, required=False)
        if seated is None:
            return None
        if seated not in self.ids:
            self.checker.add(where, self.unknown, **{self.one: seated})
            return None
        if seated in self.seated:
            self.checker.problems.append(self.problem(where, "seated_twice", {self.one: seated}))
            return None
        self.seated.add(seated)
        return seated


class PairSeats(Seats):
    """One round's seats in a tournament of pairs: a pair id at NS, at EW or as a bye."""

    def side(self, value: object, where: str) -> str | None:
        return self.seat(value, where)

    def bye(self, value: object, where: str) -> Bye | None:
        pair = self.seat(value, where)
        return None if pair is None else Bye(pair)

    def table(
        self, number: int, ns: str, ew: str, mp: tuple[int, int], match: Match | None
    ) -> Table:
        return Table(number, ns, ew, mp, match)


class PlayerSeats(Seats):
    """One round's seats in an individual tournament (§6.2): two player ids at NS, two at EW,
    or one as a bye; each player once in the round."""

    unknown = "unknown_player"
    one = "player"
    problem = PlayerProblem

    def side(self, value: object, where: str) -> Partnership | None:
        raw = self.checker.array(value, where)
        if raw is None:
            return None
        if len(raw) != 2:
            self.checker.add(where, "value", detail="a partnership is exactly two players")
            return None
        first, second = raw
        # Two players not seated yet, the usual case, without writing their paths.
        if first != second and all(
            isinstance(p, str) and p in self.ids and p not in self.seated for p in raw
        ):
            self.seated.update(raw)
            return first, second
        first, second = (self.seat(player, join(where, k)) for k, player in enumerate(raw))
        return None if first is None or second is None else (first, second)

    def bye(self, value: object, where: str) -> PlayerBye | None:
        player = self.seat(value, where)
        return None if player is None else PlayerBye(player)

    def table(
        self,
        number: int,
        ns: Partnership,
        ew: Partnership,
        mp: tuple[int, int],
        match: Match | None,
    ) -> PartnershipTable:
        return PartnershipTable(number, ns, ew, mp, match)


def read_round(
    checker: Checker,
    tournament: AnyTournament,
    seats: PairSeats | PlayerSeats,
    raw: list[Any],
    path: str,
) -> tuple[Any, ...]:
    """One round's tables and byes: each table number once, each pair (or player) seated
    once, by ``seats``."""
    numbers: set[int] = set()
    entries: list[Any] = []
    for j, value in enumerate(raw):
        entry_path = join(path, j)
        if isinstance(value, dict) and "bye" in value:
            checker.mapping(value, entry_path, ("bye",))
            bye = seats.bye(value["bye"], join(entry_path, "bye"))
            if bye is not None:
                entries.append(bye)
            continue
        doc = checker.mapping(value, entry_path, TABLE_KEYS, ("table", "ns", "ew"))
        if doc is None:
            continue
        number = None
        if "table" in doc:
            number = checker.integer(doc["table"], join(entry_path, "table"), 1, MAX_TABLE)
            if number is not None and number in numbers:
                checker.add(join(entry_path, "table"), "duplicate_table", table=number)
            numbers.add(number or 0)
        ns, ew = (
            seats.side(doc[key], join(entry_path, key)) if key in doc else None
            for key in ("ns", "ew")
        )
        mp: tuple[int, int] | None = None
        match = None
        if ("mp" in doc) == ("match" in doc):
            checker.add(entry_path, "table_entry")
        elif "mp" in doc:
            mp = read_mp(checker, doc["mp"], join(entry_path, "mp"))
        else:
            match = read_table_match(checker, tournament, doc["match"], join(entry_path, "match"))
            mp = None if match is None else match_points(checker, tournament, match, entry_path)
        if number is not None and ns is not None and ew is not None and mp is not None:
            entries.append(seats.table(number, ns, ew, mp, match))  # type: ignore[arg-type]
    return tuple(entries)


def read_mp(checker: Checker, value: object, path: str) -> tuple[int, int] | None:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(is_int(mp) and abs(mp) <= MAX_SIZE for mp in value)
    ):
        return value[0], value[1]
    checker.add(path, "bad_mp", maximum=MAX_SIZE)
    return None


def read_table_match(
    checker: Checker, tournament: AnyTournament, value: object, path: str
) -> Match | None:
    """The match document of a table, of the tournament's variant and layout, read with the
    tournament's options when it has none of its own (§1.3)."""
    if isinstance(value, dict):
        mismatch = [
            key
            for key, expected, default in (
                ("variant", tournament.variant, None),
                ("layout", LAYOUT, LAYOUT),
            )
            if value.get(key, default) != expected and (key in value or default is not None)
        ]
        for key in mismatch:
            where = join(path, key)
            checker.add(where, "match_mismatch", variant=tournament.variant, layout=LAYOUT)
        if mismatch:
            return None
        if "options" not in value:
            value = {**value, "options": dict(tournament.options)}
    match, problems = read_match(value)
    if match is None:
        for problem in problems:
            if problem.severity == "error":
                where = path if problem.path in ("", "$") else f"{path}.{problem.path}"
                checker.add(where, "match_refused", detail=problem.message)
    return match


def match_points(
    checker: Checker, tournament: AnyTournament, match: Match, path: str
) -> tuple[int, int] | None:
    """The table's MP from its match, or a problem while the table has not finished."""
    mp = finished_mp(match, tournament.hands_per_round)
    if mp is None:
        checker.add(join(join(path, "match"), "hands"), "match_incomplete")
    return mp


def finished_mp(match: Match, hands_per_round: int | None) -> tuple[int, int] | None:
    """NS's and EW's MP (§1.3): the totals after the round's last hand, or the final totals
    of a game that ended or was abandoned; None while the table has not finished."""
    scored = score_match(match)
    if hands_per_round is not None and len(scored.hands) >= hands_per_round:
        ns, ew = scored.hands[hands_per_round - 1].sides
        return ns.total, ew.total
    if scored.finished or match.abandoned:
        return scored.totals[0], scored.totals[1]
    return None
