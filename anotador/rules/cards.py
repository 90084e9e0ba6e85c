"""The card calculator: counts of each kind of card turned into points (VARIANTS.md §2.2, §5.2)."""

from __future__ import annotations

from collections.abc import Mapping

from anotador.rules.problems import InvalidInput
from anotador.rules.problems import Problem
from anotador.rules.reading import Reader
from anotador.rules.variants import get_variant

MAX_CARDS_OF_A_KIND = 48  # eight aces per deck of two is far above any real count


def card_kinds(variant: str) -> dict[str, int]:
    """The kinds of card the calculator counts for ``variant``, with their values, in order."""
    return dict(get_variant(variant).card_values)


def card_points(variant: str, counts: Mapping[str, object]) -> int:
    """Sum the values of the counted cards; InvalidInput for an unknown kind or a bad count."""
    values = get_variant(variant).card_values
    reader = Reader()
    total = 0
    for kind, count in counts.items():
        if kind not in values:
            reader.problems.append(Problem(kind, "unknown_card_kind"))
            continue
        number = reader.integer(count, kind, 0, MAX_CARDS_OF_A_KIND)
        total += values[kind] * (number or 0)
    if reader.problems:
        raise InvalidInput(reader.problems)
    return total
