"""A small in-process least-recently-used cache (thread safe), for derived data only.

The backend of the app's named caches (:mod:`anotador.caching`). Whatever is kept here must
be keyed on everything it was computed from: for a match, ``caching.match_key`` (its
``Match.version`` and ``Match.content_hash``), so a change is a new key and nothing stale can
ever be served. Each process keeps its own entries.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Hashable
from typing import Generic
from typing import TypeVar

T = TypeVar("T")


def length(value: object) -> int:
    """The weight of a text or bytes value: its length (a character of a page is about a
    byte: CPython keeps Latin-1 text one byte a character)."""
    return len(value)  # type: ignore[arg-type]


class LRU(Generic[T]):
    """At most ``size`` entries; with ``max_bytes``, also at most about that many bytes of
    values, each weighed once when it is put by ``weigh`` (by default its length: texts and
    bytes), though the newest entry is always kept."""

    def __init__(
        self, size: int, max_bytes: int | None = None, weigh: Callable[[T], int] = length
    ) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.weigh = weigh
        self.entries: OrderedDict[Hashable, tuple[T, int]] = OrderedDict()
        #: The bytes the entries weigh together (0 without ``max_bytes``: nothing weighed).
        self.weight = 0
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self.lock:
            found = self.entries.get(key)
            if found is None:
                return None
            self.entries.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: T) -> None:
        weight = 0 if self.max_bytes is None else self.weigh(value)
        with self.lock:
            former = self.entries.pop(key, None)
            if former is not None:
                self.weight -= former[1]
            self.entries[key] = (value, weight)
            self.weight += weight
            while len(self.entries) > self.size or (len(self.entries) > 1 and self.too_heavy()):
                _, (_, dropped) = self.entries.popitem(last=False)
                self.weight -= dropped

    def too_heavy(self) -> bool:
        return self.max_bytes is not None and self.weight > self.max_bytes

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.weight = 0

    def __len__(self) -> int:
        return len(self.entries)
