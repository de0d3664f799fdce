"""The sequence laws of §10 (fibonacciësque) and §11 (multiplicative), from modlinseq-10-12.md,
against a plain re-statement of each law."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.laws import FIBONACCI, LINEAR, MULTIPLICATIVE, Law

FIB12 = Law(FIBONACCI, 12)
CYCLE_24 = [6, 5, 11, 4, 3, 7, 10, 5, 3, 8, 11, 7, 6, 1, 7, 8, 3, 11, 2, 1, 3, 4, 7, 11]


def test_fibonacci_example_modulus_12():
    assert FIB12.valid([1, 7, 8, 3, 11, 2])  # 1+7=8, 7+8=15=3, 8+3=11, 3+11=14=2
    assert not FIB12.valid([2, 11, 3, 8, 7, 1])  # the same tiles the other way
    assert not FIB12.valid([1, 7, 9])


def test_fibonacci_example_is_part_of_the_period_24_cycle():
    assert FIB12.valid(CYCLE_24)
    assert FIB12.valid_loop(CYCLE_24)  # 7 + 11 = 18 = 6, 11 + 6 = 17 = 5: the cycle closes
    start = CYCLE_24.index(1)
    assert CYCLE_24[start : start + 6] == [1, 7, 8, 3, 11, 2]
    # the period is 24: generated from its first two terms, the cycle first repeats after 24 terms
    terms = [FIB12.term(6, 5, p) for p in range(49)]
    assert terms[:24] == CYCLE_24
    assert min(p for p in range(1, 49) if terms[p : p + 2] == terms[:2]) == 24
    assert not FIB12.valid_loop(CYCLE_24[:12])


def test_fibonacci_any_two_tiles_and_zeros():
    assert all(FIB12.valid([a, b]) for a in range(12) for b in range(12))
    assert FIB12.valid([0, 0]) and FIB12.valid([0, 0, 0]) and FIB12.valid([0, 0, 0, 0])
    assert not FIB12.valid([0, 0, 1])


def test_multiplicative_example_modulus_17_both_ways():
    law = Law(MULTIPLICATIVE, 17)
    seq = [1, 2, 4, 8, 16, 15, 13, 9]
    assert law.valid(seq)  # forward factor 2
    assert law.valid(seq[::-1])  # backward factor 9 (2 x 9 = 18 = 1)
    assert law.valid_loop(seq)  # period 8: 9 x 2 = 18 = 1
    assert not law.valid([1, 2, 4, 9])
    assert not law.directed and law.lowest == 1


#: modlinseq-10-12.md: factor pairs (forward, backward) and their periods mod 17.
PAIRS_17 = [
    (1, 1, 1),
    (2, 9, 8),
    (3, 6, 16),
    (4, 13, 4),
    (5, 7, 16),
    (8, 15, 8),
    (10, 12, 16),
    (11, 14, 16),
    (16, 16, 2),
]


def test_multiplicative_factor_pairs_and_periods_mod_17():
    law = Law(MULTIPLICATIVE, 17)
    seen = set()
    for forward, backward, period in PAIRS_17:
        assert forward * backward % 17 == 1
        seq = [law.term(1, forward, p) for p in range(period)]
        assert len(set(seq)) == period and law.term(1, forward, period) == 1
        assert law.valid_loop(seq)
        assert law.valid(seq[::-1]) and law.valid_loop(seq[::-1])
        assert [law.term(1, backward, p) for p in range(period)] == [seq[0], *seq[:0:-1]]
        seen |= {forward, backward}
    assert seen == set(range(1, 17))  # every non-zero factor is in one pair


def test_multiplicative_composite_modulus_10_forward_only():
    law = Law(MULTIPLICATIVE, 10)
    for seq in ([9, 8, 6, 2, 4], [1, 2, 4, 8, 6, 2, 4]):
        assert law.valid(seq)  # forward factor 2
        assert not law.valid(seq[::-1])  # no backward factor
    assert law.directed and not law.local
    assert not law.valid([2, 3])  # no f with 2f = 3 (mod 10): two tiles can fail under §11


# -- plain re-statements: a sequence of a law is one the law's own recipe generates.


def ref_generated(kind: str, values: list[int], m: int) -> bool:
    """True when some start pair makes the law's recipe produce ``values`` (read in order)."""
    for a in range(m):
        for b in range(m):
            out = []
            if kind == LINEAR:
                out = [(a + i * b) % m for i in range(len(values))]
            elif kind == MULTIPLICATIVE:
                x = a
                for _ in values:
                    out.append(x)
                    x = x * b % m
            else:
                x, y = a, b
                for _ in values:
                    out.append(x)
                    x, y = y, (x + y) % m
            if out == list(values):
                return True
    return False


@settings(derandomize=True, max_examples=300, deadline=None)
@given(
    st.sampled_from([LINEAR, FIBONACCI, MULTIPLICATIVE]),
    st.sampled_from([5, 7, 10, 12, 13]),
    st.data(),
)
def test_law_valid_matches_the_generated_sequences(kind, m, data):
    law = Law(kind, m)
    # half the cases built by the recipe (so valid ones are common), half arbitrary
    n = data.draw(st.integers(1, 7))
    if data.draw(st.booleans()):
        a, b = data.draw(st.integers(law.lowest, m - 1)), data.draw(st.integers(0, m - 1))
        values = [law.term(a, b, p) for p in range(n)]
        if kind == MULTIPLICATIVE and 0 in values:
            values = [v or 1 for v in values]
    else:
        values = data.draw(st.lists(st.integers(law.lowest, m - 1), min_size=n, max_size=n))
    assert law.valid(values) == ref_generated(kind, values, m)
    assert law.valid_loop(values) == (
        len(values) >= 1 and ref_generated(kind, values * 3, m)  # a loop read round and round
    )
