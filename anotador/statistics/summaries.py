"""Statistics over plain per-match summaries: pure, no database, no Flask.

A :class:`MatchSummary` holds each side's :class:`SideFigures`, made by :func:`side_figures`
from the engine's scored match (:mod:`anotador.statistics.figures`: each side's hand score is
the sum of the engine's breakdown, the counts are the inputs the engine validated) and stored
with the side; everything here only adds and compares those figures. A "team" is a set of
player ids: one player, or a pair of partners (who must sit on the same side).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from anotador import rules

# The figures of one match, with the statistics that add them up (``stats.SideFigures``).
from anotador.statistics.figures import SideFigures as SideFigures
from anotador.statistics.figures import SideHand as SideHand
from anotador.statistics.figures import side_figures as side_figures

Team = frozenset[int]


@dataclass(frozen=True)
class SideSummary:
    name: str
    players: tuple[int, ...]
    total: int
    figures: SideFigures
    #: The players' names, as ``players`` (their names now, not when they played).
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class MatchSummary:
    match_id: int
    played_on: datetime.date
    variant: str
    finished: bool
    winner: int | None
    sides: tuple[SideSummary, ...]

    def side_of(self, team: Team) -> int | None:
        """The side where every player of ``team`` sat, if any."""
        for index, side in enumerate(self.sides):
            if team <= set(side.players):
                return index
        return None


def summarize(
    match_id: int,
    played_on: datetime.date,
    game: rules.Match,
    score: rules.MatchScore,
    players: Sequence[Sequence[int]],
    names: Sequence[Sequence[str]] = (),
) -> MatchSummary:
    """The summary of a match scored by the engine; ``players`` are the ids per side and
    ``names`` their names now (the names the match was played under, without)."""
    figures = side_figures(game, score)
    sides = tuple(
        SideSummary(
            info.name,
            tuple(players[index]),
            score.totals[index],
            figures[index],
            tuple(names[index]) if names else info.players,
        )
        for index, info in enumerate(game.sides)
    )
    return MatchSummary(
        match_id, played_on, game.rules.variant.name, score.finished, score.winner, sides
    )


@dataclass(frozen=True)
class BestHand:
    score: int
    match_id: int
    number: int  # 1-based


@dataclass(frozen=True)
class Record:
    """A team's figures over some matches."""

    matches: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    closed: int = 0
    clean: int = 0
    dirty: int = 0
    red_threes: int = 0
    best_hand: BestHand | None = None
    longest_streak: int = 0
    #: Canastas of each kind (by canasta field, in the variant's order) and special hands.
    kinds: dict[str, int] = field(default_factory=dict)
    special_hands: int = 0

    def kinds_per_hand(self) -> list[tuple[str, float | None]]:
        """Each kind of canasta the team's hands held, per hand."""
        return [(kind, self.per_hand(count)) for kind, count in self.kinds.items()]

    @property
    def win_rate(self) -> float | None:
        """Wins over finished matches (None before any finished match)."""
        return self.wins / self.finished if self.finished else None

    def per_hand(self, total: int) -> float | None:
        return total / self.hands if self.hands else None

    @property
    def points_per_hand(self) -> float | None:
        return self.per_hand(self.points)

    @property
    def closed_rate(self) -> float | None:
        return self.per_hand(self.closed)

    @property
    def clean_per_hand(self) -> float | None:
        return self.per_hand(self.clean)

    @property
    def dirty_per_hand(self) -> float | None:
        return self.per_hand(self.dirty)

    @property
    def red_threes_per_hand(self) -> float | None:
        return self.per_hand(self.red_threes)


def won(summary: MatchSummary, side: int) -> bool:
    return summary.finished and summary.winner == side


