"""Engine speed: validate + score a turn, and blocked cells + legal values for a whole board.

MODLINSEQ targets: <= 0.2 ms per turn on a mid-game order-9 board; <= 10 ms for the blocked cells
and the legal values of every empty cell of an order-18 board. Then, per game (bench/games_*.py,
each giving its mid-game cases "turn", "legal" and "hint"): validate and score a turn (<= 0.2 ms
for Yushino and Holominoes, <= 5 ms for Super Wild on its fullest tables), list every legal
placement, and a hint (<= 1 s a call).

Positions come from seeded random legal games (engine.randomgame), so every run measures the same
boards. Run: ``.venv/bin/python bench/bench_engine.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
from functools import partial

from bench_timing import calls_for, median_ms

from engine.game import Game
from engine.hexgrid import Board
from engine.position import Position
from engine.randomgame import random_game, random_turn
from engine.settings import Settings
from engine.tiles import Placement, Tile

TURN_TARGET_MS = 0.2
BOARD_TARGET_MS = 10.0
#: Per game: its bench module and its targets in ms for "turn" and "hint".
GAME_CASES = {
    "MODLINSEQ": ("games_modlinseq", {"turn": 0.2, "hint": 1000.0}),
    "Yushino": ("games_yushino", {"turn": 0.2, "hint": 1000.0}),
    "Super Wild": ("games_superwild", {"turn": 5.0, "hint": 1000.0}),
    "Holominoes": ("games_holominoes", {"turn": 0.2, "hint": 1000.0}),
}


def mid_game(order: int, turns: int, seed: int, modulus: int = 13) -> Game:
    """A seeded random game of ``turns`` turns on an order-``order`` board."""
    settings = Settings(modulus=modulus, board=Board.hexagon(order), players=("A", "B"))
    return random_game(settings, turns, seed)[0]


def bench_turns(game: Game, repeat: int) -> tuple[float, float, int]:
    """Median ms per evaluate() for 40 legal candidate turns and 40 illegal ones."""
    rng = random.Random(7)
    legal = [t for t in (random_turn(game, rng) for _ in range(40)) if t]
    illegal = []
    for turn in legal:  # same cells, one value changed: usually breaks a line
        last = turn[-1]
        value = ((last.tile.value or 0) + 1) % game.settings.modulus
        illegal.append([*turn[:-1], Placement(last.cell, Tile.natural(value))])

    def per_turn(turns: list[list[Placement]]) -> float:
        return statistics.median(median_ms(partial(game.evaluate, t), repeat) for t in turns)

    return per_turn(legal), per_turn(illegal), len(legal)


def bench_board(game: Game, repeat: int) -> float:
    """Median ms to compute, from scratch, the blocked cells and every empty cell's legal values."""
    state = game.state

    def both() -> None:
        state.with_blocked(None)
        state.legal_values()

    return median_ms(both, repeat)


def with_ambiguous_wilds(game: Game, count: int) -> Game:
    """The same position with ``count`` tiles made undeclared wild tiles under policy E.

    The tiles with the fewest neighbouring tiles are chosen, as their values are least settled.
    """
    position = game.position
    crowd = {c: sum(n in position for n in c.neighbours()) for c in position}
    cells = set(sorted(position, key=lambda c: (crowd[c], c))[:count])
    tiles = {c: (Tile.wild() if c in cells else t) for c, t in position.items()}
    settings = Settings(
        modulus=game.settings.modulus, board=game.settings.board, wild_policy="E", players=("A", "B")
    )
    return Game(settings, Position(tiles))


def bench_games(repeat: int) -> None:
    """Each game's "turn", "legal" and "hint" cases: the median ms and the ratio to its target."""
    for game, (module_name, targets) in GAME_CASES.items():
        cases = importlib.import_module(module_name).cases(seed=1)
        for case, fn in cases.items():
            runs = calls_for(case, repeat)
            ms = median_ms(fn, runs)
            target = targets.get(case)
            versus = f" (target {target} ms, {ms / target:.3f} of target)" if target else ""
            print(f"{game}: {case}: median {ms:.3f} ms over {runs} calls{versus}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="timed calls per measurement")
    args = parser.parse_args()

    g9 = mid_game(9, 45, seed=1)
    g18 = mid_game(18, 300, seed=2)
    for name, game in (("order 9", g9), ("order 18", g18)):
        empty = len(game.settings.board) - len(game.position)
        print(f"{name}: {len(game.position)} tiles, {empty} empty cells, {len(game.blocked_cells())} blocked")

    legal_ms, illegal_ms, n = bench_turns(g9, args.repeat)
    print(
        f"validate + score a turn, order 9 mid-game ({n} legal turns): median {legal_ms:.3f} ms "
        f"(target {TURN_TARGET_MS} ms, {legal_ms / TURN_TARGET_MS:.2f} of target); "
        f"illegal turns: median {illegal_ms:.3f} ms"
    )
    for name, game in (("order 9", g9), ("order 18", g18)):
        ms = bench_board(game, args.repeat)
        print(
            f"blocked cells + legal values, {name}: median {ms:.3f} ms "
            f"(target {BOARD_TARGET_MS} ms, {ms / BOARD_TARGET_MS:.3f} of target)"
        )
    wild = with_ambiguous_wilds(mid_game(9, 45, seed=1, modulus=12), 8)
    ambiguous = sum(1 for v in wild.wild_values().values() if len(v) > 1)
    ms = bench_board(wild, max(5, args.repeat // 5))
    print(
        f"blocked cells + legal values, order 9, modulus 12, 8 wild tiles ({ambiguous} ambiguous, "
        f"policy E): median {ms:.3f} ms"
    )
    legal_ms, _, n = bench_turns(wild, max(5, args.repeat // 5))
    print(f"validate + score a turn on that board ({n} turns): median {legal_ms:.3f} ms")
    bench_games(args.repeat)


if __name__ == "__main__":
    main()
