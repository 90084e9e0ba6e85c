"""Another area's printouts (a tournament's standings, results and table cards), served as
the match sheets are (:mod:`anotador.web.views.pdf`): kept by the state they show, drawn in
the shared render slots, one at a time per subject."""

from __future__ import annotations

from functools import partial

from flask.typing import ResponseReturnValue

from anotador.sheets import shelf
from anotador.web.views.pdf import INLINE
from anotador.web.views.pdf import REVALIDATE
from anotador.web.views.pdf import cannot_draw
from anotador.web.views.pdf import drawn_response
from anotador.web.views.pdf import kept_response
from anotador.web.views.pdf import requester


def printout_response(
    key: str,
    filename: str,
    order: shelf.Order,
    *,
    subject: str,
    unusual: bool,
    offers: list[tuple[str, str]],
) -> ResponseReturnValue:
    """Another area's printout as :func:`pdf_response` serves a sheet: kept under ``key``
    (the state it shows), else drawn when a render slot is free for this requester and
    nothing else of ``subject`` is being drawn (``order``, laying it out, is asked only
    then), else the "preparing" page. ``offers``: what else there is, should it fail."""
    response = kept_response(key, filename, REVALIDATE, INLINE)
    if response is not None:
        return response
    if shelf.failed(key):
        return cannot_draw(offers)
    drawing = partial(
        shelf.draw_and_keep, key, order, requester=requester(), subject=subject, unusual=unusual
    )
    return drawn_response(filename, REVALIDATE, offers, drawing, printout=True)
