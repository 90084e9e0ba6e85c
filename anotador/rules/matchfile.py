"""The match file, ``anotador-match/1`` (docs/match-format.md): read it, write it."""

from __future__ import annotations

import datetime
import json
from typing import Any

from anotador.rules.hands import read_hand
from anotador.rules.match import Match
from anotador.rules.match import SideInfo
from anotador.rules.paths import join
from anotador.rules.problems import Problem
from anotador.rules.reading import Reader
from anotador.rules.scoring import score_match
from anotador.rules.text import MAX_NAME
from anotador.rules.text import MAX_NOTES
from anotador.rules.text import MAX_TITLE
from anotador.rules.variant import MAX_START_SCORE
from anotador.rules.variant import HandInput
from anotador.rules.variant import Rules
from anotador.rules.variants import DEFAULT_LAYOUT
from anotador.rules.variants import VARIANTS
from anotador.rules.variants import read_rules
from anotador.rules.variants import unknown_variant_problem

FORMAT = "anotador-match/1"
DOCUMENT_KEYS = (
    "format",
    "variant",
    "layout",
    "options",
    "sides",
    "start_scores",
    "hands",
    "title",
    "played_on",
    "notes",
    "abandoned",
    "hand_limit",
    "play_every_hand",
)
SIDE_KEYS = ("name", "players")


#: The most hands a match may hold: a real match has under 100, and a file of thousands is
#: a mistake or an abuse (every hand is read, scored and drawn on each page and sheet).
MAX_HANDS = 2_000

#: The most levels of lists and objects a JSON value may nest: a match file nests 6, a
#: backup's list of them 7. Deeper is refused before anything walks it (Python's own
#: recursion would end in a RecursionError somewhere).
MAX_DEPTH = 32


def parse_json(text: str | bytes) -> tuple[object, list[Problem]]:
    """The JSON value of ``text``, or a problem saying where the JSON is broken or that it
    nests more than :data:`MAX_DEPTH` levels; the one reader of JSON from outside (files,
    uploads, request bodies)."""
    try:
        value = json.loads(text)
    except RecursionError:  # thousands of levels: the C parser's own guard
        return None, [too_deep()]
    except ValueError as error:
        return None, [Problem("$", "invalid_json", {"detail": str(error)})]
    return (value, []) if nests_within(value, MAX_DEPTH) else (None, [too_deep()])


def too_many_hands() -> Problem:
    return Problem("hands", "too_many_hands", {"maximum": MAX_HANDS})


def too_deep() -> Problem:
    return Problem("$", "too_deep", {"maximum": MAX_DEPTH})


def nests_within(value: object, levels: int) -> bool:
    """Whether ``value``'s lists and objects nest at most ``levels`` deep (read a level at a
    time, without recursion)."""
    level: list[Any] = [value] if isinstance(value, dict | list) else []
    for _ in range(levels):
        level = [
            child
            for node in level
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, dict | list)
        ]
        if not level:
            return True
    return not level


def read_match(document: object) -> tuple[Match | None, list[Problem]]:
    """Validate a match document and resolve every default.

    Returns the match (None when there is any error) and every problem found: errors with
    the path of what is wrong, and warnings (soft checks) that never stop scoring.
    """
    reader = Reader()
    doc = reader.mapping(document, "", DOCUMENT_KEYS)
    if doc is None:
        return None, reader.problems
    if "format" not in doc:
        reader.error("format", "required")
    else:
        reader.choice(doc["format"], "format", (FORMAT,))
    rules = read_match_rules(reader, doc)
    if rules is None:
        return None, reader.problems
    sides = read_side_infos(reader, rules, doc.get("sides"))
    start_scores = read_start_scores(reader, rules, doc.get("start_scores"))
    title = reader.text(doc.get("title", ""), "title", maximum=MAX_TITLE, single_line=True)
    played_on = read_date(reader, doc.get("played_on", ""))
    notes = reader.text(doc.get("notes", ""), "notes", maximum=MAX_NOTES)
    abandoned = reader.boolean(doc.get("abandoned", False), "abandoned")
    hand_limit = None
    if "hand_limit" in doc:
        hand_limit = reader.integer(doc["hand_limit"], "hand_limit", 1, MAX_HANDS)
    play_every_hand = reader.boolean(doc.get("play_every_hand", False), "play_every_hand")
    if play_every_hand and "hand_limit" not in doc:
        reader.error("play_every_hand", "needs_hand_limit")
    hands, hand_problems = read_hands(rules, doc.get("hands"))
    problems = reader.problems + hand_problems
    if any(problem.severity == "error" for problem in problems) or hands is None:
        return None, problems
    assert sides is not None
    assert start_scores is not None
    match = Match(
        rules=rules,
        sides=sides,
        hands=hands,
        start_scores=start_scores,
        title=title or "",
        played_on=played_on or "",
        notes=notes or "",
        abandoned=bool(abandoned),
        hand_limit=hand_limit,
        play_every_hand=bool(play_every_hand),
        warnings=tuple(problems),
    )
    after_end = hands_after_end(match)
    if after_end:
        return None, problems + after_end
    return match, problems


