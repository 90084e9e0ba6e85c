"""A sheet drawn in a process of its own: ``python -m anotador.sheets.child`` reads a JSON
request on standard input and writes the PDF to standard output.

WeasyPrint's layout holds the interpreter for the best part of a second: in a server's
worker it would stall every other request that worker's threads serve. In a child process it
takes one core and nothing else (:mod:`anotador.sheets.shelf` starts it and caps how many run).
The request is ``{"kind": "match", "document": <match file>, "paper", "lang"}`` (and
``"table_result"``: the MP a tournament's director wrote by hand over it) or ``{"kind":
"blank", "variant", "layout", "target", "paper", "lang"}`` or ``{"kind": "html", "html"}``
(another area's printout, laid out by its own view: ``render.printout_html``). An argument,
when given, is the niceness to draw at (a costly or odd sheet is drawn below the pages'
priority).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from anotador import rules
from anotador.sheets.render import html_pdf
from anotador.sheets.render import render_blank_sheet
from anotador.sheets.render import render_match_sheet


def draw(request: dict[str, Any]) -> bytes:
    if request["kind"] == "html":
        return html_pdf(request["html"])
    paper, lang = request["paper"], request["lang"]
    if request["kind"] == "blank":
        return render_blank_sheet(
            request["variant"], request["layout"], request["target"], lang, paper=paper
        )
    game, problems = rules.read_match(request["document"])
    if game is None:
        raise ValueError("; ".join(problem.message for problem in problems[:3]))
    score = rules.score_match(game)
    table_result = request.get("table_result")
    return render_match_sheet(game, score, paper=paper, lang=lang, table_result=table_result)


if __name__ == "__main__":
    if len(sys.argv) > 1 and hasattr(os, "nice"):
        os.nice(int(sys.argv[1]))
    sys.stdout.buffer.write(draw(json.load(sys.stdin)))
