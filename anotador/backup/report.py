"""What an import did (:class:`ImportReport`), and its problems in English."""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import ClassVar

from anotador import rules
from anotador.rules.problems import N_

#: Problems kept per invalid line.
MAX_PROBLEMS = 10
#: Ids kept of the matches created and of those already present (the counts say how many).
KEEP_IDS = 10
#: Characters kept of a problem's path or text figure (a key of the input can be any length).
MAX_PROBLEM_TEXT = 200
#: The import's own problems (the engine's are in ``rules.MESSAGES``).
MESSAGES = {
    "line_too_long": N_("Longer than {maximum} MB: not read."),
    "database_refused": N_(
        "The database does not take what this line holds (a text or a number it cannot "
        "store): nothing from here on was restored."
    ),
}


@dataclass(frozen=True, slots=True)
class RestoreProblem(rules.Problem):
    """A problem of the import itself, beside the engine's problems of its matches (and a
    tournament line's, :class:`anotador.tournaments.Problem`)."""

    messages: ClassVar[Mapping[str, str]] = MESSAGES


@dataclass
class ImportReport:
    """What an import did, in bounded memory however large the input: counts of the matches
    created, already present and invalid; the first few ids of each; the first invalid lines
    (1-based) with their first problems. Matches are committed a batch at a time, so what the
    counts say is stored even if a later batch fails: importing the same file again then
    finishes the job (the matches already stored are skipped)."""

    single: bool = False
    created: int = 0
    skipped: int = 0  # matches already present
    invalid: int = 0
    created_ids: list[int] = field(default_factory=list)  # the first KEEP_IDS
    skipped_ids: list[int] = field(default_factory=list)  # ids of the stored copies
    problems: list[tuple[int, list[rules.Problem]]] = field(default_factory=list)
    batches: int = 0  # transactions committed
    lines: int = 0  # lines read (documents, for a JSON list)
    stopped_at: int | None = None  # the first line not stored when the database failed
    #: The line whose values the database refused (restoring it again would stop there too).
    refused_at: int | None = None
    tournaments: int = 0  # created
    tournaments_skipped: int = 0  # already present
    #: A tournament line was invalid (or its matches not all restored): none was stored,
    #: and when it was found before the matches, no match either.
    tournaments_refused: bool = False
    #: The input holds tournaments: it is stored in one transaction, whole or not at all.
    whole: bool = False

    @property
    def match_id(self) -> int | None:
        """The (first) match the input stored or found already stored."""
        ids = self.created_ids or self.skipped_ids
        return ids[0] if ids else None

    def summary(self) -> str:
        text = f"{self.created} imported, {self.skipped} already present, {self.invalid} invalid"
        if self.tournaments or self.tournaments_skipped:
            text += (
                f"; {self.tournaments} tournaments restored, "
                f"{self.tournaments_skipped} already present"
            )
        if self.tournaments_refused:
            text += "; the tournaments are invalid: none restored"
        return text

    def problem_lines(self) -> Iterator[tuple[int, str]]:
        """(line number, ``path: message`` in English) for every kept problem."""
        for number, problems in self.problems:
            for problem in problems:
                yield number, f"{problem.path}: {problem.message}"

    def add_invalid(self, number: int, problems: list[rules.Problem], keep: int) -> None:
        self.invalid += 1
        if len(self.problems) < keep:
            self.problems.append((number, [clip(p) for p in problems[:MAX_PROBLEMS]]))

    def rolled_back(self) -> None:
        """Nothing the import stored stays (a backup with tournaments is stored whole)."""
        self.created = self.skipped = self.batches = 0
        self.created_ids, self.skipped_ids = [], []

    def add_ids(self, created: list[int], skipped: list[int]) -> None:
        self.created += len(created)
        self.skipped += len(skipped)
        self.created_ids += created[: KEEP_IDS - len(self.created_ids)]
        self.skipped_ids += skipped[: KEEP_IDS - len(self.skipped_ids)]


def clip(problem: rules.Problem) -> rules.Problem:
    """The problem with its path and text figures cut to MAX_PROBLEM_TEXT characters."""
    params = {
        key: value[:MAX_PROBLEM_TEXT] if isinstance(value, str) else value
        for key, value in problem.params.items()
    }
    return replace(problem, path=problem.path[:MAX_PROBLEM_TEXT], params=params)
