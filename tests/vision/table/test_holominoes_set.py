"""A Holominoes reading holds every tile of the set once (games.md "Holominoes": 40 unique tiles):
where the reader's likeliest digits would make two tiles one, the readings of greatest total
likelihood that are all different tiles are taken, instead of placing one and leaving the other
out as a clash."""

from __future__ import annotations

from vision.reader.model import TileReader
from vision.sim.table_errors import table_errors
from vision.sim.table_shots import random_shot
from vision.table.finder import tile_finder
from vision.table.holominoes_read import read_holominoes

#: TRAIN-style tables (vision.sim.table_shots, split "train") on which the likeliest digits read one
#: tile twice (a 5 read as a 6, or a 4 as a 6, at a corner no other tile shares): taking each
#: tile's likeliest reading left 5 tiles out of their grids as clashes.
CLASHING = (6207, 6275, 6352, 6397)


def test_no_tile_is_read_twice_and_none_left_out_for_it() -> None:
    reader = TileReader()
    for seed in CLASHING:
        shot = random_shot("holominoes", seed, "train")
        reading = read_holominoes(shot.image, reader, tile_finder())
        tiles = [p.tile for p in reading.grid.placements]
        assert len(set(tiles)) == len(tiles) == len(reading.seen), seed
        problems = reading.grid.problems
        assert not any("clashes" in problem for problem in problems), (seed, problems)
        assert table_errors(shot, reading.grid.to_json()["tiles"]).missed == 0, seed


#: TRAIN-style tables on which the layout's mask took bare table for a tile (a hole among the
#: tiles, a patch of table off them) or a cell beside the tiles read a digit at each numbered
#: corner between 0.5 and 0.8 surely: each kept one such cell as a tile before a cell had to read
#: as a tile to be one.
TABLE_TAKEN_FOR_TILES = (20139, 20359, 20571, 20154, 20169)
#: Most of their 86 tiles missed for a cell that does not read surely as a tile. Shipped: none; a
#: reader of near-equal quality lost one (a digit read less surely): bound 4, which a reader losing
#: 1.25 of them on average exceeds with probability 0.9%.
MOST_MISSED = 4


def test_bare_table_among_and_beside_the_tiles_is_no_tile() -> None:
    reader = TileReader()
    tiles = missed = 0
    for seed in TABLE_TAKEN_FOR_TILES:
        shot = random_shot("holominoes", seed, "train")
        reading = read_holominoes(shot.image, reader, tile_finder())
        errors = table_errors(shot, reading.grid.to_json()["tiles"])
        assert errors.extra == 0, (seed, errors)
        tiles, missed = tiles + errors.tiles, missed + errors.missed
    assert missed <= MOST_MISSED, (missed, tiles)
