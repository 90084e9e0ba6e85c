"""Victory points (§2 of the tournament rules): a table's match points turned into VP.

A scale is bands of MP difference (the FIBUR 20-0 tables, a club's own), a win-draw-loss
count or the MP themselves. A difference falls in the first band whose upper bound it does
not exceed (bounds inclusive), else in ``above``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["bands", "wdl", "points"]

#: (upper bound of the MP difference, winner's VP, loser's VP)
Band = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Scale:
    """A victory-point scale; ``name`` is the file's name for it, "club" for a club's bands."""

    name: str
    kind: Kind
    bands: tuple[Band, ...] = ()
    above: tuple[int, int] = (0, 0)

    @property
    def bye_vp(self) -> int:
        """The VP of a bye when the file gives none (§2.3)."""
        if self.kind == "wdl":
            return 2
        if self.kind == "points":
            return 0
        sums = {winner + loser for _, winner, loser in self.bands} | {sum(self.above)}
        return 12 if sums == {20} else self.bands[0][1]


def fibur(name: str, uppers: tuple[int, ...]) -> Scale:
    """A FIBUR 20-0 table: 10-10 up to the first bound, then one VP more per band."""
    bands = tuple((upper, 10 + step, 10 - step) for step, upper in enumerate(uppers))
    return Scale(name, "bands", bands, (20, 0))


NAMED_SCALES: dict[str, Scale] = {
    scale.name: scale
    for scale in (
        fibur("fibur-3", (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500)),
        fibur("fibur-4", (100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000)),
        Scale("wdl", "wdl"),
        Scale("points", "points"),
    )
}


def victory_points(scale: Scale, mp_a: int, mp_b: int) -> tuple[int, int]:
    """The VP of the two pairs of a table whose MP were ``mp_a`` and ``mp_b``, in that order."""
    if scale.kind == "points":
        return mp_a, mp_b
    if scale.kind == "wdl":
        return (1, 1) if mp_a == mp_b else ((2, 0) if mp_a > mp_b else (0, 2))
    difference = abs(mp_a - mp_b)
    winner, loser = next(
        ((high, low) for upper, high, low in scale.bands if difference <= upper), scale.above
    )
    return (winner, loser) if mp_a >= mp_b else (loser, winner)
