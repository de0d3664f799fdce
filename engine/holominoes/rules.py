"""Holominoes behind the common games interface (engine.games.GameRules): replay, hint, random."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from engine.games import MAX_RACK, Hint, Replay
from engine.holominoes.game import Game
from engine.holominoes.randomgame import random_game
from engine.holominoes.table_turn import table_turn
from engine.holominoes.tiles import (
    Pass,
    Play,
    Tile,
    format_move,
    format_placement,
    parse_placement,
    parse_tile,
)
from engine.holominoes.transcript import replay, transcript_of


def parse_rack(text: str, game: Game) -> list[Tile]:
    """A rack such as ``"123 456"`` (spaces or commas) -> its tiles.

    Raises:
        ValueError: an unreadable tile, one outside the set or on the table, or more than
            :data:`engine.games.MAX_RACK` tiles (the message names the tile).
    """
    words = text.replace(",", " ").split()
    if len(words) > MAX_RACK:
        raise ValueError(f"rack of {len(words)} tiles (at most {MAX_RACK})")
    tiles = []
    for word in words:
        try:
            tile = parse_tile(word)
        except ValueError as exc:
            raise ValueError(f"rack: {exc}") from None
        if tile not in game.tiles:
            raise ValueError(f"rack: tile {word!r} is not in the 1..{game.settings.digits} set")
        if tile in game.position.tiles:
            raise ValueError(f"rack: tile {word!r} is already on the table")
        tiles.append(tile)
    return tiles


def best_moves(game: Game, tiles: list[Tile], top: int) -> list[Hint]:
    """The ``top`` best-scoring placements of ``tiles`` (ties in notation order); with none, the
    passes returning each tile."""
    hints = []
    for p in game.legal_placements(tiles):
        result = game.evaluate(Play(p))
        hints.append(
            Hint(format_move(result.move), result.score, {"holes": [h.to_json() for h in result.holes]})
        )
    if not hints:
        hints = [Hint(format_move(Pass(t)), 0, {"holes": []}) for t in tiles]
    hints.sort(key=lambda h: (-h.score, h.moves))
    return hints[: max(top, 0)]


@dataclass(frozen=True, slots=True)
class HolominoesRules:
    """Holominoes for ``tilescribe score``, ``tilescribe hint``, the benchmarks and the tests."""

    name: str = "Holominoes"

    def replay_text(self, text: str, folder: Path | None = None) -> Replay:
        """Read and replay a transcript (see engine.holominoes.transcript.replay); ``folder`` is
        not used: a Holominoes transcript names no files.

        Raises:
            ValueError: the tags cannot make a game.
        """
        return replay(text)[1]

    def hint(self, text: str, rack: str | None, top: int, folder: Path | None = None) -> list[Hint]:
        """The best placements for the player to move; without a rack, of every tile not on the
        table. Empty once the game is over (``folder`` is not used, as for :meth:`replay_text`).

        Raises:
            ValueError: an unreadable rack (see :func:`parse_rack`) or tags that make no game.
        """
        game = replay(text)[0]
        if game.is_over:
            return []
        tiles = game.remaining_tiles() if rack is None else parse_rack(rack, game)
        return best_moves(game, tiles, top)

    def random_transcript(self, seed: int, players: int = 2, turns: int | None = None) -> str:
        """A seeded random legal game as a transcript, each play's comment its score.

        Raises:
            ValueError: players outside 1..12.
        """
        game, _ = random_game(seed, players, turns)
        return transcript_of(game, (("Seed", str(seed)),))

    def table_turn(self, text: str, seen: Collection[str]) -> str:
        """The placement that leads from the table after ``text`` to the ``seen`` layout
        (``132@1,0/E``), ``""`` when nothing is new (engine.holominoes.table_turn;
        engine.games.TableRules).

        Raises:
            ValueError: an unreadable placement, several new tiles, two on one cell, or a new tile
                already placed elsewhere (what is seen on a placed tile's cell is that tile).
        """
        game = replay(text)[0]
        layout = []
        for word in seen:
            try:
                layout.append(parse_placement(word))
            except ValueError as exc:
                raise ValueError(f"seen tile {word!r}: {exc}") from None
        turn = table_turn(game, layout)
        return "" if turn is None else turn.text

    def layout(self, text: str) -> frozenset[str]:
        """The table after ``text``, the start tile included: ``132@1,0/E``."""
        game = replay(text)[0]
        return frozenset(format_placement(p) for p in game.position.placements)


RULES = HolominoesRules()
