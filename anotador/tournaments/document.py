"""The tournament file, ``anotador-tournament/1`` (§1): read it, with every problem found.

A file of either kind (§6.1): :func:`check_tournament_file` returns the tournament (a
:class:`Tournament` of pairs or an :class:`IndividualTournament`) or the problems;
:func:`read_tournament_file` raises :class:`TournamentProblems` instead;
:func:`parse_tournament_file` starts from the file's bytes. :func:`check_tournament`,
:func:`read_tournament` and :func:`parse_tournament` are the same for callers that know only
pairs: an individual file is a ``kind`` problem to them. When the set-up (everything but
``results``) has problems, the results are not read.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from dataclasses import replace
from typing import Any

from anotador.rules import Rules
from anotador.rules.matchfile import parse_json
from anotador.rules.paths import join
from anotador.rules.reading import Reader
from anotador.rules.variants import VARIANTS
from anotador.rules.variants import read_rules
from anotador.tournaments.entrants import read_entrants
from anotador.tournaments.limits import MAX_BANDS
from anotador.tournaments.limits import MAX_HANDS_PER_ROUND
from anotador.tournaments.limits import MAX_ROUNDS
from anotador.tournaments.limits import MAX_SIZE
from anotador.tournaments.problems import Problem
from anotador.tournaments.problems import TournamentProblems
from anotador.tournaments.reading import ROOT
from anotador.tournaments.reading import Checker
from anotador.tournaments.results import read_results
from anotador.tournaments.tournament import FORMAT
from anotador.tournaments.tournament import INDIVIDUAL_SYSTEMS
from anotador.tournaments.tournament import KINDS
from anotador.tournaments.tournament import SYSTEMS
from anotador.tournaments.tournament import AnyTournament
from anotador.tournaments.tournament import IndividualTournament
from anotador.tournaments.tournament import SetUp
from anotador.tournaments.tournament import Tournament
from anotador.tournaments.victory_points import NAMED_SCALES
from anotador.tournaments.victory_points import Scale

#: The tournament's set-up: every key but its format, pairs and results.
SET_UP = (
    "name",
    "played_on",
    "variant",
    "layout",
    "options",
    "hands_per_round",
    "scale",
    "system",
    "rounds",
    "bye_vp",
)
KEYS = ("format", "kind", *SET_UP, "pairs", "players", "results")
#: Not required, or required by the file's kind only (``pairs`` or ``players``).
OPTIONAL = ("kind", "played_on", "options", "bye_vp", "pairs", "players")
#: The one layout of a tournament table: two pairs.
LAYOUT = "4p"
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_tournament_file(text: bytes | str) -> AnyTournament:
    """The tournament of a file's bytes (UTF-8 JSON), of either kind; raises
    :class:`TournamentProblems`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise TournamentProblems([Problem(ROOT, "not_json", {"detail": str(error)})]) from None
    document, refused = parse_json(text)
    if refused:
        detail = refused[0].message
        raise TournamentProblems([Problem(ROOT, "not_json", {"detail": detail})])
    return read_tournament_file(document)


def read_tournament_file(data: object) -> AnyTournament:
    """The tournament of a JSON value, of either kind; raises :class:`TournamentProblems`
    when it is invalid."""
    tournament, problems = check_tournament_file(data)
    if tournament is None:
        raise TournamentProblems(problems)
    return tournament


def parse_tournament(text: bytes | str) -> Tournament:
    """:func:`parse_tournament_file` for a tournament of pairs."""
    return pairs_only(parse_tournament_file(text))


def read_tournament(data: object) -> Tournament:
    """:func:`read_tournament_file` for a tournament of pairs."""
    return pairs_only(read_tournament_file(data))


def check_tournament(data: object) -> tuple[Tournament | None, list[Problem]]:
    """:func:`check_tournament_file` for a tournament of pairs: an individual file is the
    problem ``kind``."""
    tournament, problems = check_tournament_file(data)
    if isinstance(tournament, IndividualTournament):
        return None, [not_pairs()]
    return tournament, problems


def pairs_only(tournament: AnyTournament) -> Tournament:
    if isinstance(tournament, IndividualTournament):
        raise TournamentProblems([not_pairs()])
    return tournament


