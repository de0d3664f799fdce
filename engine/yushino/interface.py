"""Yushino behind the common interface of engine.games: replay, hint, random games.

``hint`` without a rack assumes the player may hold any tiles still unseen (the set of §6 less the
tiles on the board, up to the size of their rack): it lists what the board allows, not what a real
rack allows.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection
from pathlib import Path

from engine.games import Hint, Replay
from engine.yushino.board import Square, format_square, parse_square
from engine.yushino.game import Game
from engine.yushino.randomgame import random_transcript
from engine.yushino.search import legal_plays
from engine.yushino.tiles import (
    BLANK,
    Placement,
    Tile,
    Turn,
    faces,
    format_turn,
    parse_placement,
    parse_rack,
    parse_tile,
)
from engine.yushino.transcript import parse_transcript, replay

#: Longest time a hint may take, seconds (a player waits no longer; bench/games_yushino.py measures it).
HINT_LIMIT_S = 1.0


def replay_game(text: str, folder: Path | None = None) -> tuple[Game, Replay]:
    """Read and replay a transcript; the game after its last turn and the replay.

    Args:
        text: the transcript.
        folder: the transcript's folder, where a ``Layout`` file must lie (the current directory
            when None).

    Raises:
        TranscriptError: the header cannot make a game (players, direction), at the tag's line.
        LayoutError: the layout file is outside ``folder``, missing or bad (file and line named).
    """
    transcript, errors = parse_transcript(text)
    game, result = replay(transcript, folder or Path.cwd())
    return game, Replay(result.settings, result.turns, result.scores, (*errors, *result.errors), result.final)


class YushinoRules:
    """The :class:`engine.games.GameRules` of Yushino."""

    name = "Yushino"

    def replay_text(self, text: str, folder: Path | None = None) -> Replay:
        """Replay a transcript (see :func:`replay_game`).

        Raises:
            TranscriptError: the header cannot make a game.
            LayoutError: an unusable layout file.
        """
        return replay_game(text, folder)[1]

    def hint(self, text: str, rack: str | None, top: int, folder: Path | None = None) -> list[Hint]:
        """The ``top`` best plays for the player to move, best first; empty when no play is legal
        or the game is over (as for every game).

        Args:
            text: the transcript so far.
            rack: the player's tiles, ``"3 4 7 # 1 2 9"``; None: any unseen tiles (module docstring).
            top: how many plays at most.
            folder: the transcript's folder (for a layout file).

        Raises:
            ValueError: an unreadable rack, a rack larger than the player's or holding tiles the
                set has no more of.
        """
        game, _ = replay_game(text, folder)
        if game.is_over:
            return []
        size = game.rack_counts[game.current_player]
        if rack is None:
            tiles = game.unseen()
        else:
            tiles = faces(parse_rack(rack))
            if sum(tiles.values()) > size:
                raise ValueError(f"rack {rack!r} holds more than the {size} tiles {game.current_player} has")
            extra = tiles - game.unseen()
            if extra:
                raise ValueError(
                    f"rack {rack!r}: the set has no more {sorted(extra)[0]!r} tiles off the board"
                )
        plays = legal_plays(
            game.position, Counter(tiles), size, game.settings.layout, game.settings.direction
        )
        return [
            Hint(
                format_turn(Turn.play(p.placements)),
                p.score,
                {"sequences": [s.to_json() for s in p.sequences], "bonus": p.bonus},
            )
            for p in plays[: max(top, 0)]
        ]

    def random_transcript(self, seed: int, players: int = 2, turns: int | None = None) -> str:
        """A seeded random legal game (engine.yushino.randomgame)."""
        return random_transcript(seed, players, turns)

    def table_turn(self, text: str, seen: Collection[str]) -> str:
        """The play that leads from the board after ``text`` to the ``seen`` layout (``7H8``, a blank
        seen as ``#H9``), ``""`` when nothing is new (engine.games.TableRules).

        Tiles stay where they are laid (§2), so what the camera sees on a square the board already
        holds tells nothing new: a tile misread or missed there is the tile laid. The play is the
        tiles seen on the other squares. A new blank seen as ``#H9`` takes the number (0..9) under
        which the play is legal and scores most (the camera cannot see it; §6); with none legal, 0,
        and the replay names the rule broken. A blank given as ``#=7H9`` (the players' correction)
        keeps its number.

        Raises:
            ValueError: an unreadable placement, or two tiles seen on one square.
        """
        game, _ = replay_game(text)
        board = game.position.tiles
        squares: dict[Square, Tile] = {}
        for word in seen:
            square, tile = _seen_placement(word)
            if square in squares:
                raise ValueError(f"two tiles seen on {format_square(square)}")
            squares[square] = tile
        new = sorted((s for s in squares if s not in board), key=lambda s: (s.row, s.col))
        if not new:
            return ""
        blanks = [s for s in new if squares[s].value is None]  # blanks whose number is not given
        best: tuple[bool, int, Turn] | None = None
        for values in itertools.product(range(10), repeat=len(blanks)):
            chosen = dict(zip(blanks, values, strict=True))
            turn = Turn.play([
                Placement(s, Tile(chosen[s], True) if s in chosen else squares[s]) for s in new
            ])
            result = game.evaluate(turn)
            key = (result.legal, result.score if result.legal else 0, turn)
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None  # the product has at least the empty choice
        return format_turn(best[2])

    def layout(self, text: str) -> frozenset[str]:
        """The board after ``text`` as a reading writes it: ``7H8``, a blank as ``#H9``."""
        game, _ = replay_game(text)
        return frozenset(f"{t.face}{format_square(s)}" for s, t in game.position.tiles.items())


def _seen_placement(word: str) -> tuple[Square, Tile]:
    """A seen tile, ``7H8`` or ``#H9`` (a blank whose number the camera cannot see), or a blank with
    its number given (``#=7H9``: a correction by the players).

    Raises:
        ValueError: not a face 0..9 or ``#`` followed by a square (the message quotes it).
    """
    text = word.strip()
    if text.startswith("#="):
        placement = parse_placement(text)  # ValueError names the text
        return placement.square, placement.tile
    try:
        return parse_square(text[1:]), parse_tile(text[:1]) if text[:1] != BLANK else Tile(None, True)
    except ValueError as exc:
        raise ValueError(f"seen tile {word!r} is not a face and a square (7H8, #H9): {exc}") from None


RULES = YushinoRules()
