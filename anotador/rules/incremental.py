"""One hand added to, or replaced in, a match already read: only that hand is read, the
scores of the hands before it are reused, and the result is what reading and scoring the
whole changed match file gives (the same match, score and problems, in the same order)."""

from __future__ import annotations

import dataclasses

from anotador.rules import matchfile
from anotador.rules.hands import read_hand
from anotador.rules.match import Match
from anotador.rules.paths import hand_index
from anotador.rules.paths import join
from anotador.rules.problems import Problem
from anotador.rules.scoring import MatchScore
from anotador.rules.scoring import score_from

Changed = tuple[Match | None, MatchScore | None, list[Problem]]


def append_hand(game: Match, score: MatchScore, raw: object) -> Changed:
    """``game`` (read by ``read_match``, scored ``score``) with ``raw`` as its next hand: as
    ``read_match`` and ``score_match`` of its file with ``raw`` appended to its hands."""
    return replace_hand(game, score, len(game.hands), raw)


def replace_hand(game: Match, score: MatchScore, index: int, raw: object) -> Changed:
    """``game`` (read by ``read_match``, scored ``score``) with hand ``index`` (0-based; the
    number of hands appends one) read from ``raw``. Returns the new match and its score, or
    None and None when the changed match has an error, and every problem ``read_match`` of
    the changed file gives: the file's and other hands' warnings, the hand's own problems
    (path ``hands[index]...``) and the hands that would follow the end of the game."""
    if not 0 <= index <= len(game.hands):
        raise IndexError(index)
    if index == matchfile.MAX_HANDS:
        # As read_match: the file's own problems, then the count, no hand read.
        own = [problem for problem in game.warnings if hand_index(problem.path) is None]
        return None, None, [*own, matchfile.too_many_hands()]
    hand, found = read_hand(game.rules, raw, join("hands", index))
    # read_match lists the file's own problems first, then each hand's in order.
    before, after = [], []
    for problem in game.warnings:
        position = hand_index(problem.path)
        if position is None or position < index:
            before.append(problem)
        elif position > index:
            after.append(problem)
    problems = before + found + after
    if hand is None or any(problem.severity == "error" for problem in problems):
        return None, None, problems
    hands = (*game.hands[:index], hand, *game.hands[index + 1 :])
    changed = dataclasses.replace(game, hands=hands, warnings=tuple(problems))
    rescored = score_from(changed, index, score)
    if rescored.ended_at is not None and rescored.ended_at + 1 < len(hands):
        after_end = [
            Problem(join("hands", later), "after_game_end")
            for later in range(rescored.ended_at + 1, len(hands))
        ]
        return None, None, problems + after_end
    return changed, rescored, problems
