"""A route fuzzer: every route of the app, read from ``app.url_map``, gets hostile requests.

The database holds seeded matches of every variant (uruguaya, canastone, classic, real) and
2p/4p/6p-3x2 layouts, ongoing, finished and abandoned, with hands and players. The pages are
harvested once: the forms and links each offers, and which arguments each view asks of
``request.args`` and ``request.form`` (sent or not). Then, for every route and method:

1. the sweep, always the same requests: each value class of MUTATIONS (a digit that is not
   0-9, a huge number, a control character, NUL) in every typed field of each request a page
   offers at once (one at a time when that fails, so one bug cannot hide another) and in each
   field the page chose (hidden, select, radio, checkbox, button, a link's argument) one at a
   time; ALL_AT_ONCE values in each argument the view reads that no page sends; bad URL ids;
2. Hypothesis: EXAMPLES generated requests, from the offered ones or from scratch, with one,
   a few or every value hostile (HOSTILE, unicode digits, control characters, raw
   percent-escapes that are not UTF-8, numbers, dates, cursors, 10k texts, formulas), bad ids,
   uploads (garbage, invalid UTF-8, match files with a hostile value inside, NUL and lone
   surrogates in JSON, deep nesting), odd headers and content types.

For every request: never a 5xx (the failure names the route, the request and its hostile
values, and shows the server's traceback); the database unchanged (every row of every table)
after any GET and after any 4xx; and when the request wrote, the pages of what it wrote still
answer < 500 (a stored value the pages cannot show is a bug of the request that stored it),
then the seeded rows are put back, so every request starts from the same database. With CSRF
on, every POST without its token is a 4xx that writes nothing.

A route added tomorrow is fuzzed the day it is added; a route with a URL variable this file
cannot fill (an unknown converter, an id of an unknown table) fails loudly: teach URL_FILLERS.
``FUZZ_EXAMPLES=200 pytest tests/web/test_fuzz_routes.py`` searches longer.
"""

from __future__ import annotations

import copy
import datetime
import io
import itertools
import json
import os
import re
import tempfile
import traceback
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from typing import ClassVar
from typing import NamedTuple
from urllib.parse import parse_qsl
from urllib.parse import quote
from urllib.parse import urljoin
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask
from flask import got_request_exception
from flask import has_request_context
from flask import request
from flask import url_for
from flask.logging import default_handler
from hypothesis import HealthCheck
from hypothesis import Phase
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from stored import OWNER
from stored import create_account
from stored import create_stored_match
from stored import join_group
from stored import signed_in
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from anotador import create_app
from anotador import services
from anotador.storage import caching
from anotador.storage.database import db
from anotador.storage.models import Group
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import User
from anotador.tournaments.operations import clock as tournament_clock
from anotador.tournaments.operations import live as tournament_live
from anotador.tournaments.operations import rounds as tournament_rounds
from anotador.tournaments.operations import service as tournament_service
from anotador.tournaments.operations.service import SetUp
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair
from anotador.web.extensions import LANGUAGES
from anotador.web.views.engine import rules_bundle

#: Examples per route and method (``FUZZ_EXAMPLES`` overrides it); the CSRF pass runs fewer.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
CSRF_EXAMPLES = max(3, EXAMPLES // 5)
#: No "explain" phase: it re-runs a failure many times to list lines, the traceback says more.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)
FUZZ_SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}

# Values


def words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


UNICODE_DIGITS = words("² ³ ① １２ ١٢ ۴۲ १२ ߁ 𝟏𝟐 Ⅻ ½ 1² -² ⁻¹ ٣٫٥")
CONTROLS = (
    "\x00",
    "\x01",
    "\x1b",
    "\x7f",
    "\x85",
    "\u2028",
    "\u202e",
    "\u200b",
    "\ufeff",
    "\r\n",
    "\t",
    "Zoe\x01",
    "Ana\x00",
    "A\x1b[31mB",
    "a\nb",
    "1\x00",
)
NUMBERS = (
    *words("99999999999999999999 -9223372036854775809 9223372036854775808 2147483648 2147483647"),
    *words("-1 0 00 1.5 1e9 nan NaN inf -inf Infinity 1_000 0x1F +5 \u221285 1.500 1,5"),
    " 7 ",
    "1" * 400,
)
TEXTS = (
    "",
    " ",
    "\u3000",
    "\u00a0",
    "x" * 10_000,
    '=HYPERLINK("http://x","y")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'; DROP TABLE match; --",
    "../../etc/passwd",
    "%00",
    "%FF",
    "\\",
    "\U0001f0a1" * 61,
    "e\u0301" * 40,
    "ß" * 70,
    "\ufdfa" * 30,
    "İ",
)
DATES = words(
    """2024-01-01_99999999999999999999 0000-00-00 2024-02-30 9999-12-31_1 9999-12-31 0001-01-01
    2024-01-01_0 2024-01-01_-1 2024-01-01_² 2024-13-01 ٢٠٢٤-٠١-٠١ ２０２４-０１-０１ 2024-1-1
    2024-01-01T00:00 +002024-01-01 2024-01-01_ _1 2024-01-01_1_2 2024-01-01_2147483648
    99999-01-01"""
)
ACTIONS = words(
    """calc:s² penalty:s1:x calc:s99 calc:s-1 calc: calc penalty:s0: penalty:s²:muerto calc:s١
    calc:s１ calc:s0:extra penalty:: preview save calc:s0 calc:s1 : calc:s00000000000000000001
    calc:s9999999999999999999999"""
)
VALIDISH = words(
    """1 2 3 on true none uruguaya canastone classic real 2p 3p 4p 6p-3x2 6p-2x3 es en it a4 carta
    ongoing finished abandoned 2024-01-01 Ana 1,2 2,1 1,1"""
)
HOSTILE = UNICODE_DIGITS + CONTROLS + NUMBERS + TEXTS + DATES + ACTIONS
#: Query arguments and form fields the views read (besides the ones harvested from pages).
KNOWN_ARGS = words(
    """variante disposicion objetivo papel idioma desde hasta jugador q estado despues a b rival
    numero next version confirm confirmed action closer request_key abandoned other name copia"""
)
ODD_KEYS = ("", " ", "\x00", "²", "a[]", "k" * 300)
#: Percent-escapes a browser never sends: invalid UTF-8, surrogates, truncated escapes.
RAW_ESCAPES = words(
    """%FF %ED%A0%80 %ED%BF%BF %C0%AF %C0%80 %E2%82 %F4%90%80%80 %F0%9F % %G0 %0 %00 %01 + %2B
    %C2%B2 %EF%BC%91 %D9%A1 & = ;"""
)
ACCEPT_LANGUAGES = ("*", "zz-ZZ", "es;q=2", "en;q=nan", "it;q=1e999", "ES-uy,en;q=0.5", "x" * 5000)


class Raw(str):
    """A query-string or form value already percent-encoded (possibly not valid UTF-8)."""

    __slots__ = ()


def encode(text: str) -> str:
    return text if isinstance(text, Raw) else quote(text, safe="")


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 30]}…{text[-10:]} ({len(text)} chars)"


def short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 20]}…{text[-8:]} ({len(value)} chars)"


# Seeded data


def side(name: str, *players: str) -> dict[str, Any]:
    return {"name": name, "players": list(players)}


def stock_out(sides: int, **first: Any) -> dict[str, Any]:
    return {
        "end": "stock_out",
        "closer": None,
        "sides": [{"table_points": 100, **first}] + [dict(first) for _ in range(sides - 1)],
    }


