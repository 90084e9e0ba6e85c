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
skipped. A backup with tournaments is stored whole or not at all, in one transaction: its
tournament lines are checked before any match is stored, but what they say of their tables'
matches (each restored, playing the round's hands) is known only once those are, and a
tournament refused then must not leave its matches behind.

A database error is the database's (it went away: the report says where the import stopped,
and running it again finishes it) unless the database refused a value of the file
(``DataError``: a text it cannot hold, a number out of its range), which would stop it at the
same line every time: the report then names that line as refused.
"""

from __future__ import annotations

import datetime
import itertools
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import IO
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador import services
from anotador.backup import bulk
from anotador.backup import memberships
from anotador.backup.export import BATCH
from anotador.backup.reading import Entry
from anotador.backup.reading import Unreadable
from anotador.backup.reading import could_be_a_match
from anotador.backup.reading import parse
from anotador.backup.reading import read_documents
from anotador.backup.report import ImportReport
from anotador.backup.report import RestoreProblem
from anotador.storage import signals
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import name_key
from anotador.tournaments.operations import backup as tournaments

#: Invalid lines whose problems a report keeps (it counts all of them).
KEEP_INVALID = 50
log = logging.getLogger(__name__)

#: What the database refused of a line (a batch of matches from it, or a tournament line).
DATABASE_REFUSED: list[rules.Problem] = [RestoreProblem("$", "database_refused")]


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
    numbers = memberships.Section()
    if not single:
        entries = read_tournaments(entries, section, report, keep, numbers)
        if report.tournaments_refused:
            return report  # checked before any match: nothing is stored
    # Only the matches stored before this import count as "already present": the same
    # match twice in one backup is restored twice.
    before = services.queries.last_match_id()
    db.session.commit()  # no transaction stays open while the input is read
    wanted = frozenset(section.wanted)
    target = Target(owner_id, before, Counter(), wanted, section.placed, whole=report.whole)
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
    if store_batch(pending, target, report, batch_start) and target.whole:
        store_tournaments(section, target, report, numbers)
    return report


def non_blank(entries: Iterator[Entry]) -> Iterator[Entry]:
    """The entries but blank lines: each is a match line, numbered by its place."""
    return (e for e in entries if not isinstance(e[1], bytes) or e[1].strip())


def read_tournaments(
    entries: Iterator[Entry],
    section: tournaments.Section,
    report: ImportReport,
    keep: int,
    numbers: memberships.Section,
) -> Iterator[Entry]:
    """Read the players line and the tournament lines that open a backup into ``numbers``
    and ``section`` (each checked now); the entries from the first match line on. An
    invalid one marks the report refused."""
    for number, entry in non_blank(entries):
        value = parse(entry) if isinstance(entry, bytes) else entry
        players = memberships.is_section_line(value)
        if not players and not tournaments.is_section_line(value):
            return itertools.chain([(number, value)], entries)
        assert isinstance(value, dict)
        report.whole = True
        problems = numbers.read(value) if players else section.read(number, value)
        if problems:
            report.tournaments_refused = True
            report.add_invalid(number, problems, keep)
    return iter(())


def store_tournaments(
    section: tournaments.Section,
    target: Target,
    report: ImportReport,
    numbers: memberships.Section,
) -> None:
    """Store the tournaments and the players' membership numbers once every match is
    (flushed, not committed: see :attr:`Target.whole`), and commit them all; a table whose
    match line was not restored, or a line the database refuses, refuses them all, and the
    matches are rolled back with them."""
    try:
        created, skipped, problems = section.store(target.owner_id)
        numbers.store(target.owner_id)
        if not problems:
            db.session.commit()
    except tournaments.LineRefused as refused:
        db.session.rollback()
        report.rolled_back()
        log.warning("import: the database refused tournament line %d", refused.number)
        report.refused_at = refused.number
        report.add_invalid(refused.number, DATABASE_REFUSED, KEEP_INVALID)
        return
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        report.rolled_back()
        log.exception("import: nothing stored; %s", report.summary())
        report.stopped_at = report.lines
        return
    if problems:
        db.session.rollback()
        report.rolled_back()
        report.tournaments_refused = True
        for number, found in problems:
            report.add_invalid(number, found, KEEP_INVALID)
        return
    report.batches = 1
    report.tournaments, report.tournaments_skipped = created, skipped
    for start in range(0, len(target.created), BATCH):
        signals.changed_many("imported", target.created[start : start + BATCH])


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
    #: The input holds tournaments: its matches are flushed batch by batch and committed
    #: with the tournaments, or rolled back with them (:func:`store_tournaments`) ...
    whole: bool = False
    #: ... and the ids of those created are told once they are committed.
    created: list[int] = field(default_factory=list)


def store_batch(pending: list[Incoming], target: Target, report: ImportReport, start: int) -> bool:
    """Store a batch (see :func:`store`); False, with the report saying where the import
    stopped, if the database failed."""
    if not pending:
        return True
    try:
        store(pending, target, report)
    except sa.exc.SQLAlchemyError as error:
        db.session.rollback()
        if target.whole:
            report.rolled_back()
        if isinstance(error, sa.exc.DataError):  # the file's: it would fail here every time
            log.warning("import: the database refused a match from line %d: %s", start, error)
            report.refused_at = start
            report.add_invalid(start, DATABASE_REFUSED, KEEP_INVALID)
            return False
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
    for item, match_id in [*zip(new, created, strict=True), *zip(kept, skipped, strict=True)]:
        if item.place in target.wanted:
            target.placed[item.place] = match_id
    if target.whole:
        db.session.flush()
        target.created.extend(created)
    else:
        db.session.commit()
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
