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


#: Default-ignorable code points that are not format characters (category Cf, refused as a
#: whole): combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian and
#: other variation selectors (Unicode's DerivedCoreProperties.txt).
IGNORABLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0]
    + list(range(0x180B, 0x1810))
    + list(range(0xFE00, 0xFE10))
    + list(range(0xE0100, 0xE01F0))
)
#: Format characters, unassigned and private-use code points, line and paragraph separators.
_INVISIBLE = frozenset(["Cf", "Cn", "Co", "Zl", "Zp"])
#: Variation selectors 15 and 16 (text or emoji look) are fine right after a symbol: "❤️".
_EMOJI_LOOK = frozenset("\ufe0e\ufe0f")


def invisible_characters(name: str) -> bool:
    """Whether ``name`` holds a character that shows nothing or reorders what follows:
    format characters (zero-width spaces and joiners, the soft hyphen, bidirectional
    controls), unassigned code points, spaces other than the plain one, and the other
    default-ignorable code points."""
    previous = " "
    for char in name:
        category = unicodedata.category(char)
        emoji_look = char in _EMOJI_LOOK and unicodedata.category(previous) == "So"
        if not emoji_look and (category in _INVISIBLE or ord(char) in IGNORABLE):
            return True
        if category == "Zs" and char != " ":
            return True
        previous = char
    return False


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


def read_text(
    value: str,
    *,
    maximum: int,
    required: bool = False,
    single_line: bool = True,
    visible: bool = False,
) -> str:
    """The cleaned text; :class:`TextRefused` (``control_characters``, ``empty_text``,
    ``text_too_long`` or, for a ``visible`` one, ``invisible_characters``) when it cannot be
    stored."""
    if not all(map(is_text_character, value)):
        raise TextRefused("control_characters")
    text = clean_text(value, single_line=single_line)
    if required and not text:
        raise TextRefused("empty_text")
    if len(text) > maximum:
        raise TextRefused("text_too_long", maximum=maximum)
    if visible and invisible_characters(text):
        raise TextRefused("invisible_characters")
    return text
