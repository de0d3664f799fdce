"""Tile-set profiles: which faces a set of tiles has and what they are worth in a game.

A profile (a small TOML file) names the set's faces (as the tile reader reports them: "0".."19",
"#", "marker", "joker"), its ink colours, which faces are wild tiles (§7-1), whether numbers
wrap at the modulus (Rummikub under MODLINSEQ modulus 13: 13 -> 0) and how many tiles of each
face the set holds (for the engine's count check, §1-3). Built-in profiles live in
calibration/tilesets_data: "modlinseq" (ten each of 0..12, §1-3) and "rummikub" (1..13 in four
colours, eight of each number, two jokers). ``tilescribe tileset learn`` writes a profile of a
user's own set next to the glyph exemplars it learned (see ``exemplars``).

Profile format::

    name = "rummikub"
    description = "..."
    shape = "rectangle"            # or "pentagon"
    faces = ["1", ..., "13", "joker"]
    colours = ["black", "blue", "orange", "red"]
    wild_faces = ["joker"]
    wrap = true                    # numbers at or above the modulus count modulo it
    exemplars = ""                 # learned glyphs (.npz next to the profile), "" for none
    [counts]
    "1" = 8
    ...
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from calibration.files import InputFileError, inside, read_text
from engine.limits import MAX_TILES_PER_VALUE
from engine.tiles import Tile

#: Every face the tile reader can report (vision.reader.glyph_reader.FACES; repeated here because
#: calibration must not import vision).
READER_FACES: frozenset[str] = frozenset([str(v) for v in range(20)] + ["#", "marker", "joker"])

_SHAPES = ("pentagon", "rectangle")


class TileSetError(ValueError):
    """A bad or unknown tile-set profile, or a face the set does not have (names file and face)."""


@dataclass(frozen=True, slots=True)
class TileSet:
    """One tile-set profile.

    Attributes:
        name: short name ("rummikub").
        description: one line for people.
        shape: "pentagon" or "rectangle".
        faces: the faces printed on the set's tiles, in reading order.
        colours: ink colour names ("black", ...), empty when the set has one ink.
        wild_faces: faces that are wild tiles (§7-1).
        wrap: whether a number at or above the modulus counts modulo it (Rummikub 13 -> 0).
        counts: (face, tiles in the set) pairs.
        exemplars: path of learned glyph exemplars (.npz, see ``tilescribe tileset learn``), or None.

    Raises:
        ValueError: no faces, repeated or unknown faces, wild or counted faces not in ``faces``,
            a count outside 0..engine.limits.MAX_TILES_PER_VALUE, an unknown shape.
    """

    name: str
    description: str
    shape: str
    faces: tuple[str, ...]
    colours: tuple[str, ...]
    wild_faces: frozenset[str]
    wrap: bool
    counts: tuple[tuple[str, int], ...]
    exemplars: Path | None = None

    def __post_init__(self) -> None:
        if not self.name or not self.faces:
            raise ValueError(f"tile set {self.name!r}: a name and at least one face are needed")
        if len(set(self.faces)) != len(self.faces):
            raise ValueError(f"tile set {self.name!r}: repeated faces in {self.faces}")
        unknown = set(self.faces) - READER_FACES
        if unknown:
            raise ValueError(f"tile set {self.name!r}: unknown faces {sorted(unknown)}; "
                             f"faces are 0..19, '#', 'marker', 'joker'")
        if not self.wild_faces <= set(self.faces):
            raise ValueError(f"tile set {self.name!r}: wild faces {sorted(self.wild_faces)} not all in faces")
        for face, count in self.counts:
            if face not in self.faces or not 0 <= count <= MAX_TILES_PER_VALUE:
                raise ValueError(f"tile set {self.name!r}: bad count {count!r} for face {face!r}")
        if self.shape not in _SHAPES:
            raise ValueError(f"tile set {self.name!r}: shape must be one of {_SHAPES}, got {self.shape!r}")

    def value(self, face: str, modulus: int) -> int | None:
        """The value of ``face`` under ``modulus`` (§1-3), None for a wild tile (§7-1) or a number
        the modulus leaves out (e.g. 12 with modulus 12 in a set that does not wrap).

        The modulus marker (§8) counts as 0.

        Raises:
            TileSetError: for a face the set does not have, or a modulus below 1.
        """
        if modulus < 1:
            raise TileSetError(f"tile set {self.name!r}: modulus must be >= 1, got {modulus}")
        if face not in self.faces:
            raise TileSetError(f"tile set {self.name!r} has no face {face!r} "
                               f"(faces: {', '.join(self.faces)})")
        if face in self.wild_faces:
            return None
        if face == "marker":
            return 0
        number = int(face)
        if self.wrap:
            return number % modulus
        return number if number < modulus else None

    def face_values(self, modulus: int) -> dict[str, int | None]:
        """Every face's value under ``modulus`` (see :meth:`value`)."""
        return {face: self.value(face, modulus) for face in self.faces}

    def tile(self, face: str, modulus: int) -> Tile:
        """The engine's tile for a face read from this set.

        Raises:
            TileSetError: for a face the set does not have, or a number that has no value under
                the modulus.
        """
        if face in self.wild_faces:
            return Tile.wild()
        if face == "marker":
            return Tile.marker()
        value = self.value(face, modulus)
        if value is None:
            raise TileSetError(f"tile set {self.name!r}: face {face!r} has no value under modulus {modulus}")
        return Tile.natural(value)

    def count(self, face: str) -> int:
        """How many tiles of ``face`` the set holds (0 when the profile does not say)."""
        return dict(self.counts).get(face, 0)

    def tiles_per_value(self, modulus: int) -> dict[int, int]:
        """How many natural tiles of each value the set holds under ``modulus`` (§1-3 count check)."""
        out: dict[int, int] = {}
        for face, count in self.counts:
            value = None if face in self.wild_faces else self.value(face, modulus)
            if value is not None and face != "marker":
                out[value] = out.get(value, 0) + count
        return out


