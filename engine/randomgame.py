"""Random legal games, seeded: test data, benchmark positions, demo transcripts.

Each turn starts on a random empty cell next to the tiles (A0 on the first turn), picks a random
line direction and grows a run of new tiles along it, choosing each value at random among those the
rules accept (engine.rules). Natural tiles only; a player with no legal start passes.
"""

from __future__ import annotations

import random

from engine.game import Game
from engine.grid import EMPTY, LINE_ORDER
from engine.hexgrid import LINE_DIRECTIONS, ORIGIN, Hex
from engine.rules import TurnResult
from engine.settings import Settings
from engine.tiles import Placement, Tile


def random_turn(game: Game, rng: random.Random, max_tiles: int = 4) -> list[Placement]:
    """A random legal turn for the current player (empty when none was found).

    Args:
        game: the game (not changed).
        rng: the random generator (seed it for repeatable games).
        max_tiles: the most tiles to install.
    """
    state = game.state
    board = game.settings.board
    if all(t.is_marker for t in game.position.tiles()) and ORIGIN not in game.position:
        starts = [ORIGIN]
    else:
        legal = game.legal_values()
        grid = state.grid
        starts = [
            c
            for c, vals in legal.items()
            if vals and any(state.values[j] != EMPTY for j in grid.neighbours[grid.index[c]])
        ]
        if not starts and ORIGIN in game.position and game.position[ORIGIN].is_marker:
            starts = [c for c in ORIGIN.neighbours() if c in board and c not in game.position]
    rng.shuffle(starts)
    for start in starts[:8]:
        turn = _grow(game, start, rng, max_tiles)
        if turn:
            return turn
    return []


def _grow(game: Game, start: Hex, rng: random.Random, max_tiles: int) -> list[Placement]:
    m = game.settings.modulus
    step = LINE_DIRECTIONS[rng.choice(LINE_ORDER)]
    if rng.random() < 0.5:
        step = step.scale(-1)
    target = rng.randint(1, max_tiles)
    turn: list[Placement] = []
    cell = start
    while len(turn) < target:
        while cell in game.position:
            cell = cell + step
        if cell not in game.settings.board:
            break
        values = list(range(m))
        rng.shuffle(values)
        for v in values:
            trial = [*turn, Placement(cell, Tile.natural(v))]
            if game.evaluate(trial).legal:
                turn = trial
                break
        else:
            break
        cell = cell + step
    return turn


def random_game(
    settings: Settings, turns: int, seed: int, max_tiles: int = 4
) -> tuple[Game, list[TurnResult]]:
    """Play ``turns`` random turns (passing when stuck) from the start of a game.

    Args:
        settings: the game's settings (natural tiles are used whatever the wild policy).
        turns: how many turns to take.
        seed: seed of the random generator.
        max_tiles: the most tiles per turn.

    Returns:
        The game and the results of the plays.
    """
    rng = random.Random(seed)
    game = Game(settings)
    results = []
    for _ in range(turns):
        placements = random_turn(game, rng, max_tiles)
        if placements:
            results.append(game.play(placements))
        else:
            game.pass_turn()
    return game, results
