"""What the match page shows, computed from a scored match: plain data for the template.

Nothing here queries the database or knows about requests; labels are translated into the
current language, so it runs inside a request (or a ``force_locale`` block).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from typing import Any

from flask_babel import format_date
from flask_babel import gettext
from flask_babel import ngettext

from anotador.rules import Role
from anotador.rules import describe_variants
from anotador.rules import hand_index
from anotador.rules.variant import LAYOUTS
from anotador.services.matches import Scored
from anotador.storage.models import Match
from anotador.web.forms.match import default_side_names
from anotador.words import labels
from anotador.words.i18n import points
from anotador.words.i18n import problem_message


@dataclass
class SideSummary:
    name: str
    players: list[str]
    total: int
    to_target: int
    minimum: int | None
    winner: bool = False


@dataclass
class Row:
    number: int
    cells: list[tuple[int, int]]
    parts: list[list[tuple[str, int]]]
    notes: list[str]
    ending: str
    warnings: list[str] = field(default_factory=list)


@dataclass
class Sheet:
    match: Match
    scored: Scored
    sides: list[SideSummary]
    hand_count: int
    start_scores: list[int] | None
    banner: str | None
    banner_kind: str | None
    dealer: str | None
    has_minimum: bool
    warnings: list[str]
    #: A finished match as a short text to share (None while it is played).
    result: str | None = None

    @cached_property
    def rows(self) -> list[Row]:
        """One row per hand, built only when shown (the page may have them cached)."""
        game, score = self.scored.game, self.scored.score
        words = Words.current(game.rules.variant.name)
        rows = [hand_row(game, n, hand, words) for n, hand in enumerate(score.hands, start=1)]
        for problem in score.warnings:
            index = hand_index(problem.path)
            if index is not None and index < len(rows):
                rows[index].warnings.append(problem_message(problem))
        return rows


def build(scored: Scored) -> Sheet:
    """The planilla of a scored match."""
    match, game, score = scored.match, scored.game, scored.score
    target = game.rules.target
    sides = [
        SideSummary(
            name=info.name,
            players=list(info.players),
            total=total,
            to_target=max(target - total, 0),
            minimum=minimum,
            winner=score.finished and score.winner in (None, index) and total == max(score.totals),
        )
        for index, (info, total, minimum) in enumerate(
            zip(game.sides, score.totals, score.opening_minimum, strict=True)
        )
    ]
    count = len(score.hands)
    general = []
    for problem in score.warnings:
        index = hand_index(problem.path)
        if index is None or index >= count:
            general.append(problem_message(problem))
    kind, banner = result_banner(match, game, score, sides)
    return Sheet(
        match=match,
        scored=scored,
        sides=sides,
        hand_count=count,
        start_scores=list(game.start_scores) if any(game.start_scores) else None,
        banner=banner,
        banner_kind=kind,
        dealer=None if score.finished else next_dealer(match, len(score.hands)),
        has_minimum=game.rules.brackets is not None,
        warnings=general,
        result=result_text(match, banner, sides) if score.finished else None,
    )


def result_text(match: Match, banner: str | None, sides: list[SideSummary]) -> str:
    """A finished match in one line to share: who won, the totals, the game and its day."""
    return gettext(
        "%(result)s %(totals)s · %(variant)s · %(date)s",
        result=banner or "",
        totals=" · ".join(f"{side.name} {points(side.total)}" for side in sides),
        variant=labels.label(labels.VARIANTS, match.variant),
        date=format_date(match.played_on, "medium"),
    )


@dataclass(frozen=True)
class Words:
    """The words every row repeats, translated once per page (not once per row)."""

    parts: dict[str, str]
    stock_out: str
    went_out: str
    went_out_concealed: str
    special_hand: str

    @classmethod
    def current(cls, variant: str) -> Words:
        return cls(
            parts={name: labels.part_label(variant, name) for name, _label in labels.PARTS.items()},
            stock_out=gettext("Nobody went out: the stock ran out."),
            went_out=gettext("Went out: %(side)s."),
            went_out_concealed=gettext("Went out concealed: %(side)s."),
            special_hand=gettext("Special hand of %(side)s: %(hand)s."),
        )


def hand_row(game: Any, number: int, hand: Any, words: Words) -> Row:
    inputs = game.hands[number - 1]
    parts = [
        [(words.parts.get(name, name), value) for name, value in side_breakdown(side)]
        for side in hand.sides
    ]
    reason = game.rules.field_with(Role.ADJUSTMENT_NOTE)
    notes = [
        f"{info.name}: {side.get(reason.name)}"
        for info, side in zip(game.sides, inputs.sides, strict=True)
        if reason is not None and side.get(reason.name)
    ]
    if inputs.note:
        notes.append(inputs.note)
    special = game.rules.variant.special_hand(inputs)
    if special is not None:
        side, kind = special
        ending = words.special_hand % {
            "side": game.sides[side].name,
            "hand": labels.say("field_choice", kind),
        }
    elif inputs.closer is None:
        ending = words.stock_out
    elif game.rules.variant.concealed_kind(inputs.details) is not None:
        ending = words.went_out_concealed % {"side": game.sides[inputs.closer].name}
    else:
        ending = words.went_out % {"side": game.sides[inputs.closer].name}
    cells = [(side.score, side.total) for side in hand.sides]
    return Row(number, cells, parts, notes, ending)


def side_breakdown(side: Any) -> list[tuple[str, int]]:
    """The parts worth showing: zeros only for the always-present table and hand."""
    return [
        (name, value)
        for name, value in side.breakdown.items()
        if value or name in ("canastas", "table", "hand")
    ]


def result_banner(match: Match, game: Any, score: Any, sides: list[SideSummary]) -> tuple:
    """The end of the game, told per the match's tie policy; a match of N hands played
    to the last (a tournament round's) ends with them, not with a winner."""
    if score.finished and match.play_every_hand and match.hand_limit:
        return "winner", ngettext(
            "The hand is played.", "The %(num)d hands are played.", len(score.hands)
        )
    if score.finished and score.winner is not None:
        return "winner", gettext("%(side)s won!", side=game.sides[score.winner].name)
    if score.finished:
        names = " · ".join(side.name for side in sides if side.winner)
        return "winner", gettext("Shared win: %(sides)s", sides=names)
    top = max(score.totals)
    if top >= game.rules.target:
        return "tie", gettext("Tie at the top: another hand is played.")
    if match.abandoned:
        return "abandoned", gettext("This match was left unfinished.")
    return None, None


def next_dealer(match: Match, hands_played: int) -> str | None:
    """Who deals the next hand, when the first dealer and every seat are known."""
    layout = LAYOUTS[match.layout]
    seats = layout.sides * layout.players_per_side
    if match.first_dealer is None or not 0 <= match.first_dealer < seats:
        return None
    seat = (match.first_dealer + hands_played) % seats
    side = match.sides[seat % layout.sides]
    if layout.individual:
        return side.name
    by_seat = {s.seat: s.player.name for s in side.seats}
    if seat not in by_seat:
        return None
    return f"{by_seat[seat]} ({side.name})"


def form_defaults() -> dict[str, Any]:
    """What the new-match page's script needs to follow a change of variant or layout."""
    return {
        "variants": {
            variant["name"]: {
                "layouts": variant["layouts"],
                "options": [option["name"] for option in variant["options"]],
            }
            for variant in describe_variants()
        },
        "layouts": {
            name: {
                "sides": layout.sides,
                "players": layout.players_per_side,
                "names": default_side_names(name),
            }
            for name, layout in LAYOUTS.items()
        },
    }
