"""History, statistics and backup figures on seeded databases (``make bench``).

The history pages and a player's statistics page are timed through the test client on a
small and a large seeded SQLite database in the same run. The large one has
``ANOTADOR_BENCH_MATCHES`` matches (default 20,000 so a routine run takes about a minute;
set it to 100000 for the figures the issue asks for; 0 skips the pages). Export and import of
``ANOTADOR_BENCH_BACKUP`` matches (default 10,000) report seconds, the peak resident memory of
a forked process doing only that step (ru_maxrss, and its growth over the process start) and
peak Python memory (tracemalloc, measured in a second pass so it does not slow the timed one).
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa
from flask import Flask

from anotador import backup
from anotador import create_app
from anotador import services
from anotador.commands import demo
from anotador.services.scope import EVERYTHING
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.storage.models import Seat
from benchmarks.web import signed_in_client

SMALL = 100
PAGE = 500
RUNS = 9


def make_app(folder: Path, name: str) -> Flask:
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / name}"},
        instance_path=folder / "instance",
    )
    with app.app_context():
        flask_migrate.upgrade()
    return app


def best_ms(action: Callable[[], Any]) -> float:
    """The fastest of a few runs: the least disturbed by whatever else the machine does."""
    action()  # warm up
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return 1000 * min(times)


def get(app: Flask, url: str) -> Callable[[], None]:
    client = signed_in_client(app)

    def fetch() -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    return fetch


def typical_player(app: Flask) -> tuple[int, int]:
    """The player with the median number of matches, and that number."""
    with app.app_context():
        counts = db.session.execute(
            sa.select(Seat.player_id, sa.func.count())
            .group_by(Seat.player_id)
            .order_by(sa.func.count(), Seat.player_id)
        ).all()
        player_id, matches = counts[len(counts) // 2]
        assert db.session.get(Player, player_id) is not None
        return player_id, matches


def seed(app: Flask, count: int) -> float:
    with app.app_context():
        started = time.perf_counter()
        demo.seed(count, seed_value=1)
        return time.perf_counter() - started


def page_figures(app: Flask, count: int) -> dict[str, Any]:
    with app.app_context():
        offset = (
            min(PAGE - 1, (count - 1) // services.queries.PAGE_SIZE) * services.queries.PAGE_SIZE
        )
        cursor = services.queries.cursor_at(EVERYTHING, services.queries.Filters(), offset)
    deep = (
        f"/historial?despues={services.queries.encode_cursor(cursor)}" if cursor else "/historial"
    )
    player_id, matches = typical_player(app)
    return {
        "deep_page": offset // services.queries.PAGE_SIZE + 1,
        "first_ms": best_ms(get(app, "/historial")),
        "deep_ms": best_ms(get(app, deep)),
        "filtered_ms": best_ms(get(app, "/historial?estado=finished&variante=uruguaya")),
        "stats_ms": best_ms(get(app, f"/jugadores/{player_id}")),
        "player_matches": matches,
    }


def backup_figures(folder: Path, count: int) -> list[str]:
    """Export ``count`` seeded matches, import them into an empty database, import them
    again (all already present). Each step runs in a forked child so its peak resident
    memory (ru_maxrss) is its own; tracemalloc peaks come from a second, untimed pass."""
    source = make_app(folder, "export.sqlite3")
    seed_s = seed(source, count)
    target = folder / "backup.jsonl"

    def export() -> str:
        app = make_app(folder, "export.sqlite3")
        with app.app_context(), target.open("w", encoding="utf-8") as file:
            file.writelines(backup.export_lines(EVERYTHING))
        return f"{target.stat().st_size / 1e6:.1f} MB file"

    def restore(name: str) -> Callable[[], str]:
        def run() -> str:
            with make_app(folder, name).app_context(), target.open("rb") as file:
                return backup.import_stream(file).summary()

        return run

    export_s, export_rss, size = in_child(export)
    import_s, import_rss, summary = in_child(restore("import.sqlite3"))
    assert summary.startswith(f"{count} imported"), summary
    again_s, again_rss, again = in_child(restore("import.sqlite3"))
    assert again.startswith(f"0 imported, {count} already present"), again
    export_peak = peak(export)
    import_peak = peak(restore("import2.sqlite3"))
    return [
        f"history: seed-demo {count} matches (backup source): {seed_s:.1f} s",
        f"history: export {count} matches: {export_s:.1f} s, tracemalloc peak "
        f"{export_peak:.1f} MB, {export_rss} ({size})",
        f"history: import {count} matches into an empty database: {import_s:.1f} s, "
        f"tracemalloc peak {import_peak:.1f} MB, {import_rss} ({summary})",
        f"history: import the same {count} again: {again_s:.1f} s, {again_rss} ({again})",
    ]


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def in_child(action: Callable[[], str]) -> tuple[float, str, str]:
    """(seconds, peak resident memory, result) of ``action`` run in a forked process."""
    reader, writer = multiprocessing.get_context("fork").Pipe(duplex=False)

    def child() -> None:
        start = rss_mb()
        seconds, result = timed(action)
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        writer.send((seconds, f"peak RSS {peak_mb:.0f} MB ({peak_mb - start:+.0f} MB)", result))

    process = multiprocessing.get_context("fork").Process(target=child)
    process.start()
    seconds, rss, result = reader.recv()
    process.join()
    return seconds, rss, result


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def peak(action: Callable[[], Any]) -> float:
    """Peak Python allocations (MB) while ``action`` runs."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def run() -> list[str]:
    large = int(os.environ.get("ANOTADOR_BENCH_MATCHES", "20000"))
    backup_count = int(os.environ.get("ANOTADOR_BENCH_BACKUP", "10000"))
    lines = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if large == 0:  # ANOTADOR_BENCH_MATCHES=0: backup figures only
            return backup_figures(folder, backup_count)
        small_app, large_app = make_app(folder, "small.sqlite3"), make_app(folder, "large.sqlite3")
        seed(small_app, SMALL)
        lines.append(f"history: seed-demo {large} matches: {seed(large_app, large):.1f} s")
        small, big = page_figures(small_app, SMALL), page_figures(large_app, large)
        for key, label, target in (
            ("first_ms", "first history page", 2),
            ("deep_ms", f"history page {big['deep_page']} (small: {small['deep_page']})", 2),
            ("filtered_ms", "first page, status+variant filter", 2),
            ("stats_ms", "player statistics page", 3),
        ):
            ratio = big[key] / small[key]
            verdict = "ok" if ratio <= target else "OVER"
            lines.append(
                f"history: {label}: {small[key]:.1f} ms at {SMALL} matches, "
                f"{big[key]:.1f} ms at {large} ({ratio:.2f}x, target <= {target}x: {verdict})"
            )
        lines.append(
            f"history: the statistics player played {small['player_matches']} matches "
            f"(small) and {big['player_matches']} (large)"
        )
        lines += backup_figures(folder, backup_count)
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
