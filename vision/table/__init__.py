"""The table stage: tiles lying on the bare table, found and read without a board.

Entries: :func:`read_table` (a :class:`TableConfig` for Super Wild or Holominoes and a BGR photo ->
a :class:`TableReading`: every tile found by the learned tile finder (vision.table.finder), read by
the learned reader and placed on its game's grid (``superwild_grid``, ``holominoes_grid``)), and
for ``read-tiles`` :func:`vision.table.loose_tiles.find_tiles` (the loose tiles of a set such as
Rummikub's, found and read the same way). Errors: :class:`TableError` (VisionError) and its
subclasses (FinderError, GridError).
"""

from vision.table.errors import TableError
from vision.table.table_reading import TableConfig, TableReading, read_table

__all__ = ["TableConfig", "TableError", "TableReading", "read_table"]
