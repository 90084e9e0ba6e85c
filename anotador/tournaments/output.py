"""What ``anotador tournament standings|pair`` print (§5, §6.5): plain JSON values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from anotador.tournaments.individual import IndividualDraw
from anotador.tournaments.pairing import Draw
from anotador.tournaments.standings import ByeResult
from anotador.tournaments.standings import Figures
from anotador.tournaments.standings import PartnershipResult
from anotador.tournaments.standings import PlayerByeResult
from anotador.tournaments.standings import TableResult
from anotador.tournaments.standings import individual_round_results
from anotador.tournaments.standings import individual_standings
from anotador.tournaments.standings import round_results
from anotador.tournaments.standings import standings
from anotador.tournaments.tournament import AnyTournament
from anotador.tournaments.tournament import IndividualTournament
from anotador.tournaments.writing import seat

#: A played round's entry with its VP, of either kind.
Result = TableResult | ByeResult | PartnershipResult | PlayerByeResult


def standings_document(tournament: AnyTournament) -> dict[str, Any]:
    """The standings in order, then every played round with its MP and VP; an individual
    tournament's rows name a ``player`` where a pair's name a ``pair``."""
    rounds: list[tuple[int, Sequence[Result]]]
    if isinstance(tournament, IndividualTournament):
        rows = [{"player": row.player, **figures(row)} for row in individual_standings(tournament)]
        rounds = [
            (played.number, individual_round_results(tournament, played))
            for played in tournament.results
        ]
    else:
        rows = [{"pair": row.pair, **figures(row)} for row in standings(tournament)]
        rounds = [
            (played.number, round_results(tournament, played)) for played in tournament.results
        ]
    return {
        "standings": rows,
        "rounds": [
            {
                "round": number,
                "tables": [
                    {"bye": result.pair, "vp": result.vp}
                    if isinstance(result, ByeResult)
                    else {"bye": result.player, "vp": result.vp}
                    if isinstance(result, PlayerByeResult)
                    else {
                        "table": result.table.table,
                        "ns": seat(result.table.ns),
                        "ew": seat(result.table.ew),
                        "mp": list(result.table.mp),
                        "vp": list(result.vp),
                    }
                    for result in results
                ],
            }
            for number, results in rounds
        ],
    }


def figures(row: Figures) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "vp": row.vp,
        "mp_for": row.mp_for,
        "mp_against": row.mp_against,
        "mp_diff": row.mp_diff,
        "played": row.played,
        "byes": row.byes,
        "withdrawn": row.withdrawn,
    }


def draw_document(draw: Draw | IndividualDraw) -> dict[str, Any]:
    """The next round's tables, then its byes; a partnership as its two players' ids."""
    tables: list[dict[str, Any]] = [
        {"table": s.table, "ns": seat(s.ns), "ew": seat(s.ew)} for s in draw.tables
    ]
    return {"round": draw.round, "tables": tables + [{"bye": player} for player in draw.byes]}
