"""Backups in: a single match file (pretty-printed or not), a backup, or plain JSON lines of
match files, stored a batch at a time.

A match whose content (see :func:`anotador.services.documents.content_hash`) is already stored
is skipped, so importing the same backup twice adds nothing; the same match twice in one
backup is kept twice (a backup of a database that held it twice restores both).

An import runs in bounded memory whatever its input (the restore page takes uploads of
64 MB, and a small host has 1 GB for everything): the input is read a block at a time, a line
longer than MAX_LINE is reported invalid without being parsed (as is a JSON value nested too
deep), and the report keeps counts, a few ids and the first invalid lines, not one entry per
line. Matches are committed a batch (BATCH) at a time and each committed batch is logged, so
an import that stops midway (the database fails, the worker is killed) leaves whole batches
stored: importing the same file again finishes the job, since what is already stored is
skipped.
"""

from __future__ import annotations

import datetime
import io
import itertools
import json
import logging
from collections import Counter
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import IO
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador import services
from anotador.backup import bulk
from anotador.backup.export import BACKUP_FORMAT
from anotador.backup.export import BATCH
from anotador.backup.report import ImportReport
from anotador.backup.report import RestoreProblem
from anotador.storage import signals
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import name_key
from anotador.tournaments.operations import backup as tournaments

MB = 1024 * 1024
#: A match file line (or a whole match file) longer than this is reported invalid without
#: being parsed: a real match file is tens of kB, and parsing takes about 25 times the text
#: in memory.
MAX_LINE = 2 * MB
#: The upload is read this much at a time.
READ_BLOCK = 256 * 1024
#: Invalid lines whose problems a report keeps (it counts all of them).
KEEP_INVALID = 50
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Unreadable:
    """An input document that is not JSON (or too long to read), with its problems."""

    problems: list[rules.Problem]


