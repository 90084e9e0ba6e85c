"""Club nights and tournaments (the rules and our choices: docs/tournaments.md): pure Python.

Like :mod:`anotador.rules`, nothing here imports Flask or a database: the command line
(``anotador tournament standings|pair FILE``) and the web screens are thin layers over these
names, which stay stable:

- ``parse_tournament(text: bytes | str) -> Tournament``: a tournament file's bytes (UTF-8 JSON).
- ``read_tournament(data: object) -> Tournament``: a JSON value already parsed.
  Both raise ``TournamentProblems`` (a ValueError; ``.problems``: list of ``Problem``, each
  ``path`` like ``$.results[0].tables[1].ns``, ``code``, ``params``, English ``message``,
  ``to_json()``). ``check_tournament(data) -> (Tournament | None, list[Problem])`` returns
  them instead, as ``anotador.rules.read_match`` does.
- ``Tournament`` (frozen): ``name``, ``played_on``, ``variant``, ``layout``, ``rules``
  (the engine's ``Rules``), ``options``, ``hands_per_round``, ``scale`` (``Scale``),
  ``system``, ``rounds``, ``bye_vp`` (default resolved), ``pairs`` (``Pair``: ``id``,
  ``players``, ``club``, ``withdrawn``), ``results`` (``Round``: ``number``, ``entries`` of
  ``Table`` (``table``, ``ns``, ``ew``, ``mp``, ``match``) or ``Bye`` (``pair``)).
- ``victory_points(scale: Scale, mp_a: int, mp_b: int) -> tuple[int, int]``;
  ``NAMED_SCALES`` (``fibur-3``, ``fibur-4``, ``wdl``, ``points``); ``Scale.bye_vp``.
- ``standings(tournament) -> list[Standing]`` in order: ``pair``, ``rank``, ``vp``,
  ``mp_for``, ``mp_against``, ``mp_diff``, ``played``, ``byes``.
  ``round_results(tournament, round) -> list[TableResult | ByeResult]``: a played round with VP.
- ``finished_mp(match: rules.Match, hands_per_round: int | None) -> tuple[int, int] | None``:
  a table's MP from its match (§1.3), None while the table has not finished (for live views).
- ``next_round(tournament) -> Draw`` (``round``, ``tables``: ``Seat(table, ns, ew)``,
  ``byes``); raises ``TournamentProblems`` (``all_rounds_played``, ``manual_pairing``).
- ``standings_document(tournament)``, ``draw_document(draw)``: the CLI's JSON (§5).
- ``tournament_to_document(tournament) -> dict``: the file again (export; reads back equal).
"""

from anotador.tournaments.document import check_tournament
from anotador.tournaments.document import parse_tournament
from anotador.tournaments.document import read_tournament
from anotador.tournaments.output import draw_document
from anotador.tournaments.output import standings_document
from anotador.tournaments.pairing import Draw
from anotador.tournaments.pairing import Seat
from anotador.tournaments.pairing import next_round
from anotador.tournaments.problems import MESSAGES
from anotador.tournaments.problems import Problem
from anotador.tournaments.problems import TournamentProblems
from anotador.tournaments.results import finished_mp
from anotador.tournaments.standings import ByeResult
from anotador.tournaments.standings import Standing
from anotador.tournaments.standings import TableResult
from anotador.tournaments.standings import round_results
from anotador.tournaments.standings import standings
from anotador.tournaments.tournament import FORMAT
from anotador.tournaments.tournament import SYSTEMS
from anotador.tournaments.tournament import Bye
from anotador.tournaments.tournament import Pair
from anotador.tournaments.tournament import Round
from anotador.tournaments.tournament import Table
from anotador.tournaments.tournament import Tournament
from anotador.tournaments.victory_points import NAMED_SCALES
from anotador.tournaments.victory_points import Scale
from anotador.tournaments.victory_points import victory_points
from anotador.tournaments.writing import tournament_to_document

__all__ = [
    "FORMAT",
    "MESSAGES",
    "NAMED_SCALES",
    "SYSTEMS",
    "Bye",
    "ByeResult",
    "Draw",
    "Pair",
    "Problem",
    "Round",
    "Scale",
    "Seat",
    "Standing",
    "Table",
    "TableResult",
    "Tournament",
    "TournamentProblems",
    "check_tournament",
    "draw_document",
    "finished_mp",
    "next_round",
    "parse_tournament",
    "read_tournament",
    "round_results",
    "standings",
    "standings_document",
    "tournament_to_document",
    "victory_points",
]
