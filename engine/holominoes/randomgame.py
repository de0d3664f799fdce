"""Seeded random legal games of Holominoes: test data, benchmark positions, demo transcripts.

The generator deals as the seed says (a start tile from the sack on 0,0, pools of three, a draw
at the start of each turn while the sack has tiles) and keeps the pools it dealt, so every play is
from the player's pool. A player lays the best-scoring tile of the pool half the time and a random
legal tile otherwise; with no legal placement, the player returns a random pool tile and passes.
"""

from __future__ import annotations

import random

from engine.games import RANDOM_PLAYERS
from engine.holominoes.game import Game, Settings
from engine.holominoes.geometry import NUMBERED, Cell
from engine.holominoes.tiles import Pass, Placement, Play, Tile, tile_set
from engine.limits import MAX_PLAYERS


def random_game(
    seed: int, players: int = 2, turns: int | None = None, digits: int = 6
) -> tuple[Game, list[list[Tile]]]:
    """A random legal game.

    Args:
        seed: the random seed (the same seed gives the same game).
        players: how many players (1..12).
        turns: stop after this many turns, None to play to the end.
        digits: the set's largest number.

    Returns:
        The game and every player's pool at the end, in turn order.

    Raises:
        ValueError: too many players for the set, or more than :data:`engine.limits.MAX_PLAYERS`.
    """
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be 1..{MAX_PLAYERS}, got {players!r}")
    rng = random.Random(seed)
    sack = list(tile_set(digits))
    rng.shuffle(sack)
    start = Placement(sack.pop(), Cell(0, 0), rng.choice(NUMBERED))
    game = Game(Settings(RANDOM_PLAYERS[:players], pool=3, digits=digits, start=start))
    pools = [[sack.pop() for _ in range(3)] for _ in range(players)]
    while not game.is_over and (turns is None or len(game.history) < turns):
        pool = pools[game.players.index(game.current_player)]
        if sack:
            pool.append(sack.pop(rng.randrange(len(sack))))
        options = game.legal_placements(pool)
        if not options:
            tile = pool.pop(rng.randrange(len(pool)))
            sack.append(tile)
            game.play(Pass(tile))
            continue
        if rng.random() < 0.5:
            scores = [game.evaluate(Play(p)).score for p in options]
            best = max(scores)
            options = [p for p, score in zip(options, scores, strict=True) if score == best]
        choice = rng.choice(options)
        pool.remove(choice.tile)
        game.play(Play(choice))
    return game, pools
