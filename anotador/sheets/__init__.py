"""Printed score sheets (planillas) as PDF: a played match, or a blank sheet to fill by hand.

:mod:`.render` draws them with WeasyPrint (imported only when a sheet is drawn; every file
comes from disk, so rendering never touches the network) and keys their cached copies;
:mod:`.content` says what a sheet shows, from the rules engine (scores from
:func:`anotador.rules.score_match`, the blank sheet's reference box from the variant's own
``reference``) in the words of :mod:`anotador.words.labels` said in the sheet's language, not the
request's; :mod:`.chart` draws the score progression.
"""

from anotador.sheets.render import LANGUAGES
from anotador.sheets.render import PAPERS
from anotador.sheets.render import render_blank_sheet
from anotador.sheets.render import render_match_sheet
from anotador.sheets.render import sheet_key

__all__ = ["LANGUAGES", "PAPERS", "render_blank_sheet", "render_match_sheet", "sheet_key"]
