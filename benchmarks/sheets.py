"""Printed sheets, warm, in one process.

- the 40-hand match sheet versus WeasyPrint rendering a bare HTML table of the same 40 rows
  (same cells, no stylesheet, no header, no chart), alternated in one run: target at most 2x;
- the blank sheet;
- a repeated download of an unchanged finished match through the Flask test client (served
  from the sheet cache): target under 10 ms; and the 304 answer to If-None-Match.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HANDS = 40
ROUNDS = 5
DOWNLOADS = 200
TARGET_RATIO = 2.0
TARGET_DOWNLOAD_MS = 10.0


def side(clean: int, dirty: int, table: int, hand: int, red: int) -> dict[str, int]:
    return {
        "clean": clean,
        "dirty": dirty,
        "table_points": table,
        "hand_points": hand,
        "red_threes": red,
    }


def match_document(
    hands: int = HANDS,
    target: int = 100_000,
    seed: int = 7,
    *,
    cards_left: tuple[int, int] = (10, 60),
    title: str = "Benchmark",
) -> dict[str, Any]:
    """A uruguaya 4p match of ``hands`` closed hands with canastas, red threes and cards
    left in hand (every part of the sheet in use): the side that did not go out keeps
    ``cards_left`` (in fives) in its hand."""
    rng = random.Random(seed)
    played = []
    for _ in range(hands):
        closer = rng.randrange(2)
        entries = [
            side(
                clean=1 if index == closer else 0,
                dirty=rng.randint(0, 1),
                table=5 * rng.randint(20, 60),
                hand=0 if index == closer else 5 * rng.randint(*cards_left),
                red=rng.randint(0, 1),
            )
            for index in range(2)
        ]
        played.append({"end": "closed", "closer": closer, "sides": entries})
    return {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "title": title,
        "options": {"target": target},
        "sides": [
            {"name": "Nosotros", "players": ["Ana", "Beto"]},
            {"name": "Ellos", "players": ["Carla", "Dani"]},
        ],
        "hands": played,
    }


def finished_document() -> dict[str, Any]:
    """The same 40 hands with the target set so that the 40th hand ends the match."""
    from anotador import rules

    game, _ = rules.read_match(match_document())
    assert game is not None
    score = rules.score_match(game)
    target = max(score.totals)
    earlier = max(max(side.total for side in hand.sides) for hand in score.hands[:-1])
    assert earlier < target, "pick another seed"
    assert len(set(score.totals)) == 2, "pick another seed"
    return match_document(target=target)


def bare_table(context: dict[str, Any]) -> str:
    """The sheet's 40 rows as a plain HTML table: the cells without any presentation."""
    rows = []
    for row in context["rows"]:
        cells = [str(row["number"])]
        for cell in row["sides"]:
            cells += [*cell["parts"], str(cell["score"]), str(cell["total"]), str(cell["minimum"])]
        cells.append(row["closed"])
        rows.append("<tr>" + "".join(f"<td>{value}</td>" for value in cells) + "</tr>")
    return "<!doctype html><html><body><table>" + "".join(rows) + "</table></body></html>"


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return (time.perf_counter() - start) * 1000


def cpu_timed(function: Callable[[], object]) -> float:
    """CPU milliseconds: steadier than wall time when other work shares the machine."""
    start = time.process_time()
    function()
    return (time.process_time() - start) * 1000


def run() -> list[str]:
    import weasyprint

    from anotador import rules
    from anotador import sheets as pdf
    from anotador.sheets import content
    from anotador.sheets import render

    game, problems = rules.read_match(match_document())
    assert game is not None, problems
    score = rules.score_match(game)
    with render._rendering("es"):
        bare = bare_table(content.match_context(game, score))

    def sheet() -> bytes:
        return pdf.render_match_sheet(game, score)

    def table() -> bytes:
        return weasyprint.HTML(string=bare).write_pdf()

    def blank() -> bytes:
        return pdf.render_blank_sheet("uruguaya", "4p", None, "es")

    for function in (sheet, table, blank):  # warm: imports, fonts, parsed stylesheet
        function()
    sheet_ms, table_ms, blank_ms, sheet_cpu, table_cpu = [], [], [], [], []
    for _ in range(ROUNDS):
        sheet_ms.append(timed(sheet))
        table_ms.append(timed(table))
        blank_ms.append(timed(blank))
        sheet_cpu.append(cpu_timed(sheet))
        table_cpu.append(cpu_timed(table))
    ratio = statistics.median(sheet_ms) / statistics.median(table_ms)
    cpu_ratio = min(sheet_cpu) / min(table_cpu)
    pages = len(weasyprint.HTML(string=bare).render().pages)
    lines = [
        f"sheets: {HANDS}-hand match sheet, median of {ROUNDS} warm: "
        f"{statistics.median(sheet_ms):.0f} ms",
        f"sheets: bare {HANDS}-row table ({pages} pages), same run: "
        f"{statistics.median(table_ms):.0f} ms",
        f"sheets: ratio sheet / bare table, wall medians: {ratio:.2f}x "
        f"(target <= {TARGET_RATIO:.0f}x) " + ("ok" if ratio <= TARGET_RATIO else "OVER TARGET"),
        f"sheets: ratio sheet / bare table, best CPU times ({min(sheet_cpu):.0f} / "
        f"{min(table_cpu):.0f} ms): {cpu_ratio:.2f}x "
        + ("ok" if cpu_ratio <= TARGET_RATIO else "OVER TARGET"),
        f"sheets: blank sheet (uruguaya 4p), median of {ROUNDS} warm: "
        f"{statistics.median(blank_ms):.0f} ms",
    ]
    return lines + download_lines()


def drawn(client: Any, path: str) -> Any:
    """The sheet at ``path``, asking again while it is being prepared (the match's end
    already started drawing it in the background, or every render slot is busy)."""
    while True:
        response = client.get(path)
        if response.status_code != 503:
            assert response.status_code == 200, (path, response.status_code)
            return response
        time.sleep(0.05)


def download_lines() -> list[str]:
    import flask_migrate

    from anotador import create_app
    from anotador import services
    from benchmarks.web import signed_in_client

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url}, instance_path=folder)
        with app.app_context():
            flask_migrate.upgrade()
            match, problems = services.matches.create_match(finished_document())
            assert match is not None, problems
            assert match.status == "finished"
            path = f"/partidas/{match.id}/planilla.pdf"
        client = signed_in_client(app)
        first_ms = timed(lambda: drawn(client, path))
        etag = drawn(client, path).headers["ETag"]
        repeated = [timed(lambda: client.get(path)) for _ in range(DOWNLOADS)]
        revalidated = [
            timed(lambda: client.get(path, headers={"If-None-Match": etag}))
            for _ in range(DOWNLOADS)
        ]
        with app.app_context():
            from anotador.storage.database import db

            db.engine.dispose()
    median = statistics.median(repeated)
    return [
        f"sheets: finished {HANDS}-hand match download, first (renders): {first_ms:.0f} ms",
        f"sheets: repeated download (cache), median of {DOWNLOADS}: {median:.2f} ms, "
        f"p95 {statistics.quantiles(repeated, n=20)[-1]:.2f} ms "
        f"(target < {TARGET_DOWNLOAD_MS:.0f} ms) "
        + ("ok" if median < TARGET_DOWNLOAD_MS else "OVER TARGET"),
        f"sheets: If-None-Match (304), median of {DOWNLOADS}: "
        f"{statistics.median(revalidated):.2f} ms",
    ]
