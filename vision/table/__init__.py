"""The table stage: tiles lying loose on the bare table, found and read without a board.

Entry: :func:`read_table` (a :class:`TableConfig` for Super Wild or Holominoes and a BGR photo ->
a :class:`TableReading`: every tile found on the bare table (vision.table.tile_bodies), read by
the learned reader and placed on its game's grid (``superwild_grid``, ``holominoes_grid``)).
``read-tiles`` finds the loose tiles of a Rummikub-style set with the glyph reader and reads them
with it and the learned reader joined (:func:`vision.table.loose_tiles.find_tiles`). Errors:
:class:`TableError` (VisionError) and its subclasses (TableFindError, GridError, LooseTileError,
SurfaceTableError).
"""

from vision.table.errors import TableError
from vision.table.table_reading import TableConfig, TableReading, read_table

__all__ = ["TableConfig", "TableError", "TableReading", "read_table"]
