"""Backup and restore.

A backup is JSON lines: a header line ``{"format": "anotador-backup/1", ...}`` and then one
match file (``anotador-match/1``) per line, oldest match first. Export and import both stream,
a batch of matches at a time, so memory stays flat however many matches there are. The
history table can also be exported as CSV (summary columns only, no scoring).

Import accepts a single match file (pretty-printed or not), a backup, or plain JSON lines of
match files. A match whose content (see :func:`anotador.operations.content_hash`) is already
stored is skipped, so importing the same backup twice adds nothing; the same match twice in
one backup is kept twice (a backup of a database that held it twice restores both).
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections import Counter
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import IO
from typing import Any

import sqlalchemy as sa

from anotador import bulk
from anotador import operations
from anotador import rules
from anotador.extensions import db
from anotador.models import Hand
from anotador.models import Match
from anotador.models import Player
from anotador.models import Seat
from anotador.models import Side
from anotador.models import name_key

BACKUP_FORMAT = "anotador-backup/1"
BATCH = 500
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


# Export


def iter_matches(batch: int = BATCH, where: Any = None) -> Iterator[Match]:
    """Every stored match (optionally only those matching ``where``) by id, with sides,
    seats, players and hands, a batch at a time; each batch leaves the session afterwards."""
    last = 0
    while True:
        statement = (
            sa.select(Match)
            .where(Match.id > last)
            .order_by(Match.id)
            .limit(batch)
            .options(
                sa.orm.selectinload(Match.sides).selectinload(Side.seats),
                sa.orm.selectinload(Match.hands),
            )
        )
        if where is not None:
            statement = statement.where(where)
        matches = list(db.session.scalars(statement))
        if not matches:
            return
        yield from matches
        last = matches[-1].id
        db.session.flush()  # keep what the caller changed before letting the batch go
        db.session.expunge_all()


def match_file(match: Match) -> dict[str, Any]:
    """The match file of a stored match; its raw inputs if the engine no longer accepts it
    (a backup never drops a match)."""
    try:
        return operations.export_document(match)
    except operations.StoredMatchInvalid:
        return operations.match_document(match)


@dataclass(frozen=True)
class Stored:
    """A stored match read as plain rows: no ORM objects, so a batch loads fast."""

    row: sa.Row[Any]
    sides: list[tuple[str, list[str]]]  # side name, player names in seat order
    hands: list[dict[str, Any]]


MATCH_COLUMNS = (
    Match.id,
    Match.variant,
    Match.layout,
    Match.settings,
    Match.start_scores,
    Match.title,
    Match.notes,
    Match.played_on,
    Match.abandoned,
    Match.status,
    Match.totals,
    Match.winner,
    Match.hand_count,
)


def stored_batches(batch: int = BATCH, hands: bool = True) -> Iterator[list[Stored]]:
    """Every stored match by id, a batch at a time, in three statements per batch (matches;
    sides with their seats' players; hands), keyset-paginated on the id."""
    last = 0
    while True:
        rows = db.session.execute(
            sa.select(*MATCH_COLUMNS).where(Match.id > last).order_by(Match.id).limit(batch)
        ).all()
        if not rows:
            return
        first, last = rows[0].id, rows[-1].id
        sides: dict[int, list[tuple[str, list[str]]]] = {row.id: [] for row in rows}
        statement = (
            sa.select(Side.match_id, Side.id, Side.name, Player.name)
            .outerjoin(Seat, Seat.side_id == Side.id)
            .outerjoin(Player, Player.id == Seat.player_id)
            .where(Side.match_id.between(first, last))
            .order_by(Side.match_id, Side.position, Seat.seat)
        )
        previous = None
        for match_id, side_id, side_name, player in db.session.execute(statement):
            if side_id != previous:
                sides[match_id].append((side_name, []))
                previous = side_id
            if player is not None:
                sides[match_id][-1][1].append(player)
        played: dict[int, list[dict[str, Any]]] = {row.id: [] for row in rows}
        if hands:
            statement = (
                sa.select(Hand.match_id, Hand.inputs)
                .where(Hand.match_id.between(first, last))
                .order_by(Hand.match_id, Hand.number)
            )
            for match_id, inputs in db.session.execute(statement):
                played[match_id].append(inputs)
        yield [Stored(row, sides[row.id], played[row.id]) for row in rows]


def stored_match_document(stored: Stored) -> dict[str, Any]:
    """The match file of a stored match as it is stored."""
    sides = [{"name": name, "players": players} for name, players in stored.sides]
    return operations.document_of(stored.row, sides, stored.hands)


def export_file(stored: Stored) -> dict[str, Any]:
    """What :func:`match_file` gives, read once by the engine (every default written out),
    or the raw inputs if the engine no longer accepts them."""
    document = stored_match_document(stored)
    game, _ = rules.read_match(document)
    return document if game is None else rules.match_to_document(game)


def export_lines() -> Iterator[str]:
    """The backup of every match: the header line, then a batch of lines at a time."""
    header = {
        "format": BACKUP_FORMAT,
        "exported_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    yield json.dumps(header) + "\n"
    for stored_batch in stored_batches():
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


def csv_row(stored: Stored) -> list[Any]:
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


def export_csv() -> Iterator[str]:
    """The history table as CSV, newest match last, a batch of lines at a time."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_HEADER)
    for stored_batch in stored_batches(hands=False):
        writer.writerows(csv_row(stored) for stored in stored_batch)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()


# Import


MAX_PROBLEMS = 10  # problems kept per invalid line


@dataclass
class ImportReport:
    """What an import did: the new matches, how many were already stored, and the lines
    (1-based) that could not be read with their problems (at most MAX_PROBLEMS each)."""

    created: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)  # ids of the stored copies
    invalid: list[tuple[int, list[rules.Problem]]] = field(default_factory=list)
    single: bool = False

    def summary(self) -> str:
        return (
            f"{len(self.created)} imported, {len(self.skipped)} already present, "
            f"{len(self.invalid)} invalid"
        )

    def lines(self) -> Iterator[tuple[int, str]]:
        """(line number, ``path: message`` in English) for every problem of the invalid lines."""
        for number, problems in self.invalid:
            for problem in problems:
                yield number, f"{problem.path}: {problem.message}"


def stored_document(game: rules.Match) -> dict[str, Any]:
    """The match file as the database will give it back (an undated match is dated today)."""
    document = rules.match_to_document(game)
    document.setdefault("played_on", datetime.date.today().isoformat())
    return document


def read_documents(stream: IO[bytes]) -> tuple[bool, Iterator[tuple[int, object]]]:
    """(single, documents with their line numbers) from a match file, a backup or JSON
    lines; a document that is not JSON is given as the problem list it causes."""
    first = stream.readline()
    head, problems = rules.parse_json(first) if first.strip() else (None, [])
    if not problems and isinstance(head, dict) and head.get("format") == BACKUP_FORMAT:
        return False, numbered_lines(stream, 2)
    rest = stream.readline()
    if not problems and isinstance(head, dict) and rest.strip():
        # JSON lines of match files without a header.
        return False, chain_lines([(1, head)], numbered_lines(io.BytesIO(rest), 2), stream)
    whole, problems = rules.parse_json(first + rest + stream.read())
    if problems:
        return True, iter([(1, problems)])
    if isinstance(whole, list):
        return False, iter(enumerate(whole, start=1))
    return True, iter([(1, whole)])


def chain_lines(
    head: list[tuple[int, object]], second: Iterator[tuple[int, object]], stream: IO[bytes]
) -> Iterator[tuple[int, object]]:
    yield from head
    yield from second
    yield from numbered_lines(stream, 3)


def numbered_lines(stream: Iterable[bytes], start: int) -> Iterator[tuple[int, object]]:
    for number, line in enumerate(stream, start=start):
        if not line.strip():
            continue
        document, problems = rules.parse_json(line)
        yield number, problems if problems else document


@dataclass(frozen=True)
class Incoming:
    """A match read from the input, validated and resolved by the engine (once)."""

    game: rules.Match
    document: dict[str, Any]
    content_hash: str


def import_stream(stream: IO[bytes], batch: int = BATCH) -> ImportReport:
    """Import a match file, a backup or JSON lines of match files (see the module docs).

    The input is read a line at a time and stored a batch at a time, one transaction per
    batch: every match is validated by the engine once and its content hash computed from
    the resolved match; a batch then takes one query for the hashes already stored, two for
    its players and one insert per table."""
    backfill_hashes()
    single, documents = read_documents(stream)
    report = ImportReport(single=single)
    # Only the matches stored before this import count as "already present": the same
    # match twice in one backup is restored twice.
    before = db.session.scalar(sa.select(sa.func.max(Match.id))) or 0
    used: Counter[str] = Counter()  # hash -> stored copies this import has matched
    pending: list[Incoming] = []
    for number, raw in documents:
        game, problems = read_game(raw)
        if game is None:
            report.invalid.append((number, problems[:MAX_PROBLEMS]))
            continue
        document = stored_document(game)
        pending.append(Incoming(game, document, operations.content_hash(document)))
        if len(pending) >= batch:
            store(pending, before, used, report)
            pending = []
    store(pending, before, used, report)
    return report


def store(pending: list[Incoming], before: int, used: Counter[str], report: ImportReport) -> None:
    """Store a batch of incoming matches in one transaction, skipping those already stored
    (by match ids up to ``before``)."""
    if not pending:
        return
    copies: dict[str, list[int]] = {}
    statement = (
        sa.select(Match.content_hash, Match.id)
        .where(Match.content_hash.in_({item.content_hash for item in pending}))
        .where(Match.id <= before)
        .order_by(Match.id)
    )
    for content, match_id in db.session.execute(statement):
        copies.setdefault(content, []).append(match_id)
    new = []
    for item in pending:
        stored = copies.get(item.content_hash, [])
        if used[item.content_hash] < len(stored):
            report.skipped.append(stored[used[item.content_hash]])
            used[item.content_hash] += 1
        else:
            new.append(item)
    players = bulk.player_ids(
        name for item in new for side in item.game.sides for name in side.players
    )
    rows = []
    for item in new:
        score = rules.score_match(item.game)
        sides = [
            (side.name.strip(), [players[name_key(bulk.clean_name(n))] for n in side.players])
            for side in item.game.sides
        ]
        row = bulk.match_row(item.game, score, item.document, item.content_hash)
        rows.append(bulk.NewMatch(row, sides, item.document["hands"]))
    report.created += bulk.insert_matches(rows)
    db.session.commit()


def read_game(raw: object) -> tuple[rules.Match | None, list[rules.Problem]]:
    if isinstance(raw, list) and all(isinstance(p, rules.Problem) for p in raw):
        return None, raw
    game, problems = rules.read_match(raw)
    return game, [p for p in problems if p.severity == "error"]


def backfill_hashes() -> int:
    """Give a content hash to the stored matches that have none (stored before hashes
    existed); how many were updated."""
    updated = 0
    for match in iter_matches(where=Match.content_hash.is_(None)):
        match.content_hash = operations.content_hash(operations.match_document(match))
        updated += 1
        if updated % BATCH == 0:
            db.session.commit()
    db.session.commit()
    return updated
