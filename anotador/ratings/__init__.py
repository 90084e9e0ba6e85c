"""Player ratings (RATINGS.md): the pure computation (``compute``), the stored ratings,
their command and pages."""
