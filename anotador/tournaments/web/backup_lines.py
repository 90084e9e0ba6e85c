"""A tournament line of a backup (``anotador.tournaments.web.backup``) checked before anything
is stored: its rows' shape here, then its set-up and pairs by the tournament file's own
checks (``check_tournament``), so a bad line is refused with the problems the file would have."""

from __future__ import annotations

import datetime
from typing import Any

from anotador.rules.problems import Problem
from anotador.rules.reading import Reader
from anotador.tournaments import check_tournament
from anotador.tournaments.document import SET_UP
from anotador.tournaments.web.models import ROUND_STATUSES
from anotador.tournaments.web.models import TOURNAMENT_STATUSES
from anotador.tournaments.web.service import FORMAT as FILE_FORMAT
from anotador.tournaments.web.service import MAX_PAIRS
from anotador.tournaments.web.service import MAX_ROUNDS

LINE_KEYS = (*SET_UP, "format", "status", "shared", "created_at", "pairs", "round_rows", "changes")
PAIR_KEYS = ("players", "club", "withdrawn", "joined_round")
ROUND_KEYS = ("number", "status", "tables")
TABLE_KEYS = ("number", "ns", "ew", "match", "mp")
CHANGE_KEYS = ("at", "director", "change", "details")
MAX_TABLE = 10_000
MAX_MP = 1_000_000


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
            if not isinstance(entry["details"], dict):
                reader.error(f"{path}.details", "wrong_type", expected="an object")
        elif entry is not None:
            reader.error(path, "required")
    if reader.problems:
        return reader.problems
    _, found = check_tournament(file_of(line))
    return list(found)


def file_of(line: dict[str, Any]) -> dict[str, Any]:
    """The tournament file of a line's set-up and pairs (its results are its rows')."""
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
    return {**document, "format": FILE_FORMAT, "pairs": pairs, "results": []}


def read_list(reader: Reader, value: object, path: str, maximum: int | None) -> list[Any]:
    if not isinstance(value, list):
        reader.error(path, "wrong_type", expected="a list")
        return []
    if maximum is not None and len(value) > maximum:
        reader.error(path, "above_maximum", maximum=maximum)
        return []
    return value


def read_moment(reader: Reader, value: object, path: str) -> None:
    try:
        datetime.datetime.fromisoformat(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        reader.error(path, "invalid_date")


def read_round(reader: Reader, value: object, number: int, pairs: int) -> None:
    """Round ``number`` (they go 1, 2, 3...) and its tables."""
    path = f"$.round_rows[{number - 1}]"
    entry = reader.mapping(value, path, ROUND_KEYS)
    if entry is None or not all(key in entry for key in ROUND_KEYS):
        reader.error(path, "required")
        return
    reader.integer(entry["number"], f"{path}.number", number, number)
    reader.choice(entry["status"], f"{path}.status", ROUND_STATUSES)
    for index, table in enumerate(read_list(reader, entry["tables"], f"{path}.tables", MAX_TABLE)):
        read_table(reader, table, f"{path}.tables[{index}]", pairs)


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
