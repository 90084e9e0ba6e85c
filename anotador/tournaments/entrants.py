"""Who plays in a tournament, as its file lists them: its pairs (§1.1) or, in an individual
tournament, its players (§6.1)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from anotador.rules.paths import join
from anotador.tournaments.limits import MAX_PAIRS
from anotador.tournaments.limits import MAX_PLAYERS
from anotador.tournaments.reading import ROOT
from anotador.tournaments.reading import Checker
from anotador.tournaments.tournament import Pair
from anotador.tournaments.tournament import Player


def read_entrants(
    checker: Checker, doc: dict[str, Any], kind: str | None
) -> tuple[tuple[Pair, ...] | None, tuple[Player, ...] | None]:
    """The file's pairs, or its players, by its kind: the other key is unknown in it (§6.1).
    With no kind known, neither is looked at."""
    if kind is None:
        return None, None
    key, other = ("players", "pairs") if kind == "individual" else ("pairs", "players")
    if other in doc:
        checker.add(join(ROOT, other), "unknown_key")
    if key not in doc:
        checker.add(join(ROOT, key), "missing")
        return None, None
    if kind == "individual":
        return None, read_entered_players(checker, doc[key])
    return read_pairs(checker, doc[key]), None


@dataclass(frozen=True)
class Entrants:
    """Who plays in a tournament of one kind, as the file lists them (§1.1, §6.1): under
    ``key``, ``fewest`` to ``most`` of them, each an object with its ``id``, its ``middle``
    value (a pair's two players, a player's name), a club and whether it withdrew."""

    key: str
    fewest: int
    most: int
    too_few: str
    duplicate: str
    #: The problems' name for one of them ("pair", "player").
    one: str
    middle: str
    make: Callable[[str, Any, str, bool], Any]

    @property
    def keys(self) -> tuple[str, ...]:
        return ("id", self.middle, "club", "withdrawn")


PAIRS = Entrants("pairs", 2, MAX_PAIRS, "too_few_pairs", "duplicate_pair", "pair", "players", Pair)
PLAYERS = Entrants(
    "players", 4, MAX_PLAYERS, "too_few_players", "duplicate_player", "player", "name", Player
)


def read_pairs(checker: Checker, value: object) -> tuple[Pair, ...] | None:
    return read_entrant_list(
        checker, value, PAIRS, lambda raw, path: read_players(checker, raw, path)
    )


def read_entered_players(checker: Checker, value: object) -> tuple[Player, ...] | None:
    """An individual tournament's players (§6.1): 4 to 2,000 (withdrawn ones count)."""
    return read_entrant_list(checker, value, PLAYERS, checker.name)


def read_entrant_list(
    checker: Checker,
    value: object,
    entrants: Entrants,
    read_middle: Callable[[object, str], object | None],
) -> tuple[Any, ...] | None:
    """The pairs or the players of the file, each id used once."""
    root = join(ROOT, entrants.key)
    raw = checker.array(value, root)
    if raw is None:
        return None
    if len(raw) < entrants.fewest:
        checker.add(root, entrants.too_few)
        return None
    if len(raw) > entrants.most:
        checker.add(root, "value", detail=f"at most {entrants.most} {entrants.key}")
        return None
    found: list[Any] = []
    seen: set[str] = set()
    for k, entry in enumerate(raw):
        path = join(root, k)
        doc = checker.mapping(entry, path, entrants.keys, ("id", entrants.middle))
        if doc is None:
            continue
        entrant = read_id(checker, doc["id"], join(path, "id")) if "id" in doc else None
        if entrant is not None and entrant in seen:
            checker.add(join(path, "id"), entrants.duplicate, **{entrants.one: entrant})
        if entrant is not None:
            seen.add(entrant)
        middle = None
        if entrants.middle in doc:
            middle = read_middle(doc[entrants.middle], join(path, entrants.middle))
        club = checker.name(doc.get("club", ""), join(path, "club"), required=False)
        withdrawn = checker.boolean(doc.get("withdrawn", False), join(path, "withdrawn"))
        if entrant is not None and middle is not None:
            found.append(entrants.make(entrant, middle, club or "", bool(withdrawn)))
    return tuple(found)


def read_id(checker: Checker, value: object, path: str) -> str | None:
    """A pair's or a player's id: any text but the empty one, kept exactly as written (ids
    are compared exactly, so "A" and " A" are two pairs)."""
    pair_id = checker.text(value, path, required=False)
    if pair_id == "":
        checker.add(path, "value", detail="must not be empty")
        return None
    if pair_id is not None and checker.name(pair_id, path, required=False) is None:
        return None
    return pair_id


def read_players(checker: Checker, value: object, path: str) -> tuple[str, str] | None:
    raw = checker.array(value, path)
    if raw is None:
        return None
    if len(raw) != 2:
        checker.add(path, "value", detail="a pair is exactly two players")
        return None
    first, second = (checker.name(name, join(path, k)) for k, name in enumerate(raw))
    return None if first is None or second is None else (first, second)
