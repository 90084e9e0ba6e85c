"""The results of a tournament file (§1.2): its rounds, their tables and byes, and the MP of a
table given as a match document, scored by the rules engine (§1.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any

from anotador.rules import Match
from anotador.rules import read_match
from anotador.rules import score_match
from anotador.rules.paths import join
from anotador.rules.reading import is_int
from anotador.tournaments.limits import MAX_SIZE
from anotador.tournaments.limits import MAX_TABLE
from anotador.tournaments.reading import Checker
from anotador.tournaments.tournament import Bye
from anotador.tournaments.tournament import Entry
from anotador.tournaments.tournament import Round
from anotador.tournaments.tournament import Table

if TYPE_CHECKING:
    from anotador.tournaments.tournament import Tournament

ROUND_KEYS = ("round", "tables")
TABLE_KEYS = ("table", "ns", "ew", "mp", "match")
#: A table's layout: two pairs (a match document without one is read in it).
LAYOUT = "4p"


def read_results(checker: Checker, tournament: Tournament, raw: list[Any]) -> tuple[Round, ...]:
    """Every round of ``raw`` (the file's ``results``) read for ``tournament``'s set-up."""
    if len(raw) > tournament.rounds:
        path = join("$.results", tournament.rounds)
        checker.add(path, "too_many_rounds", rounds=tournament.rounds)
    rounds = []
    for index, value in enumerate(raw):
        path = join("$.results", index)
        doc = checker.mapping(value, path, ROUND_KEYS, ROUND_KEYS)
        if doc is None:
            continue
        if "round" in doc and not (is_int(doc["round"]) and doc["round"] == index + 1):
            checker.add(join(path, "round"), "round_order", round=index + 1)
        tables = checker.array(doc["tables"], join(path, "tables")) if "tables" in doc else None
        if tables is not None:
            entries = read_round(checker, tournament, tables, join(path, "tables"))
            rounds.append(Round(index + 1, entries))
    return tuple(rounds)


def read_round(
    checker: Checker, tournament: Tournament, raw: list[Any], path: str
) -> tuple[Entry, ...]:
    """One round's tables and byes: each table number once, each pair seated once."""
    ids = set(tournament.pair_ids())
    seated: set[str] = set()
    numbers: set[int] = set()
    entries: list[Entry] = []

    def seat(doc: dict[str, Any], key: str, entry_path: str) -> str | None:
        if key not in doc:
            return None
        where = join(entry_path, key)
        pair = checker.text(doc[key], where, required=False)
        if pair is None:
            return None
        if pair not in ids:
            checker.add(where, "unknown_pair", pair=pair)
            return None
        if pair in seated:
            checker.add(where, "seated_twice", pair=pair)
            return None
        seated.add(pair)
        return pair

    for j, value in enumerate(raw):
        entry_path = join(path, j)
        if isinstance(value, dict) and "bye" in value:
            checker.mapping(value, entry_path, ("bye",))
            pair = seat(value, "bye", entry_path)
            if pair is not None:
                entries.append(Bye(pair))
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
        ns, ew = seat(doc, "ns", entry_path), seat(doc, "ew", entry_path)
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
            entries.append(Table(number, ns, ew, mp, match))
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
    checker: Checker, tournament: Tournament, value: object, path: str
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
    checker: Checker, tournament: Tournament, match: Match, path: str
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
