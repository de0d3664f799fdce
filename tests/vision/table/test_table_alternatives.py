"""The table readers' runner-ups (TableReading.alternatives) on rendered TRAIN-style tables seen by
a camera out of focus: each tile placed keeps other readings on its own place, likeliest first,
from the reader's probabilities, and a tile misread has its true reading among them."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import cv2

from engine.holominoes.tiles import parse_placement
from engine.superwild.tiles import parse_move
from tilescribe.table_observer import layout_tokens
from vision.reader.model import TileReader
from vision.sim.table_errors import table_errors
from vision.sim.table_shots import random_shot
from vision.table.holominoes_read import ALTERNATIVES as HOLOMINOES_ALTERNATIVES
from vision.table.superwild_read import ALTERNATIVES as SUPERWILD_ALTERNATIVES
from vision.table.table_reading import TableConfig, read_table

#: TRAIN-style tables read per game (seeds apart from test_table_read's and bench_table's), each
#: blurred by a Gaussian of DEFOCUS_SIGMA pixels (a camera out of focus), so that the reader
#: misreads tiles on them: in focus it misread 1 tile on these 40 tables. Measured: 64 misread
#: (Super Wild 4, Holominoes 60), 15 of them mended by a runner-up (1 and 14: on digits blurred
#: so, a Holominoes tile's true reading is mostly not among its few runner-ups).
TABLES = range(3000, 3020)
DEFOCUS_SIGMA = 2.0
#: Least misreads on those tables, so that the share below is one of enough of them.
LEAST_MISREAD = 30
#: Least share of the misreads mended by a runner-up. Shipped: 15 of 64; bound 1/12 (6 of 64): a
#: reader whose runner-ups mend 1.25 times fewer falls under it with probability 1.3%. A check that
#: the runner-ups are readings of the tile's own corners and colours (each digit put on the wrong
#: corner mends 2 of 64), not of how good the reader's runner-ups are: a Holominoes tile has few
#: readings one digit off, so even runner-ups in no order mend more than this.
MENDED_SHARE = 1 / 12
GAMES = {"superwild": ("Super Wild", SUPERWILD_ALTERNATIVES),
         "holominoes": ("Holominoes", HOLOMINOES_ALTERNATIVES)}


def _place(game: str, token: str) -> tuple[int, int]:
    if game == "Super Wild":
        pos = parse_move(token).pos
        return pos.x, pos.y
    cell = parse_placement(token).cell
    return cell.q, cell.r


def _tiles(game: str, tokens: Collection[str]) -> list[dict[str, Any]]:
    """Layout tokens as games.md's reading JSON tiles."""
    out: list[dict[str, Any]] = []
    for token in tokens:
        name = token.split("@")[0]
        if game == "Super Wild":
            x, y = _place(game, token)
            out.append({"tile": name, "x": x, "y": y})
        else:
            placed = parse_placement(token)
            out.append({"tile": name, "q": placed.cell.q, "r": placed.cell.r, "first": placed.first})
    return out


def test_runner_ups_lie_on_the_tiles_place_and_hold_the_true_tile_of_a_misread() -> None:
    reader = TileReader()
    misread = fixed = 0
    for key, (game, most) in GAMES.items():
        config = TableConfig(game, reader)
        for seed in TABLES:
            shot = random_shot(key, seed, "train")
            reading = read_table(config, cv2.GaussianBlur(shot.image, (0, 0), DEFOCUS_SIGMA))
            tokens = layout_tokens(game, reading.tiles)
            assert reading.alternatives and set(reading.alternatives) <= tokens, (key, seed)
            for token, others in reading.alternatives.items():
                ratios = [r for _, r in others]
                assert 0 < len(others) <= most and ratios == sorted(ratios, reverse=True) and min(ratios) > 0
                assert all(o != token and _place(game, o) == _place(game, token) for o, _ in others)
            before = table_errors(shot, list(reading.tiles))
            misread += before.wrong_face
            fixed += sum(
                any(table_errors(shot, _tiles(game, tokens - {token} | {o})).errors < before.errors
                    for o, _ in others)
                for token, others in reading.alternatives.items()
            )
    assert misread >= LEAST_MISREAD and fixed >= MENDED_SHARE * misread, (misread, fixed)