TOO_LONG = Unreadable([RestoreProblem("$", "line_too_long", {"maximum": MAX_LINE // MB})])

#: An entry of the input: its line number, and either a line still to parse (bytes), a JSON
#: value already parsed (from a whole document) or an Unreadable.
Entry = tuple[int, object]


def split_lines(stream: IO[bytes]) -> Iterator[bytes | Unreadable]:
    """The lines of ``stream`` (without their newline), read a block at a time; a line
    longer than MAX_LINE is given as TOO_LONG, and read past without being kept."""
    start = b""  # the beginning of the line the last block ended in
    skipping = False  # that line is already too long
    while block := stream.read(READ_BLOCK):
        pieces = block.split(b"\n")
        last = pieces.pop()  # the beginning of a line the next block goes on with
        for piece in pieces:
            if skipping:
                skipping = False
                yield TOO_LONG
            else:
                line = start + piece if start else piece
                yield line if len(line) <= MAX_LINE else TOO_LONG
            start = b""
        if not skipping:
            start += last
            if len(start) > MAX_LINE:
                start, skipping = b"", True
    if skipping:
        yield TOO_LONG
    elif start:
        yield start


def numbered(lines: Iterable[bytes | Unreadable], first: int) -> Iterator[Entry]:
    return enumerate(lines, start=first)


def parse(line: bytes | Unreadable) -> object:
    """The JSON value of a line, or an Unreadable."""
    if isinstance(line, Unreadable):
        return line
    value, problems = rules.parse_json(line)
    return Unreadable(problems) if problems else value


def read_documents(stream: IO[bytes]) -> tuple[bool, Iterator[Entry]]:
    """(single, entries) of a backup, JSON lines of match files, or one document (a match
    file, pretty-printed or not, or a JSON list of match files) of at most MAX_LINE bytes.
    A larger input whose first line is not a match is read as JSON lines too."""
    lines = split_lines(stream)
    first = next(lines, b"")
    head = parse(first) if not isinstance(first, bytes) or first.strip() else None
    if isinstance(head, dict):
        if head.get("format") == BACKUP_FORMAT:
            return False, numbered(lines, 2)
        # One match file on its first line: JSON lines if anything but blank lines follows.
        for number, following in enumerate(lines, start=2):
            if isinstance(following, Unreadable) or following.strip():
                entries = [(1, head), (number, following)]
                return False, itertools.chain(entries, numbered(lines, number + 1))
        return True, iter([(1, head)])
    # One document on several lines (or none at all), unless it is too large to be one.
    document = bytearray()
    for line in itertools.chain([first], lines):
        if isinstance(line, Unreadable) or len(document) + len(line) + 1 > MAX_LINE:
            read = split_lines(io.BytesIO(bytes(document)))
            rest = itertools.chain(read, [line], lines)
            return False, numbered(rest, 1)
        document += line + b"\n"
    whole = parse(bytes(document))
    if isinstance(whole, list):
        return False, numbered(whole, 1)
    return True, iter([(1, whole)])


def could_be_a_match(line: bytes) -> bool:
    """False when a line surely is no match file, seen without parsing it: a match file
    names its format, and a line without any backslash (JSON escapes) spells it plainly."""
    return b"\\" in line or MATCH_FORMAT_TOKEN in line


MATCH_FORMAT_TOKEN = json.dumps(rules.MATCH_FORMAT).encode()


def stored_document(game: rules.Match) -> dict[str, Any]:
    """The match file as the database will give it back (an undated match is dated today)."""
    document = rules.match_to_document(game)
    document.setdefault("played_on", datetime.date.today().isoformat())
    return document


def stored_copy(game: rules.Match, owner_id: int | None) -> int | None:
    """The first match of ``owner_id`` with ``game``'s content (the rule the restore skips
    a match by), or None."""
    content = services.documents.content_hash(stored_document(game))
    copies = services.queries.stored_copies({content}, owner_id, services.queries.last_match_id())
    return copies[content][0] if copies.get(content) else None


@dataclass(frozen=True)
class Incoming:
    """A match read from the input, validated and resolved by the engine (once)."""

    game: rules.Match
    document: dict[str, Any]
    content_hash: str
    #: Its place among the input's match lines (0 for the first), as tournament lines say.
    place: int = 0


def import_stream(
    stream: IO[bytes],
    owner_id: int | None = None,
    batch: int | None = None,
    keep: int = KEEP_INVALID,
) -> ImportReport:
    """Import a match file, a backup or JSON lines of match files (see the module docs) as
    matches of the account ``owner_id`` (None: the first administrator's, see
    ``services.accounts.owner_or_default``); a match that account already has is skipped.

    The input is read a block at a time and stored a batch at a time, one transaction per
    batch, so memory stays bounded by the batch, the longest line (MAX_LINE) and the
    report's ``keep`` invalid lines. Every match is validated by the engine once and its
    content hash computed from the resolved match; a batch then takes one query for the
    hashes already stored, two for its players and one insert per table. Once the report
    holds ``keep`` invalid lines, a line that surely is no match file is counted without
    being parsed. If the database fails, the report says where the import stopped (the
    batches before stay committed) and the error is logged."""
    batch = batch or BATCH
    owner_id = services.accounts.owner_or_default(owner_id)
    backfill_hashes()
    single, entries = read_documents(stream)
    report = ImportReport(single=single)
    section = tournaments.Section()
    if not single:
        entries = read_tournaments(entries, section, report, keep)
        if report.tournaments_refused:
            return report  # checked before any match: nothing is stored
    # Only the matches stored before this import count as "already present": the same
    # match twice in one backup is restored twice.
    before = services.queries.last_match_id()
    db.session.commit()  # no transaction stays open while the input is read
    target = Target(owner_id, before, Counter(), frozenset(section.wanted), section.placed)
    pending: list[Incoming] = []
    batch_start = 0  # the line of the first match in pending
    for place, (number, entry) in enumerate(non_blank(entries)):
        report.lines = number
        if place in target.wanted:
            section.line_of[place] = number
        if isinstance(entry, bytes):
            if len(report.problems) >= keep and not could_be_a_match(entry):
                report.invalid += 1
                continue
            entry = parse(entry)
        game, problems = read_game(entry)
        if game is None:
            report.add_invalid(number, problems, keep)
            continue
        document = stored_document(game)
        content = services.documents.content_hash(document)
        pending.append(Incoming(game, document, content, place))
        batch_start = batch_start or number
        if len(pending) >= batch:
            if not store_batch(pending, target, report, batch_start):
                return report
            pending, batch_start = [], 0
    if store_batch(pending, target, report, batch_start) and section.lines:
        store_tournaments(section, owner_id, report)
    return report


def non_blank(entries: Iterator[Entry]) -> Iterator[Entry]:
    """The entries but blank lines: each is a match line, numbered by its place."""
    return (e for e in entries if not isinstance(e[1], bytes) or e[1].strip())


def read_tournaments(
    entries: Iterator[Entry], section: tournaments.Section, report: ImportReport, keep: int
) -> Iterator[Entry]:
    """Read the tournament lines that open a backup into ``section`` (each checked now);
    the entries from the first match line on. An invalid one marks the report refused."""
    for number, entry in non_blank(entries):
        value = parse(entry) if isinstance(entry, bytes) else entry
        if not tournaments.is_section_line(value):
            return itertools.chain([(number, value)], entries)
        assert isinstance(value, dict)
        problems = section.read(number, value)
        if problems:
            report.tournaments_refused = True
            report.add_invalid(number, problems, keep)
    return iter(())


def store_tournaments(
    section: tournaments.Section, owner_id: int | None, report: ImportReport
) -> None:
    """Store the tournaments once every match is (one transaction); a table whose match
    line was not restored refuses them all."""
    try:
        created, skipped, problems = section.store(owner_id)
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        log.exception("import: the tournaments were not stored; %s", report.summary())
        report.stopped_at = report.lines
        return
    report.tournaments, report.tournaments_skipped = created, skipped
    for number, found in problems:
        report.tournaments_refused = True
        report.add_invalid(number, found, KEEP_INVALID)


@dataclass(frozen=True)
class Target:
    """Where an import stores: whose matches, and which of them were there before it."""

    owner_id: int | None
    #: Only the matches stored before this import count as "already present".
    before: int
    #: Content hash -> how many stored copies this import has matched so far.
    used: Counter[str]
    #: The places of the match lines a tournament table points to ...
    wanted: frozenset[int] = frozenset()
    #: ... and the ids of their stored matches, filled as they are stored.
    placed: dict[int, int] = field(default_factory=dict)


def store_batch(pending: list[Incoming], target: Target, report: ImportReport, start: int) -> bool:
    """Store a batch (see :func:`store`); False, with the report saying where the import
    stopped, if the database failed."""
    if not pending:
        return True
    try:
        store(pending, target, report)
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        log.exception("import stopped at line %d; %s", start, report.summary())
        report.stopped_at = start
        return False
    log.info(
        "import: batch %d committed up to line %d; %s",
        report.batches,
        report.lines,
        report.summary(),
    )
    return True


def store(pending: list[Incoming], target: Target, report: ImportReport) -> None:
    """Store a batch of incoming matches in one transaction, skipping those the owner
    already had (by match ids up to ``target.before``)."""
    hashes = {item.content_hash for item in pending}
    copies = services.queries.stored_copies(hashes, target.owner_id, target.before)
    used = target.used
    new, skipped, kept = [], [], []
    for item in pending:
        stored = copies.get(item.content_hash, [])
        if used[item.content_hash] < len(stored):
            kept.append(item)
            skipped.append(stored[used[item.content_hash]])
            used[item.content_hash] += 1
        else:
            new.append(item)
    scores = [rules.score_match(item.game) for item in new]  # before the first write
    players = bulk.player_ids(
        (name for item in new for side in item.game.sides for name in side.players),
        target.owner_id,
    )
    rows = []
    for item, score in zip(new, scores, strict=True):
        sides = [
            (side.name, [players[name_key(rules.clean_text(n))] for n in side.players])
            for side in item.game.sides
        ]
        row = bulk.match_row(item.game, score, item.document, item.content_hash, target.owner_id)
        figures = bulk.figures_of(item.game, score)
        rows.append(bulk.NewMatch(row, sides, item.document["hands"], figures))
    created = bulk.insert_matches(rows)
    db.session.commit()
    for item, match_id in [*zip(new, created, strict=True), *zip(kept, skipped, strict=True)]:
        if item.place in target.wanted:
            target.placed[item.place] = match_id
    signals.changed_many("imported", created)
    report.batches += 1
    report.add_ids(created, skipped)


def read_game(entry: object) -> tuple[rules.Match | None, list[rules.Problem]]:
    if isinstance(entry, Unreadable):
        return None, entry.problems
    game, problems = rules.read_match(entry)
    return game, [p for p in problems if p.severity == "error"]


def backfill_hashes() -> int:
    """Give a content hash to the stored matches that have none (stored before hashes
    existed); how many were updated."""
    updated = 0
    for match in services.queries.iter_matches(where=Match.content_hash.is_(None)):
        match.content_hash = services.documents.content_hash(
            services.documents.match_document(match)
        )
        updated += 1
        if updated % BATCH == 0:
            db.session.commit()
    db.session.commit()
    return updated
