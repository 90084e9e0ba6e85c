"""A stored match as a match file, its content hash and its summary columns.

The one builder of a stored match's file, for the ORM path (:func:`match_document`), the
plain rows of the whole-database batches and the statistics (:func:`document_of`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador.statistics.figures import SideFigures
from anotador.statistics.figures import side_figures
from anotador.statistics.figures import with_last_hand
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Side
from anotador.storage.models import name_key


def match_document(match: Match, hands: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The match file of a stored match, optionally with other hands in place of its own."""
    sides = [
        {"name": side.name, "players": [seat.player.name for seat in side.seats]}
        for side in match.sides
    ]
    played = [hand.inputs for hand in match.hands] if hands is None else list(hands)
    return document_of(match, sides, played)


def document_of(
    row: Any, sides: list[dict[str, Any]], hands: list[dict[str, Any]]
) -> dict[str, Any]:
    """The match file of a match's stored columns (an ORM ``Match`` or a plain row with the
    same names), its sides (``{"name", "players"}``) and its hands' inputs."""
    document: dict[str, Any] = {
        "format": rules.MATCH_FORMAT,
        "variant": row.variant,
        "layout": row.layout,
        "options": row.settings,
        "sides": sides,
        "start_scores": row.start_scores,
        "hands": hands,
        "played_on": row.played_on.isoformat(),
        "abandoned": row.abandoned,
    }
    if row.title:
        document["title"] = row.title
    if row.notes:
        document["notes"] = row.notes
    # A tournament's table: the engine ends it after them. (The rows of a migration older
    # than the column have none.)
    hand_limit = getattr(row, "hand_limit", None)
    if hand_limit is not None:
        document["hand_limit"] = hand_limit
    if getattr(row, "play_every_hand", False):
        document["play_every_hand"] = True
    return document


def content_hash(document: dict[str, Any]) -> str:
    """A fingerprint of a match file: equal for the same match whatever the accents or
    case of its names (a stored match is found again when its file is imported twice)."""
    sides = [
        {"name": name_key(side["name"]), "players": [name_key(p) for p in side["players"]]}
        for side in document["sides"]
    ]
    canonical = {**document, "sides": sides}
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclasses.dataclass(frozen=True)
class Summary:
    """A match's derived columns and its sides' figures, as :func:`refresh_summary` writes
    them: worked out before a change claims the match's version, so that the write that
    follows (which holds SQLite's one write lock) only stores them."""

    totals: list[int]
    winner: int | None
    hand_count: int
    status: str
    content_hash: str
    figures: list[dict[str, Any]]

    def columns(self) -> dict[str, Any]:
        """The match row's derived columns."""
        return {
            "totals": self.totals,
            "winner": self.winner,
            "hand_count": self.hand_count,
            "status": self.status,
            "content_hash": self.content_hash,
        }

    def write(self, match: Match) -> None:
        """Set the columns and the figures on the ORM objects (written at the next flush)."""
        for name, value in self.columns().items():
            setattr(match, name, value)
        for side, figures in zip(match.sides, self.figures, strict=True):
            side.figures = figures

    def write_figures(self, match: Match) -> None:
        """Write the sides' figures now, past the ORM: one statement for every side (the
        columns go with the version claim, ``claim_version(match, version, **columns())``)."""
        sides = Side.__table__
        update = sides.update().where(sides.c.id == sa.bindparam("side_id"))
        rows = [
            {"side_id": side.id, "figures": figures}
            for side, figures in zip(match.sides, self.figures, strict=True)
        ]
        db.session.connection().execute(update, rows)
        for side, figures in zip(match.sides, self.figures, strict=True):
            sa.orm.attributes.set_committed_value(side, "figures", figures)


def summary(
    match: Match,
    game: rules.Match,
    score: rules.MatchScore,
    hands: Sequence[dict[str, Any]] | None,
    version: int,
) -> Summary:
    """The :class:`Summary` of ``match`` read and scored as ``game`` and ``score``, at
    ``version``; ``hands``: the stored inputs of its hands when known (else they are read).
    When ``game`` is the stored match with one more hand, its sides' stored figures (of the
    version before) only take that hand."""
    earlier = figures_before_last_hand(match, game, version - 1)
    status = status_of(score, match.abandoned)
    return Summary(
        totals=list(score.totals),
        winner=score.winner,
        hand_count=len(score.hands),
        status=status,
        content_hash=content_hash(match_document(match, hands)),
        figures=stored_figures(game, score, version, earlier),
    )


def status_of(score: rules.MatchScore, abandoned: bool) -> str:
    """``Match.status``: finished when the game is over (a side reached the target, or a
    match played to a number of hands, a tournament's round, has them all: its file's
    ``hand_limit``), else abandoned or ongoing."""
    return "finished" if score.finished else "abandoned" if abandoned else "ongoing"


def refresh_summary(
    match: Match,
    game: rules.Match,
    score: rules.MatchScore,
    hands: Sequence[dict[str, Any]] | None = None,
) -> None:
    """Rewrite the derived columns, the sides' figures included, from a fresh reading and
    score (same transaction as the change, after the version claim); ``hands``: the stored
    inputs of the match's hands when known (else its hands are read)."""
    summary(match, game, score, hands, match.version).write(match)


def stored_figures(
    game: rules.Match,
    score: rules.MatchScore,
    version: int,
    earlier: Sequence[SideFigures] | None = None,
) -> list[dict[str, Any]]:
    """Each side's :class:`~anotador.statistics.figures.SideFigures` as ``Side.figures`` stores
    them: with the ``Match.version`` they belong to (statistics score a match whose figures are of
    another version, so they are never stale). ``earlier``: the sides' figures over every
    hand but the last (:func:`figures_before_last_hand`), when known."""
    made = side_figures(game, score) if earlier is None else with_last_hand(earlier, game, score)
    return [{**side.to_document(), "version": version} for side in made]


def figures_before_last_hand(
    match: Match, game: rules.Match, version: int
) -> list[SideFigures] | None:
    """The sides' stored figures, if they are those of ``match`` at ``version`` and of every
    hand of ``game`` but its last (only a new hand adds one: an edit keeps the count, a
    deletion lowers it); else None (they are added up again)."""
    earlier = []
    for side in match.sides:
        stored = side.figures
        if not stored or stored.get("version") != version:
            return None
        if stored.get("hands") != len(game.hands) - 1:
            return None
        earlier.append(SideFigures.from_document(stored))
    return earlier
