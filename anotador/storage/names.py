"""Account names a person can tell apart: no invisible characters, no look-alikes.

Two names that look the same on a phone ("alice" and "аlice" with a Cyrillic "а", "rnario"
and "mario") are one account to whoever reads them, so a new account's name is refused when
its *skeleton* (Unicode's UTS #39: every character replaced by the prototype of the
characters it can be confused with) is another account's (``User.name_skeleton``, unique, so
two requests at once cannot both get it). Invisible characters and those that change the
writing direction (U+200B, U+00AD, U+202E...) are refused outright
(:func:`anotador.rules.text.invisible_characters`, the rule of tournaments' and pairs' names
too): they make a name that shows like another while being a different text.

The confusables are Unicode's ``confusables.txt`` as the confusable-homoglyphs package
ships it (pure Python, used by django-registration for the same purpose; docs/architecture.md
says why it was chosen). Its table lists each pair in both directions and loses which side
is the prototype, so the classes are rebuilt here: every source character points to exactly
one prototype, and a prototype is never a source, so each class is a star whose centre is
the prototype (the one with several members, or a sequence of several characters); a class
of two single characters may take either as its name, since only equality of skeletons
matters.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata

from anotador.rules.text import IGNORABLE
from anotador.storage.models import name_key

#: Marks the package's table keeps around right-to-left characters (from the comments of
#: ``confusables.txt``), not part of any character's look.
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character → the name of its class (loaded on first use: 900 kB)."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[str, list[str]] = {}
    for key, entries in confusables_data.items():
        members = table.setdefault(key.translate(_DIRECTION_MARKS), [])
        members.extend(entry["c"].translate(_DIRECTION_MARKS) for entry in entries)
    prototypes: dict[str, str] = {}
    for char, members in table.items():
        if len(char) != 1 or len(members) != 1:
            continue  # a prototype (several sources point to it, or it is a sequence)
        (target,) = members
        if len(target) > 1 or len(table.get(target, ())) > 1:
            prototypes[char] = target
        else:  # a class of two single characters
            prototypes[char] = min(char, target)
    return prototypes


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing with other names: UTS #39's skeleton of the
    name as written, then again of its :func:`~anotador.storage.models.name_key` (case, accents and
    spaces aside, as names are compared anyway). Names whose skeletons are equal get the
    same one ("alice", "аlice", "alice\u200b"), and so do "Аlice" with a capital Cyrillic А
    and "alice"."""
    return _skeleton_of(name_key(_skeleton_of(name)))


def skeleton_digest(name: str) -> str:
    """The SHA-256 of :func:`skeleton` (what ``User.name_skeleton`` holds): a skeleton can be
    18 times as long as its name ("ﷺ"), too long for a portable unique index."""
    return hashlib.sha256(skeleton(name).encode()).hexdigest()


def _skeleton_of(text: str) -> str:
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    shown = (char for char in decomposed if not _ignorable(char))
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in shown))


def _ignorable(char: str) -> bool:
    return unicodedata.category(char) == "Cf" or ord(char) in IGNORABLE
