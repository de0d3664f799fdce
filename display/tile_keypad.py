"""The keypad's faces for a tile tapped on a game's map, and the placement the players' picks make.

A tile of Yushino, Super Wild or Holominoes is corrected where the game's map (display.maps) shows
it: the keypad (display.keypad) offers the game's faces in groups, each group a row of its own, and
the picks make the true placement on the same place, in the game's notation (games.md) and the
transcript's frame, as the map is drawn. An empty place tapped takes a tile the camera does not
see the same way (:meth:`TilePick.on`):

- Yushino: ``0`` .. ``9`` and the blank ``#``; then ``#0`` .. ``#9``, a blank and the number it
  stands for (``#=7H9``);
- Super Wild: the numbers 1 .. 13 (the 6 and the 9 of a colour are one tile, ``6/9``) and the
  Super Wild ``W``; then the colours K, B, O, R (a number and a colour make a tile, ``R7``);
- Holominoes: the digits 1 .. [Digits], tapped in the order of the tile's numbered corners on the
  map: E, then SW, then NW (clockwise from the right); a fourth tap starts again at E. Three
  different digits make the tile (``142@1,0/E`` for 1, 4, 2).

A Holominoes pass names the pool tile it returns to the sack (``pass 456``): the same keypad
picks its three numbers, read clockwise from any one (:class:`ReturnPick`).

Picks are a tuple of strings, one per slot of the game (``""``: not picked yet).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from display.keypad import KeypadText
from engine.holominoes.geometry import NUMBERED, parse_cell
from engine.holominoes.tiles import clockwise_tile, corner_placement, format_placement
from engine.holominoes.tiles import format_tile as format_holomino
from engine.holominoes.tiles import parse_placement as parse_holomino
from engine.placement import place_of
from engine.superwild.tiles import (
    COLOURS,
    SIX_NINE,
    TOP,
    WILD,
    Move,
    Tile,
    format_move,
    format_tile,
    parse_move,
    parse_pos,
)
from engine.yushino.tiles import BLANK

Picks = tuple[str, ...]


class TileKeypad(Protocol):
    """One game's faces on the keypad and the placement its picks make."""

    @property
    def groups(self) -> tuple[tuple[str, ...], ...]:
        """The face keys in groups (each a row of its own on the keypad)."""
        ...

    def start(self) -> Picks:
        """The picks before any key is pressed."""
        ...

    def press(self, picks: Picks, group: int, face: str) -> Picks:
        """The picks after the face key ``face`` of ``group`` is pressed."""
        ...

    def words(self, picks: Picks) -> str:
        """The picks so far in words (``"R7"``, ``"R?"``, ``"E1 SW4 NW?"``)."""
        ...

    def lit(self, picks: Picks) -> frozenset[tuple[int, str]]:
        """The face keys the picks light, as (group, face)."""
        ...

    def place(self, shown: str) -> str:
        """Where the tile ``shown`` (a placement in the game's notation) lies: ``"H8"``, ``"3,0"``."""
        ...

    def face(self, shown: str) -> str:
        """What the map shows of the tile ``shown``, in words (``"7"``, ``"#7"``, ``"R7"``,
        ``"E1 SW3 NW2"``)."""
        ...

    def placement(self, place: str, picks: Picks) -> str | None:
        """The placement the picks make on ``place`` (``"H8"``, ``"3,0"``); None until they make a
        tile."""
        ...


@dataclass(frozen=True, slots=True)
class YushinoKeypad:
    """Yushino's faces: a digit, the blank, or a blank standing for a digit."""

    groups: tuple[tuple[str, ...], ...] = (
        tuple(str(d) for d in range(10)) + (BLANK,),
        tuple(f"{BLANK}{d}" for d in range(10)),
    )

    def start(self) -> Picks:
        return ("",)

    def press(self, picks: Picks, group: int, face: str) -> Picks:
        return (face,)

    def words(self, picks: Picks) -> str:
        return picks[0] or "?"

    def lit(self, picks: Picks) -> frozenset[tuple[int, str]]:
        return frozenset((n, f) for n, group in enumerate(self.groups) for f in group if f == picks[0])

    def place(self, shown: str) -> str:
        return place_of("Yushino", shown)

    def face(self, shown: str) -> str:
        return shown[: len(shown) - len(self.place(shown))].replace("=", "")

    def placement(self, place: str, picks: Picks) -> str | None:
        face = picks[0]
        if not face:
            return None
        return f"{BLANK}={face[1:]}{place}" if len(face) == 2 else f"{face}{place}"


#: Super Wild's numbers on the keypad: one key for a colour's 6/9 tile.
SIX_NINE_KEY = "/".join(map(str, SIX_NINE))


@dataclass(frozen=True, slots=True)
class SuperWildKeypad:
    """Super Wild's faces: a number (the 6/9 tile one key) and a colour, or the Super Wild."""

    groups: tuple[tuple[str, ...], ...] = (
        tuple(SIX_NINE_KEY if n == SIX_NINE[0] else str(n) for n in range(1, TOP + 1) if n != SIX_NINE[1])
        + ("W",),
        COLOURS,
    )

    def start(self) -> Picks:
        return ("", "")

    def press(self, picks: Picks, group: int, face: str) -> Picks:
        number, colour = picks
        if group == 0:
            return (face, "" if face == "W" else colour)
        return ("" if number == "W" else number, face)

    def words(self, picks: Picks) -> str:
        number, colour = picks
        if number == "W":
            return "W"
        return f"{colour or '?'}{number or '?'}" if number or colour else "?"

    def lit(self, picks: Picks) -> frozenset[tuple[int, str]]:
        return frozenset((n, f) for n, f in enumerate(picks) if f)

    def place(self, shown: str) -> str:
        return place_of("Super Wild", shown)

    def face(self, shown: str) -> str:
        return format_tile(parse_move(shown).tile)

    def placement(self, place: str, picks: Picks) -> str | None:
        number, colour = picks
        pos = parse_pos(place)
        if number == "W":
            return format_move(Move(WILD, pos))
        if not (number and colour):
            return None
        value = SIX_NINE[0] if number == SIX_NINE_KEY else int(number)
        return format_move(Move(Tile(colour, value), pos))


