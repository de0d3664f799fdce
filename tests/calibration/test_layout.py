"""Round trips board pixels <-> cell for the pointy-top Layout."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration.layout import Layout
from engine.hexgrid import Hex, hexagon_cells, parse_address

LAYOUT = Layout((1000.0, 800.0), 40.0)


def test_neighbour_centres_are_one_pitch_apart():
    a0 = LAYOUT.hex_to_pixel(Hex(0, 0))
    assert a0 == (1000.0, 800.0)
    for cell in Hex(0, 0).neighbours():
        assert math.dist(a0, LAYOUT.hex_to_pixel(cell)) == pytest.approx(LAYOUT.pitch)


def test_compass_directions_on_the_page():
    # B1 is west of A0, E1 north-west, P1 south-east (addressing.md)
    x0, y0 = LAYOUT.hex_to_pixel(Hex(0, 0))
    bx, by = LAYOUT.hex_to_pixel(parse_address("B1"))
    ex, ey = LAYOUT.hex_to_pixel(parse_address("E1"))
    px, py = LAYOUT.hex_to_pixel(parse_address("P1"))
    assert bx < x0 and by == y0
    assert ex < x0 and ey < y0
    assert px > x0 and py > y0


@given(st.sampled_from(hexagon_cells(9)), st.floats(-0.8, 0.8), st.floats(-0.8, 0.8))
def test_pixel_to_hex_round_trip_inside_the_cell(cell, fx, fy):
    cx, cy = LAYOUT.hex_to_pixel(cell)
    inner = LAYOUT.pitch / 2
    x, y = cx + fx * inner * 0.8, cy + fy * inner * 0.8
    assert LAYOUT.pixel_to_hex(x, y) == cell


def test_corners_lie_at_the_circumradius_and_fractional_centre_is_exact():
    cell = Hex(3, -2)
    centre = LAYOUT.hex_to_pixel(cell)
    for corner in LAYOUT.hex_corners(cell):
        assert math.dist(centre, corner) == pytest.approx(40.0)
    assert LAYOUT.pixel_to_hex_fractional(*centre) == pytest.approx((3.0, -2.0))


def test_bad_size_is_rejected():
    with pytest.raises(ValueError, match="size"):
        Layout((0.0, 0.0), 0.0)
