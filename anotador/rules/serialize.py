"""The scored match as the JSON that ``anotador score`` prints (match-format.md)."""

from __future__ import annotations

from typing import Any

from anotador.rules.scoring import MatchScore


def scored_match_to_json(scored: MatchScore) -> dict[str, Any]:
    return {
        "hands": [
            {
                "sides": [
                    {
                        "score": side.score,
                        "breakdown": side.breakdown,
                        "total": side.total,
                        "opening_minimum": side.opening_minimum,
                    }
                    for side in hand.sides
                ]
            }
            for hand in scored.hands
        ],
        "totals": list(scored.totals),
        "opening_minimum": list(scored.opening_minimum),
        "finished": scored.finished,
        "winner": scored.winner,
        "margin": scored.margin,
        "warnings": [
            {"path": problem.path, "message": problem.message}
            for problem in scored.warnings
            if problem.severity == "warning"
        ],
    }