def not_pairs() -> Problem:
    return Problem("$.kind", "kind", {"choices": "pairs"})


def check_tournament_file(data: object) -> tuple[AnyTournament | None, list[Problem]]:
    """The tournament of a JSON value (None when it has problems) and every problem found."""
    checker = Checker()
    required = [key for key in KEYS if key not in OPTIONAL]
    doc = checker.mapping(data, ROOT, KEYS, required)
    if doc is None:
        return None, checker.problems
    if "format" in doc and doc["format"] != FORMAT:
        checker.add("$.format", "format", format=FORMAT)
    kind = read_kind(checker, doc)
    name = checker.name(doc["name"], "$.name") if "name" in doc else None
    played_on = read_date(checker, doc["played_on"]) if "played_on" in doc else ""
    variant = read_variant(checker, doc)
    options = doc.get("options", {})
    rules = read_options(checker, variant, options) if variant is not None else None
    if variant is None and not isinstance(options, dict):
        checker.add("$.options", "options", detail="expected an object")
    hands_per_round = None
    if doc.get("hands_per_round") is not None:
        hands_per_round = checker.integer(
            doc["hands_per_round"], "$.hands_per_round", 1, MAX_HANDS_PER_ROUND
        )
    scale = read_scale(checker, doc["scale"], "$.scale") if "scale" in doc else None
    system = doc.get("system")
    # With no kind known, any system of either kind may be the file's (§6.6).
    systems = {
        "pairs": SYSTEMS,
        "individual": INDIVIDUAL_SYSTEMS,
        None: tuple(dict.fromkeys(SYSTEMS + INDIVIDUAL_SYSTEMS)),
    }[kind]
    if "system" in doc and (not isinstance(system, str) or system not in systems):
        checker.add("$.system", "system", choices=", ".join(systems))
    rounds = checker.integer(doc["rounds"], "$.rounds", 1, MAX_ROUNDS) if "rounds" in doc else None
    bye_vp = None
    if "bye_vp" in doc:
        bye_vp = checker.integer(doc["bye_vp"], "$.bye_vp", -MAX_SIZE, MAX_SIZE)
    pairs, players = read_entrants(checker, doc, kind)
    results = doc.get("results")
    if kind is not None and "results" in doc and not isinstance(results, list):
        checker.add("$.results", "type", expected="a list")
    if checker.problems:
        return None, checker.problems
    # No problem: every value was read.
    assert name is not None
    assert variant is not None
    assert rules is not None
    assert scale is not None
    assert rounds is not None
    assert pairs is not None or players is not None
    assert isinstance(system, str)
    assert isinstance(results, list)
    assert isinstance(options, dict)
    set_up = SetUp(
        name=name,
        variant=variant,
        layout=LAYOUT,
        rules=rules,
        hands_per_round=hands_per_round,
        scale=scale,
        system=system,
        rounds=rounds,
        bye_vp=scale.bye_vp if bye_vp is None else bye_vp,
        played_on=played_on or "",
        options=options,
    )
    fields = {f.name: getattr(set_up, f.name) for f in dataclasses.fields(SetUp)}
    tournament: AnyTournament
    if players is not None:
        individual = IndividualTournament(**fields, players=players)
        tournament = replace(individual, results=read_results(checker, individual, results))
    else:
        assert pairs is not None
        of_pairs = Tournament(**fields, pairs=pairs)
        tournament = replace(of_pairs, results=read_results(checker, of_pairs, results))
    if checker.problems:
        return None, checker.problems
    return tournament, []


def read_kind(checker: Checker, doc: dict[str, Any]) -> str | None:
    """``kind`` (§6.1): ``pairs`` when absent; None (a problem) when it is neither kind."""
    kind = doc.get("kind", "pairs")
    if not isinstance(kind, str) or kind not in KINDS:
        checker.add("$.kind", "kind", choices=", ".join(KINDS))
        return None
    return kind


def read_date(checker: Checker, value: object) -> str | None:
    """``played_on``: a date written YYYY-MM-DD (absent: no date)."""
    text = checker.text(value, "$.played_on", required=False)
    if text is None:
        return None
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        text = ""
    if not ISO_DATE.fullmatch(text):
        checker.add("$.played_on", "value", detail="expected a date written YYYY-MM-DD")
        return None
    return text


