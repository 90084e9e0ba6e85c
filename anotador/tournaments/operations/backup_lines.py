"""A tournament line of a backup (``.backup``) checked before anything
is stored: its rows' shape here, then its set-up, pairs and rounds by the tournament file's own
checks (``check_tournament``), so a bad line is refused with the problems the file would have
(a name, a pair against itself, a table number, a round beyond ``rounds``), by the same paths
as the line's rows. What passes can be stored and its pages drawn."""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

from anotador.rules.problems import Problem
from anotador.rules.reading import Reader
from anotador.tournaments import check_tournament
from anotador.tournaments.document import SET_UP
from anotador.tournaments.limits import CLOCK_MINUTES
from anotador.tournaments.limits import MAX_PAIRS
from anotador.tournaments.limits import MAX_ROUNDS
from anotador.tournaments.limits import MAX_SIZE as MAX_MP
from anotador.tournaments.limits import MAX_TABLE
from anotador.tournaments.operations.service import FORMAT as FILE_FORMAT
from anotador.tournaments.store.models import ROUND_STATUSES
from anotador.tournaments.store.models import TOURNAMENT_STATUSES

LINE_KEYS = (*SET_UP, "format", "status", "shared", "created_at", "pairs", "round_rows", "changes")
PAIR_KEYS = ("players", "club", "withdrawn", "joined_round")
ROUND_KEYS = ("number", "status", "tables")
#: A round's clock (``operations.clock``), optional (a backup made before clocks has none):
#: null, or the minutes it was last started with and when it runs out (null: not running).
CLOCK_KEY = "clock"
CLOCK_KEYS = ("minutes", "ends_at")
TABLE_KEYS = ("number", "ns", "ew", "match", "mp")
CHANGE_KEYS = ("at", "director", "change", "details")
#: A key of the tournament file's results → the line's own (a bye is its NS pair's row).
LINE_KEYS_OF_FILE = {"round": "number", "table": "number", "bye": "ns"}
#: The keys of a change's details the pages read, and the whole numbers they hold.
DETAIL_NUMBERS = {
    "round": MAX_ROUNDS,
    "table": MAX_TABLE,
    "pair": MAX_PAIRS,
    "minutes": CLOCK_MINUTES[1],
}


def line_problems(value: dict[str, Any]) -> list[Problem]:
    """What is wrong with a tournament line: its rows' shape, then its set-up and pairs as
    the tournament file's own checks see them."""
    reader = Reader()
    line = reader.mapping(value, "$", LINE_KEYS)
    assert line is not None
    for key in LINE_KEYS:
        if key not in line and key not in ("bye_vp", "options"):
            reader.error(f"$.{key}", "required")
    if reader.problems:
        return reader.problems
    reader.choice(line["status"], "$.status", TOURNAMENT_STATUSES)
    reader.boolean(line["shared"], "$.shared")
    read_moment(reader, line["created_at"], "$.created_at")
    pairs = read_list(reader, line["pairs"], "$.pairs", MAX_PAIRS)
    for index, pair in enumerate(pairs):
        path = f"$.pairs[{index}]"
        entry = reader.mapping(pair, path, PAIR_KEYS)
        if entry is not None:
            reader.text(entry.get("club", ""), f"{path}.club", single_line=True)
            reader.boolean(entry.get("withdrawn", False), f"{path}.withdrawn")
            reader.integer(entry.get("joined_round", 1), f"{path}.joined_round", 1, MAX_ROUNDS + 1)
    for index, round_row in enumerate(
        read_list(reader, line["round_rows"], "$.round_rows", MAX_ROUNDS)
    ):
        read_round(reader, round_row, index + 1, len(pairs))
    for index, change in enumerate(read_list(reader, line["changes"], "$.changes", None)):
        path = f"$.changes[{index}]"
        entry = reader.mapping(change, path, CHANGE_KEYS)
        if entry is not None and all(key in entry for key in CHANGE_KEYS):
            read_moment(reader, entry["at"], f"{path}.at")
            reader.boolean(entry["director"], f"{path}.director")
            reader.text(entry["change"], f"{path}.change", required=True, maximum=40)
            read_details(reader, entry["details"], f"{path}.details")
        elif entry is not None:
            reader.error(path, "required")
    if reader.problems:
        return reader.problems
    _, found = check_tournament(file_of(line))
    return [dataclasses.replace(problem, path=line_path(problem.path)) for problem in found]


def file_of(line: dict[str, Any]) -> dict[str, Any]:
    """The tournament file of a line's set-up, pairs and rounds: each round's tables as they
    are seated (a table without its MP yet given 0–0, so its seats are read all the same)."""
    document = {key: line[key] for key in SET_UP if line.get(key) is not None}
    document["hands_per_round"] = line["hands_per_round"]  # null: played to the target
    pairs = [
        {
            "id": str(index),
            "players": pair.get("players"),
            **({"club": pair["club"]} if pair.get("club") else {}),
            **({"withdrawn": True} if pair.get("withdrawn") else {}),
        }
        for index, pair in enumerate(line["pairs"], start=1)
    ]
    results = [
        {"round": round_row["number"], "tables": [entry_of(t) for t in round_row["tables"]]}
        for round_row in line["round_rows"]
    ]
    return {**document, "format": FILE_FORMAT, "pairs": pairs, "results": results}


