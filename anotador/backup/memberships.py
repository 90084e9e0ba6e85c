"""The players' membership numbers in a backup: one line after the header, before the
tournament lines, ``{"format": "anotador-backup-players/1", "players": [{"name": ..., "membership":
...}, ...]}`` (only the players who have one; no line when nobody has).

A match file names its players but holds no membership number, so the numbers travel on
their own line. On restore the line is checked before anything is stored (each name by the
rule of names, each number by :func:`anotador.tournaments.limits.read_membership`): a bad
line refuses the whole backup, as a bad tournament line does. Its numbers are given last, in
the restore's one transaction, to the account's players of those names (found, or added): a
player who already has a number keeps it, and a number another player of the account holds
already (or that the line gives twice) is not given again: one number, one member.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador.rules.problems import Problem
from anotador.rules.reading import Reader
from anotador.services.players import find_or_create_player
from anotador.services.players import give_membership
from anotador.services.scope import Scope
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.tournaments.limits import read_membership

SECTION_FORMAT = "anotador-backup-players/1"
#: The most players a line names (a line is at most 2 MB: some 40,000 short entries).
MAX_PLAYERS = 100_000
ENTRY_KEYS = ("name", "membership")


def is_section_line(value: object) -> bool:
    return isinstance(value, dict) and value.get("format") == SECTION_FORMAT


def membership_lines(scope: Scope) -> Iterator[str]:
    """The backup line (JSON, with its newline) of the numbered players ``scope`` sees; none
    when no player has a number."""
    statement = (
        sa.select(Player.name, Player.membership)
        .where(Player.membership.is_not(None))
        .order_by(Player.id)
    )
    if not scope.everything:
        statement = statement.where(Player.owner_id == scope.user_id)
    players = [
        {"name": name, "membership": number} for name, number in db.session.execute(statement)
    ]
    if players:
        line = {"format": SECTION_FORMAT, "players": players}
        yield json.dumps(line, ensure_ascii=False) + "\n"


class Section:
    """The players line of a backup being restored: checked first, stored last."""

    def __init__(self) -> None:
        #: (name, number) in the line's order, each already read by its rule.
        self.numbers: list[tuple[str, str]] = []

    def read(self, value: dict[str, Any]) -> list[Problem]:
        """Check a players line and keep its numbers; its problems otherwise."""
        reader = Reader()
        line = reader.mapping(value, "$", ("format", "players"))
        entries = line.get("players") if line is not None else None
        if not isinstance(entries, list):
            reader.error("$.players", "wrong_type", expected="a list")
            return reader.problems
        if len(entries) > MAX_PLAYERS:
            reader.error("$.players", "above_maximum", maximum=MAX_PLAYERS)
            return reader.problems
        found = []
        for index, entry in enumerate(entries):
            path = f"$.players[{index}]"
            read = reader.mapping(entry, path, ENTRY_KEYS)
            if read is None:
                continue
            name = reader.text(
                read.get("name"), f"{path}.name", True, rules.MAX_NAME, single_line=True
            )
            number = read_number(reader, read.get("membership"), f"{path}.membership")
            if name and number:
                found.append((name, number))
        if not reader.problems:
            self.numbers = found
        return reader.problems

    def store(self, owner_id: int | None) -> None:
        """Give the numbers to the account's players (in the caller's transaction)."""
        for name, number in self.numbers:
            player = find_or_create_player(name, owner_id)
            if player.membership is None:
                give_membership(player, number)
                db.session.flush()  # the next number is compared with this one


def read_number(reader: Reader, value: object, path: str) -> str | None:
    """A line's membership number by the forms' rule (a number is never empty here)."""
    if not isinstance(value, str):
        reader.error(path, "wrong_type", expected="a text")
        return None
    try:
        number = read_membership(value)
    except rules.TextRefused as refused:
        reader.error(path, refused.code, **refused.params)
        return None
    if number is None:
        reader.error(path, "empty_text")
    return number
