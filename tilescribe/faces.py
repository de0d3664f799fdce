"""From a read face to the engine's tile, under the table's tile-set profile and modulus.

Faces are what the tile reader returns: ``"0".."19"``, ``"#"`` (wild), ``"marker"`` (the modulus
marker, §8), ``"joker"``; the tile-set profile (calibration.tilesets: "modlinseq", "rummikub" or a
profile file) says which of them the set has, which are wild (§7-1) and whether numbers wrap at
the modulus (Rummikub 13 -> 0 under modulus 13).
"""

from __future__ import annotations

from calibration.tilesets import TileSetError, load_tileset
from engine.tiles import Tile


class FaceMap:
    """Turns faces into tiles.

    Args:
        tileset: a built-in profile's name (``"modlinseq"``, ``"rummikub"``) or a profile file.
        modulus: the game's modulus.

    Raises:
        calibration.tilesets.TileSetError: unknown profile or a bad profile file (a ValueError).
    """

    def __init__(self, tileset: str, modulus: int) -> None:
        self.tileset = load_tileset(tileset)
        self.modulus = modulus

    def face_values(self) -> dict[str, int | None]:
        """Every face's value under the modulus (the read pipeline's ``face_values``)."""
        return self.tileset.face_values(self.modulus)

    def tile(self, face: str, where: str) -> Tile:
        """The tile that ``face`` stands for.

        Args:
            face: the face as read.
            where: where it was read, for the error message (``"cell B3"``).

        Raises:
            ValueError: ``face`` is not a face of the set, or has no value under the modulus; the
                message names it and ``where``.
        """
        try:
            return self.tileset.tile(face, self.modulus)
        except TileSetError as exc:
            raise ValueError(f"{where}: {exc}") from None
