"""The one label table: what the interface calls every name the engine uses.

:data:`WORDS` maps a kind of name (``"variant"``, ``"field"``, ``"part"``...) and the engine's
key to a :class:`Word`: its English msgid (translated by the catalogs) for the screens and,
where the printed sheet words it shorter, its ``sheet`` msgid. The engine's keys are the
language-neutral names the rules modules define (variants, layouts, options and their choices,
input fields and their choices, card kinds, score parts, adjustment presets, reference-box
rows, the keys of a match file as problem paths name them); a new variant adds its words here
and in the catalogs.

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
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext
from flask_babel import ngettext

from anotador import rules
from anotador.i18n import problem_message
from anotador.rules.variant import LAYOUTS as LAYOUT_SHAPES
from anotador.rules.variant import TIE_POLICIES as TIES


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark a message for translation without translating it here."""
    return message


class Verbatim(str):
    """A word written the same in every language (a card's rank, "8 – K"): never translated."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Word:
    """One name's words: ``label`` on the screens, ``sheet`` on the printed sheet (None: the
    label there too). Both are English msgids, or :class:`Verbatim`."""

    label: str
    sheet: str | None = None


WORDS: dict[str, dict[Any, Word]] = {
    "variant": {
        "uruguaya": Word(N_("Uruguayan"), N_("Uruguayan canasta")),
        "classic": Word(N_("Classic"), N_("Classic canasta")),
        "canastone": Word(N_("Canastone")),
        "real": Word(N_("Canasta real"), N_("Canasta Real")),
    },
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
    # A variant's own settings (Variant.options).
    "option": {
        "red_threes_need_canasta": Word(
            N_("Red threes count only with a canasta"), N_("red threes need a canasta")
        ),
        "min150_from": Word(N_("Opening minimum 150 from"), N_("150 from")),
        "aces_canasta_bonus": Word(N_("Aces canastas pay extra"), N_("aces canasta bonus")),
        "aces_clean_value": Word(N_("Clean aces canasta"), N_("clean aces canasta")),
        "aces_dirty_value": Word(N_("Dirty aces canasta"), N_("dirty aces canasta")),
        "black_three_in_hand": Word(
            N_("Black three left in hand: −100"), N_("black three in hand")
        ),
        "wild_canasta": Word(N_("Wild canasta (2000)"), N_("wild canasta")),
        "preset": Word(N_("Rules"), N_("preset")),
        "negative_opening": Word(N_("Opening minimum below zero"), N_("opening below zero")),
        "concealed_later_with_partner_value": Word(
            N_("Going out concealed later, with partner"), N_("later concealed close with partner")
        ),
        "five_canasta_bonuses": Word(
            N_("Bonuses for five canastas or more"), N_("five-canasta bonuses")
        ),
        "two_pure_to_close": Word(
            N_("Going out needs two pure canastas"), N_("two pure canastas to close")
        ),
        "wild_canastas_count_as_pure_impure": Word(
            N_("Wild canastas count as pure or impure"), N_("wild canastas count as pure/impure")
        ),
        "canasta_de_500": Word(N_("Canasta de 500"), N_("canasta de 500")),
    },
    # The choices of an option that are not plain numbers (the printed sheet shows the value).
    "option_choice": {
        "pagat": Word(N_("Pagat")),
        "rulebook-es": Word(N_("Spanish rulebook")),
        None: Word(N_("Never")),
    },
    # The inputs of a hand: per side (Variant.side_fields) and per hand (Variant.hand_fields).
    # A canasta field's sheet word names one canasta of its kind (the reference box).
    "field": {
        "clean": Word(N_("Clean canastas"), N_("Clean canasta")),
        "dirty": Word(N_("Dirty canastas"), N_("Dirty canasta")),
        "table_points": Word(N_("Points on the table")),
        "hand_points": Word(N_("Points in hand")),
        "red_threes": Word(N_("Red threes")),
        "aces_clean": Word(N_("Clean aces canastas")),
        "aces_dirty": Word(N_("Dirty aces canastas")),
        "wild_canastas": Word(N_("Wild-card canastas")),
        "black_threes_in_hand": Word(N_("Black threes in hand")),
        "four_black_threes_out": Word(N_("Went out melding the four black threes")),
        "adjustment": Word(N_("Adjustment (+/−)")),
        "adjustment_note": Word(N_("Reason for the adjustment")),
        "pure": Word(N_("Pure canastas"), N_("Pure canasta")),
        "impure": Word(N_("Impure canastas"), N_("Impure canasta")),
        "aces_pure": Word(N_("Pure aces canastas"), N_("Pure aces")),
        "aces_impure": Word(N_("Impure aces canastas"), N_("Impure aces")),
        "mixed_wild": Word(N_("Mixed wild canastas"), N_("Jokers and pinelle")),
        "pinelle": Word(N_("Canastas of twos"), N_("Seven pinelle")),
        "six_jokers": Word(N_("Six-jokers canastas"), N_("Six jokers")),
        "limpia": Word(N_("Clean canastas"), N_("Clean run")),
        "sucia": Word(N_("Dirty canastas"), N_("Dirty run")),
        "de_mil": Word(N_("Ace-to-ace canastas (de mil)"), N_("Ace to ace (de mil)")),
        "de_500": Word(N_("Ace-to-king canastas (de 500)"), N_("Ace to king (de 500)")),
        "muerto": Word(N_("Muerto")),
        "concealed": Word(N_("Went out “en mano” (concealed, in one go)"), N_("concealed")),
        "concealed_kind": Word(N_("How the closer went out")),
    },
    # The choices of a choice field; the sheet says how the closer went out.
    "field_choice": {
        "taken": Word(N_("Taken")),
        "not_taken": Word(N_("Not taken")),
        "taken_unused": Word(N_("Taken, not used")),
        "first_turn_alone": Word(
            N_("On the first turn, without the partner's melds"), N_("concealed, first turn")
        ),
        "first_turn_with_partner": Word(
            N_("On the first turn, using the partner's melds"),
            N_("concealed, first turn, with partner"),
        ),
        "later_alone": Word(N_("Later, without the partner's melds"), N_("concealed, later")),
        "later_with_partner": Word(
            N_("Later, using the partner's melds"), N_("concealed, later, with partner")
        ),
    },
    # The card calculator's kinds (Variant.card_values).
    "card": {
        "joker": Word(N_("Jokers"), N_("Joker")),
        "two": Word(N_("Twos"), Verbatim("2")),
        "ace": Word(N_("Aces"), Verbatim("A")),
        "eight_to_king": Word(N_("8 to K"), Verbatim("8 – K")),
        "four_to_seven": Word(N_("4 to 7"), Verbatim("4 – 7")),
        "three_to_seven": Word(N_("3 to 7"), Verbatim("3 – 7")),
        "black_three": Word(N_("Black threes"), N_("Black 3")),
    },
    # The parts of a side's hand score (Variant.parts); the sheet's column headers are short.
    "part": {
        "canastas": Word(N_("Canastas")),
        "table": Word(N_("Table")),
        "red_threes": Word(N_("Red threes"), N_("Red 3s")),
        "closing": Word(N_("Going out"), N_("Closing")),
        "hand": Word(N_("Cards in hand"), N_("In hand")),
        "black_threes_in_hand": Word(N_("Black threes in hand"), N_("Black 3s")),
        "many_canastas": Word(N_("Many canastas"), N_("Bonus")),
        "four_black_threes": Word(N_("Four black threes"), N_("4 black 3s")),
        "muerto": Word(N_("Muerto")),
        "adjustment": Word(N_("Adjustment"), N_("Adjust.")),
    },
    # Penalties the hand form adds to an adjustment (Variant.adjustment_presets).
    "penalty": {
        "stock_out_of_turn_repairable": Word(N_("Drew from the stock out of turn (repaired)")),
        "stock_out_of_turn": Word(N_("Drew from the stock out of turn")),
        "too_many_cards_drawn": Word(N_("Drew too many cards")),
        "pile_taken_without_right": Word(N_("Took the pile without the right to it")),
        "meld_in_opponent_turn": Word(N_("Melded in an opponent's turn")),
        "meld_in_partner_turn": Word(N_("Melded in the partner's turn")),
        "red_three_in_hand": Word(N_("Red three left in hand")),
    },
    # The blank sheet's reference box (Variant.reference): closing rows and notes, whose
    # {params} the variant fills in.
    "reference": {
        "closing": Word(N_("Closing")),
        "concealed_closing": Word(N_("Concealed closing")),
        "five_canastas": Word(N_("Five canastas, pure and impure")),
        "five_pure": Word(N_("Five pure and one impure")),
        "final_close": Word(N_("Final close")),
        "muerto_not_taken": Word(N_("Muerto not taken")),
        "red_threes_minus_unmelded": Word(
            N_("Red threes count minus for a side that did not meld.")
        ),
        "canastas_to_close": Word(N_("Canastas to close: {count}")),
        "red_threes_by_canastas": Word(
            N_(
                "Red threes: + with pure and impure canastas, 0 with pure only, "
                "− with impure only, −2× with no canasta."
            )
        ),
        "hand_doubles_unopened": Word(
            N_("Cards in hand count double for a side that did not open.")
        ),
        "needs_clean_canasta": Word(N_("Going out needs a clean canasta.")),
    },
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
        "name": Word(N_("Name")),
        "players": Word(N_("Players")),
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
    },
    "error_message": {
        400: Word(N_("We could not understand what was sent; check the data and try again.")),
        404: Word(N_("The page you are looking for does not exist or was moved.")),
        405: Word(N_("That action cannot be done on this page.")),
        413: Word(N_("What was sent is too large to process.")),
        500: Word(N_("Something went wrong on our side; try again in a moment.")),
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
