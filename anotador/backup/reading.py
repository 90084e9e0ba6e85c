"""Reading a restore's input in bounded memory: its lines a block at a time (a line longer
than MAX_LINE is reported, never parsed), and whether it is one document, a backup or JSON
lines of match files."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from anotador import rules
from anotador.backup.export import BACKUP_FORMAT
from anotador.backup.report import RestoreProblem

MB = 1024 * 1024
#: A match file line (or a whole match file) longer than this is reported invalid without
#: being parsed: a real match file is tens of kB, and parsing takes about 25 times the text
#: in memory.
MAX_LINE = 2 * MB
#: The upload is read this much at a time.
READ_BLOCK = 256 * 1024


@dataclass(frozen=True)
class Unreadable:
    """An input document that is not JSON (or too long to read), with its problems."""

    problems: list[rules.Problem]


TOO_LONG = Unreadable([RestoreProblem("$", "line_too_long", {"maximum": MAX_LINE // MB})])
#: An entry of the input: its line number, and either a line still to parse (bytes), a JSON
#: value already parsed (from a whole document) or an Unreadable.
Entry = tuple[int, object]


def split_lines(stream: IO[bytes]) -> Iterator[bytes | Unreadable]:
    """The lines of ``stream`` (without their newline), read a block at a time; a line
    longer than MAX_LINE is given as TOO_LONG, and read past without being kept."""
    start = b""  # the beginning of the line the last block ended in
    skipping = False  # that line is already too long
    while block := stream.read(READ_BLOCK):
        pieces = block.split(b"\n")
        last = pieces.pop()  # the beginning of a line the next block goes on with
        for piece in pieces:
            if skipping:
                skipping = False
                yield TOO_LONG
            else:
                line = start + piece if start else piece
                yield line if len(line) <= MAX_LINE else TOO_LONG
            start = b""
        if not skipping:
            start += last
            if len(start) > MAX_LINE:
                start, skipping = b"", True
    if skipping:
        yield TOO_LONG
    elif start:
        yield start


def numbered(lines: Iterable[bytes | Unreadable], first: int) -> Iterator[Entry]:
    return enumerate(lines, start=first)


def parse(line: bytes | Unreadable) -> object:
    """The JSON value of a line, or an Unreadable."""
    if isinstance(line, Unreadable):
        return line
    value, problems = rules.parse_json(line)
    return Unreadable(problems) if problems else value


def read_documents(stream: IO[bytes]) -> tuple[bool, Iterator[Entry]]:
    """(single, entries) of a backup, JSON lines of match files, or one document (a match
    file, pretty-printed or not, or a JSON list of match files) of at most MAX_LINE bytes.
    A larger input whose first line is not a match is read as JSON lines too."""
    lines = split_lines(stream)
    first = next(lines, b"")
    head = parse(first) if not isinstance(first, bytes) or first.strip() else None
    if isinstance(head, dict):
        if head.get("format") == BACKUP_FORMAT:
            return False, numbered(lines, 2)
        # One match file on its first line: JSON lines if anything but blank lines follows.
        for number, following in enumerate(lines, start=2):
            if isinstance(following, Unreadable) or following.strip():
                entries = [(1, head), (number, following)]
                return False, itertools.chain(entries, numbered(lines, number + 1))
        return True, iter([(1, head)])
    # One document on several lines (or none at all), unless it is too large to be one.
    document = bytearray()
    for line in itertools.chain([first], lines):
        if isinstance(line, Unreadable) or len(document) + len(line) + 1 > MAX_LINE:
            read = split_lines(io.BytesIO(bytes(document)))
            rest = itertools.chain(read, [line], lines)
            return False, numbered(rest, 1)
        document += line + b"\n"
    whole = parse(bytes(document))
    if isinstance(whole, list):
        return False, numbered(whole, 1)
    return True, iter([(1, whole)])


def could_be_a_match(line: bytes) -> bool:
    """False when a line surely is no match file, seen without parsing it: a match file
    names its format, and a line without any backslash (JSON escapes) spells it plainly."""
    return b"\\" in line or MATCH_FORMAT_TOKEN in line


MATCH_FORMAT_TOKEN = json.dumps(rules.MATCH_FORMAT).encode()
