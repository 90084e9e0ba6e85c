"""The scoring engine: pure Python, plain data in and plain data out.

Nothing here imports Flask, SQLAlchemy, WTForms or WeasyPrint; the web app, the printed
sheets and the command line are thin layers over these functions.
"""

from anotador.rules.cards import card_kinds
from anotador.rules.cards import card_points
from anotador.rules.hands import read_hand
from anotador.rules.incremental import append_hand
from anotador.rules.incremental import replace_hand
from anotador.rules.match import Match
from anotador.rules.match import SideInfo
from anotador.rules.matchfile import FORMAT as MATCH_FORMAT
from anotador.rules.matchfile import MAX_HANDS
from anotador.rules.matchfile import hand_to_document
from anotador.rules.matchfile import match_to_document
from anotador.rules.matchfile import parse_json
from anotador.rules.matchfile import read_match
from anotador.rules.paths import hand_index
from anotador.rules.paths import parse_path
from anotador.rules.paths import side_field
from anotador.rules.problems import MESSAGES
from anotador.rules.problems import InvalidInput
from anotador.rules.problems import Problem
from anotador.rules.scoring import HandScore
from anotador.rules.scoring import MatchScore
from anotador.rules.scoring import SideScore
from anotador.rules.scoring import game_result
from anotador.rules.scoring import opening_minimum
from anotador.rules.scoring import score_from
from anotador.rules.scoring import score_hand
from anotador.rules.scoring import score_match
from anotador.rules.serialize import scored_match_to_json
from anotador.rules.text import MAX_NAME
from anotador.rules.text import TextRefused
from anotador.rules.text import clean_text
from anotador.rules.text import is_text_character
from anotador.rules.text import read_text
from anotador.rules.variant import HandInput
from anotador.rules.variant import InputField
from anotador.rules.variant import Reference
from anotador.rules.variant import Role
from anotador.rules.variant import Rules
from anotador.rules.variant import Variant
from anotador.rules.variants import DEFAULT_VARIANT
from anotador.rules.variants import FAMILIES
from anotador.rules.variants import VARIANTS
from anotador.rules.variants import describe_variants
from anotador.rules.variants import get_variant
from anotador.rules.variants import make_rules
from anotador.rules.variants import variant_defaults

__all__ = [
    "DEFAULT_VARIANT",
    "FAMILIES",
    "MATCH_FORMAT",
    "MAX_HANDS",
    "MAX_NAME",
    "MESSAGES",
    "VARIANTS",
    "HandInput",
    "HandScore",
    "InputField",
    "InvalidInput",
    "Match",
    "MatchScore",
    "Problem",
    "Reference",
    "Role",
    "Rules",
    "SideInfo",
    "SideScore",
    "TextRefused",
    "Variant",
    "append_hand",
    "card_kinds",
    "card_points",
    "clean_text",
    "describe_variants",
    "game_result",
    "get_variant",
    "hand_index",
    "hand_to_document",
    "is_text_character",
    "make_rules",
    "match_to_document",
    "opening_minimum",
    "parse_json",
    "parse_path",
    "read_hand",
    "read_match",
    "read_text",
    "replace_hand",
    "score_document",
    "score_from",
    "score_hand",
    "score_match",
    "scored_match_to_json",
    "side_field",
    "validate_match",
    "variant_defaults",
]


def validate_match(document: object) -> list[Problem]:
    """Every problem of a match document: errors and warnings, each with its path."""
    return read_match(document)[1]


def score_document(document: object) -> tuple[MatchScore | None, list[Problem]]:
    """Validate and score a match document in one call (None when it has errors)."""
    match, problems = read_match(document)
    if match is None:
        return None, problems
    return score_match(match), problems