#: (match file, first dealer): every variant, 2p/4p/6p-3x2, ongoing, finished and abandoned.
SEED: tuple[tuple[dict[str, Any], int | None], ...] = (
    (
        {
            "variant": "uruguaya",
            "layout": "4p",
            "title": "Uruguaya 4p",
            "played_on": "2024-05-01",
            "sides": [side("Nosotros", "Ana", "Beto"), side("Ellos", "Carla", "Dani")],
            "hands": [stock_out(2), stock_out(2)],
        },
        0,
    ),
    (
        {
            "variant": "canastone",
            "layout": "6p-3x2",
            "sides": [
                side("A", "Ana", "Beto"),
                side("B", "Carla", "Dani"),
                side("C", "Eva", "José"),
            ],
            "hands": [stock_out(3)],
        },
        4,
    ),
    (
        {
            "variant": "classic",
            "layout": "2p",
            "played_on": "2023-12-31",
            "sides": [side("Ana", "Ana"), side("Carla", "Carla")],
            "hands": [stock_out(2)] * 3,
        },
        None,
    ),
    (
        {
            "variant": "real",
            "layout": "4p",
            "sides": [side("N", "Ana", "Carla"), side("E", "Beto", "Dani")],
            "hands": [stock_out(2, muerto="taken")],
        },
        1,
    ),
    (
        {
            "variant": "real",
            "layout": "4p",
            "options": {"target": 3000},
            "start_scores": [2400, 2650],
            "sides": [side("N", "Ana", "Carla"), side("E", "Beto", "Dani")],
            "hands": [
                {
                    "end": "closed",
                    "closer": 0,
                    "sides": [
                        {"sucia": 1, "de_mil": 1, "table_points": 520, "hand_points": 25},
                        {"limpia": 1, "table_points": 310, "hand_points": 140},
                    ],
                }
            ],
        },
        None,
    ),
    (
        {
            "variant": "uruguaya",
            "layout": "6p-3x2",
            "sides": [
                side("A", "Eva", "Fede"),
                side("B", "Gus", "Hilda"),
                side("C", "Ana", "Dani"),
            ],
            "hands": [stock_out(3)] * 2,
        },
        2,
    ),
    (
        {
            "variant": "canastone",
            "layout": "2p",
            "abandoned": True,
            "sides": [side("Eva", "Eva"), side("Fede", "Fede")],
            "hands": [],
        },
        None,
    ),
)


def seed(app: Flask) -> None:
    for document, dealer in SEED:
        create_stored_match(app, {"format": "anotador-match/1", **document}, first_dealer=dealer)
    # A group with a second member and an invitation waiting, an invitation to the owner,
    # and links of the first match (for their routes).
    beto = create_account(app, "Beto")
    create_account(app, "Ceci")
    with app.app_context():
        owner = services.accounts.find_account(OWNER)
        group = services.groups.create_group(owner.id, "Familia")
        join_group(group, "Beto")
        services.groups.invite(group, owner.id, "Ceci")
        services.groups.invite(services.groups.create_group(beto, "Club"), beto, OWNER)
        first = services.queries.load_match(min(stored_ids(app).hands))
        services.sharing.set_link(first, "table", True)
        services.sharing.set_link(first, "spectator", True)
        seed_tournament(owner.id)
        db.session.remove()


def seed_tournament(owner_id: int) -> None:
    """Tournaments of the owner's whose pages offer every form: round 1 being played (a table
    and a bye; with a spectator link), drawn (swaps, start), closed (the next draw, finish,
    reopening the round), finished (reopening it) and a table whose match ended, awaiting its
    pairs' confirmation (the phone's and the director's); a table of the round being played
    calls the director, and its round's clock runs (the awaiting table's round has none: its
    page offers to start one)."""
    # The awaiting table's match first: the harvest opens the first matches' pages.
    setup = SetUp("Sabato", datetime.date(2026, 12, 3), "uruguaya", {}, 1, "wdl", "danese", 3)
    awaiting = tournament_service.create_tournament(owner_id, setup)
    assert isinstance(awaiting, Tournament)
    for first, second in (("Gabi", "Hugo"), ("Iris", "Juan")):
        tournament_service.add_pair(awaiting, owner_id, first, second)
    round_row = tournament_rounds.draw_round(awaiting, owner_id)
    tournament_rounds.start_round(round_row, owner_id)
    match = next(table.match for table in round_row.tables if table.match is not None)
    hand = {"end": "closed", "closer": 0, "sides": [{"clean": 1, "table_points": 200}, {}]}
    assert services.hands.record_hand(match, hand, match.version, None).ok
    made = []
    for name in ("Noche", "Martes", "Jueves", "Viernes"):
        setup = SetUp(name, datetime.date(2026, 12, 3), "burraco", {}, 3, "fibur-3", "danese", 3)
        tournament = tournament_service.create_tournament(owner_id, setup)
        assert isinstance(tournament, Tournament)
        for first, second in (("Gabi", "Hugo"), ("Iris", "Juan"), ("Kati", "Luis")):
            tournament_service.add_pair(tournament, owner_id, first, second)
        made.append((tournament, tournament_rounds.draw_round(tournament, owner_id)))
    (playing, first), _drawn, *played = made
    tournament_rounds.start_round(first, owner_id)
    tournament_service.set_spectator_link(playing, owner_id, True)
    # A table calling the director: its round page offers to mark the call answered.
    tournament_live.call(next(table for table in first.tables if not table.is_bye))
    # Its clock running: its round page offers to add minutes and to stop it.
    tournament_clock.start(first, owner_id, 45)
    for _tournament, last in played:
        tournament_rounds.start_round(last, owner_id)
        for table in last.tables:
            if not table.is_bye:
                tournament_rounds.enter_result(table, owner_id, (600, 400))
        tournament_rounds.close_round(last, owner_id)
    finished, _ = played[-1]
    tournament_rounds.finish(finished, owner_id)


@dataclass(frozen=True)
class Stored:
    """The ids in the database: match id -> its number of hands; player ids; static files."""

    hands: dict[int, int]
    players: tuple[int, ...]
    static: tuple[str, ...] = ()  # the files under the app's static folder
    accounts: tuple[int, ...] = ()
    groups: tuple[int, ...] = ()
    tokens: tuple[str, ...] = ()  # the matches' table and spectator links, the tournament's
    tournaments: tuple[int, ...] = ()
    tournament_pairs: tuple[int, ...] = ()
    round_tables: tuple[int, ...] = ()

    def ids_of(self, table: str) -> Iterable[int]:
        return {
            "match": self.hands,
            "player": self.players,
            "account": self.accounts,
            "account_group": self.groups,
            "tournament": self.tournaments,
            "tournament_pair": self.tournament_pairs,
            "round_table": self.round_tables,
        }[table]


def stored_ids(app: Flask) -> Stored:
    with app.app_context():
        query = sa.select(Match.id, Match.hand_count).order_by(Match.id)
        hands = {int(match_id): int(count) for match_id, count in db.session.execute(query)}
        players = tuple(db.session.scalars(sa.select(Player.id).order_by(Player.id)))
        accounts = tuple(db.session.scalars(sa.select(User.id).order_by(User.id)))
        groups = tuple(db.session.scalars(sa.select(Group.id).order_by(Group.id)))
        links = sa.select(Match.table_token, Match.spectator_token)
        tokens = tuple(t for row in db.session.execute(links) for t in row if t)
        shared = sa.select(Tournament.spectator_token).where(
            Tournament.spectator_token.is_not(None)
        )
        tokens += tuple(db.session.scalars(shared))
        tournaments = tuple(db.session.scalars(sa.select(Tournament.id).order_by(Tournament.id)))
        pairs = tuple(db.session.scalars(sa.select(TournamentPair.id).order_by(TournamentPair.id)))
        tables = tuple(db.session.scalars(sa.select(RoundTable.id).order_by(RoundTable.id)))
        db.session.remove()
    folder = Path(app.static_folder or "static")
    files = sorted(
        quote(p.relative_to(folder).as_posix()) for p in folder.rglob("*") if p.is_file()
    )
    return Stored(
        hands, players, tuple(files), accounts, groups, tokens, tournaments, pairs, tables
    )


# Every row of every table

Rows = dict[str, dict[tuple[Any, ...], tuple[Any, ...]]]


THROTTLE = "sign_in_failure"
#: The fuzzer's clients sign in (``stored.signed_in``) before their requests, a row each.
SIGNED_IN = "signed_in"


def without(table: str, rows: Rows) -> Rows:
    return {name: found for name, found in rows.items() if name != table}


def table_rows(app: Flask) -> Rows:
    with app.app_context(), db.engine.connect() as connection:
        rows: Rows = {}
        for table in db.metadata.sorted_tables:
            key = [table.columns.keys().index(c.name) for c in table.primary_key.columns]
            rows[table.name] = {
                tuple(row[i] for i in key): tuple(row)
                for row in connection.execute(sa.select(table))
            }
    return rows


