"""The one label table: what the interface calls every name the engine uses.

:data:`WORDS` maps a kind of name (``"variant"``, ``"field"``, ``"part"``...) and the engine's
key to a :class:`Word`: its English msgid (translated by the catalogs) for the screens and,
where the printed sheet words it shorter, its ``sheet`` msgid. The engine's keys are the
language-neutral names the rules modules define (variants, layouts, options and their choices,
input fields and their choices, card kinds, score parts, adjustment presets, reference-box
rows, the keys of a match file as problem paths name them). The variants' words live in
:mod:`anotador.words.variant_words` (a new variant adds its words there and in the catalogs); the
interface's own kinds (layouts, settings, paths, error pages) here.

Words are looked up when said: :func:`say` in the current language (a request's, or the
sheet's inside ``force_locale``), :func:`lazy` when a form is built before a language is
known. The mappings below the table (``VARIANTS``, ``LAYOUTS``...) are lazy views of it for
templates and forms.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext
from flask_babel import ngettext

from anotador import rules
from anotador.rules.variant import LAYOUTS as LAYOUT_SHAPES
from anotador.rules.variant import TIE_POLICIES as TIES
from anotador.words.i18n import problem_message
from anotador.words.variant_words import N_
from anotador.words.variant_words import VARIANT_WORDS
from anotador.words.variant_words import Verbatim
from anotador.words.variant_words import Word

__all__ = ["N_", "WORDS", "Verbatim", "Word"]


#: The table: the variants' words (:mod:`anotador.words.variant_words`) and the interface's own.
WORDS: dict[str, dict[Any, Word]] = {
    "variant": VARIANT_WORDS["variant"],
    "family": VARIANT_WORDS["family"],
    "layout": {
        "2p": Word(N_("2 players")),
        "3p": Word(N_("3 players")),
        "4p": Word(N_("4 players, 2 pairs")),
        "6p-3x2": Word(N_("6 players, 3 pairs")),
        "6p-2x3": Word(N_("6 players, 2 trios")),
    },
    # The settings every match has (its target, decks, canastas to close and tie policy).
    "setting": {
        "target": Word(N_("Target score")),
        "decks": Word(N_("Decks"), N_("decks")),
        "canastas_to_close": Word(N_("Canastas to go out"), N_("canastas to close")),
        "tie": Word(N_("On a tie"), N_("tie")),
    },
    "tie": {
        "extra_hand": Word(N_("Play another hand"), N_("extra hand")),
        "shared": Word(N_("Shared win"), N_("shared win")),
    },
    "option": VARIANT_WORDS["option"],
    "option_choice": VARIANT_WORDS["option_choice"],
    "field": VARIANT_WORDS["field"],
    "field_choice": VARIANT_WORDS["field_choice"],
    "card": VARIANT_WORDS["card"],
    "part": VARIANT_WORDS["part"],
    "variant_part": VARIANT_WORDS["variant_part"],
    "pieces": VARIANT_WORDS["pieces"],
    "penalty": VARIANT_WORDS["penalty"],
    "reference": VARIANT_WORDS["reference"],
    # The keys of a match file and of its sides and hands, as a problem's path names them
    # (hands[2].sides[1].red_threes); input fields and settings are looked up above.
    "path": {
        "$": Word(N_("The file")),
        "format": Word(N_("Format")),
        "variant": Word(N_("Variant")),
        "layout": Word(N_("Layout")),
        "options": Word(N_("Rules")),
        "sides": Word(N_("Sides")),
        "start_scores": Word(N_("Starting scores")),
        "hands": Word(N_("Hands")),
        "title": Word(N_("Title")),
        "played_on": Word(N_("Date")),
        "notes": Word(N_("Notes")),
        "abandoned": Word(N_("Unfinished")),
        "hand_limit": Word(N_("Hands per round")),
        "play_every_hand": Word(N_("Every hand of the round played")),
        "name": Word(N_("Name")),
        "players": Word(N_("Players")),
        "membership": Word(N_("Membership number")),
        "end": Word(N_("How the hand ended")),
        "closer": Word(N_("Who went out")),
        "note": Word(N_("Note")),
    },
    # A path's numbered steps (hands[2] is "Hand 3").
    "path_item": {
        "hands": Word(N_("Hand %(num)d")),
        "sides": Word(N_("Side %(num)d")),
        "players": Word(N_("Player %(num)d")),
        "start_scores": Word(N_("Starting score of side %(num)d")),
    },
    # The error page of each HTTP status: its title and its message.
    "error_title": {
        400: Word(N_("Invalid request")),
        404: Word(N_("Page not found")),
        405: Word(N_("Action not allowed")),
        413: Word(N_("Upload too large")),
        500: Word(N_("Internal error")),
        503: Word(N_("Service unavailable")),
    },
    "error_message": {
        400: Word(N_("We could not understand what was sent; check the data and try again.")),
        404: Word(N_("The page you are looking for does not exist or was moved.")),
        405: Word(N_("That action cannot be done on this page.")),
        413: Word(N_("What was sent is too large to process.")),
        500: Word(N_("Something went wrong on our side; try again in a moment.")),
        503: Word(N_("The database cannot be reached right now; try again in a moment.")),
    },
    # What renaming a player says for a problem (by the problem's code).
    "rename_problem": {
        "empty_text": Word(N_("Write the new name.")),
        "taken": Word(N_("Another player already has that name: merge them instead.")),
    },
}


def translated(message: str) -> str:
    """``message`` in the current language (a :class:`Verbatim` as it is)."""
    return message if isinstance(message, Verbatim) else gettext(message)


def word(kind: str, key: object) -> Word | None:
    return WORDS[kind].get(key)


def say(kind: str, key: object) -> str:
    """The label of ``key`` in the current language; the key itself when it has none."""
    found = WORDS[kind].get(key)
    return str(key) if found is None else translated(found.label)


def printed(kind: str, key: object) -> str:
    """What the printed sheet calls ``key``, in the current language (the sheet's)."""
    found = WORDS[kind].get(key)
    if found is None:
        return str(key)
    return translated(found.sheet if found.sheet is not None else found.label)


def part_label(variant: str, part: str) -> str:
    """What the screens call a score part in ``variant`` (its own word, if it has one)."""
    if word("variant_part", (variant, part)) is not None:
        return say("variant_part", (variant, part))
    return say("part", part)


def printed_part(variant: str, part: str) -> str:
    """What the printed sheet calls a score part in ``variant`` (its own word, if it has one)."""
    if word("variant_part", (variant, part)) is not None:
        return printed("variant_part", (variant, part))
    return printed("part", part)


def lazy(kind: str, key: object, *, sheet: bool = False) -> Any:
    """The label of ``key``, translated only when shown (for forms built at import)."""
    found = WORDS[kind].get(key)
    if found is None:
        return str(key)
    message = found.sheet if sheet and found.sheet is not None else found.label
    return message if isinstance(message, Verbatim) else lazy_gettext(message)


class Labels(Mapping[Any, Any]):
    """The lazy labels of one kind, over the keys the engine has now (``keys``), or over the
    table's own keys; ``sheet`` for the printed sheet's words."""

    def __init__(
        self, kind: str, keys: Callable[[], Iterable[Any]] | None = None, sheet: bool = False
    ) -> None:
        self.kind, self.keys_now, self.sheet = kind, keys, sheet

    def _keys(self) -> Iterable[Any]:
        return WORDS[self.kind] if self.keys_now is None else self.keys_now()

    def __getitem__(self, key: object) -> Any:
        if key not in self._keys():
            raise KeyError(key)
        return lazy(self.kind, key, sheet=self.sheet)

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._keys()))

    def __len__(self) -> int:
        return len(list(self._keys()))


