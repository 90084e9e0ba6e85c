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

from anotador import operations
from anotador import rules
from anotador.extensions import db
from anotador.models import Match
from anotador.models import Player
from anotador.models import Side
from anotador.models import name_key

BACKUP_FORMAT = "anotador-backup/1"
MATCH_FORMAT = "anotador-match/1"
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


def export_lines() -> Iterator[str]:
    """The backup of every match, line by line."""
    header = {
        "format": BACKUP_FORMAT,
        "exported_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    yield json.dumps(header) + "\n"
    for match in iter_matches():
        yield json.dumps(match_file(match), ensure_ascii=False) + "\n"


def csv_row(match: Match) -> list[Any]:
    row: list[Any] = [
        match.id,
        match.played_on.isoformat(),
        match.variant,
        match.layout,
        match.status,
        match.hand_count,
        match.sides[match.winner].name if match.winner is not None else "",
    ]
    for index in range(MAX_SIDES):
        if index < len(match.sides):
            side = match.sides[index]
            players = " / ".join(seat.player.name for seat in side.seats)
            row += [side.name, players, match.totals[index]]
        else:
            row += ["", "", ""]
    return [*row, match.title]


def export_csv() -> Iterator[str]:
    """The history table as CSV, newest match last, line by line."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_HEADER)
    for match in iter_matches():
        writer.writerow(csv_row(match))
        if buffer.tell() > 64 * 1024:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


# Import


@dataclass
class ImportReport:
    """What an import did: the new matches, how many were already stored, and the lines
    (1-based) that could not be read with their problems."""

    created: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)  # ids of the stored copies
    invalid: list[tuple[int, list[str]]] = field(default_factory=list)
    single: bool = False

    def summary(self) -> str:
        return (
            f"{len(self.created)} imported, {len(self.skipped)} already present, "
            f"{len(self.invalid)} invalid"
        )


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


def import_stream(stream: IO[bytes], batch: int = 200) -> ImportReport:
    """Import a match file, a backup or JSON lines of match files (see the module docs)."""
    backfill_hashes()
    single, documents = read_documents(stream)
    report = ImportReport(single=single)
    before: dict[str, list[int]] = {}  # hash -> stored matches with it before this import
    used: Counter[str] = Counter()
    pending: list[tuple[int, rules.Match, dict[str, Any], str]] = []

    def flush() -> None:
        new = [h for *_, h in pending if h not in before]
        for content, match_id in existing(new):
            before.setdefault(content, []).append(match_id)
        register_players(document for *_, document, _ in pending)
        created = []
        # One flush per batch: the unit of work then inserts each table's rows together.
        with db.session.no_autoflush:
            for number, _, document, content in pending:
                copies = before.setdefault(content, [])
                if used[content] < len(copies):
                    report.skipped.append(copies[used[content]])
                    used[content] += 1
                    continue
                match, problems = operations.create_match(document, commit=False)
                if match is None:  # pragma: no cover - the document was read just before
                    report.invalid.append((number, [p.message for p in problems]))
                else:
                    created.append(match)
        db.session.flush()
        report.created += [match.id for match in created]
        db.session.commit()
        db.session.expunge_all()
        pending.clear()

    for number, raw in documents:
        game, problems = read_game(raw)
        if game is None:
            report.invalid.append((number, [f"{p.path}: {p.message}" for p in problems]))
            continue
        document = stored_document(game)
        pending.append((number, game, document, operations.content_hash(document)))
        if len(pending) >= batch:
            flush()
    flush()
    return report


def register_players(documents: Iterable[dict[str, Any]]) -> None:
    """Add the batch's new players in one go (the first spelling of a name wins, as when
    matches are created one by one), so creating its matches needs no flush per player."""
    names: dict[str, str] = {}
    for document in documents:
        for side in document["sides"]:
            for name in side["players"]:
                clean = " ".join(name.split())
                names.setdefault(name_key(clean), clean)
    if not names:
        return
    known = set(db.session.scalars(sa.select(Player.name_key).where(Player.name_key.in_(names))))
    db.session.add_all(
        Player(name=name, name_key=key) for key, name in names.items() if key not in known
    )
    db.session.flush()


def read_game(raw: object) -> tuple[rules.Match | None, list[rules.Problem]]:
    if isinstance(raw, list) and all(isinstance(p, rules.Problem) for p in raw):
        return None, raw
    game, problems = rules.read_match(raw)
    return game, [p for p in problems if p.severity == "error"]


def existing(hashes: list[str]) -> list[tuple[str, int]]:
    """(hash, match id) of the stored matches with any of these content hashes."""
    if not hashes:
        return []
    statement = (
        sa.select(Match.content_hash, Match.id)
        .where(Match.content_hash.in_(set(hashes)))
        .order_by(Match.id)
    )
    return [(content, match_id) for content, match_id in db.session.execute(statement) if content]


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
