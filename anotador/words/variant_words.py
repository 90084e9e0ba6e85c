"""The words of every name a variant's module defines (its name, options and their choices,
input fields and their choices, card kinds, score parts, adjustment presets and reference-box
rows), as English msgids the catalogs translate; :mod:`anotador.words.labels` says them. A new
variant adds its words here and in the catalogs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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


VARIANT_WORDS: dict[str, dict[Any, Word]] = {
    "variant": {
        "uruguaya": Word(N_("Uruguayan"), N_("Uruguayan canasta")),
        "classic": Word(N_("Classic"), N_("Classic canasta")),
        "canastone": Word(N_("Canastone")),
        "real": Word(N_("Canasta real"), N_("Canasta Real")),
        "mac": Word(N_("Modern American"), N_("Modern American Canasta")),
        "burako": Word(N_("Burako")),
        "burraco": Word(N_("Burraco"), N_("Burraco (FIBUR)")),
    },
    # The games the variants belong to (Variant.family).
    "family": {
        "canasta": Word(N_("Canasta, every variant")),
        "burraco": Word(N_("Burako and Burraco")),
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
        "three_in_hand_cost": Word(N_("Each 3 left in hand costs"), N_("3 in hand")),
        "four_joker_wild_penalty": Word(
            N_("Unfinished wild meld with the four jokers"), N_("unfinished four jokers")
        ),
        "garbage_value": Word(N_("Garbage hand is worth"), N_("garbage")),
        "muerto_bonus": Word(N_("Taking the muerto is worth"), N_("muerto taken")),
        "no_canasta_table_negative": Word(
            N_("Without a canasta the tiles on the table count minus"),
            N_("no canasta: table minus"),
        ),
        "semipulito": Word(N_("Semipulito burraco (150)"), N_("semipulito")),
        "pulito_to_close": Word(
            N_("Going out needs a pulito burraco"), N_("pulito needed to close")
        ),
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
        "concealed": Word(N_("Went out “en mano” (concealed, in one go)"), N_("in one go")),
        "concealed_kind": Word(N_("How the closer went out")),
        "natural": Word(N_("Natural canastas"), N_("Natural canasta")),
        "mixed": Word(N_("Mixed canastas"), N_("Mixed canasta")),
        "aces": Word(N_("Natural aces canastas"), N_("Natural aces")),
        "sevens": Word(N_("Natural sevens canastas"), N_("Natural sevens")),
        "wild_twos": Word(N_("Wild-card canastas of 2s"), N_("Wild cards, all 2s")),
        "wild_four_jokers": Word(
            N_("Wild-card canastas with the four jokers"), N_("Wild cards, four jokers")
        ),
        "wild_other": Word(N_("Other wild-card canastas"), N_("Wild cards, other mix")),
        "black_threes": Word(N_("Black threes")),
        "unfinished_aces": Word(N_("Unfinished aces meld")),
        "unfinished_sevens": Word(N_("Unfinished sevens meld")),
        "unfinished_wild": Word(N_("Unfinished wild-card meld")),
        "all_four_jokers": Word(N_("The unfinished wild meld holds the four jokers")),
        "players_with_3_aces": Word(N_("Players left with 3 or more aces")),
        "players_with_3_sevens": Word(N_("Players left with 3 or more sevens")),
        "threes_in_hand": Word(N_("Threes left in hand")),
        "last_card_three": Word(N_("The stock's last card was a 3")),
        "special_hand": Word(N_("Special hand")),
        "pura": Word(N_("Pure canastas (Burako)"), N_("Pure canasta (Burako)")),
        "impura": Word(N_("Impure canastas (Burako)"), N_("Impure canasta (Burako)")),
        "pulito": Word(N_("Pulito burraco"), N_("Pulito")),
        "semipulito": Word(N_("Semipulito burraco"), N_("Semipulito")),
        "sporco": Word(N_("Sporco burraco"), N_("Sporco")),
        "pozzetto": Word(N_("Pozzetto")),
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
        "pairs": Word(N_("Pairs, no wild cards")),
        "wild_pairs": Word(N_("Pairs with aces, 7s and one wild pair")),
        "miami_pairs": Word(N_("Pairs with both wild pairs (Miami)")),
        "zip_code": Word(N_("Zip code")),
        "straight": Word(N_("Straight")),
        "garbage": Word(N_("Garbage")),
        "blast_off": Word(N_("Blast off")),
        "triples": Word(N_("Triples")),
        "quads": Word(N_("Quads")),
        "dream_hand_plus_4": Word(N_("Dream hand +4 (wins the game)")),
        "dream_hand_plus_5": Word(N_("Dream hand +5 (wins the game)")),
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
        "tile_one": Word(N_("Tiles 1"), Verbatim("1")),
        "tile_two": Word(N_("Tiles 2"), Verbatim("2")),
        "tile_three_to_seven": Word(N_("Tiles 3 to 7"), Verbatim("3 – 7")),
        "tile_eight_to_thirteen": Word(N_("Tiles 8 to 13"), Verbatim("8 – 13")),
        "comodin": Word(N_("Wild tiles (comodines)"), N_("Wild tile")),
        "jolly": Word(N_("Jolly (jokers)"), N_("Jolly")),
        "pinella": Word(N_("Pinelle (2s)"), N_("Pinella")),
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
        "special_hand": Word(N_("Special hand"), N_("Special")),
        "black_threes": Word(N_("Black threes"), N_("Black 3s")),
        "threes_in_hand": Word(N_("Threes left in hand"), N_("3s in hand")),
        "unfinished_melds": Word(N_("Unfinished melds"), N_("Unfinished")),
        "aces_sevens_held": Word(N_("Aces or sevens held"), N_("A/7 held")),
        "pozzetto": Word(N_("Pozzetto")),
    },
    # A part a variant calls by its own word, keyed (variant, part): Burraco's canastas are
    # its burrachi.
    "variant_part": {
        ("burraco", "canastas"): Word(N_("Burraco bonuses"), N_("Burrachi")),
    },
    # What a variant is played with, as the blank sheet's subtitle counts it (Variant.pieces).
    "pieces": {
        "cards": Word(N_("%(decks)s decks")),
        "tiles": Word(N_("%(decks)s sets of tiles")),
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
        "muerto_taken": Word(N_("Muerto taken")),
        "needs_any_canasta": Word(N_("Going out needs the muerto taken and a canasta.")),
        "no_canasta_table_minus": Word(
            N_("A side without a canasta counts its tiles on the table minus.")
        ),
        "chiusura": Word(N_("Going out (chiusura)")),
        "pozzetto_not_taken": Word(N_("Pozzetto not taken")),
        "needs_burraco": Word(N_("Going out needs the pozzetto taken and a burraco.")),
        "needs_pulito": Word(N_("Going out needs the pozzetto taken and a pulito burraco.")),
        "melded_always_plus": Word(N_("Melded cards always count plus.")),
        "unfinished_aces_or_sevens": Word(N_("Unfinished aces or sevens meld")),
        "unfinished_wild": Word(N_("Unfinished wild-card meld")),
        "unfinished_four_jokers": Word(N_("Unfinished wild meld with the four jokers")),
        "three_aces_or_sevens": Word(N_("Each player left with 3 aces or 3 sevens")),
        "three_in_hand": Word(N_("Each 3 left in hand")),
        "last_card_three": Word(N_("The stock's last card was a 3")),
        "threes_by_canastas": Word(
            N_(
                "Threes, each colour apart: − with no canasta, not counted with one, "
                "+ with two or more."
            )
        ),
        "threes_each_colour": Word(N_("Threes, each colour")),
        "tile_values": Word(N_("Tile values")),
        "melded_minus_without_canasta": Word(N_("Without a canasta the melded cards count minus.")),
    },
}
