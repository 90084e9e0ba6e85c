"""Problems found in a match or a hand: language-neutral, located by a path.

The engine never writes sentences for people; it names what is wrong (``code``), where
(``path``, e.g. ``hands[2].sides[1].red_threes``) and with which figures (``params``). The
command line formats the English template below; the web app translates the same template
with Babel, which extracts every string wrapped in ``N_``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import ClassVar
from typing import Literal

Severity = Literal["error", "warning"]


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark a message for translation without translating it here."""
    return message


MESSAGES: dict[str, str] = {
    # Shape of the document
    "invalid_json": N_("The file is not valid JSON: {detail}"),
    "too_deep": N_("Lists and objects are nested more than {maximum} levels deep."),
    "required": N_("This value is required."),
    "unknown_key": N_("Unknown key: it does not belong to this variant or document."),
    "wrong_type": N_("Expected {expected}."),
    "not_in_choices": N_("Must be one of: {choices}."),
    "not_multiple_of_5": N_("Must be a multiple of 5."),
    "below_minimum": N_("Must be at least {minimum}."),
    "above_maximum": N_("Must be at most {maximum}."),
    "wrong_count": N_("Expected {expected} entries, found {found}."),
    "empty_text": N_("Must not be empty."),
    "text_too_long": N_("Must be at most {maximum} characters long."),
    "control_characters": N_("Must not contain control characters."),
    "invisible_characters": N_(
        "Must hold visible characters only: no invisible spaces or marks that change the "
        "writing direction."
    ),
    "membership_characters": N_(
        "A membership number holds letters, digits, “-” and “/” only, like 12345 or BA-2024/117."
    ),
    "invalid_date": N_("Expected a date written YYYY-MM-DD."),
    "variant_not_supported": N_("The variant “{variant}” is not supported yet."),
    "layout_not_available": N_("This variant is not played with layout {layout}."),
    "option_not_available": N_("This variant has no such setting."),
    "fixed_decks": N_("This variant is always played with {decks} decks."),
    "start_score_not_below_target": N_("The starting score must be below the target ({target})."),
    "after_game_end": N_("The game had already ended: no more hands can be recorded."),
    "needs_hand_limit": N_("Only in a match played to a number of hands (hand_limit)."),
    "too_many_hands": N_("A match holds at most {maximum} hands."),
    "option_off_field": N_("Only with the house option “{option}” turned on."),
    # Who closed (V2, V3, V4, V5)
    "closer_required": N_("Choose the side that went out."),
    "closer_not_allowed": N_("Nobody goes out when the stock runs out."),
    "closer_not_for_end": N_("Nobody goes out in a hand that ended this way."),
    "closer_out_of_range": N_("There is no side number {closer}."),
    "not_opened_cannot_close": N_("A side that never melded cannot go out."),
    "not_opened_has_canastas": N_("A side that never melded cannot have canastas."),
    "table_points_below_meld": N_("A side that melded has at least 15 points on the table."),
    "not_enough_canastas_to_close": N_(
        "Going out needs {required} canasta(s); this side has {held}."
    ),
    "closer_holds_cards": N_("The player who went out has no cards left in hand."),
    # Threes (V6, U3)
    "too_many_red_threes": N_("At most {maximum} red threes with {decks} decks."),
    "too_many_red_threes_total": N_(
        "The sides declare {found} red threes; the decks only have {maximum}."
    ),
    "too_many_black_threes_total": N_(
        "The sides declare {found} black threes in hand; the decks only have {maximum}."
    ),
    # Soft checks (V7)
    "table_points_low_for_canastas": N_(
        "Table points look low: the declared canastas alone hold at least {minimum} points."
    ),
    # uruguaya and classic
    "concealed_needs_close": N_("Only the side that went out can go out “en mano”."),
    "aces_clean_exceed_clean": N_(
        "More clean aces canastas ({aces}) than clean canastas ({canastas})."
    ),
    "aces_dirty_exceed_dirty": N_(
        "More dirty aces canastas ({aces}) than dirty canastas ({canastas})."
    ),
    "only_for_closer": N_("Only for the side that went out."),
    "not_for_preset": N_("Not used with the “{preset}” rules."),
    # canastone
    "closer_needs_pure_and_impure": N_(
        "Going out needs at least {pure} pure and {impure} impure canasta(s)."
    ),
    "too_many_six_jokers": N_("Only one canasta can hold the six jokers."),
    "mixed_wild_after_six_jokers": N_(
        "With the six-jokers canasta made there is no joker left for a mixed wild canasta."
    ),
    "too_many_pinelle": N_("Only one canasta of twos fits in three decks."),
    "too_many_wild_canastas": N_("Three decks have wild cards for at most two wild canastas."),
    "too_many_pure_aces": N_("Only one pure aces canasta fits in three decks."),
    "too_many_aces_canastas": N_("Three decks have aces for at most two aces canastas."),
    # real
    "closer_needs_muerto": N_("Going out needs the side's muerto taken."),
    "closer_needs_clean_canasta": N_("Going out needs a clean canasta (limpia or de mil)."),
    "taken_unused_not_allowed": N_(
        "“Taken, not used” only applies to a side that did not close a hand that was closed."
    ),
    # burako and burraco
    "closer_needs_canasta": N_("Going out needs a canasta, pura or impura."),
    "closer_needs_pozzetto": N_("Going out needs the side's pozzetto taken."),
    "closer_needs_burraco": N_("Going out needs a burraco."),
    "closer_needs_pulito": N_("Going out needs a burraco pulito."),
    # mac
    "too_many_black_threes": N_("At most {maximum} black threes with {decks} decks."),
    "too_many_black_threes_laid": N_(
        "The sides declare {found} black threes; the decks only have {maximum}."
    ),
    "closer_has_unfinished_meld": N_("A side with an unfinished meld of this kind cannot go out."),
    "too_many_natural_aces": N_("Two decks hold one natural aces canasta at most."),
    "too_many_natural_sevens": N_("Two decks hold one natural sevens canasta at most."),
    "too_many_wild_card_canastas": N_("Two decks hold one wild-card canasta at most."),
    "unfinished_and_completed": N_(
        "A side with an unfinished meld of a kind has no completed canasta of that kind."
    ),
    "special_hand_missing": N_("Choose the side that laid down the special hand."),
    "special_hand_one_side": N_("Only one side can lay down a special hand in a hand."),
    "special_hand_needs_end": N_("A special hand ends the hand: nobody goes out."),
    "special_hand_replaces_inputs": N_(
        "A special hand replaces the side's score: leave this empty."
    ),
    "last_card_three_needs_stock_out": N_(
        "The stock's last card can only be a 3 when the stock ran out."
    ),
    "last_card_three_one_side": N_("Only one side drew the stock's last card."),
    "all_four_jokers_needs_unfinished_wild": N_("Only for an unfinished wild-card meld."),
    # card calculator
    "unknown_card_kind": N_("Unknown kind of card for this variant."),
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong (an error) or worth a second look (a warning) in the input.

    Another domain's problems (a tournament file's) are a subclass with its own ``messages``,
    so every problem is said, translated and located the same way."""

    #: The English templates of this kind of problem, by code.
    messages: ClassVar[Mapping[str, str]] = MESSAGES

    path: str
    code: str
    params: Mapping[str, object] = field(default_factory=dict)
    severity: Severity = "error"

    @property
    def message(self) -> str:
        """The English sentence for this problem."""
        return self.messages[self.code].format(**self.params)

    def within(self, prefix: str) -> Problem:
        """The same problem, its path placed under ``prefix`` (``hands[3]`` + ``closer``)."""
        return replace(self, path=f"{prefix}.{self.path}" if self.path else prefix)


def errors(problems: list[Problem]) -> list[Problem]:
    """Only the problems that stop a match or a hand from being scored."""
    return [problem for problem in problems if problem.severity == "error"]


class InvalidInput(ValueError):
    """Raised by API calls that take already-validated data and were given something else."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems = problems
