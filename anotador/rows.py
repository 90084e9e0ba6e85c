"""The rows of the lists of matches (home page, history), each drawn once per content.

A list page shows 20 to 50 rows and a row costs a macro call, a dozen translated words, a
URL and a few formatted figures: most of such a page. A row's HTML depends only on what it
shows, so it is kept, per process, under a key made of exactly those values (plus the
language and the script root): a changed total, name, status or player name is a new key,
never a stale row. A row template draws ``match`` (and the page's label tables, the same for
every row of a language) and nothing else; the key functions below list every value of the
match it reads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from flask import render_template
from flask import request
from markupsafe import Markup

from anotador.i18n import locale_name
from anotador.models import Match

#: Rows kept per process (a few hundred bytes each).
KEPT_ROWS = 4096

_rows: OrderedDict[Hashable, Markup] = OrderedDict()
_lock = threading.Lock()


def cached_row(template: str, match: Match, key: Hashable, **tables: Any) -> Markup:
    """``template`` drawn for ``match``, once for its ``key`` in each language; ``tables``
    are label tables that depend on the language alone."""
    full = (template, locale_name(), request.script_root, key)
    with _lock:
        found = _rows.get(full)
        if found is not None:
            _rows.move_to_end(full)
            return found
    html = Markup(render_template(template, match=match, **tables))
    with _lock:
        _rows[full] = html
        if len(_rows) > KEPT_ROWS:
            _rows.popitem(last=False)
    return html


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
