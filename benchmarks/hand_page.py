"""Weight of the hand page's first load: HTML + CSS + JS (system fonts, no web fonts).

Measured through the Flask test client on a temporary SQLite database, for the heaviest
common form (uruguaya 4p) and the biggest one (canastone 6p-3x2: seven canasta kinds and
three sides), as a phone downloads it (``Accept-Encoding: gzip``: pages compressed, static
files sent as they are, then kept for a year). Target: at most 100 KB on the wire, as
``tests/web/test_hands.py`` asserts; the uncompressed size is shown beside it.
"""

from __future__ import annotations

import gzip
import re
import tempfile
from pathlib import Path

import flask_migrate

from anotador import create_app
from anotador import services
from benchmarks.web import signed_in_client

LIMIT = 100 * 1024
CASES = (("uruguaya", "4p", 2), ("canastone", "6p-3x2", 3))


#: What a phone's browser sends.
PHONE = {"Accept-Encoding": "gzip"}


def plain_body(response) -> bytes:
    """A response's body as the browser reads it, decompressed."""
    return gzip.decompress(response.data) if response.content_encoding == "gzip" else response.data


def page_parts(client, path: str) -> list[tuple[str, int, int]]:
    """The page and every stylesheet, script and font it loads: (address, bytes on the wire,
    bytes uncompressed)."""
    response = client.get(path, headers=PHONE)
    assert response.status_code == 200, (path, response.status_code)
    html = plain_body(response)
    parts = [(path, len(response.data), len(html))]
    # Static files are linked with their content hash as a query (?v=...): anotador.web.assets.
    assets = re.findall(
        rb'(?:href|src)="(/static/[^"?]+\.(?:css|js|woff2?|ttf|otf))(?:\?[^"]*)?"', html
    )
    for asset in dict.fromkeys(assets):
        response = client.get(asset.decode(), headers=PHONE)
        parts.append((asset.decode(), len(response.data), len(plain_body(response))))
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
            wire = sum(size for _, size, _ in parts)
            plain = sum(size for _, _, size in parts)
            detail = ", ".join(f"{name} {size:,} B" for name, size, _ in parts)
            verdict = "ok" if wire <= LIMIT else "OVER"
            lines.append(
                f"hand page {variant} {layout}: first load {wire:,} B on the wire ({verdict}; "
                f"target <= {LIMIT:,} B), {plain:,} B uncompressed: {detail}"
            )
    return lines
