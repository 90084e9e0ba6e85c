"""What a text typed at the table may hold: names, titles and notes.

One rule set for every text that is stored (match files, forms, renames, imports) and every
text that reaches a query (searches, filters): a stored text is NFC, trimmed, bounded, and
holds no character that is not text. Names and titles are one line (runs of white space,
line breaks included, become one space); notes keep their line breaks.
"""

from __future__ import annotations

import unicodedata
from typing import Any

#: The longest side or player name.
MAX_NAME = 60
#: The longest free text of a hand (its note, an adjustment's reason).
MAX_TEXT = 500
#: The longest match title and the longest match notes.
MAX_TITLE = 200
MAX_NOTES = 5000

# Tabs and line breaks are text; every other C0/C1 control (NUL, ESC, ...) is not, and
# PostgreSQL refuses NUL in a text column outright.
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def is_text_character(char: str) -> bool:
    """False for control characters, lone surrogates (no encoding can store them) and
    Unicode noncharacters."""
    category = unicodedata.category(char)
    if category == "Cc":
        return char in _ALLOWED_CONTROLS
    if category == "Cs":
        return False
    code = ord(char)
    return not (0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE)


class TextRefused(ValueError):
    """A text that cannot be stored: ``code`` and ``params`` as an engine problem's
    (:data:`anotador.rules.problems.MESSAGES`)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def clean_text(value: str, *, single_line: bool = True) -> str:
    """``value`` as it is stored: NFC, trimmed, and on one line with single spaces when
    ``single_line``."""
    text = unicodedata.normalize("NFC", value)
    if single_line:
        return " ".join(text.split())
    return text.strip()


def read_text(value: str, *, maximum: int, required: bool = False, single_line: bool = True) -> str:
    """The cleaned text; :class:`TextRefused` (``control_characters``, ``empty_text`` or
    ``text_too_long``) when it cannot be stored."""
    if not all(map(is_text_character, value)):
        raise TextRefused("control_characters")
    text = clean_text(value, single_line=single_line)
    if required and not text:
        raise TextRefused("empty_text")
    if len(text) > maximum:
        raise TextRefused("text_too_long", maximum=maximum)
    return text