#: Views of the table for templates and forms (``label(VARIANTS, name)``).
VARIANTS = Labels("variant", lambda: rules.VARIANTS)
#: The games the variants belong to (``rules.FAMILIES``), for filters.
FAMILIES = Labels("family", lambda: rules.FAMILIES)
#: Full names, for titles (the printed sheets).
VARIANT_TITLES = Labels("variant", lambda: rules.VARIANTS, sheet=True)
LAYOUTS = Labels("layout", lambda: LAYOUT_SHAPES)
TIE_POLICIES = Labels("tie", lambda: TIES)
OPTIONS = Labels("option")
#: Labels of option choices that are not plain numbers.
CHOICES = Labels("option_choice")
#: The parts of a side's hand score, as the engine's breakdown names them.
PARTS = Labels("part")


def label(table: Mapping[Any, Any], key: object) -> str:
    """The label of ``key`` in ``table``, or the key itself when it has none."""
    found = table.get(key)
    return str(found) if found is not None else str(key)


def hands_played(count: int) -> str:
    return ngettext("%(num)d hand", "%(num)d hands", count)


# Problems, said where they are


def path_word(key: str) -> str:
    """A key of a problem's path: a match file's key, an input field, a setting or an option."""
    for kind in ("path", "field", "setting", "option"):
        found = WORDS[kind].get(key)
        if found is not None:
            return translated(found.label)
    return key


def path_text(path: str) -> str:
    """``hands[2].sides[1].red_threes`` as "Mano 3 › Equipo 2 › Treses rojos"."""
    words = []
    for key, index in rules.parse_path(path):
        if index is not None and key in WORDS["path_item"]:
            words.append(say("path_item", key) % {"num": index + 1})
        elif not key:
            words.append(f"[{index}]")
        else:
            word = path_word(key)
            words.append(word if index is None else f"{word} {index + 1}")
    return " › ".join(words)


def problem_line(problem: rules.Problem) -> str:
    """The problem in the current language, after where it is (when it is somewhere)."""
    where = path_text(problem.path) if problem.path else ""
    text = problem_message(problem)
    return f"{where}: {text}" if where else text
