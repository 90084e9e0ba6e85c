"""Player ratings (docs/ratings.md): the pure computation (``compute``), the stored ratings,
their pages (their command, ``anotador ratings``, is :mod:`anotador.commands.ratings`)."""