def put_back(app: Flask, rows: Rows) -> None:
    """Make every table hold exactly ``rows`` again. The counters the database's triggers
    keep (``MatchesVersion``) are written after the other tables' commit (when PostgreSQL runs
    their triggers), over what the triggers did; what the app kept under the counters' later
    values is forgotten, as a restart would."""
    counters = db.metadata.tables[COUNTERS]
    tables = [table for table in db.metadata.sorted_tables if table is not counters]
    with app.app_context():
        db.session.remove()
        with db.engine.begin() as connection:
            for table in reversed(tables):
                connection.execute(table.delete())
            for table in tables:
                insert_rows(connection, table, rows[table.name])
        with db.engine.begin() as connection:
            connection.execute(counters.delete())
            insert_rows(connection, counters, rows[COUNTERS])
        caching.caches(app).clear()


def insert_rows(
    connection: sa.Connection, table: sa.Table, rows: dict[Any, tuple[Any, ...]]
) -> None:
    if rows:
        names = table.columns.keys()
        connection.execute(
            table.insert(), [dict(zip(names, row, strict=True)) for row in rows.values()]
        )


#: The table of counters that triggers keep (``storage.models.MatchesVersion``).
COUNTERS = "matches_version"


def rows_diff(before: Rows, after: Rows, limit: int = 6) -> str:
    lines = []
    for name in before:
        old, new = before[name], after.get(name, {})
        for key in sorted(old.keys() | new.keys(), key=repr):
            if old.get(key) != new.get(key):
                lines.append(
                    f"    {name} {key}: {short(old.get(key), 200)} -> {short(new.get(key), 200)}"
                )
    more = f"\n    … {len(lines) - limit} more" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more


def affected(before: Rows, after: Rows) -> dict[str, set[Any]]:
    """The primary keys (first column) of the rows a change touched, in every table, plus the
    rows they belong to (foreign keys up) and those of the rows that point at them."""
    tables = {table.name: table for table in db.metadata.sorted_tables}
    parents: dict[str, list[tuple[int, str]]] = {
        name: [
            (table.columns.keys().index(fk.parent.name), fk.column.table.name)
            for fk in table.foreign_keys
        ]
        for name, table in tables.items()
    }

    def row(name: str, key: tuple[Any, ...]) -> tuple[Any, ...] | None:
        return after[name].get(key) or before[name].get(key)

    def up(found: set[tuple[str, tuple[Any, ...]]]) -> set[tuple[str, tuple[Any, ...]]]:
        todo = list(found)
        while todo:
            name, key = todo.pop()
            values = row(name, key)
            for index, parent in parents[name] if values else ():
                if values[index] is not None and (parent, (values[index],)) not in found:
                    found.add((parent, (values[index],)))
                    todo.append((parent, (values[index],)))
        return found

    changed = {
        (name, key)
        for name in before
        for key in before[name].keys() | after[name].keys()
        if before[name].get(key) != after[name].get(key)
    }
    touched = up(set(changed))
    children = {
        (name, key)
        for name in tables
        for rows in (before[name], after[name])
        for key, values in rows.items()
        if any((parent, (values[i],)) in touched for i, parent in parents[name])
    }
    result: dict[str, set[Any]] = {name: set() for name in tables}
    for name, key in up(touched | children):
        result[name].add(key[0])
    return result


# URL variables


@dataclass(frozen=True)
class Filler:
    """How to fill one URL variable: its valid values (given the variables before it) and
    bad ones (already percent-encoded); ``table`` when the values are that table's ids."""

    valid: Callable[[Stored, dict[str, str]], list[str]]
    bad: Callable[[Stored], list[str]]
    table: str | None = None
    stored: bool = False  # the page depends on the stored rows


BAD_INTEGERS = [
    "0",
    "-1",
    "2147483648",
    "9223372036854775808",
    "99999999999999999999",
    "abc",
    quote("²"),
    quote("١٢"),
    quote("１"),
    "1.5",
    "1e3",
    "%FF",
    "%ED%A0%80",
    "%00",
    "1%00",
    "%201",
]


def ids(table: str, exclude: str | None = None) -> Filler:
    def valid(stored: Stored, chosen: dict[str, str]) -> list[str]:
        values = stored.ids_of(table)
        return [str(v) for v in values if exclude is None or str(v) != chosen.get(exclude)]

    def bad(stored: Stored) -> list[str]:
        values = list(stored.ids_of(table))
        return [str(max(values, default=0) + 1), str(2**31 - 1), *BAD_INTEGERS]

    return Filler(valid, bad, table=table, stored=True)


def hand_numbers(stored: Stored, chosen: dict[str, str]) -> list[str]:
    match = chosen.get("match_id", "")
    count = stored.hands.get(int(match), 0) if match.isascii() and match.isdigit() else 0
    return [str(n) for n in range(1, count + 1)]


def static_files(stored: Stored, chosen: dict[str, str]) -> list[str]:
    return list(stored.static)


#: (converter, variable) -> how to fill it. Anything else fails the test: add it here.
URL_FILLERS: dict[tuple[str, str], Filler] = {
    ("id", "match_id"): ids("match"),
    ("id", "player_id"): ids("player"),
    ("id", "first_id"): ids("player"),
    ("id", "second_id"): ids("player", exclude="first_id"),
    ("id", "group_id"): ids("account_group"),
    ("id", "user_id"): ids("account"),
    ("id", "invitee_id"): ids("account"),
    ("string", "token"): Filler(
        lambda s, c: list(s.tokens),
        lambda s: ["a" * 43, "%00" * 43, quote("ñ") * 43, "x" * 44, ""],
        stored=True,
    ),
    ("int", "number"): Filler(
        hand_numbers, lambda s: ["9", "99", str(2**63), "0", *BAD_INTEGERS], stored=True
    ),
    ("id", "tournament_id"): ids("tournament"),
    ("id", "pair_id"): ids("tournament_pair"),
    ("id", "table_id"): ids("round_table"),
    # A tournament's round: the seeded one has its first.
    ("id", "number"): Filler(lambda s, c: ["1"], lambda s: ["2", "99", *BAD_INTEGERS], stored=True),
    ("default", "lang"): Filler(
        lambda s, c: list(LANGUAGES),
        lambda s: ["xx", "ES", "", "%00", "%FF", "e%C3%B1", "..", quote("²")],
    ),
    ("default", "digest"): Filler(
        lambda s, c: [rules_bundle()[0]],
        lambda s: ["0" * 16, "", "%00", "..", rules_bundle()[0].upper(), "a" * 300],
    ),
    ("sheet_key", "key"): Filler(
        # A well-formed key that is no state's: the link sends to the sheet as it is now.
        lambda s, c: ["0" * 64],
        lambda s: ["A" * 64, "0" * 63, "0" * 65, "%00" * 64, "..", "", quote("ñ") * 32],
    ),
    ("path", "filename"): Filler(
        static_files,
        lambda s: ["../app.py", "%2e%2e/%2e%2e/etc/passwd", "css/%00", "nope.css", "a" * 300],
    ),
}
PLACEHOLDER = re.compile(r"<(?:(?P<converter>\w+)(?:\([^)]*\))?:)?(?P<name>\w+)>")


class Route(NamedTuple):
    endpoint: str
    rule: str
    method: str

    @property
    def id(self) -> str:
        return f"{self.method} {self.rule}"


def app_routes(app: Flask) -> list[Route]:
    return sorted(
        Route(rule.endpoint, rule.rule, method)
        for rule in app.url_map.iter_rules()
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    )


