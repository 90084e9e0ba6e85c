"""Use cases, between the views (or the commands) and the models.

- :mod:`~anotador.services.queries`: every read of matches and players (the match page, the
  lists, the history, the registry, the statistics); :mod:`~anotador.services.batches` reads
  every stored match a batch at a time (export, ``anotador check``, imports),
  :mod:`~anotador.services.lists` the lists' matches as states first, and ``queries``
  offers their functions with the rest (the statistics' summaries are read by
  :mod:`anotador.statistics.reads`, above these).
- :mod:`~anotador.services.documents`: a stored match's file, its content hash and its
  summary columns (imported by the others, importing none of them).
- :mod:`~anotador.services.matches`: create, score (cached), export, abandon or resume, and
  ``claim_version``, which every change to a match starts with.
- :mod:`~anotador.services.hands`: record, edit, delete, undo and preview a hand;
  :mod:`~anotador.services.outbox`: the hands a phone queued without a connection.
- :mod:`~anotador.services.players`: find or create, rename and merge players.
- :mod:`~anotador.services.accounts` (with :mod:`~anotador.services.throttle`): accounts,
  sign-in, passwords; :mod:`~anotador.services.sign_ins`: the browsers an account is signed
  in on; :mod:`~anotador.services.groups`: groups, their invitations and members;
  :mod:`~anotador.services.sharing`: a match's table and spectator links and its group;
  :mod:`~anotador.services.scope`: whose matches a read sees.

Each write validates through the rules engine, claims the match's version (in its write
turn: :mod:`anotador.storage.write_turns`), commits once and then sends
:data:`anotador.storage.signals.match_changed`; none of them knows about requests, sessions or
flashing: they return what happened.
"""

# Every room, so ``from anotador import services`` is enough to use
# ``services.matches.create_match`` and the rest.
from anotador.services import accounts as accounts
from anotador.services import batches as batches
from anotador.services import documents as documents
from anotador.services import groups as groups
from anotador.services import hands as hands
from anotador.services import matches as matches
from anotador.services import outbox as outbox
from anotador.services import players as players
from anotador.services import queries as queries
from anotador.services import sharing as sharing
from anotador.services import sign_ins as sign_ins