@dataclass(frozen=True, slots=True)
class HolominoesKeypad:
    """Holominoes' faces: the digits 1 .. ``digits``, picked corner by corner (E, SW, NW)."""

    digits: int = 6

    @property
    def groups(self) -> tuple[tuple[str, ...], ...]:
        return (tuple(str(d) for d in range(1, self.digits + 1)),)

    def start(self) -> Picks:
        return ("", "", "")

    def press(self, picks: Picks, group: int, face: str) -> Picks:
        if all(picks):
            picks = self.start()
        at = picks.index("")
        return picks[:at] + (face,) + picks[at + 1:]

    def words(self, picks: Picks) -> str:
        return " ".join(f"{corner}{p or '?'}" for corner, p in zip(NUMBERED, picks, strict=True))

    def lit(self, picks: Picks) -> frozenset[tuple[int, str]]:
        return frozenset((0, p) for p in picks if p)

    def place(self, shown: str) -> str:
        return place_of("Holominoes", shown)

    def face(self, shown: str) -> str:
        corners = parse_holomino(shown).corners
        return self.words(tuple(map(str, corners)))

    def placement(self, place: str, picks: Picks) -> str | None:
        if not all(picks) or len(set(picks)) < 3:
            return None
        e, sw, nw = (int(p) for p in picks)
        return format_placement(corner_placement(parse_cell(place), (e, sw, nw)))


@dataclass(frozen=True, slots=True)
class TilePick:
    """A tile picked on a game's map for a correction, or an empty place picked for a tile the
    camera does not see, and what is picked for it so far.

    Attributes:
        shown: the tile as the map shows it, a placement (``R1@3,0``); ``""`` on an empty place.
        place: where it lies (``"3,0"``).
        keypad: the game's faces.
        picks: the picks so far; None when Remove is picked (no tile there).
    """

    shown: str
    place: str
    keypad: TileKeypad
    picks: Picks | None

    @classmethod
    def of(cls, shown: str, keypad: TileKeypad) -> TilePick:
        """``shown`` picked, nothing chosen for it yet."""
        return cls(shown, keypad.place(shown), keypad, keypad.start())

    @classmethod
    def on(cls, place: str, keypad: TileKeypad) -> TilePick:
        """The empty ``place`` picked for a tile the camera does not see, nothing chosen yet."""
        return cls("", place, keypad, keypad.start())

    def pressed(self, group: int, face: str) -> TilePick:
        """The face key ``face`` of ``group`` pressed."""
        return replace(self, picks=self.keypad.press(self.picks or self.keypad.start(), group, face))

    def removed(self) -> TilePick:
        """Remove pressed: no tile there."""
        return replace(self, picks=None)

    @property
    def true(self) -> str | None:
        """The correction the picks make: the true placement, ``""`` for no tile, None until the
        picks make a tile."""
        return "" if self.picks is None else self.keypad.placement(self.place, self.picks)

    def text(self) -> KeypadText:
        """The keypad's words and lit keys."""
        picks = self.picks
        return KeypadText(
            title=f"Correct {self.place}" if self.shown else f"Add a tile on {self.place}",
            now=self.keypad.face(self.shown) if self.shown else "no tile read",
            chosen="no tile" if picks is None else self.keypad.words(picks),
            picked=frozenset() if picks is None else self.keypad.lit(picks),
            removing=picks is None,
            ready=self.true is not None,
        )


@dataclass(frozen=True, slots=True)
class ReturnPick:
    """The pool tile a Holominoes pass returns to the sack (games.md ``pass 456``), its numbers
    picked on the game's keypad as they read clockwise on the tile, from any one.

    Attributes:
        keypad: the game's faces.
        picks: the numbers picked so far.
    """

    keypad: HolominoesKeypad
    picks: Picks

    @classmethod
    def of(cls, keypad: HolominoesKeypad) -> ReturnPick:
        """Nothing picked yet."""
        return cls(keypad, keypad.start())

    def pressed(self, group: int, face: str) -> ReturnPick:
        """The face key ``face`` of ``group`` pressed."""
        return replace(self, picks=self.keypad.press(self.picks, group, face))

    @property
    def tile(self) -> str | None:
        """The tile picked, written from its smallest number (``"142"``); None until the picks are
        three different numbers."""
        if not all(self.picks) or len(set(self.picks)) < 3:
            return None
        a, b, c = (int(p) for p in self.picks)
        return format_holomino(clockwise_tile((a, b, c)))

    def text(self) -> KeypadText:
        """The keypad's words and lit keys."""
        return KeypadText(
            title="Pass: the tile returned",
            now="pass",
            chosen="pass " + (self.tile or "".join(p or "?" for p in self.picks)),
            picked=self.keypad.lit(self.picks),
            ready=self.tile is not None,
        )
