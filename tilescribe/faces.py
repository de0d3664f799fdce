"""From a read face to the engine's tile, under the table's tile set and modulus.

Faces are what the tile reader returns: ``"0".."19"``, ``"#"`` (wild), ``"marker"`` (the modulus
marker, §8) and ``"joker"`` (a Rummikub joker, played as a wild tile, §7-1). With the ``rummikub``
tile set (faces 1..13) the values wrap at the modulus (13 -> 0 under modulus 13).
"""

from __future__ import annotations

from engine.tiles import MARKER_FACE, WILD_FACE, Tile

#: Tile sets whose numbers wrap at the modulus (the face is read modulo m).
_WRAPPING_TILESETS = frozenset({"rummikub"})


class FaceMap:
    """Turns faces into tiles.

    Args:
        tileset: the tile-set profile's name (``"modlinseq"``, ``"rummikub"``).
        modulus: the game's modulus.
    """

    def __init__(self, tileset: str, modulus: int) -> None:
        self.tileset = tileset
        self.modulus = modulus

    def face_values(self) -> dict[str, int]:
        """Faces whose value is not the number printed (for the read pipeline): under a wrapping tile
        set, every number face at or above the modulus -> its value modulo the modulus."""
        if self.tileset not in _WRAPPING_TILESETS:
            return {}
        return {str(n): n % self.modulus for n in range(self.modulus, 20)}

    def tile(self, face: str, where: str) -> Tile:
        """The tile that ``face`` stands for.

        Args:
            face: the face as read.
            where: where it was read, for the error message (``"cell B3"``).

        Raises:
            ValueError: ``face`` is not a tile face; the message names it and ``where``.
        """
        if face in (WILD_FACE, "joker"):
            return Tile.wild()
        if face == MARKER_FACE:
            return Tile.marker()
        if not face.isdigit():
            raise ValueError(f"{where}: {face!r} is not a tile face (a number, '#', 'marker' or 'joker')")
        value = int(face)
        return Tile.natural(value % self.modulus if self.tileset in _WRAPPING_TILESETS else value)
