"""Simulated games for the presence training and the read benchmark (seeded, deterministic).

``game_turns`` plays a random legal MODLINSEQ game (engine.randomgame) and turns it into the
placements of a simulated recording, with some tiles shown as wild tiles ("#", §7-1): the scene
simulator (vision.sim) then renders camera frames with hands, light changes and bumps;
``record_games`` writes such games as recordings.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

from calibration.geometry import BoardGeometry
from engine.hexgrid import Board, format_address
from engine.randomgame import random_game
from engine.settings import Settings
from vision.capture.sources import CAMERA_SIZE
from vision.sim.recording import SimFrame, SimOptions, make_recording, simulate
from vision.sim.tiles import Split
from vision.sim.timeline import Pacing, SimPlacement
from vision.sim.transcripts import face_of

#: Quick pacing: short reaches and pauses, so that a game of many turns stays a few hundred frames.
QUICK = Pacing(lead_in=0.6, reach=0.3, move=0.2, rest=0.2, settle=0.4, after=0.6, pause=0.6, pause_chance=0.2)


def game_turns(order: int, turns: int, seed: int, wild_share: float = 0.08) -> list[list[SimPlacement]]:
    """A random legal game's turns as simulator placements; ``wild_share`` of tiles shown as "#"."""
    settings = Settings(modulus=13, board=Board.hexagon(order))
    _, results = random_game(settings, turns, seed)
    rng = random.Random(seed)
    out = []
    for result in results:
        placed = []
        for p in result.placements:
            face = "#" if rng.random() < wild_share else face_of(p.tile, 13)
            placed.append(SimPlacement(format_address(p.cell), face))
        out.append(placed)
    return out


def still_frames(geometry: BoardGeometry, turns: list[list[SimPlacement]], options: SimOptions,
                 every: int = 1) -> Iterator[SimFrame]:
    """Every ``every``-th frame of the simulated game with no hand over the board."""
    for frame in simulate(turns, geometry, options):
        if not frame.hand and frame.index % every == 0:
            yield frame


def record_games(board_json: Path, out: Path, games: int, split: Split = "held_out", seed: int = 500,
                 first_turns: int = 28, quiet: bool = False,
                 size: tuple[int, int] = CAMERA_SIZE) -> list[Path]:
    """Write ``games`` simulated recordings under ``out`` on the board of ``board_json`` (game g:
    ``first_turns + 4 g`` turns,
    game seed ``seed + g``, scene seed ``seed + 100 + g``; tiles of ``split``'s styles at any
    rotation, pentagons or pentagons and rectangles in turn; frames of ``size`` (width, height)
    pixels); returns their folders. A folder already recorded is kept (same seeds, same frames). A
    progress bar per game unless ``quiet``."""
    folders = []
    order = BoardGeometry.load(board_json).order
    for g in range(games):
        folder = out / f"game{g}"
        folders.append(folder)
        if (folder / "frames.json").is_file():
            continue
        turns = game_turns(order, first_turns + 4 * g, seed=seed + g, wild_share=0.08)
        options = SimOptions(seed=seed + 100 + g, size=size, fps=4.0, split=split,
                             shapes=(("pentagon",), ("pentagon", "rectangle"))[g % 2],
                             per_tile_styles=g % 2 == 1, any_rotation=True, bumps=1, pacing=QUICK)
        make_recording(turns, board_json, folder, options, progress=not quiet)
        print(f"recorded game {g}: {len(turns)} turns", file=sys.stderr, flush=True)
    return folders
