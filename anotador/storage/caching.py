"""The app's caches: what is derived from a stored match and kept, under one key.

One :class:`Caches` per app (``app.extensions["anotador.caches"]``, made by the factory)
holds the named caches:

Each is bounded by entries and, but for the summaries (all of one small size), by bytes (the
``*_MAX_BYTES`` below: an entry is weighed when kept), so a few huge matches cannot fill a
worker's memory:

- ``scores``: the engine's reading and score of a match and its hands' stored inputs
  (``services.matches.score``; a save reads nothing else of the hands before the changed one);
- ``pages``: the rendered content of a match page (``views.matches.show``);
- ``sheets``: rendered PDF score sheets (``views.pdf``);
- ``summaries``: a match's summary for the statistics (``services.statistics``);
- ``sections``: the rendered figures of a statistics page (``views.players``), keyed on
  the keys of every match they add up; and the ratings' pieces (``ratings.views``), keyed on
  the account's ratings version, which every change to its ratings bumps;
- ``lists`` and ``rows``: the home page's and the history's lists of matches, and their rows
  (:mod:`anotador.web.rows`);
- ``fragments``: pieces of many pages, per language and mount point (the head's links, a
  live page's words: ``templating.shared_fragment``);
- ``tournaments``: the rendered parts of a tournament's pages (its standings, a round's live
  view: ``tournaments.web.kept``), keyed on the tournament's state read in one statement.

Whatever is derived from a match is keyed on :func:`match_key` (database, id,
``Match.version``, bumped by every write, and ``Match.content_hash``, rewritten with every
change) plus what else it was made from (language, names, paper...), so a change is a new
key and nothing stale can ever be served: no cache is ever cleared on a write. Each cache is
an in-process :class:`LRU` today; ``Caches(backend=...)`` takes any other
maker of objects with the same ``get``/``put``/``clear`` (a cache shared by several
processes: its keys are tuples of strings and numbers, its values picklable).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any
from typing import Generic
from typing import Protocol
from typing import TypeVar

from flask import Flask
from flask import current_app
from markupsafe import Markup

from anotador import rules
from anotador.statistics import summaries as stats
from anotador.storage.database import db

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


EXTENSION = "anotador.caches"
MB = 1024 * 1024
# Each cache keeps at most so many entries and, but for the summaries (each the same small
# size), at most about so many bytes (each entry weighed once when it is kept: a text's or
# a PDF's length, a score by its hands), so that however large the matches viewed, a worker
# keeps at most about 150 MB of them.
#: Matches whose engine reading and score are kept (about 3 KB a hand: a match of 2,000
#: hands, ``rules.MAX_HANDS``, weighs some 6 MB).
SCORES_KEPT = 64
SCORES_MAX_BYTES = 64 * MB
#: Rendered match pages kept (one per match, language and mount point; about 1.5 KB a hand).
PAGES_KEPT = 64
PAGES_MAX_BYTES = 32 * MB
#: Rendered PDF sheets kept.
SHEETS_KEPT = 64
SHEETS_MAX_BYTES = 32 * MB
#: Match summaries kept (about 1.5 KB each: some 6 MB per process at most).
SUMMARIES_KEPT = 4096
#: Rendered statistics pages' figures kept (one per team, filter and language).
SECTIONS_KEPT = 64
SECTIONS_MAX_BYTES = 8 * MB
#: Rendered lists of matches kept (a home page's or a history page's, up to 20 KB each).
LISTS_KEPT = 128
LISTS_MAX_BYTES = 4 * MB
#: Rendered rows of those lists kept (a few hundred bytes each).
ROWS_KEPT = 4096
ROWS_MAX_BYTES = 4 * MB
#: Rendered pieces every page shares kept (one per language and mount point each; the
#: header one per account and page address too: about 1 KB each).
FRAGMENTS_KEPT = 1024
FRAGMENTS_MAX_BYTES = 4 * MB
#: Rendered parts of tournament pages kept (one per tournament state, page, language and
#: mount point: some 60 KB each for 80 pairs after 6 rounds).
TOURNAMENTS_KEPT = 128
TOURNAMENTS_MAX_BYTES = 8 * MB
#: What a kept score weighs: its reading, score and stored inputs, per hand and in all.
SCORE_BYTES_PER_HAND = 3 * 1024
SCORE_BYTES = 4 * 1024


def score_weight(entry: tuple[rules.Match, rules.MatchScore, tuple[dict[str, Any], ...]]) -> int:
    """About the bytes a kept score holds (measured with tracemalloc: some 2.8 KB a hand)."""
    return SCORE_BYTES + SCORE_BYTES_PER_HAND * len(entry[0].hands)


class Cache(Protocol[T]):
    """What a cache backend offers (:class:`LRU` does)."""

    def get(self, key: Hashable) -> T | None: ...

    def put(self, key: Hashable, value: T) -> None: ...

    def clear(self) -> None: ...


class Caches:
    """The app's named caches, made by ``backend(size, max_bytes=None, weigh=len)``."""

    #: The engine's reading, its score and the stored inputs of the hands it read.
    scores: Cache[tuple[rules.Match, rules.MatchScore, tuple[dict[str, Any], ...]]]
    pages: Cache[Markup]
    sheets: Cache[bytes]
    summaries: Cache[stats.MatchSummary]
    sections: Cache[Markup]
    lists: Cache[Markup]
    rows: Cache[Markup]
    fragments: Cache[Markup]
    tournaments: Cache[Markup]

    def __init__(self, backend: Callable[..., Cache[Any]] = LRU) -> None:
        self.scores = backend(SCORES_KEPT, max_bytes=SCORES_MAX_BYTES, weigh=score_weight)
        self.pages = backend(PAGES_KEPT, max_bytes=PAGES_MAX_BYTES)
        self.sheets = backend(SHEETS_KEPT, max_bytes=SHEETS_MAX_BYTES)
        self.summaries = backend(SUMMARIES_KEPT)
        self.sections = backend(SECTIONS_KEPT, max_bytes=SECTIONS_MAX_BYTES)
        self.lists = backend(LISTS_KEPT, max_bytes=LISTS_MAX_BYTES)
        self.rows = backend(ROWS_KEPT, max_bytes=ROWS_MAX_BYTES)
        self.fragments = backend(FRAGMENTS_KEPT, max_bytes=FRAGMENTS_MAX_BYTES)
        self.tournaments = backend(TOURNAMENTS_KEPT, max_bytes=TOURNAMENTS_MAX_BYTES)

    def clear(self) -> None:
        """Forget everything (as after a restart); never needed for correctness."""
        for cache in vars(self).values():
            cache.clear()


