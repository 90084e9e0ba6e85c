"""A round's table cards (PDF, four to a page): each table's number, its two pairs, the QR
code of its table link (the phones at the table score through it), the variant and the
round's hands. A printout as the standings are (:func:`reports.printed`)."""

from __future__ import annotations

from typing import Any

from flask import url_for

from anotador.tournaments.store.models import Round
from anotador.web.addresses import qr_svg


def card_rows(round_row: Round) -> list[dict[str, Any]]:
    """The cards of a started round's tables, by table number (a bye has none)."""
    cards = []
    for table in sorted(round_row.tables, key=lambda t: t.number or 0):
        match = table.match
        if table.ew_pair is None or match is None or not match.table_token:
            continue
        link = url_for("sharing.open_link", token=match.table_token, _external=True)
        cards.append(
            {"number": table.number, "ns": table.ns_pair, "ew": table.ew_pair, "link": link}
        )
    return cards


#: The table cards' template.
CARDS = "tournaments/cards.html"


def cards_context(round_row: Round) -> dict[str, Any]:
    """The context of :data:`CARDS` for a started round."""
    cards = card_rows(round_row)
    qr = {card["link"]: qr_svg(card["link"]) for card in cards}
    return {"tournament": round_row.tournament, "round": round_row, "cards": cards, "qr": qr}
