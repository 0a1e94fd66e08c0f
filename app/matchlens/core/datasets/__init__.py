"""Reading CSV/TSV/JSONL/JSON/Parquet/spreadsheet data files and mapping columns or JSONPaths to text values.

Pure Python (no Qt). Every bad input raises `DatasetError`, whose str() is the one sentence the
user reads: the file, the physical line and the column where known.
"""

from matchlens.core.datasets.columns import (
    ColumnValues,
    check_columns,
    literal_column,
    resolve_column,
    unknown_columns,
)
from matchlens.core.datasets.guess import guess_columns, parse_label
from matchlens.core.datasets.readers import iter_tables, read_table
from matchlens.core.datasets.source import Cancelled
from matchlens.core.datasets.table import Table, table_from_columns

__all__ = [
    "Cancelled",
    "ColumnValues",
    "Table",
    "check_columns",
    "guess_columns",
    "iter_tables",
    "literal_column",
    "parse_label",
    "read_table",
    "resolve_column",
    "table_from_columns",
    "unknown_columns",
]
