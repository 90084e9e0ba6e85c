"""What the interface calls the engine's names: variants, layouts, options, tie policies and
the parts of a hand's score. Lazy, so each request gets its own language."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

VARIANTS = {
    "uruguaya": _l("Uruguayan"),
    "classic": _l("Classic"),
    "canastone": _l("Canastone"),
    "real": _l("Canasta real"),
}

#: Full names, for titles (the printed sheets).
VARIANT_TITLES = {
    "uruguaya": _l("Uruguayan canasta"),
    "classic": _l("Classic canasta"),
    "canastone": _l("Canastone"),
    "real": _l("Canasta Real"),
}

LAYOUTS = {
    "2p": _l("2 players"),
    "3p": _l("3 players"),
    "4p": _l("4 players, 2 pairs"),
    "6p-3x2": _l("6 players, 3 pairs"),
    "6p-2x3": _l("6 players, 2 trios"),
}

TIE_POLICIES = {
    "extra_hand": _l("Play another hand"),
    "shared": _l("Shared win"),
}

OPTIONS = {
    "red_threes_need_canasta": _l("Red threes count only with a canasta"),
    "min150_from": _l("Opening minimum 150 from"),
    "aces_canasta_bonus": _l("Aces canastas pay extra"),
    "aces_clean_value": _l("Clean aces canasta"),
    "aces_dirty_value": _l("Dirty aces canasta"),
    "black_three_in_hand": _l("Black three left in hand: −100"),
    "wild_canasta": _l("Wild canasta (2000)"),
    "preset": _l("Rules"),
    "negative_opening": _l("Opening minimum below zero"),
    "concealed_later_with_partner_value": _l("Going out concealed later, with partner"),
    "five_canasta_bonuses": _l("Bonuses for five canastas or more"),
    "two_pure_to_close": _l("Going out needs two pure canastas"),
    "wild_canastas_count_as_pure_impure": _l("Wild canastas count as pure or impure"),
    "canasta_de_500": _l("Canasta de 500"),
}

#: Labels of option choices that are not plain numbers.
CHOICES = {
    "pagat": _l("Pagat"),
    "rulebook-es": _l("Spanish rulebook"),
    None: _l("Never"),
}

#: The parts of a side's hand score, as the engine's breakdown names them.
PARTS = {
    "canastas": _l("Canastas"),
    "table": _l("Table"),
    "red_threes": _l("Red threes"),
    "closing": _l("Going out"),
    "hand": _l("Cards in hand"),
    "black_threes_in_hand": _l("Black threes in hand"),
    "many_canastas": _l("Many canastas"),
    "four_black_threes": _l("Four black threes"),
    "muerto": _l("Muerto"),
    "adjustment": _l("Adjustment"),
}


def label(table: dict, key: object) -> str:
    """The label of ``key`` in ``table``, or the key itself when it has none."""
    found = table.get(key)
    return str(found) if found is not None else str(key)


def hands_played(count: int) -> str:
    return ngettext("%(num)d hand", "%(num)d hands", count)
