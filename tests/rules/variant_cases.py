"""Helpers for the table-driven cases of mac, burako and burraco (tests/rules/test_mac.py,
tests/rules/test_burako_burraco.py): a match file of one variant, scored through the public
API and the command line alike."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from anotador.commands.main import main
from anotador.rules import MatchScore
from anotador.rules import Problem
from anotador.rules import score_document
from anotador.rules import scored_match_to_json


def document(
    variant: str,
    *hands: dict[str, Any],
    layout: str = "4p",
    options: dict[str, Any] | None = None,
    start: list[int] | None = None,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": "anotador-match/1",
        "variant": variant,
        "layout": layout,
        "sides": [{"name": "A"}, {"name": "B"}],
        "hands": list(hands),
    }
    if options is not None:
        doc["options"] = options
    if start is not None:
        doc["start_scores"] = start
    return doc


def hand(*sides: dict[str, Any], end: str = "closed", closer: int | None = 0) -> dict[str, Any]:
    return {"end": end, "closer": closer if end == "closed" else None, "sides": list(sides)}


def scored(doc: dict[str, Any]) -> MatchScore:
    """The match's score through the API, checked against the CLI's JSON."""
    score, problems = score_document(doc)
    errors = [problem for problem in problems if problem.severity == "error"]
    assert errors == [], errors
    assert score is not None
    result = CliRunner().invoke(main, ["score", "-"], input=json.dumps(doc))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(json.dumps(scored_match_to_json(score)))
    for hand_score in score.hands:
        for side in hand_score.sides:
            assert sum(side.breakdown.values()) == side.score
    return score


def hand_scores(doc: dict[str, Any], index: int = 0) -> list[int]:
    return [side.score for side in scored(doc).hands[index].sides]


def rejected(doc: dict[str, Any], path: str, code: str) -> list[Problem]:
    """``doc`` is refused with ``code`` at ``path`` (API), and the CLI exits 2 naming it."""
    score, problems = score_document(doc)
    assert score is None
    found = [(problem.path, problem.code) for problem in problems]
    assert (path, code) in found, found
    result = CliRunner().invoke(main, ["score", "-"], input=json.dumps(doc))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert any(line.startswith(f"{path}: ") for line in result.stderr.splitlines())
    return problems


def warned(doc: dict[str, Any], path: str, code: str) -> None:
    score, problems = score_document(doc)
    assert score is not None
    assert (path, code, "warning") in [(p.path, p.code, p.severity) for p in problems]
