"""The statistics' reads: per-match summaries from the figures stored with each side
(offered by :mod:`anotador.services.queries` with the other reads)."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections import defaultdict
from collections.abc import Hashable
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador.services.documents import document_of
from anotador.services.filters import PLAYED
from anotador.services.filters import Filters
from anotador.services.filters import filtered
from anotador.services.filters import matches_of
from anotador.services.filters import played_by
from anotador.services.scope import ACCOUNT
from anotador.services.scope import ACCOUNT_MATCHES
from anotador.services.scope import Scope
from anotador.statistics import summaries as stats
from anotador.storage.caching import caches
from anotador.storage.caching import state_keys
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import MatchesVersion
from anotador.storage.models import Membership
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side


def summaries(
    scope: Scope,
    player_ids: Iterable[int],
    filters: Filters | None = None,
    *,
    all_players: bool = False,
) -> list[stats.MatchSummary]:
    """Per-match summaries of the matches ``scope`` sees where every one of ``player_ids``
    sat (any of them with ``all_players=False``) and a hand was played, oldest first."""
    return kept_summaries(scope, player_ids, filters, all_players=all_players).found


class Summaries:
    """The summaries of listed matches (rows of :data:`KEY_COLUMNS`), oldest first, read
    when first asked for (``found``), with the key of what they are made from."""

    def __init__(self, states: Sequence[Any] = ()) -> None:
        ids = [state[0] for state in states]
        self.keys = dict(zip(ids, state_keys(states), strict=True))

    @property
    def key(self) -> tuple[Hashable, ...] | None:
        """The :func:`anotador.storage.caching.match_key` of every match, in order: of the states
        listed, and once ``found`` was read, of the states the summaries were made from (a
        match may change between the two reads). None when a match has no content hash, so
        that what is derived from them cannot be kept."""
        every = tuple(self.keys.values())
        return None if None in every else every

    @functools.cached_property
    def found(self) -> list[stats.MatchSummary]:
        """The summaries: kept ones from ``caches().summaries``, the others read (their
        sides' stored figures and seats, one statement per :data:`READ_AT_ONCE` matches)."""
        kept = caches().summaries
        keys = self.keys
        found = {match_id: kept.get(key) for match_id, key in keys.items() if key is not None}
        missing = [match_id for match_id in keys if found.get(match_id) is None]
        for start in range(0, len(missing), READ_AT_ONCE):
            for state, summary in read_summaries(missing[start : start + READ_AT_ONCE]):
                keys[state.id] = key = state_keys([state])[0]
                found[state.id] = summary
                if key is not None and summary is not None:
                    kept.put(key, summary)
        return [summary for match_id in keys if (summary := found.get(match_id)) is not None]


def kept_summaries(
    scope: Scope,
    player_ids: Iterable[int],
    filters: Filters | None = None,
    *,
    all_players: bool = False,
) -> Summaries:
    """:func:`summaries`, and their key.

    One statement lists the matches. A match's summary depends on that state of the match
    alone (its key, which a new hand, an edit, a renamed or merged player changes), so it is
    kept (``caches().summaries``) and only the others are read, when the summaries are first
    asked for (``Summaries.found``): nothing at all when what is derived from them is kept
    under their key. A match whose figures are missing or of another version (written
    outside the app) is scored by the engine from its hands.
    """
    ids = list(player_ids)
    filters = filters or Filters()
    connection = db.session.connection()
    if scope.of_account and not filters.active and len(ids) == 1:
        parameters = {**scope.parameters(), "statistics_player": ids[0]}
        return Summaries(connection.execute(ACCOUNT_PLAYER, parameters).all())
    statement = filtered(scope, sa.select(Match), filters, None).where(PLAYED)
    if all_players:
        for player_id in ids:
            statement = statement.where(Match.id.in_(matches_of([player_id])))
    else:
        statement = statement.where(Match.id.in_(matches_of(ids)))
    listed = statement.with_only_columns(*KEY_COLUMNS).order_by(Match.played_on, Match.id)
    return Summaries(connection.execute(listed).all())


def matches_version(scope: Scope) -> tuple[Hashable, ...] | None:
    """The key of all the matches and players ``scope`` sees (which ones, and each one's
    state): the database, the account and the :class:`MatchesVersion` of the account and of
    each of its groups, which the database bumps with every write to one of them. One small
    statement, where listing the matches reads every one. None for a scope that is not an
    account's (an administrator's command line sees every match: no counter covers them)."""
    if not scope.of_account:
        return None
    counted = db.session.connection().execute(SEEN_VERSIONS, scope.parameters()).all()
    return (db.engine.url.render_as_string(), scope.user_id, *sorted(map(tuple, counted)))


#: The counters of an account (``scope.ACCOUNT``) and of its groups. An account or group
#: without a row has had no write since counters began (a first write adds the row).
SEEN_VERSIONS = sa.select(
    MatchesVersion.holder, MatchesVersion.holder_id, MatchesVersion.version
).where(
    sa.or_(
        sa.and_(MatchesVersion.holder == "a", MatchesVersion.holder_id == ACCOUNT),
        sa.and_(
            MatchesVersion.holder == "g",
            MatchesVersion.holder_id.in_(
                sa.select(Membership.group_id).where(Membership.user_id == ACCOUNT)
            ),
        ),
    )
)
#: The columns that list the matches: what their keys are made of.
KEY_COLUMNS = (Match.id, Match.version, Match.content_hash)
#: The matches of one player (``statistics_player``) that an account sees
#: (``scope.ACCOUNT``), unfiltered: the statistics page asked for most, built once.
ACCOUNT_PLAYER = (
    sa.select(*KEY_COLUMNS)
    .where(
        ACCOUNT_MATCHES,
        PLAYED,
        Match.id.in_(played_by(sa.bindparam("statistics_player", type_=sa.Integer))),
    )
    .order_by(Match.played_on, Match.id)
)
#: The columns of ``match`` a summary is made of, as plain rows: ORM objects would cost
#: more than the statistics themselves.
SUMMARY_COLUMNS = (
    *KEY_COLUMNS,
    Match.played_on,
    Match.variant,
    Match.status,
    Match.winner,
    Match.totals,
    Match.hand_limit,
    Match.play_every_hand,
)
#: The most matches whose sides one statement reads (their ids are its parameters).
READ_AT_ONCE = 500


def read_summaries(match_ids: list[int]) -> list[tuple[Any, stats.MatchSummary | None]]:
    """The matches of ``match_ids`` (rows of :data:`SUMMARY_COLUMNS`) with their summaries,
    made from their sides' stored figures, or by the engine where those are stale (None
    when the engine refuses the match). Two statements (three with stale figures)."""
    matches = list(db.session.execute(sa.select(*SUMMARY_COLUMNS).where(Match.id.in_(match_ids))))
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
        .where(Side.match_id.in_(match_ids))
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
    stale = {
        match.id
        for match in matches
        if any(not fresh(seated.figures, match.version) for seated in sides[match.id].values())
        or len(sides[match.id]) != len(match.totals)
    }
    rescored = rescore(sorted(stale), sides)
    return [
        (
            match,
            rescored.get(match.id) if match.id in stale else stored_summary(match, sides[match.id]),
        )
        for match in matches
    ]


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


def stored_summary(match: Any, sides: dict[int, Seated]) -> stats.MatchSummary:
    """A match's summary from its columns and its sides' stored figures."""
    summary_sides = []
    for position, total in enumerate(match.totals):
        seated = sides[position]
        assert seated.figures is not None
        figures = stats.SideFigures.from_document(seated.figures)
        summary_sides.append(
            stats.SideSummary(
                seated.name, tuple(seated.players), total, figures, tuple(seated.names)
            )
        )
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
    names = [tuple(seated.names) if seated else () for seated in ordered]
    score = rules.score_match(game)
    return stats.summarize(match.id, match.played_on, game, score, players, names)
