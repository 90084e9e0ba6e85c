"""Statistics: each side's figures over a match, the sums over many matches (pure), their reads
from the database, and the charts drawn as inline SVG.
"""