def read_variant(checker: Checker, doc: dict[str, Any]) -> str | None:
    """The variant, when it and the layout are right."""
    variant = doc.get("variant")
    if "variant" in doc and (not isinstance(variant, str) or variant not in VARIANTS):
        checker.add("$.variant", "variant", choices=", ".join(VARIANTS))
        variant = None
    layout = doc.get("layout")
    if "layout" in doc and layout != LAYOUT:
        checker.add("$.layout", "layout", layout=LAYOUT)
        return None
    return variant if "layout" in doc else None


def read_options(checker: Checker, variant: str, options: object) -> Rules | None:
    """The variant's rules with the file's options, as the engine reads a match's."""
    reader = Reader()
    rules = read_rules(reader, variant, LAYOUT, options, "options")
    for problem in reader.problems:
        code = "layout" if problem.path == "layout" else "options"
        checker.add(f"{ROOT}.{problem.path}", code, detail=problem.message, layout=LAYOUT)
    return rules


def read_scale(checker: Checker, value: object, path: str) -> Scale | None:
    """A named scale, or a club's bands (§2.2)."""
    if isinstance(value, str) and value in NAMED_SCALES:
        return NAMED_SCALES[value]
    if not isinstance(value, dict):
        names = ", ".join(NAMED_SCALES)
        checker.add(path, "scale", detail=f"expected one of {names} or a club's bands")
        return None
    before = len(checker.problems)
    checker.mapping(value, path, ("bands", "above"))
    for key in ("bands", "above"):
        if key not in value:
            checker.add(join(path, key), "scale", detail=f"a club's scale needs its {key}")
    bands_path = join(path, "bands")
    raw_bands = value.get("bands", [])
    if not isinstance(raw_bands, list) or ("bands" in value and not raw_bands):
        checker.add(bands_path, "scale", detail="expected a list of bands")
        raw_bands = []
    if len(raw_bands) > MAX_BANDS:
        checker.add(bands_path, "scale", detail=f"at most {MAX_BANDS} bands")
        raw_bands = []
    bands = [read_band(checker, band, join(bands_path, k), 3) for k, band in enumerate(raw_bands)]
    above = read_band(checker, value.get("above", [0, 0]), join(path, "above"), 2)
    if bands and bands[0] is not None and bands[0][1] != bands[0][2]:
        checker.add(join(bands_path, 0), "scale", detail="the first band is a draw (equal VP)")
    if len(checker.problems) > before:
        return None
    assert above is not None
    read_increase(checker, [(band[0], band[1]) for band in bands if band], above[0], path)
    if len(checker.problems) > before:
        return None
    triples = tuple((band[0], band[1], band[2]) for band in bands if band)
    return Scale("club", "bands", triples, (above[0], above[1]))


def read_band(checker: Checker, value: object, path: str, size: int) -> tuple[int, ...] | None:
    """``[upper, winner_vp, loser_vp]`` (``size`` 3) or ``above``'s ``[winner_vp, loser_vp]``."""
    numbers = value if isinstance(value, list) else []
    if len(numbers) != size or not all(
        isinstance(n, int) and not isinstance(n, bool) and abs(n) <= MAX_SIZE for n in numbers
    ):
        checker.add(path, "scale", detail=f"expected {size} whole numbers up to {MAX_SIZE}")
        return None
    if size == 3 and numbers[0] < 0:
        checker.add(path, "scale", detail="an upper bound is at least 0")
        return None
    if numbers[-2] < numbers[-1]:
        checker.add(path, "scale", detail="the winner's VP are at least the loser's")
        return None
    return tuple(numbers)


def read_increase(
    checker: Checker, bands: list[tuple[int, int]], above_winner: int, path: str
) -> None:
    """Each upper bound above the one before, each winner's VP at least the one before."""
    for k in range(1, len(bands)):
        if bands[k][0] <= bands[k - 1][0] or bands[k][1] < bands[k - 1][1]:
            checker.add(
                join(join(path, "bands"), k),
                "scale_not_increasing",
                detail="each band's bound above the one before, its winner's VP at least as many",
            )
    if bands and above_winner < bands[-1][1]:
        checker.add(
            join(path, "above"),
            "scale_not_increasing",
            detail="the winner's VP above the last band at least as many as in it",
        )
