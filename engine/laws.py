"""Sequence laws: what makes a line of tiles a legal sequence (§2-2, §10, §11, §12).

Three laws, chosen by ``Settings.sequence`` (``[Sequence "..."]`` in a transcript):

- ``"linear"`` (§2): the values form an arithmetic progression modulo m, v(i+1) - v(i) = s.
- ``"fibonacci"`` (§10, fibonacciësque): each term is the sum of the two before it modulo m,
  F(i+2) = F(i+1) + F(i). Any one or two values are a sequence (0 ~ 0 too, and 0 ~ 0 ~ 0). The law
  has a direction: the terms are read along the board's reading direction of the line (engine.grid:
  on a hex board left to right, upper right to lower left, lower right to upper left); the same tiles
  laid the other way are illegal.
- ``"multiplicative"`` (§11): each term is the one before it times a fixed factor f modulo m,
  v(i+1) = f v(i). Tiles bearing 0 are out of the set. With a prime modulus every value has an
  inverse, so a sequence read backwards is one too (with the inverse factor); a composite modulus
  (allowed only by ``Settings.composite``) can fit a forward factor and no backward one
  (9 ~ 8 ~ 6 ~ 2 ~ 4 mod 10), so the factor must work in the reading direction, as under §10.

A line that closes into a loop on a wrapping board (§12) is read once round and then on across the
seam: it is legal when the law carries over the seam (for §2: its length is a multiple of the
period m / gcd(s, m)).

Every law describes its sequences by a pair of parameters (a, b): §2 the first term and the step,
§10 the first two terms, §11 the first term and the factor. :meth:`Law.term` gives the value at a
position, :meth:`Law.pairs` the parameters that agree with some known values; the wild-tile solver
(engine.wilds) works with these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.errors import RULE_FIBONACCI, RULE_MODULAR_LINEAR, RULE_MULTIPLICATIVE
from engine.sequences import is_modular_linear

LINEAR, FIBONACCI, MULTIPLICATIVE = "linear", "fibonacci", "multiplicative"
SEQUENCE_KINDS = (LINEAR, FIBONACCI, MULTIPLICATIVE)

#: Per law: its rule id, and the adjective of a legal line.
_RULES = {
    LINEAR: (RULE_MODULAR_LINEAR, "modular-linear"),
    FIBONACCI: (RULE_FIBONACCI, "fibonacciësque"),
    MULTIPLICATIVE: (RULE_MULTIPLICATIVE, "multiplicative"),
}


def is_prime(n: int) -> bool:
    """True when ``n`` is a prime number."""
    return n >= 2 and all(n % p for p in range(2, int(n**0.5) + 1))


@dataclass(frozen=True, slots=True)
class Law:
    """The sequence law of a game (§2, §10, §11) under its modulus.

    Attributes:
        kind: "linear", "fibonacci" or "multiplicative".
        modulus: m.

    Raises:
        ValueError: an unknown kind or a modulus below 1.
    """

    kind: str
    modulus: int

    def __post_init__(self) -> None:
        if self.kind not in SEQUENCE_KINDS:
            raise ValueError(f"sequence must be one of {', '.join(SEQUENCE_KINDS)}, got {self.kind!r}")
        if not isinstance(self.modulus, int) or self.modulus < 1:
            raise ValueError(f"modulus must be a positive integer, got {self.modulus!r}")

    @property
    def directed(self) -> bool:
        """True when a line must be read in the board's reading direction (§10; §11 composite)."""
        return self.kind == FIBONACCI or (self.kind == MULTIPLICATIVE and not is_prime(self.modulus))

    @property
    def local(self) -> bool:
        """True when a line is legal exactly when every three consecutive tiles are (all but §11
        under a composite modulus, where one factor must fit the whole line)."""
        return self.kind != MULTIPLICATIVE or is_prime(self.modulus)

    @property
    def lowest(self) -> int:
        """The lowest tile value of the set: 1 under §11 (no tiles bearing 0), else 0."""
        return 1 if self.kind == MULTIPLICATIVE else 0

    @property
    def full_mask(self) -> int:
        """Bit mask of every tile value of the set."""
        return ((1 << self.modulus) - 1) & ~((1 << self.lowest) - 1)

    @property
    def rule(self) -> str:
        """The rule id a line breaking this law is reported with."""
        return _RULES[self.kind][0]

    @property
    def adjective(self) -> str:
        """``"modular-linear"``, ``"fibonacciësque"`` or ``"multiplicative"``."""
        return _RULES[self.kind][1]

    def valid(self, values: Sequence[int]) -> bool:
        """True when ``values``, in reading order, form a sequence of this law (an open line)."""
        m = self.modulus
        if self.kind == LINEAR:
            return is_modular_linear(values, m)
        if self.kind == FIBONACCI:
            return all((values[i] + values[i + 1] - values[i + 2]) % m == 0 for i in range(len(values) - 2))
        return _factor_fits(tuple(values), m)

    def valid_loop(self, values: Sequence[int]) -> bool:
        """True when ``values`` closed into a loop (the last tile followed by the first) obey the law
        across the seam too (§12)."""
        return self.valid((list(values) * 3)[: len(values) + 2])

    def term(self, a: int, b: int, p: int) -> int:
        """The value at position ``p`` >= 0 of the sequence with parameters (a, b)."""
        m = self.modulus
        if self.kind == LINEAR:
            return (a + p * b) % m
        if self.kind == MULTIPLICATIVE:
            return a * pow(b, p, m) % m
        x, y = _fibonacci_pair(p, m)
        return (a * x + b * y) % m

    def pairs(self, fixed: Sequence[tuple[int, int]], loop: int = 0) -> list[tuple[int, int]]:
        """Every parameter pair (a, b) whose sequence has value v at position p for each (p, v) of
        ``fixed``; with ``loop`` > 0 the sequence must also close into a loop of that many tiles.
        """
        m = self.modulus
        if self.kind == LINEAR and fixed:
            (p0, v0), rest = fixed[0], fixed[1:]
            candidates = [((v0 - p0 * d) % m, d) for d in range(m)]
            checks = list(rest)
        else:
            candidates = [(a, b) for a in range(m) for b in range(m)]
            checks = list(fixed)
        if loop:
            return [
                (a, b)
                for a, b in candidates
                if all(self.term(a, b, p) == v % m for p, v in checks)
                and self.term(a, b, loop) == self.term(a, b, 0)
                and self.term(a, b, loop + 1) == self.term(a, b, 1)
            ]
        return [(a, b) for a, b in candidates if all(self.term(a, b, p) == v % m for p, v in checks)]


@lru_cache(maxsize=4096)
def _fibonacci_pair(p: int, m: int) -> tuple[int, int]:
    """(x, y) with F(p) = x F(0) + y F(1) mod m (x = Fib(p-1), y = Fib(p), Fib(-1) = 1)."""
    x, y = 1, 0
    for _ in range(p):
        x, y = y, (x + y) % m
    return x, y


@lru_cache(maxsize=65536)
def _factor_fits(values: tuple[int, ...], m: int) -> bool:
    """True when one factor f gives v(i+1) = f v(i) mod m all along ``values`` (§11)."""
    if len(values) < 2:
        return True
    first, second = values[0], values[1]
    return any(
        all(f * u % m == w for u, w in zip(values, values[1:], strict=False))
        for f in range(m)
        if f * first % m == second
    )


@lru_cache(maxsize=64)
def law_of(kind: str, modulus: int) -> Law:
    """The (cached) law of ``kind`` under ``modulus``."""
    return Law(kind, modulus)
