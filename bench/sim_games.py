"""Simulated games for the presence training and the read benchmark (seeded, deterministic).

``game_turns`` plays a random legal MODLINSEQ game (engine.randomgame) and turns it into the
placements of a simulated recording, with some tiles shown as wild tiles ("#", §7-1): the scene
simulator (vision.sim) then renders camera frames with hands, light changes and bumps.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from calibration.geometry import BoardGeometry
from engine.hexgrid import Board, format_address
from engine.randomgame import random_game
from engine.settings import Settings
from vision.sim.recording import SimFrame, SimOptions, simulate
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
