"""Rendered sheets kept where every worker sees them, within a cap on disk, and a cap on the
sheets drawn at once that no one requester can take whole.

A sheet is kept as ``<instance folder>/sheets/<key>.pdf``, its key being ``pdf.sheet_key``
(the match's id, ``Match.version`` and ``content_hash``, the names, paper, language and the
sheet's own files): every worker, every restart and every host sharing the folder finds it,
and a change to the match is a new key, so nothing stale is ever served. Files are written
whole and renamed into place (a reader never sees half a PDF). Kept sheets are evicted, the
oldest first, once older than ``PDF_SHEETS_MAX_AGE`` or beyond ``PDF_SHEETS_MAX_BYTES``
together (``ANOTADOR_SHEETS_DAYS``, ``ANOTADOR_SHEETS_MB``: config.sheet_settings).

Drawing happens in a child process (:mod:`anotador.sheets.child`), never in the worker, while
holding a render slot: lock files in ``sheets/slots/`` locked with ``flock``, so the caps
hold across every worker process of the host. ``PDF_RENDER_SLOTS`` slots draw the usual
sheets; one more, at a lower CPU priority, draws the costly or unusual ones (a match of
hundreds of hands, a blank sheet of an odd target), so those never keep the usual ones
waiting. A requester (an account, else an address) holds at most one usual slot at a time,
and a subject (a tournament, whose printouts every spectator may ask for at once) is drawn
in one slot at a time.
Without a free slot the caller answers "preparing, retry in a few seconds" instead of
queueing. A drawing that fails or takes too long is remembered for that key
(``sheets/failed/<key>``, for ``FAILED_SECONDS``) and not tried again meanwhile.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from typing import Any

from flask import current_app

from anotador.rules import make_rules
from anotador.sheets import child

try:
    import fcntl
except ImportError:  # Windows: the cap holds per process only (anotador run: one process)
    fcntl = None  # type: ignore[assignment]

#: Usual sheets drawn at once across every worker of the host, by default: one core stays
#: free for the pages on a 2-core machine (the unusual ones' slot runs at a lower priority).
DEFAULT_SLOTS = 1
#: Seconds a phone is told to wait before asking again for a sheet being prepared.
RETRY_SECONDS = 3
#: The most a drawing may take before it is given up (and remembered as failed).
RENDER_TIMEOUT = 120
#: How long a sheet that could not be drawn is not tried again (its state may be drawable
#: later only if what failed was the host: memory, a killed process).
FAILED_SECONDS = 3600
#: Requesters are told apart by one of this many lock files (two may share one, rarely).
REQUESTER_LOCKS = 64
#: The CPU priority (``nice``) of the child drawing an unusual sheet.
UNUSUAL_NICENESS = 10

_local_slots = threading.Lock()
_held_here: set[str] = set()


class RenderFailed(Exception):
    """The child process could not draw the sheet (or took too long)."""


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
    prune()


def prune(now: float | None = None) -> None:
    """Forget the kept sheets older than ``PDF_SHEETS_MAX_AGE`` seconds, then the oldest
    until they take at most ``PDF_SHEETS_MAX_BYTES`` together, and the failures older than
    :data:`FAILED_SECONDS`."""
    now = time.time() if now is None else now
    config = current_app.config
    max_age, room = config["PDF_SHEETS_MAX_AGE"], config["PDF_SHEETS_MAX_BYTES"]
    sheets = sorted(stats(folder().glob("*.pdf")), reverse=True)  # the newest first
    for modified, size, path in sheets:
        room -= size
        if room < 0 or now - modified > max_age:
            forget(path)
    for modified, _size, path in stats((folder() / "failed").glob("*")):
        if now - modified > FAILED_SECONDS:
            forget(path)


def stats(paths: Iterator[Path]) -> Iterator[tuple[float, int, Path]]:
    for path in paths:
        with contextlib.suppress(FileNotFoundError):  # another worker forgot it meanwhile
            status = path.stat()
            yield status.st_mtime, status.st_size, path


def forget(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def failed(key: str) -> bool:
    """Whether drawing the sheet under ``key`` failed less than FAILED_SECONDS ago."""
    try:
        modified = (folder() / "failed" / key).stat().st_mtime
    except FileNotFoundError:
        return False
    return time.time() - modified <= FAILED_SECONDS


def remember_failure(key: str) -> None:
    place = folder() / "failed"
    place.mkdir(exist_ok=True)
    (place / key).touch()


#: A match sheet of more hands than this (a printout of more rows) is drawn in the slot of
#: the costly sheets (a real match has under 100 hands; thousands take a minute).
COSTLY_ROWS = 200


def costly(wanted: dict[str, Any]) -> bool:
    return wanted["kind"] == "match" and len(wanted["document"]["hands"]) > COSTLY_ROWS


def usual(wanted: dict[str, Any]) -> bool:
    """Whether the sheet is one people print: a match's, or a blank one of its layout's own
    target. Only those are kept on disk: blank sheets of every target from 5 to 1,000,000
    would fill it, and they are drawn in the slot of the odd ones."""
    if wanted["kind"] != "blank" or wanted["target"] is None:
        return True
    usual = make_rules(wanted["variant"], wanted["layout"], {}).target
    return bool(wanted["target"] == usual)


def slots() -> int:
    return max(1, int(current_app.config.get("PDF_RENDER_SLOTS", DEFAULT_SLOTS)))


@contextlib.contextmanager
def render_slot(
    requester: str | None = None, unusual: bool = False, subject: str | None = None
) -> Iterator[bool]:
    """Hold a free render slot meanwhile (True), or none is free, or ``requester`` already
    holds one of the usual ones, or something of ``subject`` is being drawn (False).
    ``unusual``: the one slot of the costly or odd sheets (whoever holds it may still have a
    usual sheet drawn meanwhile). ``subject``: what the sheet shows (a tournament: its
    printouts are drawn one at a time, however many viewers ask at once)."""
    place = folder() / "slots"
    place.mkdir(exist_ok=True)
    with contextlib.ExitStack() as held:
        shares = [] if requester is None or unusual else [f"requester-{share(requester)}"]
        shares += [] if subject is None else [f"subject-{share(subject)}"]
        if not all(hold(held, place, name) for name in shares):
            yield False
            return
        names = ["unusual"] if unusual else [str(number) for number in range(slots())]
        yield any(hold(held, place, name) for name in names)


def share(who: str) -> int:
    """Which of :data:`REQUESTER_LOCKS` lock files stands for ``who``."""
    digest = hashlib.sha256(who.encode()).digest()
    return int.from_bytes(digest[:4], "big") % REQUESTER_LOCKS


def hold(held: contextlib.ExitStack, place: Path, name: str) -> bool:
    """Take the lock ``name`` until ``held`` closes (True), or another holds it (False)."""
    handle = (place / f"{name}.lock").open("a")
    if not take(handle, name):
        handle.close()
        return False
    held.callback(give_back, handle, name)
    return True


def take(handle: IO[str], name: str) -> bool:
    with _local_slots:
        # flock is per open file: two threads of one process would both get it.
        if name in _held_here:
            return False
        if fcntl is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False
        _held_here.add(name)
        return True


def give_back(handle: IO[str], name: str) -> None:
    with _local_slots:
        _held_here.discard(name)
        handle.close()  # closing the file releases its lock


def draw(request: dict[str, Any], unusual: bool = False) -> bytes:
    """The PDF the child process draws for ``request`` (see :mod:`anotador.sheets.child`), at
    a lower priority when ``unusual``; drawn here instead with ``PDF_RENDER_PROCESS`` off
    (the tests: variants they register exist in this process only)."""
    if not current_app.config.get("PDF_RENDER_PROCESS", True):
        return child.draw(request)
    command = [sys.executable, "-m", "anotador.sheets.child"]
    if unusual:
        command.append(str(UNUSUAL_NICENESS))
    try:
        done = subprocess.run(
            command,
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


Order = Callable[[], tuple[dict[str, Any], str | None]]


def draw_and_keep(
    key: str | None,
    order: Order,
    *,
    requester: str | None = None,
    subject: str | None = None,
    unusual: bool = False,
    on_disk: bool = True,
) -> tuple[bytes, str | None] | None:
    """The sheet under ``key`` drawn in a free slot (see :func:`render_slot`) and kept under
    the key of what was drawn (None, or not ``on_disk``: not kept), with that key; None when
    no slot is free for ``requester`` and ``subject``. ``order`` gives what to draw and its
    key, asked only once the slot is held and no worker drew the sheet meanwhile (laying
    out a tournament's printout costs the worker more than drawing a match's sheet).
    RenderFailed when it cannot be drawn, remembered under its key (:func:`failed`)."""
    with render_slot(requester, unusual, subject) as free:
        if not free:
            return None
        # Another worker may have finished it meanwhile.
        found = kept(key) if key is not None and on_disk else None
        if found is not None:
            return found, key
        wanted, key = order()
        try:
            found = draw(wanted, unusual)
        except RenderFailed:
            if key is not None:
                remember_failure(key)
            raise
        if key is not None and on_disk:
            keep(key, found)
        return found, key