def listed_routes() -> list[Route]:
    """The routes of an app built only to read its url_map (tests are parametrized by it)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/routes.sqlite3"},
            instance_path=Path(folder) / "instance",
        )
        routes = app_routes(app)
        with app.app_context():
            db.engine.dispose()
    return routes


ROUTES = listed_routes()


def variables(app: Flask, rule: str) -> list[tuple[str, Filler]]:
    """The URL variables of ``rule`` in order, each with its filler; fails on one without."""
    found = []
    for placeholder in PLACEHOLDER.finditer(rule):
        converter, name = placeholder["converter"] or "default", placeholder["name"]
        if converter not in app.url_map.converters:
            pytest.fail(f"{rule}: unknown converter {converter!r}")
        filler = URL_FILLERS.get((converter, name))
        if filler is None:
            pytest.fail(
                f"{rule}: no way to fill <{converter}:{name}>: add it to URL_FILLERS in "
                f"{Path(__file__).name} (its valid values from the seeded data, and bad ones)"
            )
        found.append((name, filler))
    arguments = next(r.arguments for r in app.url_map.iter_rules() if r.rule == rule)
    assert {name for name, _ in found} == set(arguments), f"{rule}: could not read its variables"
    return found


def build_path(rule: str, values: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda found: values[found["name"]], rule)


def valid_combinations(
    app: Flask, rule: str, stored: Stored, limit: int = 1000
) -> list[dict[str, str]]:
    combinations: list[dict[str, str]] = [{}]
    for name, filler in variables(app, rule):
        combinations = [
            {**chosen, name: value}
            for chosen in combinations
            for value in filler.valid(stored, chosen)
        ][:limit]
    return combinations


# Harvest: the forms and links of the rendered pages


def varied(combinations: list[dict[str, str]]) -> list[dict[str, str]]:
    """Each first value once (every match) before any twice (its second hand)."""
    seen: dict[Any, int] = {}
    ranked = []
    for index, values in enumerate(combinations):
        first = next(iter(values.values()), None)
        seen[first] = seen.get(first, -1) + 1
        ranked.append((seen[first], index, values))
    return [values for _rank, _index, values in sorted(ranked, key=lambda r: r[:2])]


@dataclass(frozen=True)
class Sample:
    """A request a page of the app offers: a form's fields, a link's query. ``fixed`` names
    the values the page chose (hidden fields, selects, radios, buttons, a link's arguments),
    the rest are typed."""

    endpoint: str
    method: str
    values: tuple[tuple[str, str], ...]  # URL variables
    query: tuple[tuple[str, str], ...]
    form: tuple[tuple[str, str], ...]
    files: tuple[str, ...] = ()
    fixed: frozenset[str] = frozenset()


class PageParser(HTMLParser):
    """The forms (fields, buttons, file inputs) and local URLs of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self.urls: list[str] = []
        self.names: set[str] = set()
        self.values: dict[str, set[str]] = {}
        self.form: dict[str, Any] | None = None
        self.select: list[Any] | None = None
        self.option: list[Any] | None = None
        self.textarea: list[str] | None = None

    def note(self, name: str, value: str, *, send: bool = True, fixed: bool = True) -> None:
        self.names.add(name)
        self.values.setdefault(name, set()).add(value)
        if self.form is not None and send:
            self.form["fields"].append((name, value))
            if fixed:
                self.form["fixed"].add(name)

    def button(self, name: str, value: str) -> None:
        self.note(name, value, send=False)
        if self.form is not None:
            self.form["buttons"].append((name, value))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        for key, value in a.items():
            local = value.startswith("/") and not value.startswith("//")
            if local and (key in ("href", "action", "formaction") or key.endswith("-url")):
                self.urls.append(value)
                if self.form is not None and key != "href":
                    self.form["targets"].append(value)
        name = a.get("name")
        kind = a.get("type", "text").lower()
        if tag == "form":
            self.form = {
                "action": a.get("action", ""),
                "method": a.get("method", "get").upper(),
                "fields": [],
                "fixed": set(),
                "unticked": [],
                "buttons": [],
                "files": [],
                "targets": [],
            }
            self.forms.append(self.form)
        elif tag == "input" and name:
            if kind == "file":
                self.names.add(name)
                if self.form is not None:
                    self.form["files"].append(name)
            elif kind in ("submit", "image"):
                self.button(name, a.get("value", ""))
            elif kind in ("checkbox", "radio"):
                self.note(name, a.get("value", "on"), send="checked" in a)
                if kind == "checkbox" and "checked" not in a and self.form is not None:
                    self.form["unticked"].append((name, a.get("value", "on")))
            elif kind not in ("button", "reset"):
                self.note(name, a.get("value", ""), fixed=kind == "hidden")
        elif tag == "button" and name and kind == "submit":
            self.button(name, a.get("value", ""))
        elif tag == "select" and name:
            self.select = [name, [], None]
        elif tag == "option" and self.select is not None:
            self.option = [a.get("value"), "selected" in a, []]
        elif tag == "textarea" and name:
            self.textarea = [name]

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option[2].append(data)
        if self.textarea is not None:
            self.textarea.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self.option is not None and self.select is not None:
            value, selected, text = self.option
            value = "".join(text).strip() if value is None else value
            self.select[1].append(value)
            if selected:
                self.select[2] = value
            self.option = None
        elif tag == "select" and self.select is not None:
            name, options, selected = self.select
            for value in options:
                self.note(name, value, send=False)
            if options:
                self.note(name, selected if selected is not None else options[0])
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            self.note(self.textarea[0], "".join(self.textarea[1:]), fixed=False)
            self.textarea = None
        elif tag == "form":
            self.form = None


@dataclass
class Harvest:
    samples: dict[tuple[str, str], list[Sample]] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    values: dict[str, set[str]] = field(default_factory=dict)
    uploads: set[tuple[str, str]] = field(default_factory=set)  # (endpoint, file field)
    #: (endpoint, method) -> the ("query" or "form", key) its view asked for
    reads: dict[tuple[str, str], set[tuple[str, str]]] = field(default_factory=dict)

    def add(self, sample: Sample) -> None:
        found = self.samples.setdefault((sample.endpoint, sample.method), [])
        same_url = sum(1 for other in found if other.values == sample.values)
        if sample not in found and same_url < 8:  # a variety of matches, not one's 40 buttons
            found.append(sample)

    def read(self, app: Flask, page_url: str, html: str) -> None:
        parser = PageParser()
        parser.feed(html)
        self.names |= parser.names
        for name, values in parser.values.items():
            self.values.setdefault(name, set()).update(values)
        for url in parser.urls:
            self.add_request(app, urljoin(page_url, url), "GET", (), (), set())
        for form in parser.forms:
            unticked = form["unticked"]
            fixed = form["fixed"] | {name for name, _ in form["buttons"] + unticked}
            presses = [[]] + [[button] for button in form["buttons"]]
            # As shown, and with every checkbox ticked ("yes, the same person").
            ticks = [[], unticked] if unticked else [[]]
            for target in [form["action"] or page_url, *form["targets"]]:
                url = urljoin(page_url, target)
                for press, tick in itertools.product(presses, ticks):
                    fields = form["fields"] + tick + press
                    self.add_request(app, url, form["method"], fields, form["files"], fixed)

    def add_request(
        self, app: Flask, url: str, method: str, fields: Any, files: Any, fixed: set[str]
    ) -> None:
        parts = urlsplit(url)
        if parts.netloc:
            return
        adapter = app.url_map.bind("localhost")
        try:
            endpoint, values = adapter.match(parts.path, method)
        except HTTPException:
            # A form's data-*-url may take a method the form does not use (the JSON preview).
            try:
                endpoint, values = adapter.match(parts.path, "POST")
                method = "POST"
            except HTTPException:
                return
        query = tuple(parse_qsl(parts.query, keep_blank_values=True))
        body = tuple(fields)
        if method == "GET":
            query, body = query + body, ()
        fixed = fixed | {name for name, _ in parse_qsl(parts.query, keep_blank_values=True)}
        if not fields:  # a link: every argument is the page's choice
            fixed |= {name for name, _ in query}
        for name in files:
            self.uploads.add((endpoint, name))
        url_values = tuple((k, quote(str(v), safe="/")) for k, v in values.items())
        self.add(Sample(endpoint, method, url_values, query, body, tuple(files), frozenset(fixed)))


_HARVESTS: dict[Any, Harvest] = {}


#: Pages for a browser signed in nowhere (a signed-in one is sent home from them).
ANONYMOUS_PAGES = ("/cuenta/entrar", "/cuenta/crear")


def client_for(app: Flask, path: str) -> Any:
    """A client signed in as the owner, a new one each time (an empty POST to the sign-out
    signs out), but on the sign-in and sign-up pages."""
    if path.startswith(ANONYMOUS_PAGES):
        return app.test_client()
    return signed_in(app)


def harvest(fuzzer: Fuzzer) -> Harvest:
    """What the pages offer: GET every page of every seeded id, POST every form route empty
    (a confirmation page has fields of its own), then follow each GET form and link once.
    Always with CSRF off (the pages of a CSRF-on app have the same forms)."""
    app = fuzzer.app
    with app.app_context():
        key = (db.engine.dialect.name, repr(fuzzer.stored))
    if key in _HARVESTS:
        return _HARVESTS[key]
    found = Harvest()
    visited: set[tuple[str, str]] = set()
    not_html: set[tuple[str, str]] = {("static", "GET")}

    def visit(endpoint: str, method: str, url: str, query: Any = ()) -> None:
        target = url + ("?" + "&".join(f"{quote(k)}={quote(v)}" for k, v in query) if query else "")
        if (method, target) in visited or (endpoint, method) in not_html:
            return
        visited.add((method, target))
        RecordingArgs.asked.clear()
        response = client_for(app, target).open(target, method=method)
        found.reads.setdefault((endpoint, method), set()).update(RecordingArgs.asked)
        if response.mimetype != "text/html":
            not_html.add((endpoint, method))  # a PDF, a download: no forms, slow to make
        elif response.status_code < 500:
            found.read(app, target, response.get_data(as_text=True))

    csrf = app.config["WTF_CSRF_ENABLED"]
    app.config["WTF_CSRF_ENABLED"] = False
    try:
        # Every page before any POST: an empty POST may delete what a page shows (a group).
        for route in sorted(app_routes(app), key=lambda route: route.method != "GET"):
            for values in varied(valid_combinations(app, route.rule, fuzzer.stored))[:8]:
                visit(route.endpoint, route.method, build_path(route.rule, values))
        for (endpoint, method), samples in list(found.samples.items()):
            if method == "GET":
                rule = next(r.rule for r in app.url_map.iter_rules() if r.endpoint == endpoint)
                for sample in samples[:6]:
                    visit(endpoint, "GET", build_path(rule, dict(sample.values)), sample.query)
    finally:
        app.config["WTF_CSRF_ENABLED"] = csrf
    put_back(app, fuzzer.seed_rows)
    _HARVESTS[key] = found
    return found


# Requests


@dataclass(frozen=True)
class Call:
    """One request; its repr is how a failure shows it."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    form: tuple[tuple[str, str], ...] | None = None
    files: tuple[tuple[str, bytes, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    content_type: str | None = None
    #: What the fuzzer changed in the page's own request (shown first: a form is long).
    hostile: tuple[tuple[str, str], ...] = ()

    @property
    def query_string(self) -> str:
        return "&".join(f"{encode(k)}={encode(v)}" for k, v in self.query)

    @property
    def raw_body(self) -> bool:
        form = self.form or ()
        return self.content_type is not None or any(isinstance(x, Raw) for p in form for x in p)

    def __repr__(self) -> str:
        query = f"?{clip(self.query_string, 400)}" if self.query else ""
        lines = [f"{self.method} {self.path}{query}"]
        if self.hostile:
            changed = ", ".join(f"{short(k, 40)}={short(v)}" for k, v in self.hostile)
            lines.append(f"  hostile values: {clip(changed, 1000)}")
        if self.form:
            how = "raw body" if self.raw_body else "form"
            pairs = ", ".join(f"{short(k, 40)}: {short(v)}" for k, v in self.form)
            lines.append(f"  {how}: {clip(pairs, 2000)}")
        for name, content, filename in self.files:
            lines.append(
                f"  file {name!r} ({short(filename)}, {len(content)} bytes): {short(content)}"
            )
        for name, value in self.headers:
            lines.append(f"  header {name}: {short(value)}")
        if self.content_type is not None:
            lines.append(f"  content type: {self.content_type!r}")
        return "\n".join(lines)


class RecordingArgs(ImmutableMultiDict):
    """``request.args`` and ``request.form`` that note which keys the view asks for (present or
    not): the sweep then sends hostile values in the arguments no page sends."""

    asked: ClassVar[set[tuple[str, str]]] = set()

    def note(self, key: Any) -> None:
        where = "query" if has_request_context() and self is request.args else "form"
        self.asked.add((where, str(key)))

    def __getitem__(self, key: Any) -> Any:
        self.note(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.note(key)
        return super().__contains__(key)

    def getlist(self, key: Any, type: Any = None) -> Any:
        self.note(key)
        return super().getlist(key, type)


class Reply(NamedTuple):
    status: int
    server_error: str  # the traceback of the view's exception, or of one the client got
    broke: str = ""  # where: the last frame of the app's code and the exception


def app_frames(text: str) -> str:
    """A logged traceback without the frames of Flask and the other libraries."""
    lines, library = [], False
    for line in text.splitlines():
        if line.startswith("  File "):
            library = "site-packages" in line or "/lib/python" in line
        elif not line.startswith(" "):
            library = False
        if not library:
            lines.append(line)
    return "\n".join(lines)


def where_it_broke(error: BaseException) -> str:
    """The last frame of the app's own code and the exception's first line."""
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if "/anotador/" in frame.filename and "site-packages" not in frame.filename
    ]
    where = (
        f"{Path(frames[-1].filename).name}:{frames[-1].lineno} {frames[-1].name}" if frames else "?"
    )
    lines = str(error).strip().splitlines()
    said = re.sub(r"\\(u[0-9a-f]{4}|U[0-9a-f]{8}|x[0-9a-f]{2})", r"\\u…", lines[0] if lines else "")
    return f"{where}: {type(error).__name__}: {shape(said[:160])}"


class Failure(AssertionError):
    def __init__(self, key: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.key = key


def content(name: str, row: tuple[Any, ...]) -> str:
    """What a row says, hashable: without its ids (a new match gets a new one each time on
    PostgreSQL) and timestamps."""
    table = db.metadata.tables[name]
    ids = {c.name for c in table.primary_key.columns} | {
        fk.parent.name for fk in table.foreign_keys
    }
    return repr(
        tuple(
            None if column in ids or isinstance(value, datetime.datetime) else value
            for column, value in zip(table.columns.keys(), row, strict=True)
        )
    )


class Fuzzer:
    def __init__(self, app: Flask) -> None:
        self.app = app
        # The traceback of a 500 goes in the failure message (not on stderr and in the log too).
        self.errors: list[str] = []
        self.broke: list[str] = []
        got_request_exception.connect(self.note_error, app)
        app.logger.removeHandler(default_handler)
        app.logger.propagate = False
        app.request_class = type(
            "RecordingRequest", (app.request_class,), {"parameter_storage_class": RecordingArgs}
        )
        seed(app)
        self.seed_rows = table_rows(app)
        self.stored = stored_ids(app)
        self.harvest = harvest(self)
        # Match files to upload: the seeded matches as the app exports them.
        client = signed_in(app)
        with app.test_request_context():
            exports = [url_for("matches.export", match_id=m) for m in self.stored.hands]
        self.documents = [json.loads(client.get(url).get_data()) for url in exports]
        self.files = hostile_files(self)
        self.read_back_done: set[frozenset[Any]] = set()
        self.strategies: dict[str, st.SearchStrategy[Any]] = {}
        self.failures: dict[tuple[str, ...], tuple[str, int]] = {}

    def note_error(self, sender: Flask, exception: BaseException, **extra: Any) -> None:
        self.errors.append(app_frames("".join(traceback.format_exception(exception))))
        self.broke.append(where_it_broke(exception))

    def samples(self, route: Route) -> list[Sample]:
        """The route's harvested requests; one per valid URL when no page offers any."""
        found = self.harvest.samples.get((route.endpoint, route.method))
        if found:
            return found
        return [
            Sample(route.endpoint, route.method, tuple(values.items()), (), ())
            for values in valid_combinations(self.app, route.rule, self.stored)[:8]
        ] or [Sample(route.endpoint, route.method, (), (), ())]

    def send(self, call: Call) -> Reply:
        self.errors.clear()
        self.broke.clear()
        kwargs: dict[str, Any] = {"headers": list(call.headers)}
        if call.query:
            kwargs["query_string"] = call.query_string
        if call.raw_body:
            body = "&".join(f"{encode(k)}={encode(v)}" for k, v in call.form or ())
            kwargs["data"] = body.encode("ascii")
            kwargs["content_type"] = call.content_type or "application/x-www-form-urlencoded"
        elif call.form is not None or call.files:
            data: MultiDict[str, Any] = MultiDict(list(call.form or ()))
            for name, content, filename in call.files:
                data.add(name, (io.BytesIO(content), filename))
            kwargs["data"] = data
        try:
            response = client_for(self.app, call.path).open(call.path, method=call.method, **kwargs)
            try:
                response.get_data()  # a streamed body fails only when read
            finally:
                response.close()
                # The client spools a large body to a temporary file it never closes.
                response.request.environ["wsgi.input"].close()
        except Exception as error:
            text = app_frames(traceback.format_exc())
            return Reply(599, f"the exception reached the client:\n{text}", where_it_broke(error))
        broke = self.broke[-1] if self.broke else "no exception"
        return Reply(response.status_code, "\n".join(self.errors), broke)

    def check(self, route: Route, call: Call, *, csrf: bool = False) -> int:
        """Send ``call``; raise a Failure for a 5xx, for a write it should not have made and for
        a write the pages cannot show; then put the seeded rows back. Returns the status."""
        reply = self.send(call)
        after = table_rows(self.app)
        # The sign-in throttle counts refused attempts: the one write a refusal makes.
        seen = without(SIGNED_IN, after)
        changed = without(THROTTLE, seen) != without(THROTTLE, without(SIGNED_IN, self.seed_rows))
        if not changed and after != self.seed_rows:
            put_back(self.app, self.seed_rows)
        problems: list[tuple[tuple[str, ...], str]] = []
        if reply.status >= 500:
            problems.append(
                (
                    (route.id, f"{reply.status}", reply.broke),
                    f"answered {reply.status}; the server said:\n{reply.server_error}",
                )
            )
        if csrf and not 400 <= reply.status < 500:
            problems.append(
                (
                    (route.id, "csrf", str(reply.status)),
                    f"answered {reply.status} without a CSRF token",
                )
            )
        if changed and (call.method == "GET" or 400 <= reply.status < 500 or csrf):
            problems.append(
                (
                    (route.id, f"{reply.status} and wrote"),
                    f"answered {reply.status} but changed the database:\n"
                    + rows_diff(self.seed_rows, after),
                )
            )
        if changed:
            problems += self.read_back(route, after)
            put_back(self.app, self.seed_rows)
            assert table_rows(self.app) == self.seed_rows, "could not put the seeded rows back"
        if problems:
            key = problems[0][0]
            details = "\n".join(message for _key, message in problems)
            raise Failure(key, f"{route.id} ({route.endpoint}):\n{call!r}\n{details}")
        return reply.status

    def read_back(self, route: Route, after: Rows) -> list[tuple[tuple[str, ...], str]]:
        """GET the pages of the rows the request wrote: every match page, one of the others."""
        changed = frozenset(
            (name, content(name, values))
            for name in after
            for key, values in after[name].items()
            if self.seed_rows[name].get(key) != values
        )
        if changed in self.read_back_done:  # the same content was written and shown before
            return []
        self.read_back_done.add(changed)
        touched = affected(self.seed_rows, after)
        stored = stored_ids(self.app)
        problems = []
        for page in app_routes(self.app):
            fill = variables(self.app, page.rule) if page.method == "GET" else []
            tables = [(name, filler.table) for name, filler in fill if filler.table]
            if not tables or not all(filler.stored for _name, filler in fill):
                continue
            combinations = [
                values
                for values in valid_combinations(self.app, page.rule, stored)
                if any(int(values[n]) in touched[t] for n, t in tables)
            ]
            shown = combinations if page.endpoint == "matches.show" else combinations[:1]
            for values in shown:
                path = build_path(page.rule, values)
                reply = self.send(Call("GET", path))
                if reply.status >= 500:
                    said = reply.broke
                    if problems:  # the first one's traceback tells it
                        problems.append(((), f"and GET {path} answered {reply.status}: {said}"))
                    else:
                        problems.append(
                            (
                                (route.id, f"stored what {page.id} cannot show", said),
                                f"wrote what GET {path} cannot show: it answered {reply.status};"
                                f" the server said:\n{reply.server_error}",
                            )
                        )
                    break
        return problems

    def run(self, route: Route, cells: Iterable[Cell | Call], *, csrf: bool = False) -> None:
        """Check every call, keeping the first failure of each kind (and how many there were);
        when a cell fails, its split too."""
        for cell in cells:
            cell = cell if isinstance(cell, Cell) else Cell(cell)
            try:
                status = self.check(route, cell.call, csrf=csrf)
            except Failure as failure:
                message, count = self.failures.get(failure.key, (str(failure), 0))
                self.failures[failure.key] = (message, count + 1)
                self.run(route, cell.split, csrf=csrf)
            else:
                # Refused: one value may have stopped the view before it read the others (a
                # bad date skips the search). A short form is cheap to try one at a time.
                if 400 <= status < 500 and len(cell.split) <= SHORT_FORM:
                    self.run(route, cell.split, csrf=csrf)

    def search(self, route: Route, examples: int, *, csrf: bool = False) -> None:
        """Hypothesis' turn: ``examples`` generated requests, the failing one shrunk."""
        if examples <= 0:
            return

        @settings(max_examples=examples, database=None, phases=PHASES, **FUZZ_SETTINGS)
        @given(call=calls(self, route, csrf=csrf))
        def search(call: Call) -> None:
            self.check(route, call, csrf=csrf)

        try:
            search()
        except Exception as error:  # a Failure, or several (an ExceptionGroup), or Flaky
            found = error.exceptions if isinstance(error, ExceptionGroup) else [error]
            for failure in found:
                notes = "\n".join(getattr(failure, "__notes__", []))
                key = getattr(failure, "key", (route.id, type(failure).__name__))
                if key not in self.failures:
                    self.failures[key] = (f"{failure}\n{notes}", 1)

    def fail_if_any(self) -> None:
        if self.failures:
            report = "\n\n".join(
                f"=== {' | '.join(key)}"
                + (f" ({count} requests)" if count > 1 else "")
                + f"\n{text}"
                for key, (text, count) in self.failures.items()
            )
            pytest.fail(f"{len(self.failures)} distinct failures:\n\n{report}", pytrace=False)


# The deterministic sweep: one value class at a time, in every field a page offers


def last_digits(value: str, replacement: str) -> str:
    """``value`` with its last run of digits replaced (the whole value when it has none)."""
    runs = list(re.finditer(r"[0-9]+", value))
    if not runs:
        return replacement
    return value[: runs[-1].start()] + replacement + value[runs[-1].end() :]


#: How one value is made hostile: each keeps the rest of the value, so it gets past checks.
MUTATIONS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("a digit that is not 0-9", lambda v: last_digits(v, "²")),
    ("a huge number", lambda v: last_digits(v, "99999999999999999999")),
    ("a control character", lambda v: (v or "Zoe") + "\x01"),
    ("a NUL", lambda v: (v or "Ana") + "\x00"),
)
#: Typed fields few enough to try one at a time even when all at once was only refused.
SHORT_FORM = 8
#: Values for an argument a view reads but no page sends.
ALL_AT_ONCE = (
    "²",
    "\x00",
    "Zoe\x01",
    "99999999999999999999",
    "2024-01-01_99999999999999999999",
    "x" * 10_000,
    Raw("%FF"),
    Raw("%ED%A0%80"),
)


