"""Tournaments on the web: the director's screens, the standings pages, the forms and the
printouts, over the tournaments' use cases (:mod:`anotador.tournaments.operations`), their rows
(:mod:`anotador.tournaments.store`) and the pure core of :mod:`anotador.tournaments` (none of
which imports this)."""
