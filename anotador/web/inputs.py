"""The input policy: every value a request sends is read by one of these few parsers.

Each parser returns the value (None when the field was left empty) or raises
:class:`BadInput` with a message in the user's language; views and forms never call
``int()``, ``isdigit()`` or ``strip()`` on request values themselves. Numbers are ASCII digits
only (``str.isdigit`` also says yes to "²" and "①", and ``int`` reads "١٢" and "１２"), with
bounds; texts follow the engine's rules for stored texts (:mod:`anotador.rules.text`), so
nothing a request sends can reach the database, or a query, that a match file could not hold.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from typing import TypeVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from anotador import rules
from anotador.tournaments.limits import read_membership
from anotador.tournaments.limits import read_name
from anotador.words.i18n import problem_message

#: The largest row id or version a database integer column holds.
MAX_ROW_ID = 2**31 - 1

# What a phone keyboard or a copied figure puts around digits: spaces of every width and a
# typographic minus. Anything else that is not an ASCII digit makes the value refused.
_SPACES = re.compile(r"[\s\u00a0\u2009\u202f]+")
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
#: More digits than any bound needs (and than is worth converting).
_MAX_DIGITS = 12
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(?:\.[0-9]{3})+", re.ASCII)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)
_CURSOR = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})_([0-9]{1,10})", re.ASCII)
_REQUEST_KEY = re.compile(r"[0-9a-f]{32}", re.ASCII)
#: ``secrets.token_urlsafe(32)``: a share link's token.
_LINK_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}", re.ASCII)

NOT_A_NUMBER = _l("Enter a whole number, like 5000.")
NOT_A_CHOICE = _l("Choose one of the options.")

T = TypeVar("T")


class BadInput(ValueError):
    """A request value that cannot be used; ``message`` is said in the user's language.

    A ``ValueError``, so WTForms shows it next to the field when a field's parser raises it.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def present(raw: object) -> str | None:
    """The raw text of a request value, None when it is missing or blank."""
    if raw is None:
        return None
    text = str(raw)
    return text if text.strip() else None


def integer(raw: object, minimum: int, maximum: int, *, grouped: bool = False) -> int | None:
    """A whole number between ``minimum`` and ``maximum``; "−85" and "+5" are read, and
    with ``grouped`` so is "1.500" (a thousands point, as a table writes it; "1.5" is not)."""
    text = present(raw)
    if text is None:
        return None
    text = _SPACES.sub("", text).replace("\u2212", "-")
    if grouped and _GROUPED.fullmatch(text):
        text = text.replace(".", "")
    if not _INTEGER.fullmatch(text):
        raise BadInput(str(NOT_A_NUMBER))
    if text.startswith("-") and minimum >= 0:
        # The bounds, and what to change: a phone's keypad makes a stray minus easy to type.
        raise BadInput(
            _(
                "Must be between %(min)s and %(max)s: without the minus sign.",
                min=minimum,
                max=maximum,
            )
        )
    # A thousand digits are out of range without being converted.
    too_long = len(text.lstrip("+-").lstrip("0")) > _MAX_DIGITS
    if too_long or not minimum <= int(text) <= maximum:
        raise BadInput(_("Must be between %(min)s and %(max)s.", min=minimum, max=maximum))
    return int(text)


def row_id(raw: object) -> int | None:
    """A row id (or a stored version) as a form or a link sends it."""
    return integer(raw, 0, MAX_ROW_ID)


def choice(raw: object, choices: Iterable[T], refusal: object = None) -> T | None:
    """One of ``choices`` (compared as text, spaces and case aside); ``refusal`` is the
    message when it is none of them (a lazy string is translated only then)."""
    text = present(raw)
    if text is None:
        return None
    wanted = text.strip().lower()
    for option in choices:
        if str(option).lower() == wanted:
            return option
    raise BadInput(str(NOT_A_CHOICE if refusal is None else refusal))