def shape(text: str) -> str:
    """What sorts values alike: digits aside (and keys, hex or not, alike)."""
    return re.sub(r"[0-9]+", "#", re.sub(r"\b[0-9a-f]{16,}\b", "<key>", text))


def alike(value: str) -> str:
    """A page's choice as the sweep sorts it: buttons whose values differ after their last
    ":" (``penalty:s0:muerto``, ``penalty:s1:no_meld``) do one action with two arguments."""
    return shape(value).rpartition(":")[0] or shape(value)


def sample_call(
    fuzzer: Fuzzer,
    route: Route,
    sample: Sample,
    pairs: list[tuple[str, str]] | None = None,
    values: dict[str, str] | None = None,
    query: list[tuple[str, str]] | None = None,
) -> Call:
    """The sample's request, with other body (or query) pairs and URL values."""
    body = route.method != "GET"
    if pairs is not None and not body:
        query, pairs = pairs, None
    files = tuple(
        (name, to_bytes(fuzzer.documents[0], True), "partida.json") for name in sample.files
    )
    values = values or dict(sample.values)
    query = list(sample.query if query is None else query)
    form = list(sample.form if pairs is None else pairs)
    return Call(
        route.method,
        build_path(route.rule, values),
        tuple(query),
        tuple(form) if body else None,
        files,
        hostile=hostile_part(sample, values, query, form),
    )


