"""Yushino behind the common interface of engine.games: replay, hint, random games.

``hint`` without a rack assumes the player may hold any tiles still unseen (the set of §6 less the
tiles on the board, up to the size of their rack): it lists what the board allows, not what a real
rack allows.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from engine.games import Hint, Replay
from engine.yushino.game import Game
from engine.yushino.randomgame import random_transcript
from engine.yushino.search import legal_plays
from engine.yushino.tiles import Turn, faces, format_turn, parse_rack
from engine.yushino.transcript import parse_transcript, replay

#: Longest time a hint may take, seconds (the brief's limit; bench/games_yushino.py measures it).
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


RULES = YushinoRules()
