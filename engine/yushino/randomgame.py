"""Seeded random legal Yushino games (for tests, benchmarks and demos).

The bag holds the 96 tiles of §6, shuffled by the seed; racks are dealt and refilled from it. On
each turn the player lays one of their legal plays, picked at random; with none they exchange
(where §5 allows, a random part of the rack) or pass. Every turn goes through
:meth:`engine.yushino.game.Game.play`, so a generated game is legal by the engine's own checks.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.games import RANDOM_PLAYERS
from engine.record import score_comment
from engine.yushino.game import MAX_PLAYERS, Game, GameSettings
from engine.yushino.search import legal_plays
from engine.yushino.tiles import BLANK, DISTRIBUTION, EXCHANGE, PASS_TURN, RACK_SIZE, Turn, parse_tile
from engine.yushino.transcript import Transcript, TranscriptTurn, format_transcript


def random_game(seed: int, players: int = 2, turns: int | None = None) -> tuple[Game, Transcript]:
    """A seeded random legal game.

    Args:
        seed: the random seed (the same seed gives the same game).
        players: 2 to 4.
        turns: at most this many turns, None to play to the end.

    Returns:
        The game and its transcript (each play's comment ``+N``, its score; the ``Racks`` tag when
        the game ended).

    Raises:
        ValueError: players outside 2..4.
    """
    rng = random.Random(seed)
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"Yushino takes 2 to {MAX_PLAYERS} players, got {players}")
    game = Game(GameSettings(RANDOM_PLAYERS[:players]))
    bag = [face for face, n in sorted(DISTRIBUTION.items()) for _ in range(n)]
    rng.shuffle(bag)
    racks = {p: [bag.pop() for _ in range(RACK_SIZE)] for p in game.players}
    lines: list[TranscriptTurn] = []
    while not game.is_over and (turns is None or len(lines) < turns):
        player = game.current_player
        rack = racks[player]
        plays = legal_plays(
            game.position, Counter(rack), len(rack), game.settings.layout, game.settings.direction
        )
        if plays:
            turn = Turn.play(rng.choice(plays).placements)
        else:
            turn = Turn(EXCHANGE, count=rng.randint(1, len(rack))) if rack else PASS_TURN
            if not game.evaluate(turn).legal:
                turn = PASS_TURN
        result = game.play(turn)
        if turn.kind == EXCHANGE:
            rng.shuffle(rack)
            back = [rack.pop() for _ in range(turn.count)]
            rack.extend(bag.pop() for _ in range(turn.count))
            bag.extend(back)
            rng.shuffle(bag)
        for p in turn.placements:
            rack.remove(p.tile.face)
        while len(rack) < RACK_SIZE and bag and turn.placements:
            rack.append(bag.pop())
        comment = score_comment(result.score) if turn.placements else None
        lines.append(TranscriptTurn(len(lines) + 1, player, turn, comment))
    end_racks = None
    if game.is_over:
        end_racks = tuple(
            (p, tuple(parse_tile(f) for f in sorted(racks[p], key=_order))) for p in game.players
        )
    return game, Transcript(game.players, racks=end_racks, turns=tuple(lines))


def _order(face: str) -> int:
    return 10 if face == BLANK else int(face)


def random_transcript(seed: int, players: int = 2, turns: int | None = None) -> str:
    """The text of :func:`random_game`'s transcript."""
    return format_transcript(random_game(seed, players, turns)[1])
