"""A pair as its table's match names its side (issue 38, item 5): within a side name's 60
characters, with both partners. The label cut at 60 dropped the second player of two long
names."""

from __future__ import annotations

import pytest

from anotador import rules
from anotador.tournaments.operations.table_matches import side_name

LONG = "María Josefina Bellandi de la Torre y Montefeltro"  # 49 characters


@pytest.mark.parametrize(
    ("position", "players", "expected"),
    [
        (3, ["Ana", "Bruno"], "3. Ana – Bruno"),
        # The shorter name whole, the longer one shortened to the room left.
        (
            1,
            [LONG, "Giovanni Battista Ferretti"],
            "1. María Josefina Bellandi de… – Giovanni Battista Ferretti",
        ),
        (
            1,
            ["Giovanni Battista Ferretti", LONG],
            "1. Giovanni Battista Ferretti – María Josefina Bellandi de…",
        ),
        # Two long names: each gets half the room (a space before the cut is dropped).
        (12, [LONG, LONG], "12. María Josefina Bellandi d… – María Josefina Bellandi de…"),
    ],
)
def test_a_pairs_side_name_keeps_both_partners_within_the_limit(
    position: int, players: list[str], expected: str
) -> None:
    name = side_name(position, players)
    assert name == expected
    assert len(name) <= rules.MAX_NAME


def test_the_longest_names_at_the_largest_position_fit() -> None:
    """The longest names a player may have (60 each), at the largest position."""
    name = side_name(1000, ["a" * rules.MAX_NAME, "b" * rules.MAX_NAME])
    assert len(name) <= rules.MAX_NAME
    first, second = name.removeprefix("1000. ").split(" – ")
    assert first == "a" * 24 + "…"
    assert second == "b" * 25 + "…"
