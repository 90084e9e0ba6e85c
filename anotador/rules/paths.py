"""Problem paths, written and read in one place.

A path says where a problem is: ``hands[2].sides[1].red_threes`` (in a single-hand check
``sides[1].red_threes``, ``closer``; ``$`` is the whole document). Keys are joined by dots, list
positions follow in brackets, and a key from the input that is not an identifier is written as
a JSON string, so a path always stays on one line. :func:`join` writes them (the engine's
``Reader``); :func:`parse_path` reads them back, for whoever places or words a problem.
"""

from __future__ import annotations

import json
import re

#: One step of a path: a key and, when the step goes into a list, the position in it. A
#: position right after another one (``a[1][2]``) has the key "".
Segment = tuple[str, int | None]

ROOT = "$"
_KEY = re.compile(r'[^\W\d]\w*|\$|"(?:[^"\\]|\\.)*"')
_INDEX = re.compile(r"\[(\d+)\]")


def quote_key(key: str) -> str:
    """``key`` as a path writes it: as it is when it is an identifier, else a JSON string."""
    return key if key.isidentifier() else json.dumps(key)


def join(base: str, key: str | int) -> str:
    """``base`` and one more step: ``join("hands", 2)`` is ``hands[2]``, then ``.closer``."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    key = quote_key(key)
    return f"{base}.{key}" if base else key


def parse_path(path: str) -> tuple[Segment, ...]:
    """``hands[2].sides[1].red_threes`` -> ``(("hands", 2), ("sides", 1), ("red_threes", None))``.

    Quoted keys come back as they were before :func:`join` quoted them. Text that is not a
    path (a card calculator's unknown card kind, say) is one segment: ``((path, None),)``.
    """
    segments: list[Segment] = []
    position = 0
    while True:
        key = ""
        found = _KEY.match(path, position)
        if found is not None:
            key, position = found[0], found.end()
            if key.startswith('"'):
                try:
                    key = json.loads(key)
                except ValueError:
                    return ((path, None),)
        index = _INDEX.match(path, position)
        if found is None and index is None:
            return ((path, None),)
        if index is not None:
            position = index.end()
        segments.append((key, int(index[1]) if index is not None else None))
        while (index := _INDEX.match(path, position)) is not None:
            segments.append(("", int(index[1])))
            position = index.end()
        if position == len(path):
            return tuple(segments)
        if path[position] != ".":
            return ((path, None),)
        position += 1


def hand_index(path: str) -> int | None:
    """The hand a match's problem is about (``hands[4]...`` -> 4), None when it is not."""
    first = parse_path(path)[0]
    return first[1] if first[0] == "hands" else None


def side_field(path: str) -> tuple[int, str] | None:
    """``sides[1].red_threes`` (a single hand's side input) -> ``(1, "red_threes")``."""
    segments = parse_path(path)
    if len(segments) != 2:
        return None
    (sides, index), (name, position) = segments
    if sides != "sides" or index is None or position is not None or not name:
        return None
    return index, name