def hostile_part(
    sample: Sample, values: dict[str, str], query: list[tuple[str, str]], form: list[Any]
) -> tuple[tuple[str, str], ...]:
    """What a request has that its sample has not: URL values, query and form pairs."""
    url = [(f"<{k}>", v) for k, v in values.items() if (k, v) not in sample.values]
    return tuple(
        url
        + [pair for pair in query if pair not in sample.query]
        + [pair for pair in form if pair not in sample.form]
    )


class Cell(NamedTuple):
    """A request of the sweep, and the requests that tell which of its values broke it."""

    call: Call
    split: tuple[Call, ...] = ()


def mutated(
    fuzzer: Fuzzer,
    route: Route,
    sample: Sample,
    pairs: list[tuple[str, str]],
    only: list[int],
    mutate: Callable[[str], str],
) -> Call:
    new = [(k, mutate(v) if i in only else v) for i, (k, v) in enumerate(pairs)]
    return sample_call(fuzzer, route, sample, new)


def sweep(fuzzer: Fuzzer, route: Route) -> Iterator[Cell]:
    """For each value class of MUTATIONS: in every typed field at once (then one at a time if
    that fails, so one bug does not hide another), and in each field the page chose, one at a
    time; ALL_AT_ONCE in each argument the view reads that no page sends; each bad URL value."""
    covered: dict[Any, set[str]] = {}
    seen: set[Any] = set()
    samples = fuzzer.samples(route)
    body = route.method != "GET"
    for sample in samples:
        pairs = list(sample.form if body else sample.query)
        typed = [i for i, (k, _) in enumerate(pairs) if k not in sample.fixed]
        # What the page chose around the typed fields (a button, a ticked box) and, unless
        # already done there, the typed fields themselves.
        around = frozenset((shape(k), alike(v)) for i, (k, v) in enumerate(pairs) if i not in typed)
        typed_shapes = {shape(pairs[i][0]) for i in typed}
        for label, mutate in MUTATIONS:
            done = covered.setdefault((around, label), set())
            if typed_shapes - done:
                done |= typed_shapes
                every = mutated(fuzzer, route, sample, pairs, typed, mutate)
                each = (mutated(fuzzer, route, sample, pairs, [i], mutate) for i in typed)
                yield Cell(every, tuple(each))
            for i, (k, v) in enumerate(pairs):
                if i not in typed and (shape(k), alike(v), label) not in seen:
                    seen.add((shape(k), alike(v), label))
                    new = [*pairs[:i], (k, mutate(v)), *pairs[i + 1 :]]
                    yield Cell(sample_call(fuzzer, route, sample, new))
            for i, (k, v) in enumerate(sample.query if body else ()):
                if ("query", shape(k), label) not in seen:
                    seen.add(("query", shape(k), label))
                    new = [*sample.query[:i], (k, mutate(v)), *sample.query[i + 1 :]]
                    yield Cell(sample_call(fuzzer, route, sample, query=new))
    first = max(samples, key=lambda sample: len(sample.form) + len(sample.query))
    asked = fuzzer.harvest.reads.get((route.endpoint, route.method), set())
    sent = {("query", k) for k, _ in first.query} | {("form", k) for k, _ in first.form}
    for where, key in sorted(asked - sent):
        for value in ALL_AT_ONCE:
            if where == "query":
                yield Cell(sample_call(fuzzer, route, first, query=[*first.query, (key, value)]))
            elif body:
                yield Cell(sample_call(fuzzer, route, first, [*first.form, (key, value)]))
    for name, filler in variables(fuzzer.app, route.rule):
        for bad in filler.bad(fuzzer.stored)[:10]:
            values = {**dict(first.values), name: bad}
            yield Cell(sample_call(fuzzer, route, first, values=values))


