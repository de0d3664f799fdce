"""Holominoes geometry checked against the pixel formula of games.md (x = 1.5 q,
y = 1.732 (r + q/2), y down), and the cell/point notation round trips."""

from __future__ import annotations

import math
from collections import defaultdict

import pytest

from engine.holominoes.geometry import (
    BITES,
    CORNERS,
    DIRECTIONS,
    HOLE_NUMBERS,
    NUMBERED,
    Cell,
    Point,
    cell_at,
    cells_at,
    centre_xy,
    corner_xy,
    format_cell,
    format_point,
    parse_cell,
    parse_point,
    point_of,
)

CELLS = [(q, r) for q in range(-4, 5) for r in range(-4, 5)]


def pixel(cell: tuple[int, int], corner: str) -> tuple[float, float]:
    """The corner on the picture, written out from games.md for the test alone."""
    q, r = cell
    x, y = 1.5 * q, 1.732 * (r + q / 2)
    dx, dy = {
        "E": (1, 0),
        "SE": (0.5, 0.866),
        "SW": (-0.5, 0.866),
        "W": (-1, 0),
        "NW": (-0.5, -0.866),
        "NE": (0.5, -0.866),
    }[corner]
    return x + dx, y + dy


def key(xy: tuple[float, float]) -> tuple[int, int]:
    return round(xy[0] * 100), round(xy[1] * 100)


def test_centre_and_corners_follow_the_pixel_formula() -> None:
    for cell in CELLS:
        for corner in CORNERS:
            assert key(corner_xy(cell, corner)) == key(pixel(cell, corner))
    assert centre_xy((1, 0)) == pytest.approx((1.5, 0.866), abs=1e-3)


def test_neighbour_directions_point_where_games_md_says() -> None:
    compass = {"SE": 30, "NE": -30, "N": -90, "NW": -150, "SW": 150, "S": 90}
    for name, (dq, dr) in DIRECTIONS.items():
        x, y = centre_xy((dq, dr))
        assert math.hypot(x, y) == pytest.approx(math.sqrt(3))
        assert math.degrees(math.atan2(y, x)) == pytest.approx(compass[name])


def test_each_point_is_shared_by_three_cells_of_one_kind() -> None:
    groups: dict[tuple[int, int], set[tuple[tuple[int, int], str]]] = defaultdict(set)
    for cell in CELLS:
        for corner in CORNERS:
            groups[key(pixel(cell, corner))].add((cell, corner))
    inner = [g for g in groups.values() if len(g) == 3]
    assert len(inner) > 100
    for group in inner:
        kinds = {corner in NUMBERED for _, corner in group}
        assert len(kinds) == 1, group  # numbered corners only meet numbered corners
        for cell, corner in group:
            point = point_of(cell, corner)
            assert set(cells_at(point)) == group
            assert point.is_bite == (corner in BITES)


def test_hole_numbers_are_the_numbered_points_one_edge_from_the_bite() -> None:
    for cell in CELLS[10:30]:
        bite = key(pixel(cell, "SE"))
        near = {
            key(pixel(c, n))
            for c in CELLS
            for n in NUMBERED
            if math.dist(pixel(c, n), pixel(cell, "SE")) == pytest.approx(1, abs=0.01)
        }
        ours = {key(pixel((cell[0] + dq, cell[1] + dr), "E")) for dq, dr in HOLE_NUMBERS}
        assert ours == near, bite


def test_cell_and_point_notation_round_trips() -> None:
    assert parse_cell(format_cell((-1000, 1000))) == Cell(-1000, 1000)
    for cell in [(0, 0), (1, -1), (-999, 999), (37, -5)]:
        assert parse_cell(format_cell(cell)) == Cell(*cell)
        for corner in CORNERS:
            point = point_of(cell, corner)
            assert parse_point(format_point(point)) == point
    assert parse_point("1,0/W") == Point(Cell(0, 0), "SE")
    assert parse_point("1,0/NW") == Point(Cell(0, 0), "E")


@pytest.mark.parametrize("text", ["1001,0", "0,-1001", "1;0", "1,0,2", "a,b", "99999999999,0"])
def test_bad_cells_are_refused_with_the_text(text: str) -> None:
    with pytest.raises(ValueError, match="cell"):
        parse_cell(text)


@pytest.mark.parametrize("cell", [(0, 0), (2, -1), (-3, 4), (5, 5)])
def test_a_point_of_a_hexagon_is_found_in_its_cell(cell: tuple[int, int]) -> None:
    x, y = centre_xy(cell)
    assert cell_at((x, y)) == cell
    for corner in ("E", "SE", "SW", "W", "NW", "NE"):  # just inside each corner
        cx, cy = corner_xy(cell, corner)
        assert cell_at((x + 0.95 * (cx - x), y + 0.95 * (cy - y))) == cell
    for k in range(6):  # just inside the middle of each edge (inradius sqrt(3)/2)
        angle = math.radians(30 + 60 * k)
        assert cell_at((x + 0.85 * math.cos(angle), y + 0.85 * math.sin(angle))) == cell
