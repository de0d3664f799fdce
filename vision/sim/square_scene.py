"""Still camera frames of Yushino's printed square board with its tiles, and the truth of each.

The printed sheet (calibration.square_board, as ``tilescribe board print --game yushino`` writes it)
lies on a table under the simulated camera (vision.sim.scene: pose, lens, light, blur, noise); one
set of Yushino tiles (vision.sim.game_tiles, a font of the chosen split; a tile fills
vision.board.square_reader.TILE_FILL of its square) lies on its squares, each
roughly square to the board: turned by a quarter turn either way or not at all (the players sit
round the board), plus a small random turn, and a little off-centre.

Run ``python -m vision.sim.square_scene board.json OUT.png [--seed N] [--split held_out]`` to write
one frame and print its truth as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.square_geometry import SquareBoardGeometry
from engine.yushino import random_game
from engine.yushino.board import format_square
from vision.sim.camera import CameraPose, random_lighting, random_pose
from vision.sim.game_tiles import sample_game_style
from vision.sim.options import SPLITS, Split
from vision.sim.scene import Optics, Scene, table_top

#: Most turns of the random games laid on the board (a full board has about 30 turns' tiles).
MAX_TURNS = 30
#: Standard deviation of a tile's small turn about its quarter turn, degrees.
TURN_SIGMA_DEG = 4.0
#: The quarter turns a tile lies at (counter-clockwise, degrees): upright for the player at the
#: foot of the board, or turned to a player at either side.
QUARTER_TURNS: tuple[float, ...] = (-90.0, 0.0, 90.0)


@dataclass(frozen=True, slots=True, eq=False)
class SquareFrame:
    """One rendered frame and what it shows.

    Attributes:
        image: BGR uint8, H x W x 3.
        faces: address -> face ("0".."9", "#" for a blank) of every tile on the board.
        pose: the camera (board.png pixels -> image pixels).
        style: the tile set's font family name.
    """

    image: np.ndarray
    faces: Mapping[str, str]
    pose: CameraPose
    style: str


def game_faces(seed: int, turns: int) -> dict[str, str]:
    """The faces on the board after ``turns`` turns of a seeded random legal two-player game.

    Returns:
        address -> face ("0".."9", "#" for a blank), e.g. {"H8": "7", "H9": "#"}.
    """
    game, _ = random_game(seed, 2, turns)
    return {format_square(sq): tile.face for sq, tile in game.position.tiles.items()}


def render_square_frame(
    board: SquareBoardGeometry,
    faces: Mapping[str, str],
    split: Split,
    rng: np.random.Generator,
    size: tuple[int, int] = (1280, 960),
) -> SquareFrame:
    """Render the board with tiles on it, seen from roughly above.

    Args:
        board: the printed square board.
        faces: address -> face ("0".."9" or "#") of the tiles to lay.
        split: the tile set's font split ("train" or "held_out").
        rng: every random choice (pose, light, table, set, turns, noise).
        size: the image's (width, height) in pixels.

    Returns:
        The frame and its truth.

    Raises:
        KeyError: an address is not a square of the board.
        vision.sim.tiles.TileStyleError: a face Yushino does not have.
    """
    pose = random_pose(board.image_size, size, rng)
    scale = pose.scale_at((board.image_size[0] / 2, board.image_size[1] / 2))
    optics = Optics(blur_sigma=float(rng.uniform(0.4, 1.0)), noise_sigma=float(rng.uniform(1.5, 4.5)))
    # the texture at twice the camera's scale (as vision.sim.recording), never above board.png's
    scene = Scene(board, size, min(1.0, 2.0 * scale), table_top(size, rng), random_lighting(rng), optics, rng)
    scene.set_pose(pose)
    style = sample_game_style(rng, split, "yushino")
    for address, face in faces.items():
        turn = QUARTER_TURNS[int(rng.integers(len(QUARTER_TURNS)))] + rng.normal(0, TURN_SIGMA_DEG)
        scene.place_tile(address, face, style, float(turn), rng)
    shot = scene.render(float(rng.uniform(0, 60)), [], rng)
    return SquareFrame(shot.image, dict(faces), pose, style.font.name)


def game_frame(board: SquareBoardGeometry, split: Split, rng: np.random.Generator, game_seed: int
               ) -> SquareFrame:
    """A frame of the board after 1 to MAX_TURNS turns (drawn from ``rng``) of the random legal game
    seeded ``game_seed`` (:func:`game_faces`), rendered by :func:`render_square_frame` with ``rng``.

    Raises:
        As :func:`render_square_frame`.
    """
    faces = game_faces(game_seed, int(rng.integers(1, MAX_TURNS + 1)))
    return render_square_frame(board, faces, split, rng)


def main(argv: list[str] | None = None) -> int:
    """Write one frame of a random mid-game board and print its truth."""
    from calibration.square_geometry import load_board

    parser = argparse.ArgumentParser(prog="python -m vision.sim.square_scene", description=__doc__)
    parser.add_argument("board", help="board.json of the square board")
    parser.add_argument("out", help="image file to write")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--turns", type=int, default=12, help="turns of the random game laid on the board")
    parser.add_argument("--split", choices=SPLITS, default="held_out")
    args = parser.parse_args(argv)
    board = load_board(args.board)
    if not isinstance(board, SquareBoardGeometry):
        print(f"{args.board}: not a square board", file=sys.stderr)
        return 2
    frame = render_square_frame(board, game_faces(args.seed, args.turns), args.split,
                                np.random.default_rng(args.seed))
    if not cv2.imwrite(args.out, frame.image):
        print(f"cannot write {args.out}", file=sys.stderr)
        return 2
    print(json.dumps({"faces": frame.faces, "font": frame.style}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
