"""Modular-linear sequences: the rule, the MSA notation, gap filling and points (§2).

A line of values v0, v1, ..., v(k-1) is modular-linear under modulus m when there is a step s with
v(i+1) - v(i) = s (mod m) for every i (§2-1, §2-4). The MSA notation (§2-4, tables 2B and 2C)
writes ``M{m}-S{S}-A{A}`` where S = min(s, m - s) (so that both reading directions agree) and
A = v mod gcd(S, m), with gcd(0, m) = m; the period is m / gcd(S, m).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd


def points(length: int) -> int:
    """Points of a sequence of ``length`` scoring tiles: (n-1)(n-2)/2, 0 below 3 (§2-3, table 2A)."""
    return (length - 1) * (length - 2) // 2 if length >= 3 else 0


def is_modular_linear(values: Sequence[int], modulus: int) -> bool:
    """True when ``values`` (in line order) form a modular-linear sequence (§2-2).

    Any one or two values are modular-linear.
    """
    if len(values) <= 2:
        return True
    step = (values[1] - values[0]) % modulus
    return all((b - a) % modulus == step for a, b in zip(values[1:], values[2:], strict=False))


@dataclass(frozen=True, slots=True, order=True)
class MSA:
    """The MSA description of a sequence (§2-4).

    Attributes:
        modulus: M, the modulus.
        step: S, the smaller of s and M - s for the sequence's step s (0 <= S <= M // 2).
        anchor: A, the values modulo gcd(S, M) (0 <= A < gcd(S, M)).

    Raises:
        ValueError: a field out of range.
    """

    modulus: int
    step: int
    anchor: int

    def __post_init__(self) -> None:
        if self.modulus < 1 or not 0 <= self.step <= self.modulus // 2:
            raise ValueError(f"MSA step must be 0..{self.modulus // 2} for modulus {self.modulus}: {self!r}")
        if not 0 <= self.anchor < gcd(self.step, self.modulus):
            raise ValueError(f"MSA anchor must be below gcd(S, M) = {gcd(self.step, self.modulus)}: {self!r}")

    @property
    def period(self) -> int:
        """How many terms before the values repeat: M / gcd(S, M) (§2-5)."""
        return self.modulus // gcd(self.step, self.modulus)

    def cycle(self) -> tuple[int, ...]:
        """One period of the sequence starting at the anchor, as tables 2B and 2C print it."""
        return tuple((self.anchor + i * self.step) % self.modulus for i in range(self.period))

    def __str__(self) -> str:
        return f"M{self.modulus}-S{self.step}-A{self.anchor}"


def msa_of(first: int, step: int, modulus: int) -> MSA:
    """The MSA of the sequence with first value ``first`` and step ``step`` (either direction)."""
    s = step % modulus
    s = min(s, modulus - s)
    return MSA(modulus, s, first % gcd(s, modulus))


def msa_of_values(values: Sequence[int], modulus: int) -> MSA:
    """The MSA of a modular-linear sequence of at least two values (§2-4).

    Raises:
        ValueError: fewer than two values, or the values are not modular-linear.
    """
    if len(values) < 2:
        raise ValueError(f"a sequence of {len(values)} value(s) has no definite step: {list(values)!r}")
    if not is_modular_linear(values, modulus):
        raise ValueError(f"{list(values)!r} is not modular-linear under modulus {modulus}")
    return msa_of(values[0], values[1] - values[0], modulus)


def all_sequences(modulus: int) -> list[MSA]:
    """Every distinct sequence under ``modulus``, as listed in tables 2B and 2C (§2-5).

    Sorted by step then anchor.
    """
    return [MSA(modulus, s, a) for s in range(modulus // 2 + 1) for a in range(gcd(s, modulus))]


def tilde(values: Sequence[int | None]) -> str:
    """The tilde notation ``4 ~ 6 ~ 1 ~ 3`` (§2-1); unknown (wild) values print as ``#``."""
    return " ~ ".join("#" if v is None else str(v) for v in values)


def count_gap_fillings(left: int, right: int, gap: int, modulus: int) -> int:
    """How many ways fill ``gap`` empty cells between values ``left`` and ``right`` (§2-6).

    With f = gcd(gap + 1, m) and d = right - left (mod m): f fillings when f divides d, else none.

    Raises:
        ValueError: a negative gap or a modulus below 1.
    """
    if gap < 0 or modulus < 1:
        raise ValueError(f"gap must be >= 0 and modulus >= 1, got gap {gap!r}, modulus {modulus!r}")
    f = gcd(gap + 1, modulus)
    return f if (right - left) % modulus % f == 0 else 0


def gap_fillings(left: int, right: int, gap: int, modulus: int) -> list[tuple[int, ...]]:
    """Every filling of ``gap`` empty cells between ``left`` and ``right`` (§2-6).

    Example: ``gap_fillings(7, 6, 2, 10) == [(0, 3)]`` (7 ~ 0 ~ 3 ~ 6).

    Returns:
        The fillings (values of the gap cells, left to right), sorted.

    Raises:
        ValueError: a negative gap or a modulus below 1.
    """
    if gap < 0 or modulus < 1:
        raise ValueError(f"gap must be >= 0 and modulus >= 1, got gap {gap!r}, modulus {modulus!r}")
    return sorted(
        tuple((left + i * d) % modulus for i in range(1, gap + 1))
        for d in range(modulus)
        if (left + (gap + 1) * d - right) % modulus == 0
    )
