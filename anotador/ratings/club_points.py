"""Club points: points that only grow, from the places of finished tournaments (pure).

Bridge federations keep two numbers, a current-form grade (our rating) and cumulative points.
A finished tournament's final standings give each pair points by its place, and both players
of the pair get them; a player's club points are the sum over the account's finished
tournaments. The table (``docs/ratings.md``): by default the field's size, so 1st of N pairs
gets N points, 2nd N − 1, …, last 1; a club may set its own table of points by place
(``CLUB_POINTS`` in the configuration: ``[10, 6, 4, 2, 1]``, places beyond it get 0).
"""

from __future__ import annotations

from collections.abc import Hashable
from collections.abc import Iterable
from collections.abc import Sequence

#: A tournament's final standings: each place's players, 1st place first.
Placings = Sequence[Sequence[Hashable]]


def place_points(place: int, field: int, table: Sequence[int] = ()) -> int:
    """The points of ``place`` (1-based) among ``field`` pairs: the club's ``table`` when it
    has one (0 beyond it), else the field's size rule (N, N − 1, …, 1)."""
    if table:
        return max(table[place - 1], 0) if place <= len(table) else 0
    return max(field - place + 1, 0)


def tournament_points(placings: Placings, table: Sequence[int] = ()) -> dict[Hashable, int]:
    """Each player's points from one finished tournament's final standings."""
    points: dict[Hashable, int] = {}
    for place, players in enumerate(placings, start=1):
        for player in players:
            points[player] = points.get(player, 0) + place_points(place, len(placings), table)
    return points


def club_points(tournaments: Iterable[Placings], table: Sequence[int] = ()) -> dict[Hashable, int]:
    """Each player's club points: the sum over the finished tournaments' ``placings``."""
    total: dict[Hashable, int] = {}
    for placings in tournaments:
        for player, points in tournament_points(placings, table).items():
            total[player] = total.get(player, 0) + points
    return total
