"""The ``anotador score`` and ``anotador variants`` commands (docs/match-format.md).

Valid input: the scored match as JSON on standard output, exit status 0, nothing on standard
error. Invalid input: nothing on standard output, one ``PATH: message`` line per problem on
standard error, exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from click.testing import Result

from anotador import rules
from anotador.commands.main import main
from anotador.rules import describe_variants

EXAMPLES = Path(__file__).resolve().parent.parent / "fixtures" / "examples"


def document(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "sides": [{"name": "Ana", "players": ["Ana", "Luis"]}, {"name": "Beto"}],
        "start_scores": [1200, 2700],
        "hands": [
            {
                "end": "closed",
                "closer": 0,
                "sides": [
                    {"clean": 2, "dirty": 1, "table_points": 760, "red_threes": 1},
                    {"dirty": 1, "table_points": 340, "hand_points": 85, "red_threes": 2},
                ],
            }
        ],
    }
    base.update(changes)
    return base


def score_stdin(text: str | bytes) -> Result:
    return CliRunner().invoke(main, ["score", "-"], input=text)


def assert_invalid(result: Result, *lines: str) -> None:
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == list(lines)


def test_score_prints_the_scored_match():
    result = score_stdin(json.dumps(document()))

    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    scored = json.loads(result.stdout)
    assert {"hands", "totals", "opening_minimum", "finished", "winner", "warnings"} <= set(scored)
    (hand,) = scored["hands"]
    assert [side["score"] for side in hand["sides"]] == [2260, 755]
    assert [side["total"] for side in hand["sides"]] == [3460, 3455]
    assert all(sum(side["breakdown"].values()) == side["score"] for side in hand["sides"])
    assert scored["totals"] == [3460, 3455]
    assert scored["opening_minimum"] == [120, 120]
    assert scored["finished"] is False
    assert scored["winner"] is None
    assert scored["warnings"] == []


def test_score_reads_a_file(tmp_path: Path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document()), encoding="utf-8")

    result = CliRunner().invoke(main, ["score", str(path)])

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["totals"] == [3460, 3455]


def test_score_of_a_match_without_hands():
    result = score_stdin(json.dumps(document(hands=[])))
    assert result.exit_code == 0, result.stderr
    scored = json.loads(result.stdout)
    assert scored["hands"] == []
    assert scored["totals"] == [1200, 2700]
    assert scored["opening_minimum"] == [50, 90]


def test_warnings_go_to_the_json_not_to_stderr():
    doc = document()
    doc["hands"][0]["sides"][0]["table_points"] = 100  # two clean and a dirty hold >= 120
    result = score_stdin(json.dumps(doc))

    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    (warning,) = json.loads(result.stdout)["warnings"]
    assert set(warning) == {"path", "message"}
    assert warning["path"] == "hands[0].sides[0].table_points"
    assert "120" in warning["message"]


def test_the_output_is_utf8_json():
    result = score_stdin(json.dumps(document(title="Partida en lo de Mónica"), ensure_ascii=False))
    assert result.exit_code == 0, result.stderr
    json.loads(result.stdout)


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (
            {"red_threes": 7},
            "hands[0].sides[1].red_threes: At most 4 red threes with 2 decks.",
        ),
        (
            {"table_points": 12},
            "hands[0].sides[1].table_points: Must be a multiple of 5.",
        ),
        (
            {"pure": 1},
            "hands[0].sides[1].pure: Unknown key: it does not belong to this variant or document.",
        ),
    ],
)
def test_invalid_side_entry(change: dict[str, Any], line: str):
    doc = document()
    doc["hands"][0]["sides"][1].update(change)
    assert_invalid(score_stdin(json.dumps(doc)), line)


def test_one_line_per_problem():
    doc = document(variant="uruguaya", colour="red")
    doc["hands"][0]["closer"] = 5
    result = score_stdin(json.dumps(doc))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert "colour: Unknown key: it does not belong to this variant or document." in lines
    assert "hands[0].closer: There is no side number 5." in lines
    assert len(lines) == 2


def test_an_unknown_variant_is_refused():
    assert_invalid(
        score_stdin(json.dumps(document(variant="bridge"))),
        "variant: Must be one of: uruguaya, classic, canastone, real, mac, burako, burraco.",
    )


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "{'format': 1}", b"\xff\xfe\x00"])
def test_malformed_json(text: str | bytes):
    result = score_stdin(text)
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("$: The file is not valid JSON: ")


@pytest.mark.parametrize("text", ["null", "[]", "5", '"match"'])
def test_json_that_is_not_an_object(text: str):
    assert_invalid(score_stdin(text), "$: Expected an object.")


def test_missing_file(tmp_path: Path):
    result = CliRunner().invoke(main, ["score", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("$: cannot read ")


def test_a_directory_is_not_a_file(tmp_path: Path):
    result = CliRunner().invoke(main, ["score", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("$: cannot read ")


def test_a_problem_is_one_line_even_with_a_newline_in_a_key():
    result = score_stdin(json.dumps(document(**{"bad\nkey": 1})))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        '"bad\\nkey": Unknown key: it does not belong to this variant or document.'
    ]


def test_invalid_input_in_a_real_process():
    done = subprocess.run(
        [sys.executable, "-c", "from anotador.commands.main import main; main()", "score", "-"],
        input=json.dumps(document(hands="none")),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "hands: Expected a list.\n"


def test_stdin_in_a_real_process():
    done = subprocess.run(
        [sys.executable, "-c", "from anotador.commands.main import main; main()", "score", "-"],
        input=(EXAMPLES / "E12.json").read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    scored = json.loads(done.stdout)
    assert scored["totals"] == [4095, 2920]
    assert scored["opening_minimum"] == [None, None]
    assert (scored["finished"], scored["winner"]) == (True, 0)


# --- variants ---------------------------------------------------------------------------------


def test_variants_json_is_describe_variants():
    result = CliRunner().invoke(main, ["variants", "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(json.dumps(describe_variants()))


def test_variants_text_lists_every_variant():
    result = CliRunner().invoke(main, ["variants"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    for name in ("uruguaya", "classic", "canastone", "real", "mac", "burako", "burraco"):
        assert name in lines
    assert sum(line in rules.VARIANTS for line in lines) == 7
    assert "  opening minimum: none (libre)" in lines  # real
    assert "  hand ends: closed, stock_out, special_hand" in lines  # mac
    assert any(line.split() == ["6p-2x3", "10000", "3", "2"] for line in lines)