def read_match_rules(reader: Reader, doc: dict[str, Any]) -> Rules | None:
    variant = doc.get("variant")
    if variant is None:
        reader.error("variant", "required")
        return None
    if not isinstance(variant, str) or variant not in VARIANTS:
        reader.problems.append(unknown_variant_problem(variant))
        return None
    layout = doc.get("layout", DEFAULT_LAYOUT)
    if not isinstance(layout, str):
        reader.error("layout", "wrong_type", expected="a text")
        return None
    return read_rules(reader, variant, layout, doc.get("options", {}), "options")


def read_side_infos(reader: Reader, rules: Rules, raw: object) -> tuple[SideInfo, ...] | None:
    if raw is None:
        reader.error("sides", "required")
        return None
    if not isinstance(raw, list):
        reader.error("sides", "wrong_type", expected="a list")
        return None
    if len(raw) != rules.layout.sides:
        reader.error("sides", "wrong_count", expected=rules.layout.sides, found=len(raw))
        return None
    sides = []
    for index, entry in enumerate(raw):
        path = join("sides", index)
        side = reader.mapping(entry, path, SIDE_KEYS)
        if side is None:
            continue
        if "name" not in side:
            reader.error(join(path, "name"), "required")
        name = read_name(reader, side.get("name", "?"), join(path, "name"))
        players = read_players(reader, rules, side.get("players", []), join(path, "players"))
        sides.append(SideInfo(name or "", players))
    return tuple(sides)


def read_players(reader: Reader, rules: Rules, raw: object, path: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        reader.error(path, "wrong_type", expected="a list of names")
        return ()
    if len(raw) > rules.layout.players_per_side:
        reader.error(path, "above_maximum", maximum=rules.layout.players_per_side)
        return ()
    names = [read_name(reader, name, join(path, i)) for i, name in enumerate(raw)]
    return tuple(name for name in names if name)


def read_name(reader: Reader, raw: object, path: str) -> str | None:
    """A side's or a player's name: one line, not empty, at most :data:`MAX_NAME` long."""
    return reader.text(raw, path, required=True, maximum=MAX_NAME, single_line=True)


def read_start_scores(reader: Reader, rules: Rules, raw: object) -> tuple[int, ...] | None:
    if raw is None:
        return (0,) * rules.layout.sides
    if not isinstance(raw, list):
        reader.error("start_scores", "wrong_type", expected="a list of whole numbers")
        return None
    if len(raw) != rules.layout.sides:
        reader.error("start_scores", "wrong_count", expected=rules.layout.sides, found=len(raw))
        return None
    scores = []
    for index, value in enumerate(raw):
        path = join("start_scores", index)
        score = reader.integer(value, path, -MAX_START_SCORE, MAX_START_SCORE, True)
        if score is not None and score >= rules.target:
            reader.error(path, "start_score_not_below_target", target=rules.target)
        scores.append(score or 0)
    return tuple(scores)


def read_date(reader: Reader, raw: object) -> str | None:
    text = reader.text(raw, "played_on", maximum=10, single_line=True)
    if not text:
        return text
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        reader.error("played_on", "invalid_date")
        return None
    if len(text) != 10:
        reader.error("played_on", "invalid_date")
        return None
    return text


def read_hands(rules: Rules, raw: object) -> tuple[tuple[HandInput, ...] | None, list[Problem]]:
    if raw is None:
        return None, [Problem("hands", "required")]
    if not isinstance(raw, list):
        return None, [Problem("hands", "wrong_type", {"expected": "a list"})]
    if len(raw) > MAX_HANDS:  # refused before any of them is read
        return None, [too_many_hands()]
    hands: list[HandInput] = []
    problems: list[Problem] = []
    for index, entry in enumerate(raw):
        hand, found = read_hand(rules, entry, join("hands", index))
        problems += found
        if hand is not None:
            hands.append(hand)
    if len(hands) != len(raw):
        return None, problems
    return tuple(hands), problems


def hands_after_end(match: Match) -> list[Problem]:
    """V8: the hands recorded after the one that ended the game."""
    ended = score_match(match).ended_at
    if ended is None:
        return []
    return [
        Problem(join("hands", index), "after_game_end")
        for index in range(ended + 1, len(match.hands))
    ]


def match_to_document(match: Match) -> dict[str, Any]:
    """The match file of ``match``, every default written out, free texts only when given."""
    rules = match.rules
    document: dict[str, Any] = {
        "format": FORMAT,
        "variant": rules.variant.name,
        "layout": rules.layout.name,
        "options": rules.settings(),
        "sides": [{"name": side.name, "players": list(side.players)} for side in match.sides],
        "start_scores": list(match.start_scores),
        "hands": [hand_to_document(rules, hand) for hand in match.hands],
    }
    for key in ("title", "played_on", "notes"):
        if getattr(match, key):
            document[key] = getattr(match, key)
    document["abandoned"] = match.abandoned
    if match.hand_limit is not None:
        document["hand_limit"] = match.hand_limit
    if match.play_every_hand:
        document["play_every_hand"] = True
    return document


def hand_to_document(rules: Rules, hand: HandInput) -> dict[str, Any]:
    """One hand as the match file writes it (only the fields its options enable)."""
    document: dict[str, Any] = {"end": hand.end, "closer": hand.closer}
    for spec in rules.hand_fields():
        document[spec.name] = hand.details[spec.name]
    side_specs = rules.side_fields()
    document["sides"] = [
        {
            spec.name: side[spec.name]
            for spec in side_specs
            if spec.kind != "text" or side[spec.name]
        }
        for side in hand.sides
    ]
    if hand.note:
        document["note"] = hand.note
    return document
