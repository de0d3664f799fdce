"""The sizes the product supports: every number read from a transcript or a settings file that
sizes work (the board's order, the modulus, tiles per value, players) is checked against these
where it is parsed, so a hostile or mistyped number is a one-line error, never a hang.

Each limit says in one line why it is where it is.
"""

from __future__ import annotations

#: Board order (§1-2): order 30 is 2,791 cells, about 2 m across with 32 mm cells; a camera
#: cannot read a larger sheet, and table 1B stops far below.
MAX_ORDER = 30

#: Modulus (§1-3): a set of 100 values (1,000 tiles at ten each) is already more than a table holds;
#: the seeds use 7 to 18, the wild-tile solver's bit masks grow with it.
MAX_MODULUS = 100

#: Tiles of one value in a set (§1-3): the seeds' sets hold ten; 100 leaves room for merged sets.
MAX_TILES_PER_VALUE = 100

#: Players at one table: more than twelve cannot all reach one board (Holominoes allows twelve too).
MAX_PLAYERS = 12

#: Characters of one player's name: enough for any name, few enough for a score card on the kiosk.
MAX_NAME = 40

#: Digits of a number read as text: more cannot be below any limit here, and Python refuses to
#: convert very long digit strings (sys.get_int_max_str_digits) with an error of its own.
MAX_DIGITS = 6

#: Sextant numbers of an address on the largest board: ring k holds numbers up to k(k+1)/2 (§1-2).
MAX_ADDRESS_NUMBER = MAX_ORDER * (MAX_ORDER + 1) // 2


def parse_bounded_int(text: str, what: str, low: int, high: int) -> int:
    """A whole number written as text, checked against its range before any work is sized by it.

    Args:
        text: the number as written (surrounding spaces allowed, an optional sign).
        what: what the number is, for the message ("modulus", "board order").
        low, high: the inclusive range.

    Returns:
        The number.

    Raises:
        ValueError: not a whole number, or outside ``low..high``; the message quotes ``text`` and
            gives the range.
    """
    stripped = text.strip()
    digits = stripped.lstrip("+-")
    if not digits.isdecimal() or not digits.isascii() or len(stripped) - len(digits) > 1:
        raise ValueError(f"{what} {text!r} is not a whole number")
    if len(digits) > MAX_DIGITS or not low <= int(stripped) <= high:
        raise ValueError(f"{what} {text!r} is out of range: {low} to {high}")
    return int(stripped)
