"""What ``anotador tournament standings|pair`` print (§5): plain JSON values."""

from __future__ import annotations

from typing import Any

from anotador.tournaments.pairing import Draw
from anotador.tournaments.standings import ByeResult
from anotador.tournaments.standings import round_results
from anotador.tournaments.standings import standings
from anotador.tournaments.tournament import Tournament


def standings_document(tournament: Tournament) -> dict[str, Any]:
    """The standings in order, then every played round with its MP and VP."""
    return {
        "standings": [
            {
                "pair": row.pair,
                "rank": row.rank,
                "vp": row.vp,
                "mp_for": row.mp_for,
                "mp_against": row.mp_against,
                "mp_diff": row.mp_diff,
                "played": row.played,
                "byes": row.byes,
                "withdrawn": row.withdrawn,
            }
            for row in standings(tournament)
        ],
        "rounds": [
            {
                "round": played.number,
                "tables": [
                    {"bye": result.pair, "vp": result.vp}
                    if isinstance(result, ByeResult)
                    else {
                        "table": result.table.table,
                        "ns": result.table.ns,
                        "ew": result.table.ew,
                        "mp": list(result.table.mp),
                        "vp": list(result.vp),
                    }
                    for result in round_results(tournament, played)
                ],
            }
            for played in tournament.results
        ],
    }


def draw_document(draw: Draw) -> dict[str, Any]:
    """The next round's tables, then its byes."""
    tables: list[dict[str, Any]] = [
        {"table": seat.table, "ns": seat.ns, "ew": seat.ew} for seat in draw.tables
    ]
    return {"round": draw.round, "tables": tables + [{"bye": pair} for pair in draw.byes]}
