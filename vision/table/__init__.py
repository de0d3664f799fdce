"""The table stage: tiles lying loose on the bare table, found and read without a board.

``vision.table.loose_tiles.find_tiles`` finds every tile of a photo with its outline and reads it;
``superwild_grid`` and ``holominoes_grid`` place the tiles seen on their games' grids.
"""