# Strategies


def text_values(fuzzer: Fuzzer) -> st.SearchStrategy[str]:
    """What a hostile client types in a field (built once per fuzzer)."""
    if "text" in fuzzer.strategies:
        return fuzzer.strategies["text"]
    known = sorted({v for values in fuzzer.harvest.values.values() for v in values if len(v) < 80})
    mixed = st.characters(codec="utf-8") | st.sampled_from("\x00\x01\x1b²①１١ \u3000\u202e-+.,_:e")
    strategy = fuzzer.strategies["text"] = st.one_of(
        st.sampled_from(HOSTILE),
        st.text(mixed, max_size=12),
        st.from_regex(r"\A[+-]?\d{1,25}\Z"),  # \d: unicode digits too
        st.from_regex(r"\A\d{4}-\d{2}-\d{2}(_\d{1,22})?\Z"),
        st.integers(-(2**80), 2**80).map(str),
        st.floats().map(str),
        st.builds(
            lambda a, b, c: a + b + c,
            st.sampled_from(VALIDISH + tuple(known[:200])),
            st.sampled_from(UNICODE_DIGITS + CONTROLS + ("", " ", "0" * 30)),
            st.sampled_from(("", "1", "x")),
        ),
        st.sampled_from(VALIDISH + tuple(known)),
    )
    return strategy


def encoded_values(fuzzer: Fuzzer) -> st.SearchStrategy[str]:
    """A value for a query string or a hand-built form body: sometimes not even UTF-8."""
    if "encoded" in fuzzer.strategies:
        return fuzzer.strategies["encoded"]
    raw = st.builds(
        lambda a, escape, b: Raw(quote(a, safe="") + escape + quote(b, safe="")),
        st.sampled_from(("", "1", "Ana", "2024-01-01_", "calc:s")),
        st.sampled_from(RAW_ESCAPES),
        st.sampled_from(("", "1", "x")),
    )
    strategy = fuzzer.strategies["encoded"] = st.one_of(text_values(fuzzer), raw)
    return strategy


def json_values() -> st.SearchStrategy[Any]:
    deep: Any = 0
    for _ in range(500):
        deep = [deep]
    return st.one_of(
        st.sampled_from(HOSTILE + ("\u0000", "\ud800", "a\udfffb")),
        st.integers(-(2**70), 2**70),
        st.floats(),
        st.none(),
        st.booleans(),
        st.sampled_from(([], {}, [None], {"": None}, deep, {"a" * 1000: 1})),
    )


@st.composite
def documents(draw: st.DrawFn, fuzzer: Fuzzer) -> Any:
    """A stored match's file with one value somewhere inside replaced by a hostile one."""
    document = copy.deepcopy(draw(st.sampled_from(fuzzer.documents)))
    for _ in range(draw(st.integers(1, 3))):
        holder, key = None, None
        node = document
        while isinstance(node, dict | list) and node and draw(st.integers(0, 4)):
            keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
            holder, key = node, draw(st.sampled_from(keys))
            node = holder[key]
        if holder is None:
            holder, key = document, draw(st.sampled_from(sorted(document)))
        holder[key] = copy.deepcopy(draw(json_values()))
    return document


