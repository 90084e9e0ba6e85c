"""The pages' one way to the pure tournament code: a tournament file (as the rows make it) in,
the standings, each round's MP and VP and the next round's seats out, exactly as ``anotador
tournament standings`` and ``pair`` compute and print them."""

from __future__ import annotations

import dataclasses
from typing import Any

from anotador.tournaments import FORMAT
from anotador.tournaments import Problem
from anotador.tournaments import check_tournament
from anotador.tournaments import next_round
from anotador.tournaments import standings_document as computed_standings


@dataclasses.dataclass(frozen=True)
class Seats:
    """A drawn round: its tables as (number, NS pair id, EW pair id), then its byes."""

    tables: list[tuple[int, str, str]]
    byes: list[str]


def next_seats(document: dict[str, Any]) -> Seats | None:
    """The next round's seats of the tournament ``document`` by its system; none with fewer
    than two pairs (the draw refuses to seat them); None when the file reader refuses the
    document (rows stored before every door checked them: ``anotador check`` lists them)."""
    if len(document["pairs"]) < 2:
        return Seats([], [])
    tournament, _ = check_tournament(document)
    if tournament is None:
        return None
    draw = next_round(tournament)
    return Seats([(seat.table, seat.ns, seat.ew) for seat in draw.tables], list(draw.byes))


def standings_document(document: dict[str, Any]) -> dict[str, Any]:
    """What ``anotador tournament standings`` prints for the tournament ``document``: the
    standings, then every round's tables and byes with their MP and VP. With nothing to
    compute, its pairs with nothing yet and no round: a tournament being set up with fewer
    than two pairs (a file needs two, a page none), or rows the reader refuses (stored before
    every door checked them: ``anotador check`` lists them), whose ``problems`` come too."""
    problems: list[Problem] = []
    if len(document["pairs"]) >= 2:
        tournament, problems = check_tournament(document)
        if tournament is not None:
            return computed_standings(tournament)
    empty = dict.fromkeys(("vp", "mp_for", "mp_against", "mp_diff", "played", "byes"), 0)
    pairs = document["pairs"]
    rows = [{"pair": pair["id"], "rank": k, **empty} for k, pair in enumerate(pairs, 1)]
    found = {"problems": [problem.to_json() for problem in problems]} if problems else {}
    return {"standings": rows, "rounds": [], **found}


def scale_problems(scale: object, bye_vp: object, variant: str) -> list[Problem]:
    """The problems ``anotador tournament`` finds with a set-up's ``scale`` and ``bye_vp``
    (paths ``$.scale…`` and ``$.bye_vp``): a club's bands are read by the same code."""
    document = {
        "format": FORMAT,
        "name": "-",
        "variant": variant,
        "layout": "4p",
        "hands_per_round": None,
        "scale": scale,
        "system": "manual",
        "rounds": 1,
        "pairs": [],
        "results": [],
        **({} if bye_vp is None else {"bye_vp": bye_vp}),
    }
    _, problems = check_tournament(document)
    return [p for p in problems if p.path.startswith(("$.scale", "$.bye_vp"))]
