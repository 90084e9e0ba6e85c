"""Drawing the next round for 80 pairs by each system (issue 28: under 50 ms), the next Swiss
round for 200 pairs (issue 40: under 100 ms), and the standings of 40 tables after 6 rounds,
through the pure core (``anotador.tournaments``).

Each tournament has 6 rounds played (drawn by its own system, MP from a seeded generator);
the 7th is drawn from the file's JSON value, reading it included. Best of 7 runs.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from anotador.tournaments import next_round
from anotador.tournaments import read_tournament
from anotador.tournaments import standings

PAIRS = 80
PLAYED = 6
REPEATS = 7
SYSTEMS = ("mitchell", "danese", "danese-modificato", "round-robin", "swiss")
SWISS_PAIRS = 200


def played_tournament(system: str, seed: int = 1, pairs: int = PAIRS) -> dict[str, Any]:
    rng = random.Random(seed)
    document: dict[str, Any] = {
        "format": "anotador-tournament/1",
        "name": "Benchmark",
        "variant": "burraco",
        "layout": "4p",
        "hands_per_round": 3,
        "scale": "fibur-3",
        "system": system,
        "rounds": PLAYED + 2,
        "pairs": [{"id": f"P{k}", "players": [f"N{k}", f"S{k}"]} for k in range(pairs)],
        "results": [],
    }
    for number in range(1, PLAYED + 1):
        draw = next_round(read_tournament(document))
        tables = [
            {
                "table": s.table,
                "ns": s.ns,
                "ew": s.ew,
                "mp": [5 * rng.randint(0, 600), 5 * rng.randint(0, 600)],
            }
            for s in draw.tables
        ]
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
    document = played_tournament("danese")
    wall = best_ms(lambda: standings(read_tournament(document)))
    lines.append(
        f"tournaments: standings, {PAIRS // 2} tables after {PLAYED} rounds, file read included: "
        f"{wall:.1f} ms (best of {REPEATS})"
    )
    return lines
