"""The lists of matches (home page, history), each drawn once per content.

A list page shows 20 to 50 rows and a row costs a macro call, a dozen translated words, a
URL and a few formatted figures: most of such a page. What a list shows depends only on the
states of its matches, so it is kept (``caches().lists``) under their
:func:`anotador.storage.caching.match_key` (id, version and content hash: a new hand, an edit, a
renamed player is a new key, never a stale list), plus the language and the script root; a
kept list is drawn without loading its matches at all (``services.queries.Listed``).

A list that is drawn again draws each row once per content too (``caches().rows``), under
a key made of exactly the values it shows: a row template draws ``match`` (and the page's
label tables, the same for every row of a language) and nothing else; the key functions
below list every value of the match it reads.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from flask import render_template
from flask import request
from markupsafe import Markup

from anotador.services.queries import Listed
from anotador.storage.caching import caches
from anotador.storage.caching import kept
from anotador.storage.caching import match_keys
from anotador.storage.models import Match
from anotador.words.i18n import locale_name


def cached_list(template: str, **lists_and_tables: Any) -> Markup:
    """``template`` drawn with ``lists_and_tables``: the lists of matches
    (:class:`~anotador.services.queries.Listed`) it draws, and label tables that depend on
    the language alone; once per state of every listed match in each language."""
    lists = {name: value for name, value in lists_and_tables.items() if isinstance(value, Listed)}
    keys = tuple((name, lists[name].keys()) for name in sorted(lists))
    listed_keys = [match_key for _name, match_keys in keys for match_key in match_keys]
    key = None if None in listed_keys else (template, locale_name(), request.script_root, keys)

    def drawn_from_listed() -> Hashable | None:
        # A match may change between the list's two reads: kept only if drawn from the
        # states it is keyed on.
        loaded = tuple((name, tuple(match_keys(lists[name].matches))) for name in sorted(lists))
        return key if loaded == keys else None

    return kept(
        caches().lists,
        key,
        lambda: Markup(render_template(template, **lists_and_tables)),
        drawn_from_listed,
    )


def cached_row(template: str, match: Match, key: Hashable, **tables: Any) -> Markup:
    """``template`` drawn for ``match``, once for its ``key`` in each language; ``tables``
    are label tables that depend on the language alone."""
    full = (template, locale_name(), request.script_root, key)
    return kept(
        caches().rows, full, lambda: Markup(render_template(template, match=match, **tables))
    )


def home_key(match: Match) -> Hashable:
    """What ``matches/_row.html`` shows."""
    return (
        match.id,
        match.status,
        match.winner,
        tuple(match.totals),
        match.variant,
        match.hand_count,
        match.updated_at,
        tuple(side.name for side in match.sides),
    )


def history_key(match: Match) -> Hashable:
    """What ``history/_row.html`` shows."""
    return (
        match.id,
        match.played_on,
        match.variant,
        match.status,
        match.title,
        match.winner,
        tuple(match.totals),
        tuple((side.name, tuple(seat.player.name for seat in side.seats)) for side in match.sides),
    )
