"""The statistics' reads: per-match summaries from the figures stored with each side
(offered by :mod:`anotador.services.queries` with the other reads)."""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador import stats
from anotador.extensions import db
from anotador.models import Hand
from anotador.models import Match
from anotador.models import Player
from anotador.models import Seat
from anotador.models import Side
from anotador.services.documents import document_of
from anotador.services.filters import Filters
from anotador.services.filters import filtered
from anotador.services.filters import matches_of
from anotador.services.scope import Scope


def summaries(
    scope: Scope,
    player_ids: Iterable[int],
    filters: Filters | None = None,
    *,
    all_players: bool = False,
) -> list[stats.MatchSummary]:
    """Per-match summaries of the matches ``scope`` sees where every one of ``player_ids``
    sat (any of them with ``all_players=False``), oldest first.

    Two statements: the matches, their sides with their stored figures (``Side.figures``)
    and seats with players. A match whose figures are missing or of another version (written
    outside the app) is scored by the engine: its hands are read in one more statement.
    """
    ids = list(player_ids)
    filters = filters or Filters()
    statement = filtered(scope, sa.select(Match), filters, None)
    if all_players:
        for player_id in ids:
            statement = statement.where(Match.id.in_(matches_of([player_id])))
    else:
        statement = statement.where(Match.id.in_(matches_of(ids)))
    selected = statement.with_only_columns(Match.id).scalar_subquery()
    # Plain rows of the few columns a summary needs: ORM objects would cost more than the
    # statistics themselves.
    listed = statement.with_only_columns(*SUMMARY_COLUMNS).order_by(Match.played_on, Match.id)
    matches = list(db.session.execute(listed))
    # A side comes once per seat: its figures are read as stored and decoded once.
    stored_figures = sa.type_coerce(Side.figures, sa.Text)
    seats = db.session.execute(
        sa.select(
            Side.match_id,
            Side.position,
            Side.name,
            stored_figures,
            Seat.seat,
            Player.id,
            Player.name,
        )
        .outerjoin(Seat, Seat.side_id == Side.id)
        .outerjoin(Player, Player.id == Seat.player_id)
        .where(Side.match_id.in_(selected))
        .order_by(Side.match_id, Side.position, Seat.seat)
    )
    sides: dict[int, dict[int, Seated]] = defaultdict(dict)
    for match_id, position, side_name, figures, _, player_id, player_name in seats:
        seated = sides[match_id].get(position)
        if seated is None:
            seated = sides[match_id][position] = Seated(side_name, decoded(figures), [], [])
        if player_id is not None:  # a side may have nobody seated (a blank sheet's)
            seated.players.append(player_id)
            seated.names.append(player_name)
    versions = {match.id: match.version for match in matches}
    stale = [
        match
        for match in matches
        if any(not fresh(seated.figures, versions[match.id]) for seated in sides[match.id].values())
        or len(sides[match.id]) != len(match.totals)
    ]
    rescored = rescore([match.id for match in stale], sides)
    stale_ids = {match.id for match in stale}
    found = []
    for match in matches:
        if match.id in stale_ids:
            summary = rescored.get(match.id)  # None: the engine refuses what is stored
        else:
            summary = stored_summary(match, sides[match.id])
        if summary is not None:
            found.append(summary)
    return found


@dataclasses.dataclass
class Seated:
    """A side as the statistics read it: its name, stored figures, player ids and names."""

    name: str
    figures: dict[str, Any] | None
    players: list[int]
    names: list[str]


def decoded(figures: str | dict[str, Any] | None) -> dict[str, Any] | None:
    """Stored figures as the JSON column gives them (a driver may decode JSON itself)."""
    return json.loads(figures) if isinstance(figures, str) else figures


def fresh(figures: dict[str, Any] | None, version: int) -> bool:
    return figures is not None and figures.get("version") == version


#: The columns of ``match`` a stored summary is made of.
SUMMARY_COLUMNS = (
    Match.id,
    Match.played_on,
    Match.variant,
    Match.status,
    Match.winner,
    Match.totals,
    Match.version,
)


def stored_summary(match: Any, sides: dict[int, Seated]) -> stats.MatchSummary:
    """A match's summary from its columns and its sides' stored figures."""
    summary_sides = []
    for position, total in enumerate(match.totals):
        seated = sides[position]
        assert seated.figures is not None
        figures = stats.SideFigures.from_document(seated.figures)
        summary_sides.append(stats.SideSummary(seated.name, tuple(seated.players), total, figures))
    finished = match.status == "finished"
    return stats.MatchSummary(
        match.id, match.played_on, match.variant, finished, match.winner, tuple(summary_sides)
    )


def rescore(
    match_ids: list[int], sides: dict[int, dict[int, Seated]]
) -> dict[int, stats.MatchSummary]:
    """Summaries of the matches ``match_ids`` scored by the engine from their hands (two
    statements), by id; a match the engine refuses has none."""
    if not match_ids:
        return {}
    matches = list(db.session.scalars(sa.select(Match).where(Match.id.in_(match_ids))))
    hands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    statement = (
        sa.select(Hand.match_id, Hand.inputs)
        .where(Hand.match_id.in_(match_ids))
        .order_by(Hand.match_id, Hand.number)
    )
    for match_id, inputs in db.session.execute(statement):
        hands[match_id].append(inputs)
    scored = {}
    for match in matches:
        summary = summarize(match, sides[match.id], hands[match.id])
        if summary is not None:
            scored[match.id] = summary
    return scored


def summarize(
    match: Match, sides: dict[int, Seated], hands: list[dict[str, Any]]
) -> stats.MatchSummary | None:
    """One stored match scored by the engine (None if the engine refuses it)."""
    ordered = [sides.get(position) for position in range(len(match.totals))]
    named = [
        {"name": seated.name if seated else "", "players": seated.names if seated else []}
        for seated in ordered
    ]
    game, _ = rules.read_match(document_of(match, named, hands))
    if game is None:
        return None
    players = [tuple(seated.players) if seated else () for seated in ordered]
    return stats.summarize(match.id, match.played_on, game, rules.score_match(game), players)
