"""Benchmarks: ``make bench`` (``python -m benchmarks``) prints every figure the issues ask for."""