def to_bytes(document: Any, ascii_only: bool) -> bytes:
    return json.dumps(document, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


@st.composite
def uploads(draw: st.DrawFn, fuzzer: Fuzzer) -> bytes:
    kind = draw(st.sampled_from(("binary", "fixed", "document", "lines")))
    if kind == "binary":
        return draw(st.binary(max_size=300))
    if kind == "fixed":
        return draw(st.sampled_from(sorted(fuzzer.files.values())))
    ascii_only = draw(st.booleans())
    if kind == "document":
        return to_bytes(draw(documents(fuzzer)), ascii_only)
    lines = draw(st.lists(documents(fuzzer) | st.sampled_from(fuzzer.documents), max_size=4))
    separator = draw(st.sampled_from((b"\n", b"\r\n", b"\n\n", b"\x00\n")))
    return separator.join(to_bytes(line, ascii_only) for line in lines)


def hostile_files(fuzzer: Fuzzer) -> dict[str, bytes]:
    valid = fuzzer.documents[0]
    with_name = copy.deepcopy(valid)
    with_name["sides"][0]["name"] = "Zoe\x01"

    def names(suffix: str) -> list[dict[str, Any]]:
        return [{**s, "name": s["name"] + suffix} for s in valid["sides"]]

    return {
        "empty": b"",
        "garbage bytes": bytes(range(256)) * 4,
        "invalid UTF-8": b'{"format": "anotador-match/1", "title": "\xff\xfe\xc0\xaf"}',
        "UTF-16": json.dumps(valid).encode("utf-16"),
        "BOM": b"\xef\xbb\xbf" + to_bytes(valid, True),
        "NUL escaped in strings": to_bytes({**valid, "title": "a\u0000b", "notes": "\u0000"}, True),
        "NUL in a name": to_bytes({**valid, "sides": names("\u0000")}, True),
        "raw NUL": b'{"format": "anotador-match/1", "title": "\x00"}',
        "lone surrogate escaped": to_bytes({**valid, "title": "\ud800"}, True),
        "lone surrogate in a name": to_bytes({**valid, "sides": names("\udfff")}, True),
        "lone surrogate as bytes": to_bytes({**valid, "notes": "\ud800"}, False),
        "control character in a name": to_bytes(with_name, True),
        "deeply nested arrays": b"[" * 100_000 + b"]" * 100_000,
        "deeply nested objects": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        "deep value in a match": to_bytes({**valid, "notes": "@"}, True).replace(
            b'"@"', b"[" * 5000 + b"1" + b"]" * 5000
        ),
        "huge numbers": to_bytes({**valid, "start_scores": [10**400, -(10**400)]}, True),
        "NaN and Infinity": to_bytes({**valid, "start_scores": [float("nan"), float("inf")]}, True),
        "1e400": to_bytes(valid, True).replace(b'"hands"', b'"x": 1e400, "hands"', 1),
        "JSON scalar": b"1",
        "JSON null": b"null",
        "JSON string": b'"anotador-match/1"',
        "JSON list of matches": to_bytes([valid, valid], True),
        "format only": b'{"format": "anotador-match/1"}',
        "many empty lines": b"{}\n" * 2000 + b"\n" * 2000,
        "long line": b'{"title": "' + b"x" * 500_000 + b'"}',
        "duplicate keys": to_bytes(valid, True)[:-1] + b', "variant": "mac", "variant": 1}',
    }


@st.composite
def calls(draw: st.DrawFn, fuzzer: Fuzzer, route: Route, csrf: bool = False) -> Call:
    """A request to ``route``: a page's own request with values replaced, or one from scratch."""
    harvest = fuzzer.harvest
    sample = draw(st.sampled_from(fuzzer.samples(route)))
    values = dict(sample.values)
    for name, filler in variables(fuzzer.app, route.rule):
        if draw(st.integers(0, 7)) == 0:
            values[name] = draw(st.sampled_from(filler.bad(fuzzer.stored)))
    body = route.method != "GET"
    query, form = list(sample.query), list(sample.form)
    target = query if not body or draw(st.integers(0, 4)) == 0 else form
    own = [k for k, _ in target]
    pool = sorted(harvest.names | set(KNOWN_ARGS)) + list(ODD_KEYS)
    keys = (st.sampled_from(own) | st.sampled_from(pool)) if own else st.sampled_from(pool)
    hostile = (
        encoded_values(fuzzer) if target is query or draw(st.booleans()) else text_values(fuzzer)
    )

    def new_value(old: str) -> str:
        if draw(st.booleans()):
            return draw(st.sampled_from(MUTATIONS))[1](old)
        return draw(hostile)

    mode = draw(st.sampled_from(("one", "one", "few", "all", "scratch")))
    if mode == "all" and own:
        same = draw(hostile)
        target[:] = [(k, same) for k, _ in target]
    else:
        if mode == "scratch":
            target.clear()
        for _ in range(1 if mode == "one" else draw(st.integers(1, 6))):
            key = draw(keys)
            how = draw(st.sampled_from(("replace", "replace", "add", "drop")))
            if how == "drop":
                target[:] = [(k, v) for k, v in target if k != key]
            elif how == "add" or key not in [k for k, _ in target]:
                target.append((key, new_value("")))
            else:
                target[:] = [(k, new_value(v) if k == key else v) for k, v in target]
    if csrf and draw(st.booleans()):
        tokens = ("", "x", "\x00", *sorted(harvest.values.get("csrf_token", ())))
        form.append(("csrf_token", draw(st.sampled_from(tokens))))
    files: list[tuple[str, bytes, str]] = []
    names = sorted({name for endpoint, name in harvest.uploads if endpoint == route.endpoint})
    if body and (names or draw(st.integers(0, 9)) == 0):
        for name in draw(st.lists(st.sampled_from(names or ["file", "copia"]), max_size=2)):
            filename = draw(st.sampled_from(("m.json", "c.jsonl", "", "a\x00b.json", "x" * 300)))
            files.append((name, draw(uploads(fuzzer)), filename))
    headers = []
    if draw(st.integers(0, 5)) == 0:
        language = draw(st.sampled_from(ACCEPT_LANGUAGES) | text_values(fuzzer))
        # A header cannot hold a line break (the client would send two headers).
        headers.append(("Accept-Language", re.sub(r"[\r\n]", "", language)))
    if draw(st.integers(0, 7)) == 0:
        etag = draw(st.sampled_from(("*", "x", "\x01", "a" * 64)))
        headers.append(("If-None-Match", f'"{etag}"'))
    content_type = None
    if body and not files and draw(st.integers(0, 9)) == 0:
        content_type = draw(st.sampled_from(CONTENT_TYPES))
    return Call(
        route.method,
        build_path(route.rule, values),
        tuple(query),
        tuple(form) if body else None,
        tuple(files),
        tuple(headers),
        content_type,
        hostile_part(sample, values, query, form if body else []),
    )


CONTENT_TYPES = (
    "multipart/form-data",
    "multipart/form-data; boundary=",
    "multipart/form-data; boundary=x",
    "application/json",
    "text/plain; charset=utf-16",
    "application/x-www-form-urlencoded; charset=latin-9",
)


# Tests


def blueprint(route: Route) -> str:
    return route.endpoint.rpartition(".")[0] or route.endpoint


BLUEPRINTS = sorted({blueprint(route) for route in ROUTES})
POST_ROUTES = [route for route in ROUTES if route.method != "GET"]


@pytest.fixture
def fuzzer(app_factory: Any) -> Fuzzer:
    return Fuzzer(app_factory(PROPAGATE_EXCEPTIONS=False))


def test_every_route_is_fuzzed(fuzzer: Fuzzer):
    """The tests below are parametrized by the app's url_map; every URL variable has a filler
    with valid values from the seeded data (a new converter or id fails here); the harvest
    sees the forms the fuzzer starts from (a renamed field or a moved form would leave the
    views' parsers unreached)."""
    assert app_routes(fuzzer.app) == ROUTES
    for route in ROUTES:
        assert valid_combinations(fuzzer.app, route.rule, fuzzer.stored), route.id
    offered = {endpoint for endpoint, method in fuzzer.harvest.samples if method != "GET"}
    assert {route.endpoint for route in POST_ROUTES} <= offered, "POST routes no page offers"
    assert {("matches.import_match", "file"), ("history.restore", "copia")} <= (
        fuzzer.harvest.uploads
    )
    assert {"name", "other", "version", "confirm", "action", "closer", "abandoned"} <= (
        fuzzer.harvest.names
    )


@pytest.mark.parametrize("name", BLUEPRINTS)
def test_routes_survive_hostile_requests(fuzzer: Fuzzer, name: str):
    """Every route of the blueprint: the sweep, then Hypothesis' generated requests."""
    routes = [route for route in ROUTES if blueprint(route) == name]
    for route in routes:
        fuzzer.run(route, sweep(fuzzer, route))
        fuzzer.search(route, EXAMPLES)
    fuzzer.fail_if_any()


def test_without_csrf_token_no_post_goes_through(app_factory: Any):
    """With CSRF on, a POST without its token, or with a forged one or another session's, is
    refused: a 4xx, nothing written."""
    fuzzer = Fuzzer(app_factory(PROPAGATE_EXCEPTIONS=False, WTF_CSRF_ENABLED=True))
    tokens = ("x\x00", *sorted(fuzzer.harvest.values.get("csrf_token", ()))[:1])
    for route in POST_ROUTES:
        samples = fuzzer.samples(route)[:2]
        fuzzer.run(
            route,
            (
                sample_call(fuzzer, route, sample, pairs)
                for sample in samples
                for pairs in [
                    [p for p in sample.form if p[0] != "csrf_token"],
                    *([*sample.form, ("csrf_token", token)] for token in tokens),
                ]
            ),
            csrf=True,
        )
        fuzzer.search(route, CSRF_EXAMPLES, csrf=True)
    fuzzer.fail_if_any()


def test_hostile_uploads(fuzzer: Fuzzer):
    """Every upload field of every form, with each file of hostile_files."""
    for endpoint, name in sorted(fuzzer.harvest.uploads):
        route = next(r for r in ROUTES if r.endpoint == endpoint and r.method == "POST")
        sample = fuzzer.samples(route)[0]
        fuzzer.run(
            route,
            (
                Call(
                    "POST",
                    build_path(route.rule, dict(sample.values)),
                    form=sample.form,
                    files=((name, content, f"{label}.json"),),
                )
                for label, content in fuzzer.files.items()
            ),
        )
    fuzzer.fail_if_any()
