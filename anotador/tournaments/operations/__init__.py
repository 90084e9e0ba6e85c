"""A tournament's use cases: set it up and register its pairs (:mod:`.service`), draw, start,
close and reopen its rounds (:mod:`.rounds`, seeded by :mod:`.seeding`), the rule its tables'
matches keep (:mod:`.tables`), its line in a backup (:mod:`.backup`) and its check
(:mod:`.integrity`), over the pure core of :mod:`anotador.tournaments` (through
:mod:`.draws`) and its rows (:mod:`anotador.tournaments.store`)."""
