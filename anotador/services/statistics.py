"""The statistics' reads: per-match summaries scored by the engine (offered by
:mod:`anotador.services.queries` with the other reads)."""

from __future__ import annotations

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
    """Per-match summaries (scored by the engine) of the matches ``scope`` sees where every
    one of ``player_ids`` sat (any of them with ``all_players=False``), oldest first.

    Three statements: the matches, their seats with players, their hands.
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
    matches = list(db.session.scalars(statement.order_by(Match.played_on, Match.id)))
    seats = db.session.execute(
        sa.select(Side.match_id, Side.position, Side.name, Seat.seat, Player.id, Player.name)
        .join(Seat, Seat.side_id == Side.id)
        .join(Player, Player.id == Seat.player_id)
        .where(Side.match_id.in_(selected))
        .order_by(Side.match_id, Side.position, Seat.seat)
    )
    sides: dict[int, dict[int, tuple[str, list[tuple[int, str]]]]] = defaultdict(dict)
    for match_id, position, side_name, _, player_id, player_name in seats:
        sides[match_id].setdefault(position, (side_name, []))[1].append((player_id, player_name))
    hands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    statement = (
        sa.select(Hand.match_id, Hand.inputs)
        .where(Hand.match_id.in_(selected))
        .order_by(Hand.match_id, Hand.number)
    )
    for match_id, inputs in db.session.execute(statement):
        hands[match_id].append(inputs)
    return [
        summary
        for match in matches
        if (summary := summarize(match, sides[match.id], hands[match.id])) is not None
    ]


def summarize(
    match: Match,
    sides: dict[int, tuple[str, list[tuple[int, str]]]],
    hands: list[dict[str, Any]],
) -> stats.MatchSummary | None:
    """One stored match scored by the engine (None if the engine refuses it)."""
    ordered = [sides.get(position, ("", [])) for position in range(len(match.totals))]
    named = [{"name": name, "players": [p for _, p in seated]} for name, seated in ordered]
    game, _ = rules.read_match(document_of(match, named, hands))
    if game is None:
        return None
    players = [tuple(player_id for player_id, _ in seated) for _, seated in ordered]
    return stats.summarize(match.id, match.played_on, game, rules.score_match(game), players)
