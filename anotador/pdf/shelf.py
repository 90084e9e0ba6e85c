"""Rendered sheets kept where every worker sees them, and a cap on the sheets drawn at once.

A sheet is kept as ``<instance folder>/sheets/<key>.pdf``, its key being ``pdf.sheet_key``
(the match's id, ``Match.version`` and ``content_hash``, the names, paper, language and the
sheet's own files): every worker, every restart and every host sharing the folder finds it,
and a change to the match is a new key, so nothing stale is ever served. Files are written
whole and renamed into place (a reader never sees half a PDF).

Drawing happens in a child process (:mod:`anotador.pdf.child`), never in the worker, while
holding one of ``PDF_RENDER_SLOTS`` render slots: lock files in ``sheets/slots/`` locked with
``flock``, so the cap holds across every worker process of the host. Without a free slot
the caller answers "preparing, retry in a few seconds" instead of queueing.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from typing import Any

from flask import current_app

from anotador.pdf import child

try:
    import fcntl
except ImportError:  # Windows: the cap holds per process only (anotador run: one process)
    fcntl = None  # type: ignore[assignment]

#: Sheets drawn at once across every worker of the host, by default: one core stays free
#: for the pages on a 2-core machine.
DEFAULT_SLOTS = 1
#: Seconds a phone is told to wait before asking again for a sheet being prepared.
RETRY_SECONDS = 3
#: The most a drawing may take before it is given up (the request then says "preparing").
RENDER_TIMEOUT = 120

_local_slots = threading.Lock()
_held_here: set[int] = set()


class RenderFailed(Exception):
    """The child process could not draw the sheet."""


def folder() -> Path:
    path = Path(current_app.instance_path) / "sheets"
    path.mkdir(exist_ok=True)
    return path


def kept(key: str) -> bytes | None:
    """The sheet kept under ``key``, if any worker drew it."""
    try:
        return (folder() / f"{key}.pdf").read_bytes()
    except FileNotFoundError:
        return None


def keep(key: str, sheet: bytes) -> None:
    target = folder() / f"{key}.pdf"
    with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".part", delete=False) as part:
        part.write(sheet)
    os.replace(part.name, target)


def slots() -> int:
    return max(1, int(current_app.config.get("PDF_RENDER_SLOTS", DEFAULT_SLOTS)))


@contextlib.contextmanager
def render_slot() -> Iterator[bool]:
    """Hold a free render slot meanwhile (True), or none is free (False)."""
    place = folder() / "slots"
    place.mkdir(exist_ok=True)
    for number in range(slots()):
        handle = (place / f"{number}.lock").open("a")
        if take(handle, number):
            try:
                yield True
            finally:
                give_back(handle, number)
            return
        handle.close()
    yield False


def take(handle: IO[str], number: int) -> bool:
    with _local_slots:
        # flock is per open file: two threads of one process would both get it.
        if number in _held_here:
            return False
        if fcntl is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False
        _held_here.add(number)
        return True


def give_back(handle: IO[str], number: int) -> None:
    with _local_slots:
        _held_here.discard(number)
        handle.close()  # closing the file releases its lock


def draw(request: dict[str, Any]) -> bytes:
    """The PDF the child process draws for ``request`` (see :mod:`anotador.pdf.child`);
    drawn here instead with ``PDF_RENDER_PROCESS`` off (the tests: variants they register
    exist in this process only)."""
    if not current_app.config.get("PDF_RENDER_PROCESS", True):
        return child.draw(request)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "anotador.pdf.child"],
            input=json.dumps(request).encode(),
            capture_output=True,
            timeout=RENDER_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired as late:
        raise RenderFailed("took too long") from late
    if done.returncode != 0 or not done.stdout.startswith(b"%PDF"):
        raise RenderFailed(done.stderr.decode(errors="replace")[-500:])
    return done.stdout


def draw_and_keep(key: str | None, request: dict[str, Any]) -> bytes | None:
    """Draw the sheet in a free slot and keep it under ``key`` (None: not kept); None when
    every slot is busy."""
    with render_slot() as free:
        if not free:
            return None
        # Another worker may have finished it meanwhile.
        found = kept(key) if key is not None else None
        if found is None:
            found = draw(request)
            if key is not None:
                keep(key, found)
        return found
