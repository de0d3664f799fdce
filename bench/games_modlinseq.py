"""MODLINSEQ's cases for the engine benchmark: one turn, every legal placement, one hint.

The position is a seeded random game of 30 turns on the order-9 board, modulus 13 (mid-game, about
70 tiles). ``cases(seed)`` gives the callables bench/bench_engine.py times; run this file for their
medians on its own: ``.venv/bin/python bench/games_modlinseq.py [--seed 1] [--repeat 20]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.hexgrid import Board
from engine.modlinseq_rules import RULES, random_game_text
from engine.randomgame import random_turn
from engine.settings import Settings
from engine.transcript import parse_transcript, replay

#: Turns played before the measured position.
MID_GAME_TURNS = 30


def cases(seed: int) -> dict[str, Callable[[], object]]:
    """The benchmark callables at a mid-game order-9 position of seed ``seed``.

    Returns:
        ``"turn"``: validate and score one legal turn; ``"legal"``: every empty cell's legal
        values (blocked cells included) from scratch; ``"hint"``: the five best turns for a rack of
        six tiles, the transcript read and replayed first.
    """
    settings = Settings(modulus=13, board=Board.hexagon(9), players=("A", "B"))
    text = random_game_text(settings, seed, turns=MID_GAME_TURNS)
    game, _ = replay(parse_transcript(text)[0])
    rng = random.Random(seed)
    turn = []
    while not turn:
        turn = random_turn(game, rng)
    rack = " ".join(str(rng.randrange(13)) for _ in range(6))
    state = game.state
    return {
        "turn": lambda: game.evaluate(turn),
        "legal": state.legal_values,
        "hint": lambda: RULES.hint(text, rack, 5),
    }


def main() -> None:
    """Print each case's median time in milliseconds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for name, fn in cases(args.seed).items():
        fn()
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        print(f"{name:6s} {statistics.median(times) * 1e3:9.3f} ms")


if __name__ == "__main__":
    main()