def builtin_tilesets() -> tuple[str, ...]:
    """Names of the shipped profiles."""
    folder = resources.files("calibration") / "tilesets_data"
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


def load_tileset(name_or_path: str | Path) -> TileSet:
    """A built-in profile by name ("modlinseq", "rummikub") or a profile file by path.

    Raises:
        TileSetError: unknown name, unreadable file, or a bad profile (names the file).
    """
    text_name = str(name_or_path)
    if text_name in builtin_tilesets():
        path = Path(str(resources.files("calibration") / "tilesets_data" / f"{text_name}.toml"))
    else:
        path = Path(name_or_path)
        if not path.is_file():
            raise TileSetError(f"unknown tile set {text_name!r}: not a built-in profile "
                               f"({', '.join(builtin_tilesets())}) nor a profile file")
    try:
        return parse_tileset(read_text(path), path)
    except InputFileError as exc:
        raise TileSetError(str(exc)) from exc


def parse_tileset(text: str, where: Path) -> TileSet:
    """Parse a profile's TOML text; ``where`` names the file in errors and anchors ``exemplars``.

    Raises:
        TileSetError: bad TOML, missing or mistyped keys, invalid contents, or exemplars named
            outside the profile's folder.
    """
    try:
        data = tomllib.loads(text)
        exemplars = str(data.get("exemplars", ""))
        return TileSet(
            name=str(data["name"]),
            description=str(data.get("description", "")),
            shape=str(data.get("shape", "rectangle")),
            faces=tuple(str(f) for f in data["faces"]),
            colours=tuple(str(c) for c in data.get("colours", [])),
            wild_faces=frozenset(str(f) for f in data.get("wild_faces", [])),
            wrap=bool(data.get("wrap", False)),
            counts=tuple((str(f), int(n)) for f, n in data.get("counts", {}).items()),
            exemplars=inside(where.parent, exemplars, f"{where}: exemplars") if exemplars else None,
        )
    except tomllib.TOMLDecodeError as exc:
        raise TileSetError(f"{where}: not valid TOML: {exc}") from exc
    except KeyError as exc:
        raise TileSetError(f"{where}: missing key {exc.args[0]!r}") from exc
    except InputFileError as exc:
        raise TileSetError(str(exc)) from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise TileSetError(f"{where}: {exc}") from exc


def format_tileset(tileset: TileSet) -> str:
    """The profile as TOML text (``parse_tileset`` reads it back; exemplars by file name)."""
    def strings(items: tuple[str, ...] | list[str]) -> str:
        return "[" + ", ".join(f'"{s}"' for s in items) + "]"

    lines = [
        f'name = "{tileset.name}"',
        f'description = "{tileset.description}"',
        f'shape = "{tileset.shape}"',
        f"faces = {strings(tileset.faces)}",
        f"colours = {strings(tileset.colours)}",
        f"wild_faces = {strings(sorted(tileset.wild_faces))}",
        f"wrap = {'true' if tileset.wrap else 'false'}",
        f'exemplars = "{tileset.exemplars.name if tileset.exemplars else ""}"',
        "",
        "[counts]",
        *(f'"{face}" = {count}' for face, count in tileset.counts),
    ]
    return "\n".join(lines) + "\n"
