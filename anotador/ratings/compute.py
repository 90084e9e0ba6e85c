"""Player ratings from rating events, by openskill's PlackettLuce with its defaults
(``docs/ratings.md``): pure Python, no Flask or database.

An event is one finished match: its sides in seating order (each the keys of its players),
their final totals and the engine's winner. Everything here is a function of the events in
the order given, so the app, the command line and the tests replay the same computation.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
from collections.abc import Hashable
from collections.abc import Iterable
from collections.abc import Sequence

from openskill.models import PlackettLuce
from openskill.models import PlackettLuceRating

#: The one model: openskill's defaults, nothing tuned.
MODEL = PlackettLuce()
#: A player's rating before any event (mu 25, sigma 25/3).
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
#: Fewer counted matches than this: the rating is provisional.
SETTLED = 5


@dataclasses.dataclass(frozen=True)
class Event:
    """One finished match: ``sides`` in seating order, each the keys of its players."""

    match_id: int
    played_on: datetime.date | None
    sides: tuple[tuple[Hashable, ...], ...]
    totals: tuple[int, ...]
    winner: int | None = None


@dataclasses.dataclass(frozen=True)
class Standing:
    """A player's rating: openskill's mu and sigma and how many events it has taken."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    matches: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.matches < SETTLED


@dataclasses.dataclass(frozen=True)
class Step:
    """What one event did to one player: the standing before and after, and the place of
    the player's side (1-based; ``shared`` with another side) among ``sides`` that took part."""

    match_id: int
    played_on: datetime.date | None
    player: Hashable
    before: Standing
    after: Standing
    place: int
    shared: bool
    sides: int

    @property
    def change(self) -> int:
        return self.after.shown - self.before.shown


def shown(mu: float, sigma: float) -> int:
    """The whole number the app shows: 100 × (mu − 3σ), rounded half away from zero."""
    value = 100 * (mu - 3 * sigma)
    whole = math.floor(abs(value) + 0.5)
    return int(math.copysign(whole, value)) if whole else 0


def order_key(event: Event) -> tuple[bool, datetime.date, int]:
    """Events go by date (undated ones last), then in the order the matches were stored."""
    return (event.played_on is None, event.played_on or datetime.date.min, event.match_id)


def ranks(totals: Sequence[int], winner: int | None) -> list[int]:
    """openskill's ranks (lower is better) from the final totals: equal totals share a rank;
    a named winner ranks first on its own, whatever its total (a dream hand)."""
    ranked = []
    for index, total in enumerate(totals):
        if index == winner:
            ranked.append(0)
            continue
        above = [j for j, other in enumerate(totals) if other > total and j not in (index, winner)]
        ranked.append((1 if winner is not None else 0) + len(above))
    return ranked


def taking_part(event: Event) -> tuple[list[tuple[Hashable, ...]], list[int]] | None:
    """The teams and ranks of the sides that take part (those with players), or None when
    the match is no event: fewer than two such sides, or one player in two seats."""
    seated = [player for side in event.sides for player in side]
    if len(seated) != len(set(seated)):
        return None
    present = [index for index, side in enumerate(event.sides) if side]
    if len(present) < 2:
        return None
    ranked = ranks(event.totals, event.winner)
    return [event.sides[i] for i in present], [ranked[i] for i in present]


def rate(event: Event, standings: dict[Hashable, Standing]) -> list[Step]:
    """Apply one event to ``standings`` (changed in place); its steps, one per player."""
    found = taking_part(event)
    if found is None:
        return []
    teams, ranked = found
    before = [[standings.get(player, Standing()) for player in team] for team in teams]
    rated = MODEL.rate(
        [[as_rating(s) for s in team] for team in before], ranks=[float(r) for r in ranked]
    )
    steps = []
    for team, olds, news, rank in zip(teams, before, rated, ranked, strict=True):
        place = 1 + sum(1 for other in ranked if other < rank)
        shared = ranked.count(rank) > 1
        for player, old, new in zip(team, olds, news, strict=True):
            after = Standing(new.mu, new.sigma, old.matches + 1)
            standings[player] = after
            steps.append(
                Step(event.match_id, event.played_on, player, old, after, place, shared, len(teams))
            )
    return steps


def replay(
    events: Iterable[Event], standings: dict[Hashable, Standing] | None = None
) -> tuple[dict[Hashable, Standing], list[Step]]:
    """Every event in the order given from ``standings`` (default: nobody rated yet): the
    standings after them and every step, in order."""
    current = dict(standings or {})
    steps: list[Step] = []
    for event in events:
        steps.extend(rate(event, current))
    return current, steps


def from_scratch(events: Iterable[Event]) -> tuple[dict[Hashable, Standing], list[Step]]:
    """:func:`replay` of ``events`` put in their order (by date, then match id)."""
    return replay(sorted(events, key=order_key))


def chances(sides: Sequence[Sequence[Standing]]) -> list[float]:
    """Each side's chance to win against the others (openskill's ``predict_win``); empty
    when fewer than two sides have players."""
    if sum(1 for side in sides if side) < 2:
        return []
    present = [[as_rating(s) for s in side] for side in sides if side]
    predicted = iter(MODEL.predict_win(present))
    return [next(predicted) if side else 0.0 for side in sides]


def as_rating(standing: Standing) -> PlackettLuceRating:
    return MODEL.create_rating([standing.mu, standing.sigma])
