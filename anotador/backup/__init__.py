"""Backup and restore: :mod:`.export` writes every match as JSON lines (and the history as
CSV), :mod:`.restore` reads them back in bounded memory. The names the app uses are here."""

from anotador.backup.export import BACKUP_FORMAT
from anotador.backup.export import BATCH
from anotador.backup.export import csv_cell
from anotador.backup.export import export_csv
from anotador.backup.export import export_lines
from anotador.backup.export import match_file
from anotador.backup.reading import MAX_LINE
from anotador.backup.reading import READ_BLOCK
from anotador.backup.report import KEEP_IDS
from anotador.backup.report import MAX_PROBLEM_TEXT
from anotador.backup.report import ImportReport
from anotador.backup.report import RestoreProblem
from anotador.backup.restore import KEEP_INVALID
from anotador.backup.restore import import_stream
from anotador.backup.restore import stored_copy

__all__ = [
    "BACKUP_FORMAT",
    "BATCH",
    "KEEP_IDS",
    "KEEP_INVALID",
    "MAX_LINE",
    "MAX_PROBLEM_TEXT",
    "READ_BLOCK",
    "ImportReport",
    "RestoreProblem",
    "csv_cell",
    "export_csv",
    "export_lines",
    "import_stream",
    "match_file",
    "stored_copy",
]