def kept(
    cache: Cache[T],
    key: Hashable | None,
    make: Callable[[], T],
    keep_under: Callable[[], Hashable | None] | None = None,
) -> T:
    """What ``cache`` keeps under ``key``, else ``make()``, then kept under ``key`` (or
    under ``keep_under()``, the key of what it was made from when that is read with it and
    may be newer; None: not kept). ``key`` None: made every time, never kept."""
    found = cache.get(key) if key is not None else None
    if found is None:
        found = make()
        under = key if keep_under is None else keep_under()
        if under is not None:
            cache.put(under, found)
    return found


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Caches()


def caches(app: Flask | None = None) -> Caches:
    """The caches of ``app`` (the current app by default)."""
    return (app or current_app).extensions[EXTENSION]


class Keyed(Protocol):
    """A stored match, or just enough of one (``services.queries.MatchState``)."""

    @property
    def id(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def content_hash(self) -> str | None: ...


def match_key(match: Keyed, *view: Hashable) -> tuple[Hashable, ...] | None:
    """The one key of whatever is derived from one state of a stored match: the database,
    its id, ``Match.version`` and ``Match.content_hash``, then ``view`` (what else the
    derived thing depends on). None (do not cache) for a match without a content hash."""
    key = match_keys([match])[0]
    return None if key is None else (*key, *view)


def match_keys(matches: Iterable[Keyed]) -> list[tuple[Hashable, ...] | None]:
    """The :func:`match_key` of each of ``matches``, without a view."""
    return state_keys((match.id, match.version, match.content_hash) for match in matches)


def state_keys(states: Iterable[Sequence[Any]]) -> list[tuple[Hashable, ...] | None]:
    """The :func:`match_key` of each of ``states``, without a view: plain rows that begin
    with a match's id, version and content hash, in that order (a list's, read past the
    ORM)."""
    url = db.engine.url.render_as_string()
    return [None if state[2] is None else (url, state[0], state[1], state[2]) for state in states]
