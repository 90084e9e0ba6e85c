"""Memory a worker keeps after showing huge matches: the caches are bounded by bytes.

Three matches of ``rules.MAX_HANDS`` hands (2,000) are each viewed in the three languages
(the match page and the hand form, through the Flask test client, in a forked child as a
fresh worker of the server would be). Figures: the child's resident memory growth over what
it held before the first page (VmRSS; target: at most 300 MB), its peak (VmHWM), and the
bytes the ``scores`` and ``pages`` caches hold by their own reckoning. Then the same with
twelve such matches, in another fresh worker: the caches' bytes (``caching.SCORES_MAX_BYTES``,
``PAGES_MAX_BYTES``) keep what they hold within their bounds (measured: 158 MB of growth, and
312 MB when they were bounded by entries only).
"""

from __future__ import annotations

import io
import json
import multiprocessing
import tempfile
import time
from pathlib import Path
from typing import Any

from anotador import backup
from anotador import rules
from anotador.storage import caching
from anotador.storage.database import db
from benchmarks.restore import make_app
from benchmarks.restore import peak_rss_mb
from benchmarks.restore import reset_peak
from benchmarks.restore import status_mb
from benchmarks.sheets import match_document
from benchmarks.web import signed_in_client

MATCHES = 3
#: Then as many as fill the caches' bytes: what they hold stops growing.
MANY = 12
LANGUAGES = ("es", "en", "it")
TARGET_MB = 300


def huge_document(seed: int) -> dict[str, Any]:
    """A uruguaya 4p match of ``rules.MAX_HANDS`` closed hands, whose side that did not go out
    loses about what the other wins, so the match is still on at the last hand."""
    return match_document(
        rules.MAX_HANDS,
        rules.variant.MAX_TARGET,
        seed,
        cards_left=(100, 200),
        title=f"Huge {seed}",
    )


def view_all(folder: Path, ids: list[int], answer: Any) -> None:
    """In a fresh worker: every match page in every language, then the memory figures."""
    app = make_app(folder, "huge.sqlite3", migrate=False)
    client = signed_in_client(app)
    client.get("/")  # the app's own first-request work is not the matches'
    before = reset_peak()
    start = time.perf_counter()
    sizes = []
    for match_id in ids:
        for lang in LANGUAGES:
            for path in (f"/partidas/{match_id}", f"/partidas/{match_id}/manos/nueva"):
                page = client.get(path, headers={"Accept-Language": lang})
                assert page.status_code == 200, page.status_code
                sizes.append(len(page.data))
    elapsed = time.perf_counter() - start
    caches = caching.caches(app)
    answer.send(
        {
            "growth": status_mb("VmRSS") - before,
            "peak": peak_rss_mb() - before,
            "seconds": elapsed,
            "page_mb": max(sizes) / 2**20,
            "scores_mb": caches.scores.weight / 2**20,
            "pages_mb": caches.pages.weight / 2**20,
        }
    )


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        app = make_app(folder, "huge.sqlite3")
        lines = [json.dumps({"format": backup.BACKUP_FORMAT})]
        lines += [json.dumps(huge_document(seed)) for seed in range(MANY)]
        with app.app_context():
            report = backup.import_stream(io.BytesIO("\n".join(lines).encode()))
            assert report.created == MANY, report.problems
            ids = list(range(1, MANY + 1))
            db.engine.dispose()
        few = in_fresh_worker(folder, ids[:MATCHES])
        many = in_fresh_worker(folder, ids)
    verdict = "ok" if few["growth"] <= TARGET_MB else "OVER TARGET"
    return [
        f"huge matches: {MATCHES} of {rules.MAX_HANDS} hands, each in {len(LANGUAGES)} languages"
        f" ({few['page_mb']:.1f} MB a page, {few['seconds']:.1f} s in all)",
        f"  worker memory growth {few['growth']:.0f} MB (target <= {TARGET_MB} MB: "
        f"{verdict}), peak +{few['peak']:.0f} MB",
        f"  kept: scores {few['scores_mb']:.0f} MB, pages {few['pages_mb']:.0f} MB",
        f"  {MANY} such matches: growth {many['growth']:.0f} MB, peak +{many['peak']:.0f} MB;"
        f" kept: scores {many['scores_mb']:.0f} MB (at most "
        f"{caching.SCORES_MAX_BYTES // caching.MB}), pages {many['pages_mb']:.0f} MB (at most "
        f"{caching.PAGES_MAX_BYTES // caching.MB})",
    ]


def in_fresh_worker(folder: Path, ids: list[int]) -> dict[str, float]:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=view_all, args=(folder, ids, send))
    child.start()
    figures: dict[str, float] = receive.recv()
    child.join()
    return figures


if __name__ == "__main__":
    for line in run():
        print(line)