def text(raw: object, maximum: int, *, single_line: bool = True, required: bool = False) -> str:
    """A text as it is stored (NFC, trimmed, bounded, no control characters); "" when empty."""
    try:
        return rules.read_text(
            "" if raw is None else str(raw),
            maximum=maximum,
            required=required,
            single_line=single_line,
        )
    except rules.TextRefused as refused:
        raise text_refused(refused) from None


def tournament_name(raw: object, *, required: bool = False) -> str:
    """A tournament's, its players' or a club's name, by the rule the tournament file, the
    restore and ``anotador check`` apply too (:func:`anotador.tournaments.limits.read_name`)."""
    try:
        return read_name("" if raw is None else str(raw), required=required)
    except rules.TextRefused as refused:
        raise text_refused(refused) from None


def membership(raw: object) -> str | None:
    """A player's membership number (:func:`anotador.tournaments.limits.read_membership`),
    None when the field was left empty."""
    try:
        return read_membership("" if raw is None else str(raw))
    except rules.TextRefused as refused:
        raise text_refused(refused) from None


def text_refused(refused: rules.TextRefused) -> BadInput:
    return BadInput(problem_message(rules.Problem("", refused.code, refused.params)))


def name(raw: object, *, required: bool = False) -> str:
    """A player's or a side's name, by the engine's rules for names."""
    return text(raw, rules.MAX_NAME, required=required)


def date(raw: object) -> datetime.date | None:
    """A date written ``YYYY-MM-DD``."""
    value = present(raw)
    if value is None:
        return None
    value = value.strip()
    try:
        if _DATE.fullmatch(value):
            return datetime.date.fromisoformat(value)
    except ValueError:
        pass
    raise BadInput(_("“%(value)s” is not a date (use YYYY-MM-DD).", value=quoted(value)))


def cursor(raw: object) -> tuple[datetime.date, int] | None:
    """A keyset cursor of the history (``2024-05-01_1234``: a date and a row id)."""
    value = present(raw)
    if value is None:
        return None
    found = _CURSOR.fullmatch(value.strip())
    try:
        if found and 1 <= int(found[2]) <= MAX_ROW_ID:
            return datetime.date.fromisoformat(found[1]), int(found[2])
    except ValueError:
        pass
    raise BadInput(_("That page does not exist; start from the first one."))


def request_key(raw: object) -> str:
    """The one-time key of a hand form (32 hex digits): what makes a double tap record the
    hand once. A form without a valid one is refused rather than saved unprotected."""
    value = present(raw)
    if value is None or not _REQUEST_KEY.fullmatch(value.strip()):
        raise BadInput(_("This form could not be checked: tap Save again."))
    return value.strip()


def digest(raw: object) -> str | None:
    """A fingerprint the server gave (32 hex digits, as a request key), None when absent or
    not one."""
    value = present(raw)
    return value if value is not None and _REQUEST_KEY.fullmatch(value) else None


def link_token(raw: object) -> str:
    """A share link's token as the link carries it (43 URL-safe characters)."""
    value = present(raw)
    if value is None or not _LINK_TOKEN.fullmatch(value):
        raise BadInput(_("That link does not exist or was revoked."))
    return value


def json_value(raw: bytes | str, refusal: str) -> object:
    """A request's JSON body, read by the engine's one JSON reader (``rules.parse_json``:
    nested at most ``MAX_DEPTH`` levels, so no body can exhaust Python's recursion);
    ``refusal`` is the message when it is no JSON at all."""
    value, problems = rules.parse_json(raw)
    if not problems:
        return value
    if problems[0].code == "invalid_json":
        raise BadInput(refusal)
    raise BadInput(f"{refusal} {problem_message(problems[0])}")


def quoted(raw: str, length: int = 40) -> str:
    """A refused value as a message may repeat it: shortened, without what is not text."""
    return "".join(filter(rules.is_text_character, raw[:length]))
