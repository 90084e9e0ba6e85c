"""The engine's one call for programs outside Python: a match file in, its score or its
problems out, as plain JSON values.

``anotador score`` prints what this returns, and the browser runs this same function inside
Pyodide (``static/js/engine-worker.js``) to score hands recorded without a connection, so the
phone and the server can never disagree on a total.
"""

from __future__ import annotations

from typing import Any

from anotador.rules.matchfile import parse_json
from anotador.rules.matchfile import read_match
from anotador.rules.problems import Problem
from anotador.rules.scoring import score_match
from anotador.rules.serialize import scored_match_to_json


def score_document(text: str | bytes) -> dict[str, Any]:
    """``{"result": <the scored match>, "problems": [...]}`` for the match file ``text``.

    ``result`` is None when any problem is an error; ``problems`` lists every error and
    warning with its path, code, parameters and English message.
    """
    document, problems = parse_json(text)
    game = None
    if not problems:
        game, problems = read_match(document)
    return {
        "result": None if game is None else scored_match_to_json(score_match(game)),
        "problems": [problem_to_json(problem) for problem in problems],
    }


def problem_to_json(problem: Problem) -> dict[str, Any]:
    return {
        "path": problem.path,
        "code": problem.code,
        "params": dict(problem.params),
        "severity": problem.severity,
        "message": problem.message,
    }
