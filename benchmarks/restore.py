"""Restoring large uploads through the history page (``POST /historial/restaurar``).

Each upload is posted through the Flask test client in a forked child, the multipart body
streamed from a file (so the figures are the worker's, not the benchmark's copy of the
upload). For each: seconds, the child's peak resident memory (VmHWM, reset just before the
post) and its growth over what the child held before posting (target: under 200 MB extra),
and how a history page fetched meanwhile by another forked child (another worker of the
server) fared: the restore must not starve other requests. (A forked child, as a server's
other worker would be; two threads of one process are covered by tests/storage/test_two_threads.py.)

Uploads (``ANOTADOR_BENCH_RESTORE_MB``, default 60 MB each):

- tiny invalid lines (``x``, ``{}``, ``1``...) after a backup header: the report keeps the
  first 50 and counts the rest;
- tiny lines that name the match format, so every one is parsed and read by the engine;
- one line as large as the whole upload (read past, never parsed);
- a backup of ``ANOTADOR_BENCH_RESTORE_MATCHES`` demo matches (default 5,000), restored into
  an empty database and then again (all already present).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa
from flask import Flask

from anotador import backup
from anotador import create_app
from anotador.commands import demo
from anotador.services.scope import EVERYTHING
from anotador.storage.database import db
from anotador.storage.models import Match
from benchmarks.web import signed_in_client

MB = 1024 * 1024
BOUNDARY = "anotadorbenchboundary"
TARGET_MB = 200
TINY = [b"x", b"{}", b"1", b"[]", b"null", b'"texto"', b"{roto", b'{"format": "otro"}']


def make_app(folder: Path, name: str, migrate: bool = True) -> Flask:
    """An app on a SQLite file (migrated first, its connections then closed, so a forked
    child never shares one); the form's CSRF token is not checked (no session)."""
    app = create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / name}",
        },
        instance_path=folder / "instance",
    )
    if migrate:
        with app.app_context():
            flask_migrate.upgrade()
            db.engine.dispose()
    return app


