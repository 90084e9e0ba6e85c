"""Backups out: every match as JSON lines of match files, and the history table as CSV.

A backup is a header line ``{"format": "anotador-backup/1", ...}``, a line of the players'
membership numbers (:mod:`anotador.backup.memberships`; none when nobody has one), a line per
tournament of the account (``anotador.tournaments.operations.backup``), then one match file
(``anotador-match/1``) per line, oldest match first, read a batch at a time so memory stays
flat however many matches there are. The CSV holds the summary columns only (no scoring).
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Iterator
from typing import Any

from anotador import rules
from anotador import services
from anotador.backup import memberships
from anotador.services.scope import Scope
from anotador.storage.models import Match
from anotador.tournaments.operations import backup as tournaments

BACKUP_FORMAT = "anotador-backup/1"
#: Matches per transaction when importing, and per read when exporting.
BATCH = services.queries.BATCH
MAX_SIDES = 3
CSV_HEADER = [
    "id",
    "played_on",
    "variant",
    "layout",
    "status",
    "hands",
    "winner",
    *(f"side_{n}_{part}" for n in range(1, MAX_SIDES + 1) for part in ("name", "players", "total")),
    "title",
]


def match_file(match: Match) -> dict[str, Any]:
    """The match file of a stored match; its raw inputs if the engine no longer accepts it
    (a backup never drops a match)."""
    try:
        return services.matches.export_document(match)
    except services.matches.StoredMatchInvalid:
        return services.documents.match_document(match)


def export_file(stored: services.queries.Stored) -> dict[str, Any]:
    """What :func:`match_file` gives, read once by the engine (every default written out),
    or the raw inputs if the engine no longer accepts them."""
    document = stored.document()
    game, _ = rules.read_match(document)
    return document if game is None else rules.match_to_document(game)


def export_lines(scope: Scope) -> Iterator[str]:
    """The backup of every match ``scope`` sees: the header line, then a batch of lines at
    a time."""
    header = {
        "format": BACKUP_FORMAT,
        "exported_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    yield json.dumps(header) + "\n"
    yield from memberships.membership_lines(scope)
    yield from tournaments.tournament_lines(scope)
    for stored_batch in services.queries.stored_batches(scope):
        yield "".join(
            json.dumps(export_file(stored), ensure_ascii=False) + "\n" for stored in stored_batch
        )


#: A text cell starting with one of these is a formula to a spreadsheet (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe (so
    ``=HYPERLINK(...)`` is shown as text); numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_row(stored: services.queries.Stored) -> list[Any]:
    """The history columns of a match; every text cell is safe to open in a spreadsheet."""
    row = stored.row
    sides = stored.sides
    result: list[Any] = [
        row.id,
        row.played_on.isoformat(),
        row.variant,
        row.layout,
        row.status,
        row.hand_count,
        sides[row.winner][0] if row.winner is not None and row.winner < len(sides) else "",
    ]
    for index in range(MAX_SIDES):
        if index < len(sides):
            name, players = sides[index]
            result += [name, " / ".join(players), row.totals[index]]
        else:
            result += ["", "", ""]
    return [csv_cell(value) for value in (*result, row.title)]


def export_csv(scope: Scope) -> Iterator[str]:
    """The history table of the matches ``scope`` sees as CSV, newest match last, a batch
    of lines at a time."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_HEADER)
    for stored_batch in services.queries.stored_batches(scope, hands=False):
        writer.writerows(csv_row(stored) for stored in stored_batch)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()