def entry_of(table: dict[str, Any]) -> dict[str, Any]:
    if table["ew"] is None:
        return {"bye": str(table["ns"])}
    seats = {"table": table["number"], "ns": str(table["ns"]), "ew": str(table["ew"])}
    return {**seats, "mp": table["mp"] or [0, 0]}


def line_path(path: str) -> str:
    """A path of the line's file (:func:`file_of`) as the line's own: ``$.results[1].tables[0]
    .table`` is ``$.round_rows[1].tables[0].number``."""
    if not path.startswith("$.results"):
        return path
    head, _, last = ("$.round_rows" + path.removeprefix("$.results")).rpartition(".")
    return f"{head}.{LINE_KEYS_OF_FILE.get(last, last)}"


def read_list(reader: Reader, value: object, path: str, maximum: int | None) -> list[Any]:
    if not isinstance(value, list):
        reader.error(path, "wrong_type", expected="a list")
        return []
    if maximum is not None and len(value) > maximum:
        reader.error(path, "above_maximum", maximum=maximum)
        return []
    return value


def read_moment(reader: Reader, value: object, path: str) -> None:
    """A moment in ISO 8601 that the restore can turn to UTC (``backup.utc``): not at the
    calendar's very edge, where another offset falls outside it."""
    try:
        moment = datetime.datetime.fromisoformat(value)  # type: ignore[arg-type]
        if moment.tzinfo is not None:
            moment.astimezone(datetime.UTC)
    except (TypeError, ValueError, OverflowError):
        reader.error(path, "invalid_date")


def read_details(reader: Reader, value: object, path: str) -> None:
    """A change's details: an object, whose round, table, pair and MP (what the pages show
    of it) are whole numbers in their bounds."""
    details = reader.mapping(value, path, value if isinstance(value, dict) else ())
    if details is None:
        return
    for key, maximum in DETAIL_NUMBERS.items():
        if key in details:
            reader.integer(details[key], f"{path}.{key}", 1, maximum)
    if "mp" in details:
        mp = details["mp"]
        if not isinstance(mp, list) or len(mp) != 2:
            reader.error(f"{path}.mp", "wrong_type", expected="a list of whole numbers")
        else:
            for side, points in enumerate(mp):
                reader.integer(points, f"{path}.mp[{side}]", -MAX_MP, MAX_MP)


def read_round(reader: Reader, value: object, number: int, pairs: int) -> None:
    """Round ``number`` (they go 1, 2, 3...) and its tables."""
    path = f"$.round_rows[{number - 1}]"
    entry = reader.mapping(value, path, (*ROUND_KEYS, CLOCK_KEY))
    if entry is None or not all(key in entry for key in ROUND_KEYS):
        reader.error(path, "required")
        return
    reader.integer(entry["number"], f"{path}.number", number, number)
    reader.choice(entry["status"], f"{path}.status", ROUND_STATUSES)
    if entry.get(CLOCK_KEY) is not None:
        read_clock(reader, entry[CLOCK_KEY], f"{path}.{CLOCK_KEY}")
    for index, table in enumerate(read_list(reader, entry["tables"], f"{path}.tables", MAX_TABLE)):
        read_table(reader, table, f"{path}.tables[{index}]", pairs)


def read_clock(reader: Reader, value: object, path: str) -> None:
    """A round's clock: the minutes within the start form's bounds, the end a moment or null."""
    clock = reader.mapping(value, path, CLOCK_KEYS)
    if clock is None or not all(key in clock for key in CLOCK_KEYS):
        reader.error(path, "required")
        return
    reader.integer(clock["minutes"], f"{path}.minutes", *CLOCK_MINUTES)
    if clock["ends_at"] is not None:
        read_moment(reader, clock["ends_at"], f"{path}.ends_at")


def read_table(reader: Reader, value: object, path: str, pairs: int) -> None:
    table = reader.mapping(value, path, TABLE_KEYS)
    if table is None or not all(key in table for key in TABLE_KEYS):
        reader.error(path, "required")
        return
    reader.integer(table["ns"], f"{path}.ns", 1, pairs)
    bye = table["ew"] is None
    for key in () if bye else ("ew", "number"):
        reader.integer(table[key], f"{path}.{key}", 1, pairs if key == "ew" else MAX_TABLE)
    if table["match"] is not None:
        reader.integer(table["match"], f"{path}.match", 0)
    mp = table["mp"]
    if mp is not None:
        if not isinstance(mp, list) or len(mp) != 2:
            reader.error(f"{path}.mp", "wrong_type", expected="two whole numbers")
        else:
            for side, points in enumerate(mp):
                reader.integer(points, f"{path}.mp[{side}]", -MAX_MP, MAX_MP)
