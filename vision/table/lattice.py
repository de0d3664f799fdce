"""Tile centres on a photo fitted to a game's grid: an affine lattice, whole grid steps per tile.

A grid (the square table of Super Wild, the hex cells of Holominoes) seen from above is, on the
photo, an affine lattice: the centre of grid position (i, j) lies at ``origin + i U + j V``
(photo pixels), U and V one step along each grid axis. :func:`fit_lattice` starts from a guess of
U and V (from the tiles' own angles and spacing), gives every tile its nearest whole position
(``snap``: plain rounding for squares, hex rounding for hexagons), fits origin, U and V to the
centres by least squares and repeats until no tile changes position; first on the tiles next to
the anchor, then reaching one step further each time, so that the steps are measured on the near
tiles before a far tile is placed. A turned, shifted or scaled
layout and tiles pushed by less than about a third of a step come back at the same positions.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: The first fit takes the tiles within this many steps of the anchor (its neighbours, pushed or
#: not); each further fit reaches one step further, so a first guess of the step that is a few
#: percent off never puts a far tile on the wrong position.
FIRST_REACH = 1.5
#: Rounds of assign-and-fit at most; a layout settles in two or three (the positions stop changing).
MAX_ROUNDS = 12
#: Weight of the first guess of U and V in the fit, as if one more tile lay one step away: it holds
#: the step of an axis along which no two tiles lie (a layout of one row) and is outweighed by any
#: real line of tiles.
GUESS_WEIGHT = 1.0

Snap = Callable[[np.ndarray], np.ndarray]


def fit_lattice(centres: np.ndarray, steps: np.ndarray, snap: Snap, anchor: int) -> np.ndarray:
    """Whole grid positions of tile centres, the tile ``anchor`` at 0,0.

    Args:
        centres: float (shape: [n, 2]) the tiles' centres (x, y), photo pixels.
        steps: float (shape: [2, 2]) the first guess of one grid step along each axis, photo pixels:
            row 0 is U (first coordinate), row 1 V (second coordinate); not parallel.
        snap: fractional grid coordinates (shape: [n, 2]) -> the nearest whole positions (int64,
            shape: [n, 2]).
        anchor: index of the tile placed at 0,0.

    Returns:
        int64 (shape: [n, 2]) each tile's grid position.

    Raises:
        ValueError: ``centres`` or ``steps`` of the wrong shape, parallel steps, or ``anchor`` out of range.
    """
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    guess = np.asarray(steps, np.float64)
    n = len(centres)
    if guess.shape != (2, 2) or not 0 <= anchor < n:
        raise ValueError(f"fit_lattice needs steps of shape (2, 2) and 0 <= anchor < {n}, got {guess.shape}")
    if abs(np.linalg.det(guess)) < 1e-9 * float(np.sum(guess**2)):  # parallel up to rounding errors
        raise ValueError(f"the grid's two steps are parallel: {guess.tolist()}")
    unit = float(np.hypot(*guess.T).min())
    reach = np.hypot(*(centres - centres[anchor]).T) / unit
    origin, basis = centres[anchor], guess
    radius = FIRST_REACH
    while True:
        near = reach <= radius
        whole = _positions(centres[near], origin, basis, snap, centres[anchor])
        for _ in range(MAX_ROUNDS):
            origin, basis = _fit(centres[near], whole, guess)
            now = _positions(centres[near], origin, basis, snap, centres[anchor])
            if np.array_equal(now, whole):
                break
            whole = now
        if near.all():
            return whole
        radius += 1.0


def _positions(
    centres: np.ndarray, origin: np.ndarray, basis: np.ndarray, snap: Snap, anchor: np.ndarray
) -> np.ndarray:
    """Each centre's nearest whole position on the lattice ``origin + i U + j V``, the position of
    the point ``anchor`` at 0,0."""
    whole = snap(np.linalg.solve(basis.T, (np.vstack([centres, anchor]) - origin).T).T)
    return whole[:-1] - whole[-1]


def _fit(centres: np.ndarray, whole: np.ndarray, guess: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Origin and steps (least squares, with the guess as a weak prior) for the centres at ``whole``."""
    n = len(centres)
    design = np.column_stack([np.ones(n), whole.astype(np.float64)])
    prior = np.sqrt(GUESS_WEIGHT) * np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    rows = np.vstack([design, prior])
    targets = np.vstack([centres, np.sqrt(GUESS_WEIGHT) * guess])
    solution, *_ = np.linalg.lstsq(rows, targets, rcond=None)
    return solution[0], solution[1:]


def snap_square(frac: np.ndarray) -> np.ndarray:
    """The nearest whole square-grid positions (int64, shape: [n, 2]) of fractional ones."""
    return np.rint(frac).astype(np.int64)


def snap_hex(frac: np.ndarray) -> np.ndarray:
    """The nearest whole hex cells (axial q, r; int64, shape: [n, 2]) of fractional axial ones: cube
    rounding, the coordinate that moved most recomputed from the other two (x + y + z = 0)."""
    q, r = frac[:, 0], frac[:, 1]
    s = -q - r
    rq, rr, rs = np.rint(q), np.rint(r), np.rint(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return np.column_stack([rq, rr]).astype(np.int64)


def angle_mean(angles: np.ndarray, weights: np.ndarray, fold: int) -> float:
    """The weighted mean of angles known only modulo 2 pi / ``fold`` (radians; ``fold`` 2 for an
    axis, 3 for the numbered corners of a hexagon), in (-pi / fold, pi / fold].

    Raises:
        ValueError: no angles or no positive weight.
    """
    if len(angles) == 0 or float(np.sum(weights)) <= 0:
        raise ValueError("the mean of no angles")
    c = float(np.sum(weights * np.cos(fold * angles)))
    s = float(np.sum(weights * np.sin(fold * angles)))
    return float(np.arctan2(s, c)) / fold


def neighbour_step(offsets: np.ndarray, near: float) -> float | None:
    """The median distance between neighbours along one grid axis.

    Args:
        offsets: float (shape: [n, n]) the signed distance from tile i to tile j along the axis,
            NaN where j is not a neighbour along that axis (another row, itself, or too far).
        near: distances above this are not neighbours.

    Returns:
        The step, None when no tile has a neighbour along the axis.
    """
    gaps = np.abs(offsets[np.abs(offsets) <= near])
    return float(np.median(gaps)) if gaps.size else None
