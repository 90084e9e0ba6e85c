"""A stored match as a match file, its content hash and its summary columns.

The one builder of a stored match's file, for the ORM path (:func:`match_document`), the
plain rows of the whole-database batches and the statistics (:func:`document_of`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from anotador import rules
from anotador import stats
from anotador.models import Match
from anotador.models import name_key


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


def refresh_summary(
    match: Match,
    game: rules.Match,
    score: rules.MatchScore,
    hands: Sequence[dict[str, Any]] | None = None,
) -> None:
    """Rewrite the derived columns, the sides' figures included, from a fresh reading and
    score (same transaction as the change, after the version claim); ``hands``: the stored
    inputs of the match's hands when known (else its hands are read)."""
    match.totals = list(score.totals)
    match.winner = score.winner
    match.hand_count = len(score.hands)
    if score.finished:
        match.status = "finished"
    else:
        match.status = "abandoned" if match.abandoned else "ongoing"
    match.content_hash = content_hash(match_document(match, hands))
    for side, figures in zip(match.sides, stored_figures(game, score, match.version), strict=True):
        side.figures = figures


def stored_figures(
    game: rules.Match, score: rules.MatchScore, version: int
) -> list[dict[str, Any]]:
    """Each side's :class:`anotador.stats.SideFigures` as ``Side.figures`` stores them: with
    the ``Match.version`` they belong to (statistics score a match whose figures are of
    another version, so they are never stale)."""
    return [
        {**figures.to_document(), "version": version} for figures in stats.side_figures(game, score)
    ]
