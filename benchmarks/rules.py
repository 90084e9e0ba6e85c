"""Scoring speed through the API, and ``anotador score`` from start to exit."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from anotador.rules import read_match
from anotador.rules import score_match

HANDS = 10_000
REPEATS = 7


def stock_out_hand(rng: random.Random) -> dict[str, object]:
    """A uruguaya 4p hand whose scores hover around zero, so no match of any length ends."""
    sides = []
    for _ in range(2):
        table = 5 * rng.randint(3, 60)
        sides.append(
            {
                "table_points": table,
                "hand_points": 5 * rng.randint(3, 60),
                "red_threes": rng.randint(0, 1),
            }
        )
    return {"end": "stock_out", "closer": None, "sides": sides}


def match_document(hands: int, seed: int = 1) -> dict[str, object]:
    rng = random.Random(seed)
    return {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "options": {"target": 1_000_000},  # far away: every hand is scored
        "sides": [{"name": "Nosotros"}, {"name": "Ellos"}],
        "hands": [stock_out_hand(rng) for _ in range(hands)],
    }


def best_of(function, repeats: int = REPEATS) -> tuple[float, float]:
    """Best wall-clock and best CPU time in milliseconds over ``repeats`` runs."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls) * 1000, min(cpus) * 1000


def run() -> list[str]:
    match, problems = read_match(match_document(HANDS))
    assert match is not None, problems
    # A fresh copy each time: a match keeps its score once computed.
    score_wall, score_cpu = best_of(lambda: score_match(replace(match)))
    read_wall, _ = best_of(lambda: read_match(match_document(HANDS)), repeats=3)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "match.json"
        path.write_text(json.dumps(match_document(10)))
        command = [
            sys.executable,
            "-c",
            "from anotador.cli import main; main()",
            "score",
            str(path),
        ]
        cli_wall, _ = best_of(lambda: subprocess.run(command, check=True, capture_output=True))
    return [
        f"rules: score_match, {HANDS} hands: {score_wall:.1f} ms wall, {score_cpu:.1f} ms CPU "
        f"(best of {REPEATS}; target < 50 ms)",
        f"rules: read_match (validation) + score, {HANDS} hands: {read_wall:.0f} ms",
        f"cli: anotador score, 10-hand file, start to exit: {cli_wall:.0f} ms "
        f"(best of {REPEATS}; target < 400 ms)",
    ]
