"""The worked examples of VARIANTS.md §7 (E1-E14), scored through the API and the CLI.

Each ``tests/fixtures/examples/NAME.json`` is one example as a match file; the
``NAME.expected.json`` next to it holds the figures the example states: each side's hand
score, its new total, its opening minimum for the next hand, whether the game is over and
who won. Breakdown names are the implementation's, so only their sum is checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from anotador.commands.main import main
from anotador.rules import score_document
from anotador.rules import scored_match_to_json

EXAMPLES = Path(__file__).resolve().parent.parent / "fixtures" / "examples"
NAMES = sorted(
    path.name.removesuffix(".json")
    for path in EXAMPLES.glob("E*.json")
    if not path.name.endswith(".expected.json")
)


def load(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    document = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
    return document, expected


def check_scored_json(scored: dict[str, Any], document: dict[str, Any], expected: dict[str, Any]):
    """The figures of one example, in the JSON shape ``anotador score`` prints."""
    (hand,) = scored["hands"]
    sides = hand["sides"]
    assert [side["score"] for side in sides] == expected["scores"]
    assert [side["total"] for side in sides] == expected["totals"]
    assert [side["opening_minimum"] for side in sides] == expected["opening_minimum"]
    for side, start in zip(sides, document["start_scores"], strict=True):
        assert sum(side["breakdown"].values()) == side["score"]
        assert side["total"] == start + side["score"]
    assert scored["totals"] == expected["totals"]
    assert scored["opening_minimum"] == expected["opening_minimum"]
    assert scored["finished"] is expected["finished"]
    assert scored["winner"] == expected["winner"]
    assert scored["warnings"] == expected["warnings"]
    if "margin" in expected:
        assert scored["margin"] == expected["margin"]


def test_every_example_has_a_fixture():
    examples = {name.split("-")[0] for name in NAMES}
    assert examples == {f"E{number:02d}" for number in range(1, 15)}
    # E3 is also scored with red_threes_need_canasta and E6 with min150_from 7500.
    assert "E03-red_threes_need_canasta" in NAMES
    assert "E06-min150_from_7500" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_example_through_the_api(name: str):
    document, expected = load(name)

    scored, problems = score_document(document)

    assert problems == []
    assert scored is not None
    (hand,) = scored.hands
    assert [side.score for side in hand.sides] == expected["scores"]
    assert [side.total for side in hand.sides] == expected["totals"]
    assert [side.opening_minimum for side in hand.sides] == expected["opening_minimum"]
    for side in hand.sides:
        assert sum(side.breakdown.values()) == side.score
    assert list(scored.totals) == expected["totals"]
    assert list(scored.opening_minimum) == expected["opening_minimum"]
    assert scored.finished is expected["finished"]
    assert scored.winner == expected["winner"]
    assert scored.ended_at == (0 if expected["finished"] else None)
    if "margin" in expected:
        assert scored.margin == expected["margin"]
    check_scored_json(scored_match_to_json(scored), document, expected)


@pytest.mark.parametrize("name", NAMES)
def test_example_through_the_cli(name: str):
    document, expected = load(name)

    result = CliRunner().invoke(main, ["score", str(EXAMPLES / f"{name}.json")])

    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    check_scored_json(json.loads(result.stdout), document, expected)


def test_example_through_a_real_process():
    name = "E10"
    document, expected = load(name)
    command = "from anotador.commands.main import main; main()"

    done = subprocess.run(
        [sys.executable, "-c", command, "score", str(EXAMPLES / f"{name}.json")],
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    check_scored_json(json.loads(done.stdout), document, expected)
