"""The ``swiss`` draw (TOURNAMENTS.md §4.6): close scores meet, and pairs that have met are
kept apart while the field allows it.

Round 1 seats the top half of ``pairs`` against the bottom half. Later rounds are one
minimum-cost perfect matching over the pairs still to seat, the cost of a table being

    (v₁ − v₂)² + R if its two pairs have met at a table before, else (v₁ − v₂)²

with R larger than the squares of any whole draw can add up to, so that one rematch fewer
always wins over any squares and the squares only decide among the fewest rematches. The
matching is rustworkx's ``max_weight_matching`` (Edmonds' blossom algorithm, exact, in
integers, compiled: a round of 200 pairs in tens of ms where networkx's pure-Python one
takes seconds) on the weights ``top − cost``, asked for a perfect matching. The weights are
computed by numpy (rustworkx needs it anyway) while they are exact as floats, by a loop
beyond. The graph is built in the order of the standings and the algorithm makes no random
choice, so one file gives one draw. Both libraries are imported by the draw itself, so
that the standings and the other systems load neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from anotador.tournaments.standings import Standing
from anotador.tournaments.tournament import Tournament

if TYPE_CHECKING:
    import rustworkx

#: Below this every whole number is a float (2⁵³): the weights may go through numpy's floats.
EXACT_FLOAT = 2**53


def first_round(active: Sequence[str]) -> tuple[list[tuple[str, str]], tuple[str, ...]]:
    """Round 1: with an odd count the last pair has the bye; then position i of the list
    meets position i + H (H = half the rest), position i NS."""
    byes: tuple[str, ...] = ()
    order = list(active)
    if len(order) % 2:
        byes = (order.pop(),)
    half = len(order) // 2
    return [(order[k], order[k + half]) for k in range(half)], byes


def meetings(tournament: Tournament) -> set[frozenset[str]]:
    """Every two pairs that met at a table in a round of ``results`` (a bye meets no one)."""
    return {frozenset((t.ns, t.ew)) for played in tournament.results for t in played.tables}


def later_round(
    rows: Sequence[Standing], met: set[frozenset[str]]
) -> tuple[list[tuple[str, str]], tuple[str, ...]]:
    """A round after the first from the standings ``rows`` (active pairs only, in order):
    the Danish bye, then the fewest rematches, then the smallest sum of squared VP
    differences. Tables as (NS, EW), the higher-placed NS, in the order of their NS's
    places."""
    rows = list(rows)
    byes: tuple[str, ...] = ()
    if len(rows) % 2:
        fewest = min(row.byes for row in rows)
        bye = next(row for row in reversed(rows) if row.byes == fewest)
        rows.remove(bye)
        byes = (bye.pair,)
    mates = best_split([row.vp for row in rows], rematches(rows, met))
    tables = [(rows[ns].pair, rows[ew].pair) for ns, ew in mates]
    return tables, byes


def rematches(rows: Sequence[Standing], met: set[frozenset[str]]) -> set[tuple[int, int]]:
    """The places (i < j, 0-based) of every two pairs of ``rows`` that have met."""
    place = {row.pair: k for k, row in enumerate(rows)}
    found = set()
    for meeting in met:
        one, other = sorted(place.get(pair, -1) for pair in meeting)
        if one >= 0:
            found.add((one, other))
    return found


def best_split(vp: Sequence[int], rematched: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The tables (i, j), i < j, sorted, of an optimal split of places 0..m−1 (m even):
    the fewest ``rematched`` tables, then the smallest sum of (vp[i] − vp[j])²."""
    count = len(vp)
    if count == 0:
        return []
    if count == 2:
        return [(0, 1)]
    # Here, not at the top: numpy alone takes longer to import than most commands take to
    # run, and only a swiss draw needs it.
    import rustworkx

    spread = (max(vp) - min(vp)) ** 2
    # One rematch costs more than the squares of any split: m/2 tables, each at most spread.
    rematch = spread * (count // 2) + 1
    top = rematch + spread + 1
    if top < EXACT_FLOAT:
        graph = dense_graph(vp, rematched, rematch, top)
    else:
        graph = rustworkx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(count))
        graph.add_edges_from(
            [
                (i, j, top - (vp[i] - vp[j]) ** 2 - (rematch if (i, j) in rematched else 0))
                for i in range(count)
                for j in range(i + 1, count)
            ]
        )
    matched = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    tables = sorted((min(pair), max(pair)) for pair in matched)
    assert len(tables) * 2 == count
    return tables


def dense_graph(
    vp: Sequence[int], rematched: set[tuple[int, int]], rematch: int, top: int
) -> rustworkx.PyGraph:
    """The same complete graph as the loop over every (i, j), i < j, in the same order, built
    from a matrix of weights: numpy computes them, rustworkx reads the upper triangle (a zero
    is no edge, every weight here is at least 1)."""
    import numpy
    import rustworkx

    values = numpy.array(vp, dtype=numpy.float64)
    weights = float(top) - (values[:, None] - values[None, :]) ** 2
    if rematched:
        ones, others = numpy.array(sorted(rematched)).T
        weights[ones, others] -= rematch
    numpy.fill_diagonal(weights, 0.0)
    return rustworkx.PyGraph.from_adjacency_matrix(weights)