def write_lines(path: Path, size: int, lines: list[bytes], header: bool = True) -> None:
    """``size`` bytes of ``lines`` over and over (after a backup header)."""
    chunk = b"\n".join(lines * (MB // sum(len(line) + 1 for line in lines))) + b"\n"
    with path.open("wb") as file:
        if header:
            file.write(json.dumps({"format": backup.BACKUP_FORMAT}).encode() + b"\n")
        for _ in range(size // len(chunk)):
            file.write(chunk)


def write_huge_line(path: Path, size: int) -> None:
    with path.open("wb") as file:
        file.write(json.dumps({"format": backup.BACKUP_FORMAT}).encode() + b"\n")
        file.write(b'{"format": "anotador-match/1", "notes": "')
        for _ in range(size // MB):
            file.write(b"n" * MB)
        file.write(b'"}\n')


def write_backup(folder: Path, path: Path, count: int) -> float:
    """A backup of ``count`` seeded demo matches; the seconds seeding took."""
    app = make_app(folder, "restore-source.sqlite3")
    with app.app_context():
        started = time.perf_counter()
        demo.seed(count, seed_value=2)
        seconds = time.perf_counter() - started
        with path.open("w", encoding="utf-8") as file:
            file.writelines(backup.export_lines(EVERYTHING))
        db.engine.dispose()
    return seconds


def multipart(upload: Path) -> Path:
    """The request body of the restore form posting ``upload``, as a file beside it."""
    body = upload.with_suffix(".body")
    with body.open("wb") as file, upload.open("rb") as source:
        file.write(
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="copia"; '
            f'filename="{upload.name}"\r\nContent-Type: application/x-ndjson\r\n\r\n'.encode()
        )
        while block := source.read(MB):
            file.write(block)
        file.write(f"\r\n--{BOUNDARY}--\r\n".encode())
    return body


def status_mb(key: str) -> float:
    """A memory figure of /proc/self/status (``VmRSS``, ``VmHWM``) in MiB."""
    with open("/proc/self/status") as status:
        for row in status:
            if row.startswith(key + ":"):
                return int(row.split()[1]) / 1024
    raise KeyError(key)


def reset_peak() -> float:
    """Start measuring the peak resident memory from now (Linux: clear_refs 5 resets VmHWM,
    else ru_maxrss, which may remember more); the resident memory now, in MiB."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        pass
    return status_mb("VmRSS")


def peak_rss_mb() -> float:
    """The peak resident memory since :func:`reset_peak`, in MiB."""
    try:
        return status_mb("VmHWM")
    except (OSError, KeyError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def forked(action: Callable[[], dict[str, Any]]) -> tuple[Any, Any]:
    """Start ``action`` in a forked child: (process, the end its result comes from)."""
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)

    def child() -> None:
        try:
            writer.send(action())
        except BaseException as error:  # the parent says what went wrong, never waits forever
            writer.send({"error": repr(error)})
            raise

    process = context.Process(target=child)
    process.start()
    writer.close()  # the child's end only: a child that dies without a word is an EOFError
    return process, reader


def result(process: Any, reader: Any) -> dict[str, Any]:
    try:
        figures = reader.recv()
    except EOFError:
        process.join()
        raise RuntimeError(f"the child died (exit code {process.exitcode})") from None
    process.join()
    if "error" in figures:
        raise RuntimeError(f"failed in the child: {figures['error']}")
    return figures


def browse(folder: Path, database: str, ready: Any, stop: Any) -> dict[str, Any]:
    """Another user (another worker process) looking at the history until ``stop``."""
    client = signed_in_client(make_app(folder, database, migrate=False))
    assert client.get("/historial").status_code == 200  # warm up the page
    ready.set()
    page_ms: list[float] = []
    while not stop.is_set():
        started = time.perf_counter()
        assert client.get("/historial").status_code == 200
        page_ms.append(1000 * (time.perf_counter() - started))
        time.sleep(0.05)
    return {
        "pages": len(page_ms),
        "page_median_ms": statistics.median(page_ms) if page_ms else 0.0,
        "page_max_ms": max(page_ms, default=0.0),
    }


def restore(folder: Path, database: str, body: Path) -> dict[str, Any]:
    """Post the multipart ``body`` to the restore page; the worker's figures."""
    app = make_app(folder, database, migrate=False)
    client = signed_in_client(app)
    start_mb = reset_peak()
    started = time.perf_counter()
    with body.open("rb") as stream:
        response = client.post(
            "/historial/restaurar",
            input_stream=stream,
            content_length=body.stat().st_size,
            content_type=f"multipart/form-data; boundary={BOUNDARY}",
        )
    seconds = time.perf_counter() - started
    peak_mb = peak_rss_mb()
    with app.app_context():
        stored = db.session.scalar(sa.select(sa.func.count()).select_from(Match))
    return {
        "seconds": seconds,
        "peak_mb": peak_mb,
        "extra_mb": peak_mb - start_mb,
        "status": response.status_code,
        "stored": stored,
    }


def restore_in_child(folder: Path, database: str, upload: Path) -> dict[str, Any]:
    """Post ``upload`` to the restore page in a forked child while another forked child
    fetches the history page; their figures."""
    body = multipart(upload)
    make_app(folder, database)  # migrated here, once, before either child opens it
    context = multiprocessing.get_context("fork")
    ready, stop = context.Event(), context.Event()
    browser = forked(lambda: browse(folder, database, ready, stop))
    try:
        assert ready.wait(120), "the history page never answered"
        figures = result(*forked(lambda: restore(folder, database, body)))
    finally:
        stop.set()
        pages = result(*browser)
        body.unlink()
    return {**figures, **pages}


def line(label: str, upload: Path, figures: dict[str, Any]) -> str:
    verdict = "ok" if figures["extra_mb"] < TARGET_MB else "OVER"
    return (
        f"restore: {label} ({upload.stat().st_size / MB:.0f} MB): {figures['seconds']:.1f} s, "
        f"HTTP {figures['status']}, {figures['stored']} matches stored, peak RSS "
        f"{figures['peak_mb']:.0f} MB ({figures['extra_mb']:+.0f} MB, target < {TARGET_MB} MB "
        f"extra: {verdict}); history page meanwhile: {figures['pages']} fetched, median "
        f"{figures['page_median_ms']:.0f} ms, slowest {figures['page_max_ms']:.0f} ms"
    )


def run() -> list[str]:
    size = int(os.environ.get("ANOTADOR_BENCH_RESTORE_MB", "60")) * MB
    count = int(os.environ.get("ANOTADOR_BENCH_RESTORE_MATCHES", "5000"))
    lines = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        cases: list[tuple[str, str, Callable[[Path], None]]] = [
            ("tiny invalid lines", "tiny.jsonl", lambda p: write_lines(p, size, TINY)),
            (
                "tiny lines naming the match format (each one read by the engine)",
                "named.jsonl",
                lambda p: write_lines(p, size, [b'{"format": "anotador-match/1"}']),
            ),
            ("one line as large as the upload", "huge.jsonl", lambda p: write_huge_line(p, size)),
        ]
        for label, file_name, write in cases:
            upload = folder / file_name
            write(upload)
            figures = restore_in_child(folder, f"{file_name}.sqlite3", upload)
            lines.append(line(label, upload, figures))
            upload.unlink()
        upload = folder / "matches.jsonl"
        seed_s = write_backup(folder, upload, count)
        lines.append(f"restore: seed-demo {count} matches for the backup: {seed_s:.1f} s")
        first = restore_in_child(folder, "matches.sqlite3", upload)
        assert first["stored"] == count, first
        lines.append(line(f"backup of {count} matches into an empty database", upload, first))
        again = restore_in_child(folder, "matches.sqlite3", upload)
        assert again["stored"] == count, again
        lines.append(line(f"the same {count} again (all already present)", upload, again))
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
