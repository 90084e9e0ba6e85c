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

from anotador.rules import Role
from anotador.rules import get_variant
from anotador.rules import read_match
from anotador.rules import score_match

HANDS = 10_000
REPEATS = 7
# Each new variant's scoring is timed too (issue 12): 10,000 hands each under 50 ms.
NEW_VARIANTS = ("mac", "burako", "burraco")


def stock_out_hand(rng: random.Random, variant: str = "uruguaya") -> dict[str, object]:
    """A 4p hand whose scores hover around zero, so no match of any length ends; its fields
    found by their roles (the points, and the red threes where the variant has them)."""
    rules = get_variant(variant)
    table, held = (rules.name_of(role) for role in (Role.TABLE_POINTS, Role.HAND_POINTS))
    red = rules.roles.get(Role.RED_THREES, ())
    sides = []
    for _ in range(2):
        side: dict[str, object] = {
            table: 5 * rng.randint(3, 60),
            held: 5 * rng.randint(3, 60),
        }
        for spec in red:
            side[spec.name] = rng.randint(0, 1)
        sides.append(side)
    return {"end": "stock_out", "closer": None, "sides": sides}


def match_document(hands: int, seed: int = 1, variant: str = "uruguaya") -> dict[str, object]:
    rng = random.Random(seed)
    return {
        "format": "anotador-match/1",
        "variant": variant,
        "layout": "4p",
        "options": {"target": 1_000_000},  # far away: every hand is scored
        "sides": [{"name": "Nosotros"}, {"name": "Ellos"}],
        "hands": [stock_out_hand(rng, variant) for _ in range(hands)],
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
    per_variant = []
    for variant in NEW_VARIANTS:
        game, found = read_match(match_document(HANDS, variant=variant))
        assert game is not None, found
        wall, cpu = best_of(lambda game=game: score_match(replace(game)))
        per_variant.append(
            f"rules: score_match, {variant}, {HANDS} hands: {wall:.1f} ms wall, {cpu:.1f} ms "
            f"CPU (best of {REPEATS}; target < 50 ms)"
        )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "match.json"
        path.write_text(json.dumps(match_document(10)))
        command = [
            sys.executable,
            "-c",
            "from anotador.commands.main import main; main()",
            "score",
            str(path),
        ]
        cli_wall, _ = best_of(lambda: subprocess.run(command, check=True, capture_output=True))
    return [
        f"rules: score_match, {HANDS} hands: {score_wall:.1f} ms wall, {score_cpu:.1f} ms CPU "
        f"(best of {REPEATS}; target < 50 ms)",
        *per_variant,
        f"rules: read_match (validation) + score, {HANDS} hands: {read_wall:.0f} ms",
        f"cli: anotador score, 10-hand file, start to exit: {cli_wall:.0f} ms "
        f"(best of {REPEATS}; target < 400 ms)",
    ]
