"""Sequences (§2): table 2A points, the MSA tables 2B and 2C, gap filling (§2-6)."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sequences import (
    MSA,
    all_sequences,
    count_gap_fillings,
    gap_fillings,
    is_modular_linear,
    msa_of_values,
    points,
)

TABLE_2A = {1: 0, 2: 0, 3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 28, 10: 36, 11: 45, 12: 55}

# Tables 2B and 2C as printed (one period each, from the anchor).
TABLE_2B = """
M11-S1-A0 0 ~ 1 ~ 2 ~ 3 ~ 4 ~ 5 ~ 6 ~ 7 ~ 8 ~ 9 ~ 10
M11-S2-A0 0 ~ 2 ~ 4 ~ 6 ~ 8 ~ 10 ~ 1 ~ 3 ~ 5 ~ 7 ~ 9
M11-S3-A0 0 ~ 3 ~ 6 ~ 9 ~ 1 ~ 4 ~ 7 ~ 10 ~ 2 ~ 5 ~ 8
M11-S4-A0 0 ~ 4 ~ 8 ~ 1 ~ 5 ~ 9 ~ 2 ~ 6 ~ 10 ~ 3 ~ 7
M11-S5-A0 0 ~ 5 ~ 10 ~ 4 ~ 9 ~ 3 ~ 8 ~ 2 ~ 7 ~ 1 ~ 6
""" + "".join(f"M11-S0-A{a} {a}\n" for a in range(11))

TABLE_2C = """
M12-S1-A0 0 ~ 1 ~ 2 ~ 3 ~ 4 ~ 5 ~ 6 ~ 7 ~ 8 ~ 9 ~ 10 ~ 11
M12-S5-A0 0 ~ 5 ~ 10 ~ 3 ~ 8 ~ 1 ~ 6 ~ 11 ~ 4 ~ 9 ~ 2 ~ 7
M12-S2-A0 0 ~ 2 ~ 4 ~ 6 ~ 8 ~ 10
M12-S2-A1 1 ~ 3 ~ 5 ~ 7 ~ 9 ~ 11
M12-S3-A0 0 ~ 3 ~ 6 ~ 9
M12-S3-A1 1 ~ 4 ~ 7 ~ 10
M12-S3-A2 2 ~ 5 ~ 8 ~ 11
M12-S4-A0 0 ~ 4 ~ 8
M12-S4-A1 1 ~ 5 ~ 9
M12-S4-A2 2 ~ 6 ~ 10
M12-S4-A3 3 ~ 7 ~ 11
M12-S6-A0 0 ~ 6
M12-S6-A1 1 ~ 7
M12-S6-A2 2 ~ 8
M12-S6-A3 3 ~ 9
M12-S6-A4 4 ~ 10
M12-S6-A5 5 ~ 11
""" + "".join(f"M12-S0-A{a} {a}\n" for a in range(12))

PERIODS_2C = {1: 12, 5: 12, 2: 6, 3: 4, 4: 3, 6: 2, 0: 1}


def _table(text: str) -> dict[str, tuple[int, ...]]:
    rows = {}
    for line in text.strip().splitlines():
        name, _, cycle = line.partition(" ")
        rows[name] = tuple(int(v) for v in cycle.split("~"))
    return rows


@pytest.mark.parametrize(("length", "pts"), sorted(TABLE_2A.items()))
def test_table_2a_points(length, pts):
    assert points(length) == pts


@pytest.mark.parametrize(("modulus", "table"), [(11, TABLE_2B), (12, TABLE_2C)])
def test_tables_2b_2c_list_every_sequence_exactly(modulus, table):
    expected = _table(table)
    listed = {str(msa): msa.cycle() for msa in all_sequences(modulus)}
    assert listed == expected
    for name, cycle in expected.items():
        # every window of the printed cycle, in either direction, has this MSA
        doubled = cycle * 3
        if len(cycle) >= 2:
            assert str(msa_of_values(doubled[1:5], modulus)) == name
            assert str(msa_of_values(doubled[1:5][::-1], modulus)) == name


def test_table_2c_periods():
    for msa in all_sequences(12):
        assert msa.period == PERIODS_2C[msa.step]


def test_section_2_1_sequence_and_its_reverse_share_an_msa():
    assert is_modular_linear([4, 6, 1, 3], 7) and is_modular_linear([3, 1, 6, 4], 7)
    assert msa_of_values([4, 6, 1, 3], 7) == msa_of_values([3, 1, 6, 4], 7) == MSA(7, 2, 0)
    # repeating far enough (§2-1)
    assert is_modular_linear([3, 5, 0, 2, 4, 6, 1, 3, 5, 0, 2, 4], 7)
    assert not is_modular_linear([4, 6, 1, 3, 5, 0, 3], 7)


def test_section_2_6_worked_example():
    assert gap_fillings(7, 6, 2, 10) == [(0, 3)]
    assert count_gap_fillings(7, 6, 2, 10) == 1


def test_msa_rejects_out_of_range_fields():
    with pytest.raises(ValueError):
        MSA(12, 7, 0)
    with pytest.raises(ValueError):
        MSA(12, 4, 4)
    with pytest.raises(ValueError, match="not modular-linear"):
        msa_of_values([1, 2, 4], 12)


@settings(derandomize=True)
@given(st.integers(1, 16), st.integers(0, 3), st.data())
def test_gap_fillings_match_brute_force(modulus, gap, data):
    left = data.draw(st.integers(0, modulus - 1))
    right = data.draw(st.integers(0, modulus - 1))
    brute = sorted(
        fill
        for fill in product(range(modulus), repeat=gap)
        if is_modular_linear((left, *fill, right), modulus)
    )
    assert gap_fillings(left, right, gap, modulus) == brute
    assert count_gap_fillings(left, right, gap, modulus) == len(brute)


@settings(derandomize=True)
@given(st.sampled_from([2, 3, 5, 7, 11, 13]), st.integers(0, 12), st.integers(0, 12), st.integers(1, 11))
def test_prime_modulus_fills_any_gap_uniquely(modulus, left, right, gap):
    if gap + 1 < modulus:  # gap + 1 coprime to the modulus
        assert count_gap_fillings(left % modulus, right % modulus, gap, modulus) == 1
