"""Cell addresses and boards (§1-2, addressing.md, table 1B)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexgrid import (
    LINE_DIRECTIONS,
    Board,
    Hex,
    distance,
    format_address,
    hexagon_cells,
    parse_address,
    ring_cells,
)
from engine.limits import MAX_ADDRESS_NUMBER, MAX_ORDER

EXAMPLES = {
    "A0": (0, 0), "B1": (-1, 0), "B2": (-2, 0), "B3": (-1, -1), "B4": (-3, 0), "B5": (-2, -1),
    "B6": (-1, -2), "E1": (0, -1), "E2": (0, -2), "E3": (1, -2), "H1": (1, -1), "M1": (1, 0),
    "M2": (2, 0), "P1": (0, 1), "T1": (-1, 1), "T2": (-2, 2),
}  # fmt: skip


@pytest.mark.parametrize(("address", "qr"), sorted(EXAMPLES.items()))
def test_addressing_examples(address, qr):
    assert parse_address(address) == Hex(*qr)
    assert format_address(Hex(*qr)) == address


@pytest.mark.parametrize(
    ("cells", "slope"),
    [
        ("B2 B1 A0 M1", "zero"),  # figure 2A
        ("T2 T1 A0 H1", "positive"),  # figure 2C
        ("E2 E1 A0 P1", "negative"),  # figure 2E, read north to south
    ],
)
def test_section_2_1_lines_are_straight(cells, slope):
    hexes = [parse_address(a) for a in cells.split()]
    step = LINE_DIRECTIONS[slope]
    assert all(b - a == step for a, b in zip(hexes, hexes[1:], strict=False))


@pytest.mark.parametrize(("order", "cells"), [(0, 1), (4, 61), (7, 169), (9, 271), (12, 469), (18, 1027)])
def test_table_1b_cell_counts(order, cells):
    board = Board.hexagon(order)
    assert len(board) == cells == 3 * order * (order + 1) + 1
    assert board.is_hexagon


def test_truncated_board_keeps_addresses():
    board = Board.truncated(7, ["B26", "M7"])
    assert parse_address("B26") not in board and parse_address("B20") in board
    assert len(board) == 169 - 2 and not board.is_hexagon
    # B26 lies immediately left of B20 on every board that has both (§1-2)
    assert parse_address("B20") - parse_address("B26") == LINE_DIRECTIONS["zero"]


@pytest.mark.parametrize("bad", ["", "A1", "Q3", "B0", "B", "7B", "B-2", None])
def test_bad_addresses_are_rejected_with_the_text(bad):
    with pytest.raises(ValueError, match="not a cell address"):
        parse_address(bad)


@settings(derandomize=True)
@given(st.integers(-MAX_ORDER, MAX_ORDER), st.integers(-MAX_ORDER, MAX_ORDER))
def test_address_round_trip_from_coordinates(q, r):
    cell = Hex(q, r)
    if cell.ring() <= MAX_ORDER:
        assert parse_address(format_address(cell)) == cell


@settings(derandomize=True)
@given(st.sampled_from("BEHMPT"), st.integers(1, MAX_ADDRESS_NUMBER))
def test_address_round_trip_from_text(letter, number):
    text = f"{letter}{number}"
    assert format_address(parse_address(text)) == text


@pytest.mark.parametrize("text", [f"T{MAX_ADDRESS_NUMBER + 1}", "T100000000000000", "B" + "9" * 5000])
def test_address_beyond_the_largest_board_is_refused_at_once(text):
    with pytest.raises(ValueError, match=f"up to {MAX_ADDRESS_NUMBER}"):
        parse_address(text)


def test_far_cells_format_in_constant_time():
    assert format_address(Hex(10**15, 0)) == f"M{10**15 * (10**15 - 1) // 2 + 1}"
    with pytest.raises(ValueError, match=f"0 to {MAX_ORDER}"):
        hexagon_cells(MAX_ORDER + 1)


@settings(derandomize=True)
@given(st.integers(0, 12))
def test_rings_hold_6k_cells_with_k_per_sextant(order):
    cells = hexagon_cells(order)
    for k in range(1, order + 1):
        ring = [c for c in cells if distance(c, Hex(0, 0)) == k]
        assert len(ring) == 6 * k
        assert sorted(ring_cells(k)) == sorted(ring)
        letters = [format_address(c)[0] for c in ring]
        assert all(letters.count(x) == k for x in "BEHMPT")
