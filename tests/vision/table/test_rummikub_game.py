"""A MODLINSEQ game played with Rummikub tiles on the printed board is read and scored
correctly (simulated frames built from the real tile crops of the train/ photos, §1-3 modulus 13:
the 13 tile stands for 0)."""

from __future__ import annotations

from calibration.tilesets import load_tileset
from engine.game import Game
from engine.hexgrid import Board, format_address
from engine.randomgame import random_game
from engine.settings import Settings
from engine.tiles import Tile
from vision.board.board_reader import BoardReader, ReadConfig
from vision.reader.glyph_reader import reader_for_tileset
from vision.sim.recording import SimOptions, simulate
from vision.sim.timeline import Pacing, SimPlacement


def rummikub_face(tile: Tile) -> str:
    return "13" if tile.value == 0 else str(tile.value)


def test_a_game_with_rummikub_tiles_is_read_and_scored(printed_board):
    _, geometry = printed_board
    settings = Settings(modulus=13, board=Board.hexagon(9))
    _, results = random_game(settings, 5, seed=11)
    turns = [[SimPlacement(format_address(p.cell), rummikub_face(p.tile)) for p in r.placements]
             for r in results]
    options = SimOptions(seed=8, fps=2.0, hands=False, split="train", shapes=("photo",),
                         pacing=Pacing(lead_in=0.5, reach=0.1, move=0.1, rest=0.1, settle=0.5, after=0.5))
    rummikub = load_tileset("rummikub")
    config = ReadConfig(geometry, 13, reader_for_tileset(rummikub), rummikub.face_values(13))
    reader = BoardReader(config)
    game, truth = Game(settings), Game(settings)
    played = 0
    for frame in simulate(turns, geometry, options):
        if not frame.turn_ends:
            continue
        # like the table session: cells that hold a committed tile are not read again
        empty = [cell for cell in settings.board.cells if cell not in game.position]
        reading = reader.read(frame.image, f"frame {frame.index}", legal=game.legal_values(), only=empty)
        observed = dict(game.position.items())
        observed.update({cell: rummikub.tile(r.face, 13) for cell, r in reading.cells.items()})
        diff = game.diff(observed)
        assert diff.is_clean, f"frame {frame.index}: {diff}"
        game.play(diff.placements)
        truth.play(results[played].placements)
        played += 1
        assert game.scores == truth.scores, f"after turn {played}"
    assert played == len(results)
