"""The bounds of a tournament and the rule of its names, defined once for every door: the
tournament file's reader (so ``anotador tournament``), the director's forms, a backup's
restore and ``anotador check`` all read them from here, so they refuse the same things.

A name (the tournament's, a player's, a club's) is stored as :func:`read_name` gives it: NFC,
trimmed, one line; never empty (a club may be), at most the columns' ``NAME_LENGTH``, and
every character visible (no control characters, NUL, lone surrogates, zero-width or
writing-direction marks: the rule of account names,
:func:`anotador.rules.text.invisible_characters`).
"""

from __future__ import annotations

import re

from anotador.rules.text import MAX_NAME
from anotador.rules.text import TextRefused
from anotador.rules.text import clean_text
from anotador.rules.text import invisible_characters
from anotador.rules.text import is_text_character
from anotador.rules.text import read_text

#: The longest name of a tournament, of a player and of a club (what their columns hold).
NAME_LENGTH = MAX_NAME
MAX_PAIRS = 1_000
#: The players of an individual tournament (§6.1).
MAX_PLAYERS = 2_000
MAX_ROUNDS = 100
MAX_HANDS_PER_ROUND = 100
#: A table's number in a round.
MAX_TABLE = 1_000
#: The largest size of any integer in the file (MP, VP, band bounds).
MAX_SIZE = 1_000_000
#: A club's own scale has at most this many bands: FIBUR's have ten, and every export reads
#: the scale for every table (50,000 bands made each one take a third of a second).
MAX_BANDS = 100
#: The largest tournament file ``anotador tournament`` reads: reading JSON takes some 25
#: times its size in memory, and a whole club season with every table's match is a few MB.
MAX_FILE_MB = 16
MAX_FILE_BYTES = MAX_FILE_MB * 1024 * 1024


def read_name(value: str, *, required: bool = True) -> str:
    """``value`` as a tournament stores a name; :class:`anotador.rules.text.TextRefused`
    (``control_characters``, ``empty_text``, ``text_too_long`` or ``invisible_characters``)
    when it cannot be one."""
    # Printable ASCII, trimmed and single-spaced, is already as stored: no control or
    # invisible character, nothing to normalise. Most names are, and a file of 2,000
    # players reads thousands of them.
    if (
        value.isascii()
        and value.isprintable()
        and len(value) <= NAME_LENGTH
        and (value or not required)
        and value == " ".join(value.split())
    ):
        return value
    return read_text(value, maximum=NAME_LENGTH, required=required, visible=True)


def mended_name(value: str) -> str:
    """``value`` with what :func:`read_name` refuses taken out (``anotador check --fix``):
    control and invisible characters dropped, spaces trimmed, cut to NAME_LENGTH; "" when
    nothing visible is left (only a person can name it then)."""
    spaced = clean_text("".join(char for char in value if is_text_character(char)))
    shown = "".join(char for char in spaced if not invisible_characters(char))
    return clean_text(clean_text(shown)[:NAME_LENGTH])


#: The longest membership number of a player (``Player.membership``): a federation's is a
#: handful of digits, a club's own may carry a prefix ("BA-2024/117").
MEMBERSHIP_LENGTH = 20
#: What a membership number is made of: ASCII letters and digits, "-" and "/" between them.
#: Nothing from another script gets in, so no number can look like another one ("АВ-12"
#: with Cyrillic letters is refused, not stored beside "AB-12").
_MEMBERSHIP = re.compile(r"[A-Z0-9]+(?:[-/][A-Z0-9]+)*", re.ASCII)


def read_membership(value: str) -> str | None:
    """``value`` as a player's membership number is stored (a federation's tessera): trimmed
    and in upper case (``ab-12`` is ``AB-12``), None when empty;
    :class:`anotador.rules.text.TextRefused` (``text_too_long``, ``membership_characters``)
    when it cannot be one. The rule of every door: the forms, a backup's restore."""
    text = read_text(value, maximum=MEMBERSHIP_LENGTH).upper()
    if not text:
        return None
    if not _MEMBERSHIP.fullmatch(text):
        raise TextRefused("membership_characters")
    return text


#: The most characters a reason in the change log holds (a director's correction, a reopening).
MAX_REASON = 200

#: A round's clock (``operations.clock``): the minutes the director starts it with, and the
#: minutes one tap adds; a round without a clock of its own before starts with the default.
CLOCK_MINUTES = (1, 240)
ADDED_MINUTES = (1, 60)
DEFAULT_CLOCK_MINUTES = 45
