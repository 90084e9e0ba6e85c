"""Data integrity: every stored match read again by the rules engine (``anotador check``).

A match is *broken* when the engine refuses what is stored (a hand or a name written
outside the app, by hand in SQL or by a bad tool): it cannot be scored, so only a person can
mend it (export it as stored, correct the file, import it again). A match is *stale* when
it reads fine but a summary column (``Match.totals``, ``winner``, ``status``, ``hand_count``,
``content_hash``) disagrees with a fresh score; :func:`check` with ``fix=True`` rewrites
them as :func:`anotador.services.documents.refresh_summary` would and bumps ``Match.version``, so
no cache (keyed on :func:`anotador.storage.caching.match_key`) keeps an older reading.

Matches are screened a batch at a time from plain rows (``services.queries.stored_batches``,
three statements, and one for the content hashes it does not read). The few a batch finds
wrong are read again through the ORM in four statements (locked first when fixing) before
they are reported or rewritten, so a hand the app saved in the meantime is not taken for
damage, and a fix never overwrites a newer change (the update is also guarded by the
version it read). Memory stays one batch however many matches there are.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any
from typing import cast

import sqlalchemy as sa

from anotador import rules
from anotador import services
from anotador.services.scope import EVERYTHING
from anotador.storage import signals
from anotador.storage.database import db
from anotador.storage.models import Match

BATCH = services.queries.BATCH
#: The derived columns of ``Match`` compared with a fresh score, in report order.
SUMMARY = ("totals", "winner", "status", "hand_count", "content_hash")


@dataclasses.dataclass(frozen=True)
class Finding:
    """What is wrong with one stored match: the engine's errors (``problems``: it cannot be
    scored) or the summary columns that disagree with its hands (``stale``: column, stored
    value, fresh value). A broken match can only have a stale ``content_hash``."""

    match_id: int
    version: int
    problems: tuple[rules.Problem, ...] = ()
    stale: tuple[tuple[str, Any, Any], ...] = ()
    #: The summary columns to write to put it right (only what is stale changes).
    fresh: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def broken(self) -> bool:
        return bool(self.problems)

    def lines(self) -> Iterator[str]:
        """``match <id>: <path>: <message>`` (the engine's English) per problem, then one line
        per stale column."""
        for problem in self.problems:
            yield f"match {self.match_id}: {problem.path or '$'}: {problem.message}"
        for column, stored, fresh in self.stale:
            yield (
                f"match {self.match_id}: {column}: stored {shown(stored)}, "
                f"recomputed {shown(fresh)}"
            )


def shown(value: Any) -> str:
    if isinstance(value, str) and len(value) == 64:  # a content hash
        return value[:12] + "…"
    return json.dumps(value, ensure_ascii=False)


@dataclasses.dataclass
class Report:
    """What :func:`check` found (and fixed)."""

    checked: int = 0
    broken: int = 0
    stale: int = 0
    #: Stale summaries of matches that read fine, rewritten by ``fix``.
    fixed: int = 0
    #: Broken matches whose content hash was refreshed by ``fix`` (their pages then show them
    #: as stored, not an older reading kept in a cache).
    refreshed: int = 0
    #: Matches ``fix`` left alone because they changed while being checked.
    skipped: int = 0

    @property
    def clean(self) -> bool:
        return not self.broken and not self.stale

    @property
    def left(self) -> int:
        """How many matches are still wrong after this run (the broken ones, the stale ones
        not fixed)."""
        return self.broken + self.stale - self.fixed


def summary(document: dict[str, Any], score: rules.MatchScore) -> dict[str, Any]:
    """The summary columns of a stored match file and its score, as
    :func:`anotador.services.documents.refresh_summary` writes them."""
    status = services.documents.status_of(score, document["abandoned"])
    return {
        "totals": list(score.totals),
        "winner": score.winner,
        "status": status,
        "hand_count": len(score.hands),
        "content_hash": services.documents.content_hash(document),
    }


def examine(
    match_id: int,
    version: int,
    document: dict[str, Any],
    stored: dict[str, Any],
) -> Finding | None:
    """The :class:`Finding` of one stored match (its file as stored and its stored summary
    columns), or None when it reads, scores and agrees."""
    game, problems = rules.read_match(document)
    if game is None:
        errors = tuple(p for p in problems if p.severity == "error") or tuple(problems)
        fresh = {**stored, "content_hash": services.documents.content_hash(document)}
        stale = compare(stored, fresh, ("content_hash",))
        return Finding(match_id, version, errors, stale, fresh)
    fresh = summary(document, rules.score_match(game))
    stale = compare(stored, fresh, SUMMARY)
    return Finding(match_id, version, (), stale, fresh) if stale else None


def compare(
    stored: dict[str, Any], fresh: dict[str, Any], columns: tuple[str, ...]
) -> tuple[tuple[str, Any, Any], ...]:
    return tuple(
        (column, stored[column], fresh[column])
        for column in columns
        if stored[column] != fresh[column]
    )


def check(
    fix: bool = False, batch: int = BATCH, found: Callable[[Finding], None] | None = None
) -> Report:
    """Read every stored match by id, a batch at a time; call ``found`` with each match that
    is broken or stale (as it is read, so the report streams). With ``fix``, each batch's
    stale summaries are rewritten and committed before the next batch is read."""
    report = Report()
    for stored_batch in services.queries.stored_batches(EVERYTHING, batch):
        first, last = stored_batch[0].row.id, stored_batch[-1].row.id
        extra = services.queries.versions_between(first, last)
        report.checked += len(stored_batch)
        suspects = []
        for stored in stored_batch:
            row = stored.row
            match = extra.get(row.id)
            if match is None:  # deleted since the first statement of the batch
                continue
            summary_columns = {
                "totals": row.totals,
                "winner": row.winner,
                "status": row.status,
                "hand_count": row.hand_count,
                "content_hash": match.content_hash,
            }
            document = stored.document()
            found_here = examine(row.id, match.version, document, summary_columns)
            if found_here is not None:
                suspects.append(row.id)
        repaired: list[int] = []
        if suspects:
            findings = confirm(suspects, lock=fix)
            for finding in findings:
                report.broken += finding.broken
                report.stale += not finding.broken
                if found is not None:
                    found(finding)
            if fix:
                repaired = rewrite(findings, report)
        db.session.commit()  # end the batch's transaction (and its row locks)
        signals.changed_many("repaired", repaired)
        db.session.expunge_all()
    return report


def confirm(match_ids: list[int], lock: bool = False) -> list[Finding]:
    """The findings of these matches read again: the match rows, then their sides with
    seats and players, and their hands (four statements). With ``lock``, a statement first
    locks the rows until the batch commits, so nobody changes them between this read and
    the rewrite."""
    if lock:
        db.session.execute(LOCK, {"match_ids": match_ids})
    findings = []
    for match in services.queries.reload_matches(match_ids):
        stored = {column: getattr(match, column) for column in SUMMARY}
        document = services.documents.match_document(match)
        finding = examine(match.id, match.version, document, stored)
        if finding is not None:
            findings.append(finding)
    return findings


#: An UPDATE that changes nothing: on PostgreSQL it locks the rows (as SELECT ... FOR UPDATE
#: would), on SQLite it takes the database's write lock, which SELECT ... FOR UPDATE does not.
#: ``updated_at`` is set to itself, or its ``onupdate`` would change it.
LOCK = (
    sa.update(Match.__table__)
    .where(Match.__table__.c.id.in_(sa.bindparam("match_ids", expanding=True)))
    .values(version=Match.__table__.c.version, updated_at=Match.__table__.c.updated_at)
)

#: One statement for every rewrite of a batch (executemany): the summary columns and a new
#: version, only if the match is still at the version it was checked at; ``updated_at``
#: stays (a repair is not a change to the match).
REWRITE = (
    sa.update(Match.__table__)
    .where(
        Match.__table__.c.id == sa.bindparam("match_id"),
        Match.__table__.c.version == sa.bindparam("checked_version"),
    )
    .values(
        {
            **{
                column: sa.bindparam(f"new_{column}", type_=Match.__table__.c[column].type)
                for column in SUMMARY
            },
            "version": Match.__table__.c.version + 1,
            "updated_at": Match.__table__.c.updated_at,
        }
    )
)


def rewrite(findings: list[Finding], report: Report) -> list[int]:
    """Write the fresh summaries of a batch's findings that have any (a broken match: only
    its content hash) in one statement; counted in ``report``. The ids of those matches."""
    wanted = [finding for finding in findings if finding.stale]
    if not wanted:
        return []
    parameters = [
        {
            "match_id": finding.match_id,
            "checked_version": finding.version,
            **{f"new_{column}": finding.fresh[column] for column in SUMMARY},
        }
        for finding in wanted
    ]
    updated = cast(sa.CursorResult[Any], db.session.execute(REWRITE, parameters)).rowcount
    readable = sum(not finding.broken for finding in wanted)
    if updated == len(wanted):
        report.fixed += readable
        report.refreshed += len(wanted) - readable
    else:  # cannot happen under LOCK; counted rather than assumed
        report.skipped += len(wanted) - updated
    return [finding.match_id for finding in wanted]
