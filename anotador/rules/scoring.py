"""Scores: a hand, the running totals, the opening minimum and the end of the game (§1.4-1.5)."""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from anotador.rules.match import Match
from anotador.rules.problems import Problem
from anotador.rules.variant import HandInput
from anotador.rules.variant import Role
from anotador.rules.variant import Rules


class SideScore(NamedTuple):
    """One side's result for one hand; ``breakdown`` adds up exactly to ``score``."""

    score: int
    breakdown: dict[str, int]
    total: int
    opening_minimum: int | None


class HandScore(NamedTuple):
    sides: tuple[SideScore, ...]


@dataclass(frozen=True)
class MatchScore:
    """Everything the sheet shows, derived from the inputs alone.

    ``ended_at`` is the index of the hand that ended the game (None while it goes on);
    ``winner`` is None while unfinished and on a shared win; ``margin`` is the leader's lead
    over the runner-up (what stakes are settled on).
    """

    hands: tuple[HandScore, ...]
    totals: tuple[int, ...]
    opening_minimum: tuple[int | None, ...]
    finished: bool
    winner: int | None
    ended_at: int | None
    margin: int
    warnings: tuple[Problem, ...] = ()


def opening_minimum(rules: Rules, score: int) -> int | None:
    """The least a side with cumulative ``score`` must meld to open; None: no minimum."""
    if rules.brackets is None:
        return None
    bounds, minimums = rules.brackets
    return minimums[bisect_right(bounds, score)]


def side_breakdown(rules: Rules, hand: HandInput, index: int) -> dict[str, int]:
    """One side's parts: the variant's formula, then the manual adjustment every variant has."""
    side = hand.sides[index]
    parts = rules.variant.score_side(rules, side, index == hand.closer, hand.details)
    adjustment = side[rules.variant.name_of(Role.ADJUSTMENT)]
    if adjustment:
        parts["adjustment"] = adjustment
    return parts


def score_hand(rules: Rules, hand: HandInput) -> list[dict[str, int]]:
    """Each side's breakdown for one validated hand."""
    return [side_breakdown(rules, hand, index) for index in range(len(hand.sides))]


def leader(totals: Sequence[int]) -> int | None:
    """The side with the highest total; None when two or more share it."""
    top = max(totals)
    leaders = [index for index, total in enumerate(totals) if total == top]
    return leaders[0] if len(leaders) == 1 else None


def game_result(rules: Rules, totals: Sequence[int]) -> tuple[bool, int | None]:
    """(finished, winner) after a complete hand: once a side reaches the target the highest
    total wins; a tie at the top plays another hand or is shared, by the match's tie policy."""
    if max(totals) < rules.target:
        return False, None
    winner = leader(totals)
    if winner is not None:
        return True, winner
    return rules.tie == "shared", None


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """Scoring makes many small objects and no reference cycles: letting the cycle collector
    run meanwhile would traverse the growing result again and again (a tenth of the time of
    a long match). Left as it was found, also when another thread paused it first."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def score_match(match: Match) -> MatchScore:
    """Score every hand of a validated match, in order, from its start scores."""
    if match.scored is not None:
        return match.scored
    return score_from(match, 0, None)


def score_from(match: Match, first: int, earlier: MatchScore | None) -> MatchScore:
    """Score ``match`` reusing ``earlier``'s scores of its hands before ``first``: ``earlier``
    scored a match with the same rules, start scores and first ``first`` hands (a hand's
    score depends only on the totals before it). The same as :func:`score_match`."""
    if match.scored is not None:
        return match.scored
    rules = match.rules
    hands: list[HandScore] = []
    totals = list(match.start_scores)
    finished, winner, ended_at = False, None, None
    if first and earlier is not None:
        hands = list(earlier.hands[:first])
        totals = [side.total for side in hands[-1].sides]
        if earlier.ended_at is not None and earlier.ended_at < first:
            finished, winner, ended_at = earlier.finished, earlier.winner, earlier.ended_at
    else:
        first = 0
    # The loop runs for every side of every hand: what it needs is looked up once.
    variant = rules.variant
    score_side, at_once, special_end = variant.score_side, variant.wins_at_once, variant.special_end
    adjustment = variant.name_of(Role.ADJUSTMENT)
    bounds, minimums = rules.brackets or ((), ())  # opening_minimum, inlined below
    # A round that plays every one of its hands: the target does not end it.
    target = rules.target if not match.play_every_hand else None
    # Played to a number of hands: the hand that makes them ends the game (index limit - 1).
    last = match.hand_limit - 1 if match.hand_limit is not None else -1
    append = hands.append
    # What the named tuples' generated ``__new__`` does, without its Python frame.
    new = tuple.__new__
    with cycle_collection_paused():
        for index, hand in enumerate(match.hands[first:], first):
            closer, details = hand.closer, hand.details
            sides = []
            for side_index, side in enumerate(hand.sides):
                # side_breakdown, inlined.
                breakdown = score_side(rules, side, side_index == closer, details)
                if side[adjustment]:
                    breakdown["adjustment"] = side[adjustment]
                score = sum(breakdown.values())
                total = totals[side_index] = totals[side_index] + score
                least = minimums[bisect_right(bounds, total)] if bounds else None
                sides.append(new(SideScore, (score, breakdown, total, least)))
            append(new(HandScore, (tuple(sides),)))
            # Checked after every complete hand, and only until the game has ended.
            if ended_at is None:
                # Only a special hand can win the game at once (mac's dream hands).
                won = None
                if at_once is not None and hand.end == special_end:
                    won = at_once(rules, hand)
                if won is not None:
                    finished, winner, ended_at = True, won, index
                elif target is not None and max(totals) >= target:
                    finished, winner = game_result(rules, totals)
                    if finished:
                        ended_at = index
                if ended_at is None and index == last:
                    # The round's hands are played: the highest total wins, a tie is shared
                    # (no hand is added to a round of a fixed number).
                    finished, winner, ended_at = True, leader(totals), index
    ranked = sorted(totals, reverse=True)
    result = MatchScore(
        hands=tuple(hands),
        totals=tuple(totals),
        opening_minimum=tuple(opening_minimum(rules, total) for total in totals),
        finished=finished,
        winner=winner,
        ended_at=ended_at,
        margin=ranked[0] - ranked[1],
        warnings=match.warnings,
    )
    # A pure function of a frozen match: reading the match already scored it once.
    object.__setattr__(match, "scored", result)
    return result
