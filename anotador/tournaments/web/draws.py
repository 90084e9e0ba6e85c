"""The pages' one way to the pure tournament code: a tournament file (as the rows make it) in,
the standings, each round's MP and VP and the next round's seats out, exactly as ``anotador
tournament standings`` and ``pair`` compute and print them."""

from __future__ import annotations

import dataclasses
from typing import Any

from anotador.tournaments import next_round
from anotador.tournaments import read_tournament
from anotador.tournaments import standings_document as computed_standings


@dataclasses.dataclass(frozen=True)
class Seats:
    """A drawn round: its tables as (number, NS pair id, EW pair id), then its byes."""

    tables: list[tuple[int, str, str]]
    byes: list[str]


def next_seats(document: dict[str, Any]) -> Seats:
    """The next round's seats of the tournament ``document`` by its system."""
    draw = next_round(read_tournament(document))
    return Seats([(seat.table, seat.ns, seat.ew) for seat in draw.tables], list(draw.byes))


def standings_document(document: dict[str, Any]) -> dict[str, Any]:
    """What ``anotador tournament standings`` prints for the tournament ``document``: the
    standings, then every round's tables and byes with their MP and VP."""
    return computed_standings(read_tournament(document))
