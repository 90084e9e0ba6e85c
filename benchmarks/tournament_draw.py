"""Drawing the next round for 80 pairs by each system (issue 28: under 50 ms), the next Swiss
round for 200 pairs and the next individual round for 400 players (issue 40: under 100 ms
each), and the standings of 40 tables after 6 rounds and of an individual night of 80
players after 5, through the pure core (``anotador.tournaments``).

Each tournament has 6 rounds played (drawn by its own system, MP from a seeded generator);
the 7th is drawn from the file's JSON value, reading it included. Best of 7 runs.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from anotador.tournaments import IndividualTournament
from anotador.tournaments import individual_standings
from anotador.tournaments import next_draw
from anotador.tournaments import next_round
from anotador.tournaments import read_tournament
from anotador.tournaments import read_tournament_file
from anotador.tournaments import standings

PAIRS = 80
PLAYED = 6
REPEATS = 7
SYSTEMS = ("mitchell", "danese", "danese-modificato", "round-robin", "swiss")
SWISS_PAIRS = 200
INDIVIDUAL_PLAYERS = 400
#: An individual club night: 80 players, 5 rounds.
NIGHT_PLAYERS = 80
NIGHT_ROUNDS = 5


def set_up(system: str, rounds: int = PLAYED) -> dict[str, Any]:
    """A tournament file without its pairs or players, ``rounds`` + 2 rounds long."""
    return {
        "format": "anotador-tournament/1",
        "name": "Benchmark",
        "variant": "burraco",
        "layout": "4p",
        "hands_per_round": 3,
        "scale": "fibur-3",
        "system": system,
        "rounds": rounds + 2,
        "results": [],
    }


def played_tournament(system: str, seed: int = 1, pairs: int = PAIRS) -> dict[str, Any]:
    document = set_up(system)
    document["pairs"] = [{"id": f"P{k}", "players": [f"N{k}", f"S{k}"]} for k in range(pairs)]
    return played_rounds(document, random.Random(seed), PLAYED)


def played_individual(players: int, rounds: int = PLAYED, seed: int = 1) -> dict[str, Any]:
    """An individual tournament (``individual-danese``) of ``players`` with ``rounds`` played."""
    document = {"kind": "individual", **set_up("individual-danese", rounds)}
    document["players"] = [{"id": f"P{k}", "name": f"Player {k}"} for k in range(players)]
    return played_rounds(document, random.Random(seed), rounds)


def played_rounds(document: dict[str, Any], rng: random.Random, rounds: int) -> dict[str, Any]:
    """``document`` with ``rounds`` rounds drawn by its own system and played (MP from
    ``rng``), byes included."""
    for number in range(1, rounds + 1):
        draw = next_draw(read_tournament_file(document))
        tables: list[dict[str, Any]] = [
            {
                "table": s.table,
                "ns": s.ns if isinstance(s.ns, str) else list(s.ns),
                "ew": s.ew if isinstance(s.ew, str) else list(s.ew),
                "mp": [5 * rng.randint(0, 600), 5 * rng.randint(0, 600)],
            }
            for s in draw.tables
        ]
        tables += [{"bye": bye} for bye in draw.byes]
        document["results"].append({"round": number, "tables": tables})
    return json.loads(json.dumps(document))


def best_ms(function: Callable[[], object]) -> float:
    walls = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        function()
        walls.append(time.perf_counter() - started)
    return min(walls) * 1000


def run() -> list[str]:
    lines = []
    for system in SYSTEMS:
        document = played_tournament(system)
        wall = best_ms(lambda document=document: next_round(read_tournament(document)))
        lines.append(
            f"tournaments: draw round {PLAYED + 1}, {PAIRS} pairs, {system}, file read included: "
            f"{wall:.1f} ms (best of {REPEATS}; target < 50 ms)"
        )
    document = played_tournament("swiss", pairs=SWISS_PAIRS)
    wall = best_ms(lambda: next_round(read_tournament(document)))
    lines.append(
        f"tournaments: draw round {PLAYED + 1}, {SWISS_PAIRS} pairs, swiss, file read included: "
        f"{wall:.1f} ms (best of {REPEATS}; target < 100 ms)"
    )
    document = played_individual(INDIVIDUAL_PLAYERS)
    wall = best_ms(lambda: next_draw(read_tournament_file(document)))
    lines.append(
        f"tournaments: draw round {PLAYED + 1}, {INDIVIDUAL_PLAYERS} players, individual-danese, "
        f"file read included: {wall:.1f} ms (best of {REPEATS}; target < 100 ms)"
    )
    document = played_tournament("danese")
    wall = best_ms(lambda: standings(read_tournament(document)))
    lines.append(
        f"tournaments: standings, {PAIRS // 2} tables after {PLAYED} rounds, file read included: "
        f"{wall:.1f} ms (best of {REPEATS})"
    )
    document = played_individual(NIGHT_PLAYERS, NIGHT_ROUNDS)
    wall = best_ms(lambda: individual_standings(read_individual(document)))
    lines.append(
        f"tournaments: standings, individual night of {NIGHT_PLAYERS} players after "
        f"{NIGHT_ROUNDS} rounds, file read included: {wall:.1f} ms (best of {REPEATS})"
    )
    return lines


def read_individual(document: dict[str, Any]) -> IndividualTournament:
    tournament = read_tournament_file(document)
    assert isinstance(tournament, IndividualTournament)
    return tournament
