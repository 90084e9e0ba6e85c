"""A tournament's stored part: its rows (:mod:`.models`) on the database of
:mod:`anotador.storage`, below the use cases that write them."""
