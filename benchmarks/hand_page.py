"""Weight of the hand page's first load: HTML + CSS + JS (system fonts, no web fonts).

Measured through the Flask test client on a temporary SQLite database, for the heaviest
common form (uruguaya 4p) and the biggest one (canastone 6p-3x2: seven canasta kinds and
three sides). Target: at most 100 KB uncompressed.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import flask_migrate

from anotador import create_app
from anotador import services
from benchmarks.web import signed_in_client

LIMIT = 100 * 1024
CASES = (("uruguaya", "4p", 2), ("canastone", "6p-3x2", 3))


def page_parts(client, path: str) -> list[tuple[str, int]]:
    """The page and every stylesheet, script and font it loads, with their sizes in bytes."""
    html = client.get(path).data
    parts = [(path, len(html))]
    assets = re.findall(rb'(?:href|src)="(/static/[^"]+\.(?:css|js|woff2?|ttf|otf))"', html)
    for asset in dict.fromkeys(assets):
        response = client.get(asset.decode())
        parts.append((asset.decode(), len(response.data)))
        response.close()
    return parts


def run() -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
            },
            instance_path=Path(folder) / "instance",
        )
        with app.app_context():
            flask_migrate.upgrade()
            ids = []
            for variant, layout, sides in CASES:
                document = {
                    "format": "anotador-match/1",
                    "variant": variant,
                    "layout": layout,
                    "sides": [{"name": f"Equipo {i + 1}"} for i in range(sides)],
                    "hands": [],
                }
                match, problems = services.matches.create_match(document)
                assert match is not None, problems
                ids.append(match.id)
        client = signed_in_client(app)
        for (variant, layout, _), match_id in zip(CASES, ids, strict=True):
            parts = page_parts(client, f"/partidas/{match_id}/manos/nueva")
            total = sum(size for _, size in parts)
            detail = ", ".join(f"{name} {size:,} B" for name, size in parts)
            verdict = "ok" if total <= LIMIT else "OVER"
            lines.append(
                f"hand page {variant} {layout}: first load {total:,} B ({verdict}; "
                f"target <= {LIMIT:,} B): {detail}"
            )
    return lines
