"""Random legal games, seeded: test data, benchmark positions, demo transcripts.

Each turn starts on a random empty cell next to the tiles (A0, or a rectangular board's centre, on
the first turn), picks a random line direction and way along it, and grows a run of new tiles
along it, choosing each value at random among those the rules accept (engine.rules), whatever the
sequence law (§2, §10, §11) and board (hex, rectangular, wrapping, §12). Natural tiles only; a
player with no legal start passes.
"""

from __future__ import annotations

import random

from engine.cells import Cell
from engine.game import Game
from engine.grid import EMPTY
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
    grid = state.grid
    centre = grid.centre
    position = game.position
    if (
        centre is not None
        and all(t.is_marker for t in position.tiles())
        and grid.cells[centre] not in position
    ):
        starts = [grid.cells[centre]]
    else:
        legal = game.legal_values()
        starts = [
            c
            for c, vals in legal.items()
            if vals and any(state.values[j] != EMPTY for j in grid.neighbours[grid.index[c]])
        ]
        if not starts and centre is not None and len(position) == 1:  # the marker alone (§8)
            starts = [grid.cells[j] for j in grid.neighbours[centre]]
    rng.shuffle(starts)
    for start in starts[:8]:
        turn = _grow(game, start, rng, max_tiles)
        if turn:
            return turn
    return []


def _grow(game: Game, start: Cell, rng: random.Random, max_tiles: int) -> list[Placement]:
    law = game.settings.law
    grid = game.state.grid
    k = rng.choice(grid.directions)
    table = grid.backward[k] if rng.random() < 0.5 else grid.forward[k]
    target = rng.randint(1, max_tiles)
    occupied = list(game.state.values)
    turn: list[Placement] = []
    i = grid.index[start]
    while len(turn) < target:
        first = i
        while i >= 0 and occupied[i] != EMPTY:
            i = table[i]
            if i == first:
                return turn
        if i < 0:
            break
        values = list(range(law.lowest, law.modulus))
        rng.shuffle(values)
        for v in values:
            trial = [*turn, Placement(grid.cells[i], Tile.natural(v))]
            if game.evaluate(trial).legal:
                turn = trial
                occupied[i] = v
                break
        else:
            break
        i = table[i]
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
