"""A small in-process least-recently-used cache (thread safe), for derived data only.

The backend of the app's named caches (:mod:`anotador.caching`). Whatever is kept here must
be keyed on everything it was computed from: for a match, ``caching.match_key`` (its
``Match.version`` and ``Match.content_hash``), so a change is a new key and nothing stale can
ever be served. Each process keeps its own entries.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic
from typing import TypeVar

T = TypeVar("T")


class LRU(Generic[T]):
    """At most ``size`` entries; with ``max_bytes``, also at most that many bytes of values
    (``bytes`` values: rendered PDFs), though the newest entry is always kept."""

    def __init__(self, size: int, max_bytes: int | None = None) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.entries: OrderedDict[Hashable, T] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: Hashable, value: T) -> None:
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.size or (len(self.entries) > 1 and self.too_heavy()):
                self.entries.popitem(last=False)

    def too_heavy(self) -> bool:
        if self.max_bytes is None:
            return False
        # Only byte-valued caches are given a byte bound.
        sizes = (len(value) for value in self.entries.values())  # type: ignore[arg-type]
        return sum(sizes) > self.max_bytes

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)
