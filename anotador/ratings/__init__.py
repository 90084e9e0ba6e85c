"""Player ratings (docs/ratings.md): the pure computation (``compute``), the stored ratings,
their command and pages."""
