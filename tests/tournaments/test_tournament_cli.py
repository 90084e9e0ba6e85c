"""``anotador tournament standings|pair FILE`` (TOURNAMENTS.md §5): the worked example of §6
end to end, the problems' shape and exit status, standard input and unreadable files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from click.testing import Result

from anotador.commands.main import main

EXAMPLE = Path(__file__).resolve().parent / "worked_example.json"


def example(**changes: Any) -> dict[str, Any]:
    document = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    document.update(changes)
    return document


def run(command: str, document: object) -> Result:
    text = document if isinstance(document, str | bytes) else json.dumps(document)
    return CliRunner().invoke(main, ["tournament", command, "-"], input=text)


def answer(result: Result) -> Any:
    assert "Traceback" not in result.output
    return json.loads(result.stdout)


def test_the_worked_example_standings():
    result = CliRunner().invoke(main, ["tournament", "standings", str(EXAMPLE)])

    assert result.exit_code == 0, result.output
    printed = answer(result)
    rows = {row["pair"]: row for row in printed["standings"]}
    assert [row["pair"] for row in printed["standings"]] == ["C", "A", "E", "D", "B"]
    assert [row["rank"] for row in printed["standings"]] == [1, 2, 3, 4, 5]
    assert rows["C"] == {
        "pair": "C",
        "rank": 1,
        "vp": 25,
        "mp_for": 2285,
        "mp_against": 1825,
        "mp_diff": 460,
        "played": 2,
        "byes": 0,
        "withdrawn": False,
    }
    assert [(rows[p]["vp"], rows[p]["mp_diff"], rows[p]["byes"]) for p in "ABDE"] == [
        (25, 900, 0),
        (13, -1300, 1),
        (17, -310, 0),
        (24, 250, 1),
    ]
    assert [rows[p]["played"] for p in "ABCDE"] == [2, 1, 2, 2, 1]
    assert printed["rounds"] == [
        {
            "round": 1,
            "tables": [
                {"table": 1, "ns": "A", "ew": "B", "mp": [1650, 350], "vp": [19, 1]},
                {"table": 2, "ns": "C", "ew": "D", "mp": [1105, 1045], "vp": [11, 9]},
                {"bye": "E", "vp": 12},
            ],
        },
        {
            "round": 2,
            "tables": [
                {"table": 1, "ns": "A", "ew": "C", "mp": [780, 1180], "vp": [6, 14]},
                {"table": 2, "ns": "E", "ew": "D", "mp": [1330, 1080], "vp": [12, 8]},
                {"bye": "B", "vp": 12},
            ],
        },
    ]


def test_the_worked_example_draws_round_3():
    result = CliRunner().invoke(main, ["tournament", "pair", str(EXAMPLE)])

    assert result.exit_code == 0, result.output
    assert answer(result) == {
        "round": 3,
        "tables": [
            {"table": 1, "ns": "C", "ew": "E"},
            {"table": 2, "ns": "A", "ew": "B"},
            {"bye": "D"},
        ],
    }


def test_the_last_round_of_the_worked_example_is_plain_danese():
    result = run("pair", example(rounds=3))

    assert result.exit_code == 0, result.output
    assert answer(result)["tables"] == [
        {"table": 1, "ns": "C", "ew": "A"},
        {"table": 2, "ns": "E", "ew": "B"},
        {"bye": "D"},
    ]


def test_the_rounds_before_of_the_worked_example_are_drawn_as_played():
    first = run("pair", example(results=[]))
    second = run("pair", example(results=example()["results"][:1]))

    assert answer(first) == {
        "round": 1,
        "tables": [
            {"table": 1, "ns": "A", "ew": "B"},
            {"table": 2, "ns": "C", "ew": "D"},
            {"bye": "E"},
        ],
    }
    assert answer(second) == {
        "round": 2,
        "tables": [
            {"table": 1, "ns": "A", "ew": "C"},
            {"table": 2, "ns": "E", "ew": "D"},
            {"bye": "B"},
        ],
    }


def test_an_invalid_file_prints_its_problems_and_exits_1_for_either_command():
    for command in ("standings", "pair"):
        result = run(command, example(rounds=0, pairs=[]))

        assert result.exit_code == 1
        problems = answer(result)["problems"]
        assert [(p["path"], p["code"]) for p in problems] == [
            ("$.rounds", "value"),
            ("$.pairs", "too_few_pairs"),
        ]
        assert all(isinstance(p["message"], str) and p["message"] for p in problems)


def test_no_next_round_is_a_problem_for_pair_only():
    played = example(rounds=2)
    manual = example(system="manual")

    assert run("standings", played).exit_code == 0
    assert run("standings", manual).exit_code == 0
    refused = run("pair", played)
    assert refused.exit_code == 1
    assert [(p["path"], p["code"]) for p in answer(refused)["problems"]] == [
        ("$.results", "all_rounds_played")
    ]
    refused = run("pair", manual)
    assert refused.exit_code == 1
    assert [(p["path"], p["code"]) for p in answer(refused)["problems"]] == [
        ("$.system", "manual_pairing")
    ]


def test_a_file_that_cannot_be_read_is_a_problem(tmp_path: Path):
    result = CliRunner().invoke(main, ["tournament", "pair", str(tmp_path / "nowhere.json")])

    assert result.exit_code == 1
    assert [p["code"] for p in answer(result)["problems"]] == ["not_json"]


def test_the_real_command_runs_without_the_web_app():
    """A subprocess, as a club's script runs it; Flask is never imported."""
    probe = (
        "import sys, anotador.commands.main\n"
        "try:\n"
        "    anotador.commands.main.main(['tournament', 'pair', sys.argv[1]])\n"
        "finally:\n"
        "    print('FLASK' if 'flask' in sys.modules else 'PURE', file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(EXAMPLE)], capture_output=True, text=True, check=False
    )

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["round"] == 3
    assert done.stderr.strip() == "PURE"


def test_the_output_is_utf_8_whatever_the_terminal_s_encoding():
    document = example()
    document["pairs"][0]["id"] = "Ñandú “A”"
    for entry in document["results"][0]["tables"][:1] + document["results"][1]["tables"][:1]:
        entry["ns"] = "Ñandú “A”"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from anotador.commands.main import main; main()",
            "tournament",
            "standings",
            "-",
        ],
        input=json.dumps(document).encode(),
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "latin-1"},
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.decode("utf-8"))["standings"][1]["pair"] == "Ñandú “A”"
