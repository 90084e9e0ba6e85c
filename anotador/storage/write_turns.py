"""Saves to a SQLite database take turns, in order, instead of polling for its lock.

SQLite lets one connection write at a time. One that finds the database locked sleeps and
tries again (after 1, 2, 5, 10, ... 100 ms: its busy handler), so with twenty tables saving
at once the lock sits free while every waiting save sleeps, and an unlucky one waits seconds.
A change to a match (from its version claim to its commit) takes :func:`turn` first: threads
of a worker wait on a lock, workers on an exclusive ``flock`` of a file beside the database,
and each is woken the moment the one before it is done. PostgreSQL locks rows, not the
database: there a turn is nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Iterator

from anotador.storage.database import db

#: Beside the database file, as SQLite's own ``-wal`` and ``-shm``.
SUFFIX = "-turns"

_threads: dict[str, threading.Lock] = {}
#: Each worker process opens the file itself: a ``flock`` belongs to an open file, and a
#: forked worker shares its parent's.
_files: dict[tuple[int, str], int] = {}
_guard = threading.Lock()


@contextlib.contextmanager
def turn() -> Iterator[None]:
    """Hold the database's write turn (on SQLite; nothing elsewhere) until the block ends."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite":
        yield
        return
    database = url.database or ""
    on_disk = database not in ("", ":memory:") and not database.startswith("file:")
    lock = _threads.get(database)
    if lock is None:
        with _guard:
            lock = _threads.setdefault(database, threading.Lock())
    with lock:
        if not on_disk:
            yield
            return
        descriptor = lock_file(database)
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(descriptor, fcntl.LOCK_UN)


def lock_file(database: str) -> int:
    """This process's descriptor of the turns file of ``database`` (opened once)."""
    key = (os.getpid(), database)
    descriptor = _files.get(key)
    if descriptor is None:
        descriptor = os.open(database + SUFFIX, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        _files[key] = descriptor
    return descriptor
