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

An individual tournament (§6: ``"kind": "individual"``, ``players`` in place of ``pairs``):

- ``parse_tournament_file``, ``read_tournament_file``, ``check_tournament_file``: as the
  three above, for a file of either kind: a ``Tournament`` of pairs or an
  ``IndividualTournament`` (the same set-up, ``players``: ``Player`` (``id``, ``name``,
  ``club``, ``withdrawn``), ``results``: ``IndividualRound`` (``number``, ``entries`` of
  ``PartnershipTable`` (``table``, ``ns`` and ``ew`` two player ids each, ``mp``,
  ``match``) or ``PlayerBye`` (``player``))). The three above refuse an individual file
  (problem ``kind``), so a caller that knows only pairs is never handed one.
- ``individual_standings(tournament) -> list[PlayerStanding]``: ``player`` and the figures
  of ``Standing``; ``individual_round_results(tournament, round)``: a played round with VP.
- ``next_individual_round(tournament) -> IndividualDraw`` (``round``, ``tables``:
  ``PartnershipSeat(table, ns, ew)``, ``byes``); ``next_draw(tournament)`` draws either kind.
- ``standings_document``, ``draw_document`` and ``tournament_to_document`` take either kind.
"""

from anotador.tournaments.document import check_tournament
from anotador.tournaments.document import check_tournament_file
from anotador.tournaments.document import parse_tournament
from anotador.tournaments.document import parse_tournament_file
from anotador.tournaments.document import read_tournament
from anotador.tournaments.document import read_tournament_file
from anotador.tournaments.individual import IndividualDraw
from anotador.tournaments.individual import PartnershipSeat
from anotador.tournaments.individual import next_individual_round
from anotador.tournaments.output import draw_document
from anotador.tournaments.output import standings_document
from anotador.tournaments.pairing import Draw
from anotador.tournaments.pairing import Seat
from anotador.tournaments.pairing import next_draw
from anotador.tournaments.pairing import next_round
from anotador.tournaments.problems import MESSAGES
from anotador.tournaments.problems import Problem
from anotador.tournaments.problems import TournamentProblems
from anotador.tournaments.results import finished_mp
from anotador.tournaments.standings import ByeResult
from anotador.tournaments.standings import PartnershipResult
from anotador.tournaments.standings import PlayerByeResult
from anotador.tournaments.standings import PlayerStanding
from anotador.tournaments.standings import Standing
from anotador.tournaments.standings import TableResult
from anotador.tournaments.standings import individual_round_results
from anotador.tournaments.standings import individual_standings
from anotador.tournaments.standings import round_results
from anotador.tournaments.standings import standings
from anotador.tournaments.tournament import FORMAT
from anotador.tournaments.tournament import INDIVIDUAL_SYSTEMS
from anotador.tournaments.tournament import KINDS
from anotador.tournaments.tournament import SYSTEMS
from anotador.tournaments.tournament import AnyTournament
from anotador.tournaments.tournament import Bye
from anotador.tournaments.tournament import IndividualRound
from anotador.tournaments.tournament import IndividualTournament
from anotador.tournaments.tournament import Pair
from anotador.tournaments.tournament import PartnershipTable
from anotador.tournaments.tournament import Player
from anotador.tournaments.tournament import PlayerBye
from anotador.tournaments.tournament import Round
from anotador.tournaments.tournament import Table
from anotador.tournaments.tournament import Tournament
from anotador.tournaments.victory_points import NAMED_SCALES
from anotador.tournaments.victory_points import Scale
from anotador.tournaments.victory_points import victory_points
from anotador.tournaments.writing import tournament_to_document

__all__ = [
    "FORMAT",
    "INDIVIDUAL_SYSTEMS",
    "KINDS",
    "MESSAGES",
    "NAMED_SCALES",
    "SYSTEMS",
    "AnyTournament",
    "Bye",
    "ByeResult",
    "Draw",
    "IndividualDraw",
    "IndividualRound",
    "IndividualTournament",
    "Pair",
    "PartnershipResult",
    "PartnershipSeat",
    "PartnershipTable",
    "Player",
    "PlayerBye",
    "PlayerByeResult",
    "PlayerStanding",
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
    "check_tournament_file",
    "draw_document",
    "finished_mp",
    "individual_round_results",
    "individual_standings",
    "next_draw",
    "next_individual_round",
    "next_round",
    "parse_tournament",
    "parse_tournament_file",
    "read_tournament",
    "read_tournament_file",
    "round_results",
    "standings",
    "standings_document",
    "tournament_to_document",
    "victory_points",
]