def record(summaries: Iterable[MatchSummary], team: Team) -> Record:
    """The figures of ``team`` over the matches (in date order) where it sat together."""
    matches = finished = wins = hands = points = closed = clean = dirty = red_threes = 0
    best: BestHand | None = None
    streak = longest = special = 0
    kinds: Counter[str] = Counter()
    for summary in summaries:
        index = summary.side_of(team)
        if index is None:
            continue
        figures = summary.sides[index].figures
        matches += 1
        if summary.finished:
            finished += 1
            streak = streak + 1 if won(summary, index) else 0
            longest = max(longest, streak)
            wins += won(summary, index)
        hands += figures.hands
        points += figures.points
        closed += figures.closed
        clean += figures.clean
        dirty += figures.dirty
        red_threes += figures.red_threes
        special += figures.special_hands
        for kind, count in figures.kinds:
            kinds[kind] += count
        top, number = figures.best_score, figures.best_number
        if top is not None and number is not None and (best is None or top > best.score):
            best = BestHand(top, summary.match_id, number)
    return Record(
        matches=matches,
        finished=finished,
        wins=wins,
        hands=hands,
        points=points,
        closed=closed,
        clean=clean,
        dirty=dirty,
        red_threes=red_threes,
        best_hand=best,
        longest_streak=longest,
        kinds=dict(kinds),
        special_hands=special,
    )


@dataclass(frozen=True)
class Partner:
    player_id: int
    matches: int
    wins: int
    name: str = ""


@dataclass(frozen=True)
class ResultPoint:
    """One finished match on a team's timeline: +1 won, −1 lost; ``balance`` is the running
    sum (wins minus losses so far)."""

    match_id: int
    played_on: datetime.date
    won: bool
    balance: int


@dataclass(frozen=True)
class TeamStats:
    overall: Record
    by_variant: dict[str, Record]
    partners: list[Partner] = field(default_factory=list)
    results: list[ResultPoint] = field(default_factory=list)


def team_stats(summaries: Sequence[MatchSummary], team: Team) -> TeamStats:
    """Everything the player (or pair) page shows."""
    variants = sorted({s.variant for s in summaries if s.side_of(team) is not None})
    by_variant = {
        variant: record((s for s in summaries if s.variant == variant), team)
        for variant in variants
    }
    return TeamStats(
        record(summaries, team), by_variant, partners(summaries, team), results(summaries, team)
    )


def partners(summaries: Iterable[MatchSummary], team: Team) -> list[Partner]:
    """Who sat on the team's side, most frequent first."""
    matches: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    names: dict[int, str] = {}
    for summary in summaries:
        index = summary.side_of(team)
        if index is None:
            continue
        side = summary.sides[index]
        seated = dict(zip(side.players, side.names or [""] * len(side.players), strict=True))
        for player in seated.keys() - team:
            matches[player] += 1
            wins[player] += won(summary, index)
            names[player] = seated[player]
    ranked = sorted(matches, key=lambda player: (-matches[player], player))
    return [Partner(player, matches[player], wins[player], names[player]) for player in ranked]


def results(summaries: Iterable[MatchSummary], team: Team) -> list[ResultPoint]:
    points = []
    balance = 0
    for summary in summaries:
        index = summary.side_of(team)
        if index is None or not summary.finished:
            continue
        victory = won(summary, index)
        balance += 1 if victory else -1
        points.append(ResultPoint(summary.match_id, summary.played_on, victory, balance))
    return points


@dataclass(frozen=True)
class HeadToHead:
    """Two teams that met on opposite sides."""

    matches: list[MatchSummary]
    finished: int
    first_wins: int
    second_wins: int
    first: Record
    second: Record

    @property
    def other_wins(self) -> int:
        """Finished matches neither won (a third side won, or a shared win)."""
        return self.finished - self.first_wins - self.second_wins


def head_to_head(summaries: Sequence[MatchSummary], first: Team, second: Team) -> HeadToHead:
    met = [
        s
        for s in summaries
        if (a := s.side_of(first)) is not None and (b := s.side_of(second)) is not None and a != b
    ]
    first_wins = sum(won(s, s.side_of(first)) for s in met)  # type: ignore[arg-type]
    second_wins = sum(won(s, s.side_of(second)) for s in met)  # type: ignore[arg-type]
    finished = sum(s.finished for s in met)
    return HeadToHead(
        met, finished, first_wins, second_wins, record(met, first), record(met, second)
    )
